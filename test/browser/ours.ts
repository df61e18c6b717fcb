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
  /** Base time limit of a batch (default 800 ms), plus `perCaseMs` (default 5 ms) per case. */
  batchTimeoutMs?: number;
  perCaseMs?: number;
  /** Time limit for one case when a batch failed (default 400 ms; typical inputs parse in about a millisecond). */
  caseTimeoutMs?: number;
  /**
   * Added to both limits per million characters of input (default 3000 ms): a whole corpus page (0.9 MB) parses and
   * dumps in a fresh worker, before the optimizing compiler has run, in about a second.
   */
  msPerMillionChars?: number;
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

  /** A warm spare worker, so that replacing a hung worker does not wait for tsx and the parser to load. */
  private spare: Promise<Worker | string> | null = null;

  private spawn(): Promise<Worker | string> {
    const worker = new Worker(WORKER_URL, {
      workerData: { specs: this.opts.specs },
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb ?? 1536 },
      stdout: false,
      stderr: false,
    });
    let onMessage: (m: Reply) => void = () => {};
    let onError: (e: Error) => void = () => {};
    let onExit: (code: number) => void = () => {};
    return new Promise<Reply | Error>((resolve) => {
      onMessage = (m) => resolve(m);
      onError = (e) => resolve(e);
      onExit = (code) => resolve(new Error(`worker exited with code ${code}`));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    }).then(async (first) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (first instanceof Error || first.type !== 'ready') {
        await worker.terminate();
        return first instanceof Error ? String(first) : first.type === 'load-error' ? first.error : 'unexpected reply';
      }
      return worker;
    });
  }

  /** Starts a worker; resolves to null when the parser loaded, else to the reason it did not. */
  async start(): Promise<string | null> {
    const w = await (this.spare ?? this.spawn());
    this.spare = null;
    if (typeof w === 'string') return w;
    this.worker = w;
    this.spare = this.spawn();
    return null;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w !== null) await w.terminate();
    const spare = this.spare;
    this.spare = null;
    if (spare !== null) {
      const sw = await spare;
      if (typeof sw !== 'string') await sw.terminate();
    }
  }

  private async restart(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w !== null) void w.terminate();
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

  /** The time `cases` add to a limit for their size (`msPerMillionChars`). */
  private sizeAllowance(cases: readonly WorkerCase[]): number {
    let chars = 0;
    for (const c of cases) chars += c.input.length;
    return (chars / 1e6) * (this.opts.msPerMillionChars ?? 3000);
  }

  /**
   * Parses `cases`. The batch time limit is `batchTimeoutMs` plus `perCaseMs` per case and their size allowance.
   * With `stopAtFirstFailure`, once a case hangs or crashes the remaining ones are not parsed (their dump is
   * `#skipped`): the minimizer only needs the first failing candidate.
   */
  async parse(cases: WorkerCase[], options: { stopAtFirstFailure?: boolean } = {}): Promise<WorkerOutcome[]> {
    if (this.worker === null) await this.restart();
    const batchTimeout = (this.opts.batchTimeoutMs ?? 800) + (this.opts.perCaseMs ?? 5) * cases.length + this.sizeAllowance(cases);
    const r = await this.send(cases, batchTimeout);
    if (r !== 'hang' && r !== 'crash') return r;
    // Find the guilty case(s) one by one.
    await this.restart();
    const out: WorkerOutcome[] = [];
    let failed = false;
    for (const c of cases) {
      if (failed && options.stopAtFirstFailure) {
        out.push({ dump: '#skipped', mode: null });
        continue;
      }
      const one = await this.send([c], (this.opts.caseTimeoutMs ?? 400) + this.sizeAllowance([c]));
      if (one === 'hang' || one === 'crash') {
        failed = true;
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
