// Worker entry: registers tsx's loader in this thread, then runs the TypeScript worker (ours-worker.ts).
import { register } from 'tsx/esm/api';

register();
await import(new URL('./ours-worker.ts', import.meta.url).href);
