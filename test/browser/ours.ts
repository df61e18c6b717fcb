/**
 * Host side of ours-worker.ts: parses batches with our parser in a worker thread, with a time limit and a heap
 * limit. A batch that times out or crashes the worker is re-run case by case (each in a fresh worker when needed),
 * and the guilty cases get a `#hang` / `#crash` dump, which then shows up as a difference.
 */
import { Worker } from 'node:worker_threads';
import type { WorkerCase, WorkerOutcome } from './ours-worker.js';

export type { WorkerCase, WorkerOutcome };

const WORKER_URL = new URL('./ours-worker-boot.mjs', import.meta.url);

export interface OursHostOptions {
  /** Module specifiers tried in order (relative to ours-worker.ts, or absolute paths). */
  specs: string[];
  batchTimeoutMs?: number;
  caseTimeoutMs?: number;
  heapMb?: number;
}

type Reply = { type: 'ready' } | { type: 'load-error'; error: string } | { type: 'result'; id: number; results: WorkerOutcome[] };

export class OursHost {
  private worker: Worker | null = null;
  private nextId = 1;
  /** Cases that hung or crashed so far (for the summary). */
  hangs = 0;
  crashes = 0;

  constructor(private readonly opts: OursHostOptions) {}

  /** Starts a worker; resolves to null when the parser loaded, else to the reason it did not. */
  async start(): Promise<string | null> {
    const worker = new Worker(WORKER_URL, {
      workerData: { specs: this.opts.specs },
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb ?? 1536 },
      stdout: false,
      stderr: false,
    });
    let onMessage: (m: Reply) => void = () => {};
    let onError: (e: Error) => void = () => {};
    let onExit: (code: number) => void = () => {};
    const first = await new Promise<Reply | Error>((resolve) => {
      onMessage = (m) => resolve(m);
      onError = (e) => resolve(e);
      onExit = (code) => resolve(new Error(`worker exited with code ${code}`));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    if (first instanceof Error || first.type !== 'ready') {
      await worker.terminate();
      return first instanceof Error ? String(first) : first.type === 'load-error' ? first.error : 'unexpected reply';
    }
    this.worker = worker;
    return null;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w !== null) await w.terminate();
  }

  private async restart(): Promise<void> {
    await this.close();
    const why = await this.start();
    if (why !== null) throw new Error('could not restart the parser worker: ' + why);
  }

  /** One round trip; 'hang' or 'crash' when the worker did not answer in time or died. */
  private send(cases: WorkerCase[], timeoutMs: number): Promise<WorkerOutcome[] | 'hang' | 'crash'> {
    const worker = this.worker!;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const done = (r: WorkerOutcome[] | 'hang' | 'crash'): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onFail);
        worker.off('exit', onFail);
        resolve(r);
      };
      const onMessage = (m: Reply): void => {
        if (m.type === 'result' && m.id === id) done(m.results);
      };
      const onFail = (): void => done('crash');
      const timer = setTimeout(() => done('hang'), timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onFail);
      worker.on('exit', onFail);
      worker.postMessage({ id, cases });
    });
  }

  async parse(cases: WorkerCase[]): Promise<WorkerOutcome[]> {
    if (this.worker === null) await this.restart();
    const batchTimeout = this.opts.batchTimeoutMs ?? 20_000;
    const r = await this.send(cases, batchTimeout);
    if (r !== 'hang' && r !== 'crash') return r;
    // Find the guilty case(s) one by one.
    await this.restart();
    const out: WorkerOutcome[] = [];
    for (const c of cases) {
      const one = await this.send([c], this.opts.caseTimeoutMs ?? 3_000);
      if (one === 'hang' || one === 'crash') {
        if (one === 'hang') this.hangs++;
        else this.crashes++;
        out.push({ dump: one === 'hang' ? '#hang (no result within the time limit)' : '#crash (worker died: out of memory?)', mode: null });
        await this.restart();
      } else {
        out.push(one[0]!);
      }
    }
    return out;
  }
}
