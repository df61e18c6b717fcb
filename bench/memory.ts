/**
 * `npm run bench:memory`: peak memory of parsing one big page (corpus/pages/huge-page.html, 0.9 MB), htmlsift's
 * parseDocument against parse5.parse.
 *
 * Every measurement is a fresh Node process (a tiny child script), so nothing one run allocates is seen by the
 * next. A child reads the file, imports the library (htmlsift: the package as published, `scripts/build.ts`,
 * installed in a temporary `node_modules` and imported by its name, as an application imports it; parse5: from
 * node_modules), optionally parses once, and reports its peak
 * RSS (VmHWM from /proc/self/status, else `process.resourceUsage().maxRSS`). The baseline child does the same
 * minus the parse, so "peak RSS delta" = what the parse added to the process's high-water mark. Children also
 * report the heap still held by the finished tree after a full GC (retained size), and how much the V8 heap's
 * physical memory grew over the parse (young generation; other spaces), which splits the delta three ways: young
 * generation, other V8 spaces, and outside the V8 heap (the optimizing compiler's zones, thread stacks, malloc).
 *
 * A bare Node process (reading no page, importing no library) is measured too, for the issue's own figure: the
 * parse's peak over a bare process, which also counts reading the page and importing the library. So is a process
 * that reads the page and imports nothing: the baseline's peak over it is what importing the library costs (with
 * the import's time), which is all a process sanitizing small inputs holds beyond its own.
 *
 * Children run in alternating order (bare, then each library's baseline and parse, then reversed), RUNS times each
 * (default 9); the report gives medians, min–max, and the ratios htmlsift / parse5 of both figures (target: ≤ 0.5).
 *
 * Options (environment): MEMORY_RUNS (default 9), MEMORY_FILE (default huge-page.html), MEMORY_NODE_FLAGS (extra
 * flags for the children, e.g. --max-semi-space-size=1), HTMLSIFT_SHARED.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './harness.js';
import { installPackage } from '../scripts/build.js';

const shared = process.env.HTMLSIFT_SHARED ?? resolve(process.cwd(), '..', 'shared');
const file = join(shared, 'corpus', 'pages', process.env.MEMORY_FILE ?? 'huge-page.html');
if (!existsSync(file)) {
  console.log(`bench:memory skipped: ${file} not found (put shared/ beside the checkout or set HTMLSIFT_SHARED).`);
  process.exit(0);
}
const runs = Number(process.env.MEMORY_RUNS ?? 9);
// Extra V8/Node flags for the children, e.g. MEMORY_NODE_FLAGS=--max-semi-space-size=1 to shrink the young
// generation (which otherwise sets a floor of tens of MB under any allocation-heavy parse).
const nodeFlags = (process.env.MEMORY_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

// htmlsift as an application gets it: the package installed in a temporary directory (see installPackage), where the
// child runs and imports it by name (for Node, the bundled ESM of the package's `node` condition).
const outDir = mkdtempSync(join(tmpdir(), 'htmlsift-memory-'));
process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
await installPackage(outDir, { declarations: false, esmOnly: true });
const childFile = join(outDir, 'memory-child.mjs');
// parse5 from the repository's node_modules (the child runs elsewhere).
const parse5Url = import.meta.resolve('parse5');

// The child: argv = [library, mode, file]; library ∈ htmlsift|parse5, mode ∈ baseline|parse; or library bare (a
// Node process that reads no page and imports no library).
writeFileSync(
  childFile,
  `import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
const [lib, mode, file] = process.argv.slice(2);
function peakKB() {
  try {
    const m = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
}
if (lib === 'bare') {
  // A bare Node process: no page read, no library imported (the issue's reference point).
  process.stdout.write(JSON.stringify({ peakKB: peakKB(), heapUsed: 0, youngKB: 0, restKB: 0, ok: 0 }));
  process.exit(0);
}
const html = readFileSync(file, 'utf8');
if (lib === 'page') {
  // Reads the page, imports nothing: what importing a library adds is a baseline's peak over this one's.
  process.stdout.write(JSON.stringify({ peakKB: peakKB(), heapUsed: 0, youngKB: 0, restKB: 0, importMs: 0, ok: 0 }));
  process.exit(0);
}
// Physical memory of the V8 heap: the young generation (new space), and the rest (old, code, large objects).
function heapKB() {
  let young = 0, rest = 0;
  for (const s of getHeapSpaceStatistics()) {
    if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') young += s.physical_space_size;
    else rest += s.physical_space_size;
  }
  return [young / 1024, rest / 1024];
}
const t0 = performance.now();
const parse = lib === 'htmlsift'
  ? (await import('htmlsift')).parseDocument
  : (await import(${JSON.stringify(parse5Url)})).parse;
const importMs = performance.now() - t0;
let tree = null;
const [young0, rest0] = heapKB();
if (mode === 'parse') tree = parse(html);
const peak = peakKB();
const [young1, rest1] = heapKB();
globalThis.gc?.(); globalThis.gc?.();
const heap = process.memoryUsage().heapUsed;
tree = tree === null ? 0 : 1;
process.stdout.write(JSON.stringify({ peakKB: peak, heapUsed: heap, youngKB: young1 - young0, restKB: rest1 - rest0, importMs, ok: tree }));
`,
);

interface Sample {
  peakKB: number;
  heapUsed: number;
  /** Growth of the V8 heap's physical memory over the parse: young generation, and the other spaces. */
  youngKB: number;
  restKB: number;
  /** Time the library's import took (baseline and parse children). */
  importMs: number;
}

function child(lib: string, mode: string): Sample {
  const r = spawnSync(process.execPath, ['--expose-gc', ...nodeFlags, childFile, lib, mode, file], {
    cwd: outDir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`child ${lib} ${mode} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Sample;
}

const kinds = [
  { key: 'bare', lib: 'bare', mode: 'bare' },
  { key: 'page', lib: 'page', mode: 'page' },
  { key: 'htmlsift baseline', lib: 'htmlsift', mode: 'baseline' },
  { key: 'htmlsift parse', lib: 'htmlsift', mode: 'parse' },
  { key: 'parse5 baseline', lib: 'parse5', mode: 'baseline' },
  { key: 'parse5 parse', lib: 'parse5', mode: 'parse' },
];
const samples = new Map<string, Sample[]>(kinds.map((k) => [k.key, []]));
for (let i = 0; i < runs; i++) {
  const order = i % 2 === 0 ? kinds : [...kinds].reverse();
  for (const k of order) samples.get(k.key)!.push(child(k.lib, k.mode));
}

const mb = (kb: number): string => (kb / 1024).toFixed(1);
const size = (await import('node:fs')).statSync(file).size;
console.log(
  `peak RSS of one parse of ${file.split('/').pop()} (${(size / 1e6).toFixed(2)} MB), ${runs} fresh processes per row, node ${process.version}${nodeFlags.length ? ` ${nodeFlags.join(' ')}` : ''}`,
);
function row(lib: 'htmlsift' | 'parse5'): { delta: number; retained: number } {
  const base = samples.get(`${lib} baseline`)!;
  const parse = samples.get(`${lib} parse`)!;
  const basePeak = median(base.map((s) => s.peakKB));
  const deltas = parse.map((s) => s.peakKB - basePeak);
  const retained = parse.map((s) => s.heapUsed - median(base.map((b) => b.heapUsed)));
  const d = median(deltas);
  const kept = median(retained) / 1024;
  console.log(
    `  ${lib.padEnd(8)}  baseline peak ${mb(basePeak).padStart(6)} MB (${mb(Math.min(...base.map((s) => s.peakKB)))}–${mb(Math.max(...base.map((s) => s.peakKB)))})` +
      `  parse peak ${mb(median(parse.map((s) => s.peakKB))).padStart(6)} MB` +
      `  delta ${mb(d).padStart(6)} MB (${mb(Math.min(...deltas))}–${mb(Math.max(...deltas))})` +
      `  tree retained after GC ${mb(kept).padStart(5)} MB`,
  );
  // Where the delta is: the parse's growth of the V8 heap (young generation; old, code and large-object spaces), and
  // the rest of the process (mostly the optimizing compiler's zones, allocated by V8's worker threads).
  const young = median(parse.map((s) => s.youngKB));
  const rest = median(parse.map((s) => s.restKB));
  console.log(
    `  ${''.padEnd(8)}  of the delta: V8 young generation ${mb(young).padStart(5)} MB, other V8 spaces ${mb(rest).padStart(5)} MB, outside the V8 heap ${mb(d - young - rest).padStart(5)} MB`,
  );
  return { delta: d, retained: kept };
}
const ours = row('htmlsift');
const theirs = row('parse5');
// The issue's own measure: the peak over a bare Node process (reading the page and importing the library count too).
const bare = median(samples.get('bare')!.map((s) => s.peakKB));
const overBare = (lib: string): number => median(samples.get(`${lib} parse`)!.map((s) => s.peakKB)) - bare;
console.log(
  `  bare Node process peak ${mb(bare)} MB; parse peak over it: htmlsift ${mb(overBare('htmlsift'))} MB, parse5 ${mb(overBare('parse5'))} MB, ratio ${(overBare('htmlsift') / overBare('parse5')).toFixed(2)}x (target ≤ 0.5x)`,
);
console.log(`  peak RSS delta ratio htmlsift / parse5: ${(ours.delta / theirs.delta).toFixed(2)}x (the parse alone)`);
// Importing alone: the baseline's peak over a process that reads the page and imports nothing, and the import's time.
const page = median(samples.get('page')!.map((s) => s.peakKB));
const imported = (lib: string): string => {
  const base = samples.get(`${lib} baseline`)!;
  return `${lib} ${mb(median(base.map((s) => s.peakKB)) - page)} MB in ${median(base.map((s) => s.importMs)).toFixed(1)} ms`;
};
console.log(`  importing the library (peak over a process that only reads the page): ${imported('htmlsift')}, ${imported('parse5')}`);
console.log(`  retained heap ratio  htmlsift / parse5: ${(ours.retained / theirs.retained).toFixed(2)}x`);
