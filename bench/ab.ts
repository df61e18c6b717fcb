/**
 * `npm run bench:ab -- REV [MODE] [PROCESSES] [ROUNDS]`: is the working tree faster than revision REV?
 *
 * Changes worth a few percent are within the spread of one process's run: where V8 places the heap and which
 * optimizations it takes differ from process to process by about as much. So this builds two bundles of
 * `src/index.ts` (the working tree's, and REV's from `git archive`), runs PROCESSES fresh processes (8) that each
 * import both and time them in alternating rounds (ROUNDS measured after 8 warm-up rounds, 40 by default; the
 * order of the imports alternates between processes too), and reports the mean over processes of each process's
 * geometric-mean speed ratio (working tree / REV: above 1 is faster) with a 95% confidence interval (Student's t
 * over the process means), and the median of all rounds. An interval that contains 1 is no difference.
 *
 * MODE: `sanitize` (default: `sanitize()` on every page of ../shared/corpus/pages), `parse` (`parseDocument`), or
 * `small` (`sanitize()` on the pages' paragraphs of 80 to 1,000 characters, as `npm run bench` takes them).
 * Same-code check: `npm run bench:ab -- HEAD` with a clean tree should give an interval around 1.
 *
 * `npm run bench:ab -- REV MODE RUNS ROUNDS instructions` counts instead of timing: each of RUNS processes per
 * build runs that build alone under valgrind's callgrind, with V8's `--predictable` (one thread, no timers) and
 * `--max-semi-space-size=16`, 4 warm-up rounds then ROUNDS, less the count of one process of the warm-up rounds
 * alone, and prints each build's instructions per round and their ratio (REV / working tree: above 1 is fewer
 * instructions). So run, a count is exact (two processes of one build count the same instructions: one process per
 * build will do, and more only show the same figures); it does not see the machine's noise, nor the caches: it
 * weighs work, not time. Needs valgrind (`apt-get install -y valgrind`); processes run two at a time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { countInstructions, hasValgrind, inParallel } from './callgrind.js';
import { median, paragraphs, readCorpus } from './harness.js';

type Mode = 'sanitize' | 'parse' | 'small';
interface Library {
  sanitize(html: string): string;
  parseDocument(html: string): { childNodes: unknown[] };
}

const shared = process.env.HTMLSIFT_SHARED ?? resolve(process.cwd(), '..', 'shared');
const pagesDir = join(shared, 'corpus', 'pages');

/** The corpus pages, or for `small` their paragraphs of 80 to 1,000 characters (each 20 times, for longer rounds). */
function inputs(mode: Mode): string[] {
  const pages = readCorpus(pagesDir).map((p) => p.html);
  if (mode !== 'small') return pages;
  const snippets = paragraphs(pages);
  const out: string[] = [];
  for (let k = 0; k < 20; k++) out.push(...snippets);
  return out;
}

/** What MODE runs on one input, with a built library (a number, so that the work cannot be skipped). */
function workOf(lib: Library, mode: Mode): (s: string) => number {
  return mode === 'parse' ? (s) => lib.parseDocument(s).childNodes.length : (s) => lib.sanitize(s).length;
}

/** One process: `--child first second mode rounds`; prints the per-round time ratios first/second as JSON. */
async function child(first: string, second: string, mode: Mode, rounds: number): Promise<void> {
  const fa = workOf((await import(pathToFileURL(first).href)) as Library, mode);
  const fb = workOf((await import(pathToFileURL(second).href)) as Library, mode);
  const docs = inputs(mode);
  const warmup = 8;
  const ratios: number[] = [];
  let sink = 0;
  for (let r = 0; r < warmup + rounds; r++) {
    let ta = 0;
    let tb = 0;
    for (const which of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const f = which === 0 ? fa : fb;
      const t0 = performance.now();
      for (const d of docs) sink += f(d);
      const t = performance.now() - t0;
      if (which === 0) ta = t;
      else tb = t;
    }
    if (r >= warmup) ratios.push(ta / tb);
  }
  process.stdout.write(JSON.stringify({ ratios, sink }));
}

/** One counted process: `--count bundle mode rounds` (under callgrind); the count is of the whole process. */
async function count(file: string, mode: Mode, rounds: number): Promise<void> {
  const f = workOf((await import(pathToFileURL(file).href)) as Library, mode);
  const docs = inputs(mode);
  let sink = 0;
  for (let r = 0; r < 4 + rounds; r++) for (const d of docs) sink += f(d);
  process.stdout.write(String(sink));
}

/**
 * Counts each build: RUNS processes of 4 + ROUNDS rounds, and one of the 4 warm-up rounds alone (start-up,
 * compilation and warm-up, taken off), builds interleaved. Returns each build's instructions per measured round,
 * one figure per process.
 */
async function countBoth(self: string, old: string, cur: string, mode: Mode, runs: number, rounds: number): Promise<[number[], number[]]> {
  const jobs: [number, string, number][] = [[0, old, 0], [1, cur, 0]];
  for (let i = 0; i < runs; i++) jobs.push([0, old, rounds], [1, cur, rounds]);
  const counts = await Promise.all(inParallel(jobs.map(([, file, r]) => () => countInstructions(self, ['--count', file, mode, String(r)]))));
  const perRound = (which: number): number[] => {
    const base = counts[jobs.findIndex(([w, , r]) => w === which && r === 0)]!;
    return counts.filter((_, k) => jobs[k]![0] === which && jobs[k]![2] !== 0).map((n) => (n - base) / rounds);
  };
  return [perRound(0), perRound(1)];
}

/** Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (more processes take the last). */
const T95 = [12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

async function bundle(entry: string, outfile: string): Promise<void> {
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', minifySyntax: true, outfile, logLevel: 'warning' });
}

async function main(): Promise<void> {
  const [rev, modeArg = 'sanitize', processesArg = '8', roundsArg = '40', method = 'time'] = process.argv.slice(2);
  if (rev === undefined) {
    console.error('usage: npm run bench:ab -- REV [sanitize|parse|small] [PROCESSES] [ROUNDS] [time|instructions]');
    process.exit(2);
  }
  if (method !== 'time' && method !== 'instructions') {
    console.error(`bench:ab: METHOD must be time or instructions, got ${JSON.stringify(method)}`);
    process.exit(2);
  }
  if (modeArg !== 'sanitize' && modeArg !== 'parse' && modeArg !== 'small') {
    console.error(`bench:ab: MODE must be sanitize, parse or small, got ${JSON.stringify(modeArg)}`);
    process.exit(2);
  }
  const processes = Number(processesArg);
  const rounds = Number(roundsArg);
  if (!Number.isInteger(processes) || processes < (method === 'instructions' ? 1 : 2) || !Number.isInteger(rounds) || rounds < 1) {
    console.error('bench:ab: PROCESSES must be an integer of at least 2 (1 for instructions), ROUNDS a positive integer');
    process.exit(2);
  }
  if (!existsSync(pagesDir)) {
    console.log(`bench:ab skipped: ${pagesDir} not found (put shared/ beside the checkout or set HTMLSIFT_SHARED).`);
    return;
  }
  if (method === 'instructions' && !hasValgrind()) {
    console.log('bench:ab skipped: counting instructions needs valgrind (apt-get install -y valgrind).');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'htmlsift-ab-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  // REV's sources (they import nothing outside src/) and its tsconfig.json (esbuild reads its class field
  // settings: without it, `declare`d fields become real ones and the bundle is much slower), and both bundles.
  let archive: Buffer;
  try {
    archive = execFileSync('git', ['archive', '--format=tar', rev, 'src', 'tsconfig.json'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const why = (e as { stderr?: Buffer }).stderr?.toString().trim() || String(e);
    console.error(`bench:ab: cannot read src/ and tsconfig.json at ${JSON.stringify(rev)}: ${why}`);
    process.exit(2);
  }
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const old = join(dir, 'old.mjs');
  const cur = join(dir, 'new.mjs');
  await bundle(join(dir, 'src', 'index.ts'), old);
  await bundle(resolve('src', 'index.ts'), cur);
  const commit = execFileSync('git', ['rev-parse', '--short', rev], { encoding: 'utf8' }).trim();
  const self = process.argv[1]!;
  if (method === 'instructions') {
    console.log(`bench:ab: working tree against ${rev} (${commit}), ${modeArg}, instructions per round: ${processes} process(es) of 4 + ${rounds} rounds per build, less one of the 4 warm-up rounds; node ${process.version}`);
    const [a, b] = await countBoth(self, old, cur, modeArg, processes, rounds);
    const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    const m = (x: number): string => (x / 1e6).toFixed(1) + 'M';
    console.log(`  ${commit}: ${a.map(m).join(', ')} a round`);
    console.log(`  working tree: ${b.map(m).join(', ')} a round`);
    console.log(`  ${commit} / working tree: ${(mean(a) / mean(b)).toFixed(4)}x the instructions a round (${m(mean(a) - mean(b))} fewer)`);
    return;
  }
  console.log(`bench:ab: working tree against ${rev} (${commit}), ${modeArg}, ${processes} processes × ${rounds} rounds; node ${process.version}`);
  const means: number[] = [];
  const all: number[] = [];
  for (let i = 0; i < processes; i++) {
    // Odd processes import the working tree's bundle first.
    const [first, second] = i % 2 === 0 ? [old, cur] : [cur, old];
    const r = spawnSync(process.execPath, [self, '--child', first, second, modeArg, String(rounds)], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) {
      console.error(`bench:ab: process ${i} failed (${r.status ?? r.signal}): ${r.stderr.split('\n').find((l) => /Error/.test(l)) ?? r.stderr.slice(0, 200)}`);
      process.exit(1);
    }
    const { ratios } = JSON.parse(r.stdout) as { ratios: number[] };
    // Speed of the working tree over REV's: time(REV) / time(working tree).
    const logs = ratios.map((x) => (i % 2 === 0 ? Math.log(x) : -Math.log(x)));
    const m = logs.reduce((s, x) => s + x, 0) / logs.length;
    means.push(m);
    all.push(...logs);
    console.log(`  process ${i + 1}: ${Math.exp(m).toFixed(4)} (rounds ${Math.exp(Math.min(...logs)).toFixed(3)}–${Math.exp(Math.max(...logs)).toFixed(3)})`);
  }
  const mean = means.reduce((s, x) => s + x, 0) / means.length;
  const sd = Math.sqrt(means.reduce((s, x) => s + (x - mean) ** 2, 0) / (means.length - 1));
  const half = T95[Math.min(means.length - 2, T95.length - 1)]! * (sd / Math.sqrt(means.length));
  console.log(
    `  working tree / ${commit}: ${Math.exp(mean).toFixed(4)}x the speed (95% interval ${Math.exp(mean - half).toFixed(4)}–${Math.exp(mean + half).toFixed(4)}); ` +
      `median of all ${all.length} rounds ${Math.exp(median(all)).toFixed(4)}`,
  );
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') await child(argv[1]!, argv[2]!, argv[3] as Mode, Number(argv[4]));
else if (argv[0] === '--count') await count(argv[1]!, argv[2] as Mode, Number(argv[3]));
else await main();
