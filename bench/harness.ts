/**
 * A small benchmark harness: contenders run in one process, in alternating rounds, over the same inputs,
 * and the report gives each contender's median throughput and its ratio to a baseline.
 *
 * Alternating the order every round (A B C, then C B A, ...) spreads warm-up, GC pressure and thermal drift
 * evenly across contenders, so ratios measured in one run are comparable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Contender {
  name: string;
  /** Processes one input; the return value is kept alive briefly so the work cannot be optimized away. */
  run: (input: string) => unknown;
}

export interface Result {
  name: string;
  mbPerSecond: number;
  samples: number[];
}

let sink: unknown;

/**
 * Steady state by default: no forced collection between passes. A forced full GC (`global.gc()`) puts V8 in
 * its memory-reducing mode: the young generation shrinks to its minimum and allocation-site pretenuring
 * feedback is reset, so the next pass runs in a heap that no long-running process has. Every allocating
 * contender then runs 2-3x slower than it does in a server, and ratios shrink towards 1. Alternating the order
 * each round spreads the cost of collecting the previous contender's garbage evenly. BENCH_FORCE_GC=1 restores
 * a forced collection before every pass.
 */
const forceGcBetweenPasses = process.env.BENCH_FORCE_GC === '1';

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) g();
}

/** Time (ms) to run `c` once over all inputs. */
function pass(c: Contender, inputs: string[]): number {
  const t0 = performance.now();
  for (const input of inputs) sink = c.run(input);
  return performance.now() - t0;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function runRounds(contenders: Contender[], inputs: string[], opts: { rounds: number; warmup: number }): Result[] {
  const bytes = inputs.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 0);
  for (let w = 0; w < opts.warmup; w++) for (const c of contenders) pass(c, inputs);
  const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < opts.rounds; r++) {
    const order = r % 2 === 0 ? contenders : [...contenders].reverse();
    for (const c of order) {
      if (forceGcBetweenPasses) gc();
      const ms = pass(c, inputs);
      samples.get(c.name)!.push(bytes / 1e6 / (ms / 1000));
    }
  }
  void sink;
  return contenders.map((c) => ({ name: c.name, mbPerSecond: median(samples.get(c.name)!), samples: samples.get(c.name)! }));
}

export function report(title: string, results: Result[], baseline: string): void {
  const base = results.find((r) => r.name === baseline);
  console.log(`\n${title}`);
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) {
    const ratio = base ? `  ${(r.mbPerSecond / base.mbPerSecond).toFixed(2)}x ${baseline}` : '';
    console.log(`  ${r.name.padEnd(width)}  ${r.mbPerSecond.toFixed(1).padStart(7)} MB/s${ratio}`);
  }
}

/** Reads every `.html` file of a folder, sorted by name. */
export function readCorpus(dir: string): { name: string; html: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => ({ name: f, html: readFileSync(join(dir, f), 'utf8') }));
}

/**
 * The pages' own paragraphs (`<p>…</p>` or `<p …>…</p>`, 80 to 1,000 characters, up to 100 a page): the small
 * inputs a server sanitizing comments sees.
 */
export function paragraphs(pages: readonly string[]): string[] {
  const out: string[] = [];
  for (const html of pages) {
    let taken = 0;
    for (let at = html.indexOf('<p'); at >= 0 && taken < 100; at = html.indexOf('<p', at + 2)) {
      const end = html.indexOf('</p>', at);
      if (end < 0) break;
      const len = end + 4 - at;
      if (len >= 80 && len <= 1000 && (html.charCodeAt(at + 2) === 0x3e || html.charCodeAt(at + 2) === 0x20)) {
        out.push(html.slice(at, end + 4));
        taken++;
      }
    }
  }
  return out;
}
