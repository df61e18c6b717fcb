import { readFileSync } from 'node:fs';
import { sanitize } from './src/sanitize.js';
import { paste } from './policies/paste.js';
for (const f of process.argv.slice(2)) {
  const out = sanitize(readFileSync(f, 'utf8'), { policy: paste });
  console.log(out.slice(0, 3000));
}
