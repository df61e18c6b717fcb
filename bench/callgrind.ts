/**
 * Counting instructions instead of timing (`bench:ab ... instructions`, `SCALING_METHOD=instructions`): a Node
 * process run under valgrind's callgrind with V8's `--predictable` (one thread, no timers: the collector and the
 * compilers do the same work every time, on the main thread, where they are counted) and
 * `--max-semi-space-size=16`. Needs valgrind (`apt-get install -y valgrind`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Whether valgrind (and, with `annotate`, its callgrind_annotate) can be run here. */
export function hasValgrind(annotate = false): boolean {
  if (spawnSync('valgrind', ['--version']).status !== 0) return false;
  return !annotate || spawnSync('callgrind_annotate', ['--version']).error === undefined;
}

/**
 * The instructions of one process, `node script ...args` under callgrind, or an error naming what failed. With
 * `outFile`, callgrind writes its profile there (per function: see callgrind_annotate); the process is killed after
 * `timeoutMs`, if given.
 */
export function countInstructions(script: string, args: string[], options: { outFile?: string; timeoutMs?: number } = {}): Promise<number> {
  const argv = ['--tool=callgrind', `--callgrind-out-file=${options.outFile ?? '/dev/null'}`, process.execPath, '--predictable', '--max-semi-space-size=16', script, ...args];
  return new Promise((done, fail) => {
    const p = spawn('valgrind', argv, { stdio: ['ignore', 'ignore', 'pipe'], timeout: options.timeoutMs });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', fail);
    p.on('close', (code, signal) => {
      const m = /Collected : (\d+)/.exec(err);
      if (code === 0 && m !== null) done(Number(m[1]));
      else if (signal !== null) fail(new Error(`callgrind killed (${signal})${options.timeoutMs === undefined ? '' : `: over ${options.timeoutMs / 1000} s`}`));
      else fail(new Error(`callgrind exited with ${code}: ${err.split('\n').find((l) => /Error/.test(l)) ?? err.slice(-200)}`));
    });
  });
}

/**
 * Starts the tasks in order, `availableParallelism()` at a time (a counted process is one thread), and returns their
 * promises in the same order. None rejects unseen: each is also caught here, so a caller may await them one by one.
 */
export function inParallel<T>(tasks: (() => Promise<T>)[]): Promise<T>[] {
  let free = Math.max(1, availableParallelism());
  const waiting: (() => void)[] = [];
  const results = tasks.map(async (task) => {
    if (free === 0) await new Promise<void>((go) => waiting.push(go));
    else free--;
    try {
      return await task();
    } finally {
      const go = waiting.shift();
      if (go !== undefined) go();
      else free++;
    }
  });
  for (const r of results) r.catch(() => undefined);
  return results;
}
