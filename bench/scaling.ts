/**
 * `npm run bench:scaling`: does the cost grow linearly with the input on adversarial markup?
 *
 * Each case builds an input at size n and at 10n and times parseDocument and sanitize on both. The figure is
 * t(10n) / t(n), the median of the per-round ratios over alternating rounds (n, 10n, then 10n, n, ...; a sample
 * of n is 10 back-to-back runs, so both samples last about as long); linear work gives ~10, the
 * target is ≤ 11, quadratic work gives ~100. Also printed: the spread of the per-round ratios (noise), and for
 * sanitize the output-length ratio (so a case whose *output* grows faster than its input is visible as such),
 * and "best-of" = min t(10n) / min t(n), which a loaded machine disturbs least (noise only adds time): a median
 * over 11 with a best-of under 11 is more likely noise than super-linear work.
 *
 * Every (case, function) runs in a fresh child process (this same bundle with `--child`), so one pathological
 * case cannot slow the others through heap growth or deoptimization, a hang is cut off by a timeout
 * (SCALING_TIMEOUT_S, default 60 s per child), and a stack overflow or crash is reported, not fatal. A child
 * that finds t(10n) above SLOW_MS (4 s) measures fewer rounds.
 *
 * Two more columns tell the garbage collector's part from the parser's: "no-GC" is the median per-round ratio of
 * the time outside garbage-collection pauses (Node's 'gc' performance entries, matched to the sample windows), and
 * "GC@10n" the share of t(10n) spent in pauses. A ratio over 11 whose no-GC ratio is about 10 is the collector's
 * regime changing with the heap (at n the trees die young, at 10n they are copied and promoted); a no-GC ratio
 * over 11 is the code's own cost growing, through the cache hierarchy or an algorithm.
 *
 * `SCALING_METHOD=instructions` counts instead of timing: wall time on a loaded machine moves by more than the
 * 10% the target allows, and a ratio over 11 in time can be the memory hierarchy (the 10n input and tree no longer
 * fit the caches) as well as more work. Each (case, function) then runs in three processes under valgrind's
 * callgrind with V8's `--predictable` (one thread, no timers: the same work every time) and
 * `--max-semi-space-size=16`: the warm-up alone (the time method's: n ten times, 10n once), the warm-up and 10
 * more runs at n, the warm-up and 2 more at 10n. Instructions per run at each size are the differences over the
 * first process's count, divided by the runs. Callgrind counts V8's own functions by name, so the table also
 * gives the share at 10n of the heap's management (the collector, the write barrier's and allocation's slow
 * paths, pretenuring) and of the compilers (with `--predictable` they run on the main thread: a function
 * deoptimized and optimized again during the measured runs is counted), and "the rest" (the library's compiled
 * code, the interpreter, the built-ins it calls) at 10n over n without them. Repeatable (a row counted twice:
 * within 0.1%), but a count weighs work, not time: it does not see cache misses, and V8's heuristics with one
 * thread are not its defaults'. Needs valgrind and its `callgrind_annotate`; about 90 s a row, two processes at a
 * time (use SCALING_ONLY).
 *
 * No assertion on time: the table is for people. Options (environment): SCALING_ROUNDS (default 5),
 * SCALING_SCALE (multiplies every n, default 1), SCALING_ONLY (comma-separated substrings of case names),
 * SCALING_TIMEOUT_S (per process; for instructions, default 900), SCALING_METHOD (time or instructions).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { comment, sanitizeEmail } from '../policies/index.js';
import { parseDocument, sanitize } from '../src/index.js';
import { countInstructions, hasValgrind, inParallel } from './callgrind.js';
import { median } from './harness.js';

interface Case {
  name: string;
  /** Base size n (the unit the generator repeats). */
  n: number;
  gen: (n: number) => string;
  /**
   * What to time instead of parseDocument and sanitize: one function, `sanitize*` (sanitize with the options the
   * case's name gives), for the cases about what a configuration or policy makes the passes after the parse do.
   */
  options?: Parameters<typeof sanitize>[1];
  /** Or another function to time, with its label (the email policy's stylesheet scoping: `sanitizeEmail`). */
  run?: [label: string, f: (s: string) => string | object];
}

/**
 * Item numbers in generated names, zero-padded to a fixed width: every item of a case is then as long as any
 * other, so the 10n input is exactly ten times the n input (plain numbers would make it about 11.5 times).
 */
const num = (i: number): string => String(i).padStart(7, '0');

const rep = (n: number, f: (i: number) => string): string => {
  const parts: string[] = new Array(n);
  for (let i = 0; i < n; i++) parts[i] = f(i);
  return parts.join('');
};

const CASES: Case[] = [
  // Depth: scope checks walk the stack of open elements; deep trees stress every recursive walk.
  { name: 'deep <div> ×n', n: 5_000, gen: (n) => '<div>'.repeat(n) + 'x' },
  { name: 'deep <div><span> alternating ×n', n: 2_500, gen: (n) => '<div><span>'.repeat(n) + 'x' },
  // Attributes: duplicate-attribute detection must not be quadratic (10n = 100k attributes).
  { name: 'one element, n attributes', n: 10_000, gen: (n) => '<div ' + rep(n, (i) => `a${num(i)}="v${num(i)}" `) + '>x</div>' },
  { name: 'one element, n duplicate attributes', n: 10_000, gen: (n) => '<div ' + 'a="v" '.repeat(n) + '>x</div>' },
  // Active formatting elements.
  { name: 'unclosed <b> ×n', n: 5_000, gen: (n) => '<b>'.repeat(n) + 'x' },
  {
    name: "<b><i><u> with distinct attrs (defeats Noah's Ark) ×n",
    n: 1_000,
    gen: (n) => rep(n, (i) => `<b class=c${num(i)}><i id=i${num(i)}><u title=t${num(i)}>x`),
  },
  // Adoption agency.
  { name: '<a><p> ×n', n: 5_000, gen: (n) => '<a><p>'.repeat(n) + 'x' },
  { name: '<a>x<a> ×n', n: 4_000, gen: (n) => '<a>x'.repeat(n) },
  { name: 'misnested <b><p></b> ×n', n: 2_500, gen: (n) => '<b><p></b>'.repeat(n) + 'x' },
  { name: 'misnested <b><div><i></b>x</i> ×n', n: 1_500, gen: (n) => '<b><div><i></b>x</i>'.repeat(n) },
  // Foster parenting.
  { name: '<table> + text ×n', n: 100_000, gen: (n) => '<table>' + rep(n, (i) => `t${num(i)} `) + '</table>' },
  { name: '<table> + x<i>y</i> ×n (fostered elements)', n: 2_500, gen: (n) => '<table>' + 'x<i>y</i>'.repeat(n) + '</table>' },
  { name: '<table><tr> + <td>x<div>y ×n', n: 3_000, gen: (n) => '<table><tr>' + '<td>x<div>y'.repeat(n) + '</table>' },
  // Character references (10n = 1M references).
  { name: 'char refs in text (named/numeric) ×n', n: 100_000, gen: (n) => '<p>' + '&amp;&lt&#65;&#x42;&notit;&NotEqualTilde;'.repeat(n / 6) },
  {
    name: 'char refs in attribute values ×n',
    n: 100_000,
    gen: (n) => '<p title="' + '&amp;&lt&#65;&#x42;&notit;&NotEqualTilde;'.repeat(n / 6) + '">x',
  },
  // Huge tokens.
  { name: 'huge comment (n KB)', n: 200, gen: (n) => '<!--' + '-a-!'.repeat(n * 256) + '-->x' },
  { name: 'huge attribute value (n KB)', n: 1_000, gen: (n) => '<p title="' + 'abcd'.repeat(n * 256) + '">x' },
  { name: 'huge text (n KB)', n: 500, gen: (n) => '<p>' + 'ab<c '.repeat(n * 200) },
  // Foreign content.
  { name: 'deep <svg><g> ×n', n: 5_000, gen: (n) => '<svg>' + '<g>'.repeat(n) + 'x' },
  { name: 'deep <math><mrow> ×n', n: 5_000, gen: (n) => '<math>' + '<mrow>'.repeat(n) + 'x' },
  {
    name: 'deep <svg><foreignObject><div> ×n',
    n: 2_000,
    gen: (n) => '<svg><foreignObject><div>'.repeat(n) + 'x',
  },
  // Templates.
  { name: 'nested <template> ×n', n: 5_000, gen: (n) => '<template>'.repeat(n) + 'x' },
  { name: 'sibling <template>x</template> ×n', n: 3_000, gen: (n) => '<template><td>x</td></template>'.repeat(n) },
  // Select.
  { name: '<select><option> ×n', n: 4_000, gen: (n) => '<select><option>x'.repeat(n) },
  { name: '<select> + <optgroup><option> ×n', n: 3_000, gen: (n) => '<select>' + '<optgroup><option>x'.repeat(n) },
  // Configurations and policies: long child lists whose nodes reparse safety merges or moves, long attribute
  // lists a hook edits.
  { name: '<p> + x<span>y</span> ×n, comment policy', n: 5_000, gen: (n) => '<p>' + 'x<span>y</span>'.repeat(n), options: { policy: comment } },
  {
    name: 'x<b>y</b> ×n, b replaced with its children',
    n: 5_000,
    gen: (n) => 'x<b>y</b>'.repeat(n),
    options: { sanitizer: { replaceWithChildrenElements: ['b'] } },
  },
  {
    name: '<table> + <tr><td>a<td>b ×n, table parts replaced',
    n: 3_000,
    gen: (n) => '<table>' + '<tr><td>a<td>b'.repeat(n) + '</table>',
    options: { sanitizer: { replaceWithChildrenElements: ['table', 'tbody'] } },
  },
  {
    name: 'one element, n attributes, hook renames each',
    n: 10_000,
    gen: (n) => '<div ' + rep(n, (i) => `a${num(i)}="v" `) + '>x</div>',
    options: { policy: { hooks: { onAttribute: (_el, a) => ({ rename: 'x' + a.localName }) } } },
  },
  {
    name: 'one element, n attributes, hook drops each',
    n: 5_000,
    gen: (n) => '<div ' + rep(n, (i) => `a${num(i)}="v" `) + '>x</div>',
    options: { policy: { hooks: { onAttribute: () => 'drop' } } },
  },
  // Stylesheets the email policy scopes: rules nested in one rule (none starts a declaration), declarations.
  {
    name: 'email <style>: n nested rules in one rule',
    n: 3_000,
    gen: (n) => '<style>.a{' + rep(n, (i) => `> .b${num(i)}{color:red} `) + '}</style>x',
    run: ['sanitizeEmail', (s) => sanitizeEmail(s).html],
  },
  {
    name: 'email <style>: n declarations in one rule',
    n: 10_000,
    gen: (n) => '<style>.a{' + 'color:red;'.repeat(n) + '}</style>x',
    run: ['sanitizeEmail', (s) => sanitizeEmail(s).html],
  },
];

const FUNCTIONS: Record<string, (s: string) => string | object> = {
  parseDocument: (s) => parseDocument(s),
  sanitize: (s) => sanitize(s),
};

function functionsFor(c: Case): Record<string, (s: string) => string | object> {
  if (c.run !== undefined) return { [c.run[0]]: c.run[1] };
  const options = c.options;
  return options === undefined ? FUNCTIONS : { 'sanitize*': (s) => sanitize(s, options) };
}

interface ChildResult {
  ok: true;
  tN: number;
  t10N: number;
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  /** min t(10n) / min t(n): machine noise only ever adds time, so this is the least noisy estimate. */
  ratioBest: number;
  rounds: number;
  /** Length of the 10n input over the n input's (10 but for a case's constant wrapper). */
  inRatio: number;
  /** The median per-round ratio of the time outside garbage collection (see `gcMsIn`). */
  ratioNoGc: number;
  /** Share of t(10n) spent in garbage collection (median over rounds). */
  gcShare10N: number;
  outRatio?: number;
}
interface ChildError {
  ok: false;
  error: string;
}

const SLOW_MS = 4000;
let sink: unknown;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

type Window = [start: number, end: number];

/** The timed window of the last sample, for `gcMsIn`. */
let lastWindow: Window = [0, 0];

/** Milliseconds per run of `f` on `s`, over `reps` back-to-back runs (GC before, not timed). */
function time(f: (s: string) => unknown, s: string, reps = 1): number {
  gc();
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) sink = f(s);
  const t1 = performance.now();
  lastWindow = [t0, t1];
  return (t1 - t0) / reps;
}

/**
 * Garbage collection pauses, as Node reports them ('gc' performance entries: start and duration on the
 * performance.now() timeline). They arrive asynchronously, after the synchronous measurement, and are matched to
 * the sample windows then.
 */
const gcPauses: [number, number][] = [];

/** Milliseconds of the window [t0, t1] spent in garbage collection pauses. */
function gcMsIn(t0: number, t1: number): number {
  let ms = 0;
  for (const [start, duration] of gcPauses) {
    const a = Math.max(start, t0);
    const b = Math.min(start + duration, t1);
    if (b > a) ms += b - a;
  }
  return ms;
}

/** Fills in the GC figures of `res` from its rounds' sample windows ([small, big]) and the reported pauses. */
function addGcFigures(res: ChildResult, sampleWindows: [Window, Window][]): void {
  const noGc: number[] = [];
  const shares: number[] = [];
  for (const [[a0, a1], [b0, b1]] of sampleWindows) {
    const gcA = gcMsIn(a0, a1);
    const gcB = gcMsIn(b0, b1);
    // Per run: the small sample is 10 runs, the big one 1.
    noGc.push((b1 - b0 - gcB) / ((a1 - a0 - gcA) / 10));
    shares.push(gcB / (b1 - b0));
  }
  res.ratioNoGc = median(noGc);
  res.gcShare10N = median(shares);
}

/** A child's function and its two inputs, at n and 10n. */
function childWork(caseName: string, fnName: string, scale: number): { f: (s: string) => string | object; small: string; big: string } {
  const c = CASES.find((x) => x.name === caseName)!;
  const n = Math.max(1, Math.round(c.n * scale));
  return { f: functionsFor(c)[fnName]!, small: c.gen(n), big: c.gen(10 * n) };
}

/** Measures one (case, function); each round's sample windows ([small, big]) go to `sampleWindows`. */
function runChild(caseName: string, fnName: string, rounds: number, scale: number, sampleWindows: [Window, Window][]): ChildResult | ChildError {
  const { f, small, big } = childWork(caseName, fnName, scale);
  try {
    // Warm-up: the small input ten times, the big one once (which also tells whether this case is slow).
    time(f, small, 10);
    const first = time(f, big);
    const r = first > SLOW_MS ? 1 : rounds;
    const ts: number[] = [];
    const tb: number[] = [];
    const ratios: number[] = [];
    const firstWindow = lastWindow;
    for (let i = 0; i < r; i++) {
      // A sample of n is 10 runs of the small input, so both samples take about the same wall time and
      // see the same machine noise. (Repeating the small input keeps it cache-warm, which if anything
      // overstates the ratio.)
      let a: number, b: number;
      if (i % 2 === 0) {
        a = time(f, small, 10);
        const wa = lastWindow;
        b = r === 1 ? first : time(f, big);
        sampleWindows.push([wa, r === 1 ? firstWindow : lastWindow]);
      } else {
        b = time(f, big);
        const wb = lastWindow;
        a = time(f, small, 10);
        sampleWindows.push([lastWindow, wb]);
      }
      ts.push(a);
      tb.push(b);
      ratios.push(b / a);
    }
    const res: ChildResult = {
      ok: true,
      tN: median(ts),
      t10N: median(tb),
      ratio: median(ratios),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
      ratioBest: Math.min(...tb) / Math.min(...ts),
      rounds: r,
      inRatio: big.length / small.length,
      ratioNoGc: 0,
      gcShare10N: 0,
    };
    if (fnName !== 'parseDocument') {
      const outSmall = (f(small) as string).length;
      res.outRatio = outSmall === 0 ? -1 : (f(big) as string).length / outSmall;
    }
    void sink;
    return res;
  } catch (e) {
    return { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 120) : String(e) };
  }
}

/** Extra runs of the counted processes: at n, and at 10n (see SCALING_METHOD above). */
const COUNT_RUNS = { small: 10, big: 2 } as const;

/** A counted process's instructions: [all, V8's heap management's, its compilers']. */
type Counts = [number, number, number];

/** A counted process (`--count case function scale which`): the time method's warm-up, then COUNT_RUNS of `which`. */
function countChild(caseName: string, fnName: string, scale: number, which: string): void {
  const { f, small, big } = childWork(caseName, fnName, scale);
  for (let i = 0; i < 10; i++) sink = f(small);
  sink = f(big);
  if (which === 'small') for (let i = 0; i < COUNT_RUNS.small; i++) sink = f(small);
  else if (which === 'big') for (let i = 0; i < COUNT_RUNS.big; i++) sink = f(big);
  void sink;
}

/**
 * What callgrind counts in V8's own functions (each instruction in exactly one function: exclusive counts), by name:
 * the heap's management (the collector's scavenges, marking, sweeping and evacuation, the write barrier's slow path,
 * allocation's slow path, pretenuring), and the compilers (the optimizing compiler, bytecode generation, the
 * parser of the script, deoptimization). The rest is the library's compiled code, the interpreter and V8's
 * built-ins and runtime functions that it calls.
 */
const HEAP_MANAGEMENT =
  /v8::internal::(Scaveng|MarkCompact|Marking|MainMarking|MarkBit|IncrementalMarking|ConcurrentMarking|Sweeper|Evacuat|RecordMigrated|LiveObject|Pretenuring|Heap::|HeapObject::SizeFromMap|BodyDescriptorBase|RememberedSet|SlotSet|TypedSlot|FreeList|PagedSpace|NewSpace|SemiSpace|MemoryAllocator|MemoryChunk|BasicMemoryChunk|Page::|LargeObjectSpace|EvacuationAllocator|LocalAllocationBuffer|MainAllocator|GCTracer|IterateAndScavenge|HeapAllocator|ScavengeJob|IncrementalMarkingJob|GlobalHandles)|heap::base::|Builtins_RecordWrite|Runtime_AllocateIn/;
const COMPILER =
  /v8::internal::(compiler::|Compiler::|Parser|PreParser|Scanner|interpreter::|BytecodeGenerator|Zone|AstValueFactory|maglev::|baseline::|OptimizingCompile|Deoptimizer|TranslatedState|CodeAssembler|Assembler|MacroAssembler|SourcePosition)/;

/** [all instructions, the heap management's, the compilers'] of one counted process, or an error naming what failed. */
async function countedProcess(self: string, dir: string, args: string[], timeoutMs: number): Promise<Counts> {
  const out = join(dir, `callgrind.${args.join('.').replace(/[^\w.]+/g, '_')}`);
  const all = await countInstructions(self, ['--count', ...args], { outFile: out, timeoutMs });
  const annotated = spawnSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8', maxBuffer: 1 << 26 });
  rmSync(out, { force: true });
  let heap = 0;
  let compiler = 0;
  for (const line of annotated.stdout.split('\n')) {
    const row = /^\s*([\d,]+) \([\s\d.]+%\)\s+(\S.*)$/.exec(line);
    if (row === null || row[2]!.startsWith('PROGRAM TOTALS')) continue;
    const n = Number(row[1]!.replace(/,/g, ''));
    if (HEAP_MANAGEMENT.test(row[2]!)) heap += n;
    else if (COMPILER.test(row[2]!)) compiler += n;
  }
  if (annotated.status !== 0 || heap === 0 || compiler === 0) throw new Error(`callgrind_annotate found no heap management or no compiler in ${out}`);
  return [all, heap, compiler];
}

/** SCALING_METHOD=instructions: the table in counts (see above). */
async function countMain(self: string, cases: Case[], scale: number, timeoutMs: number): Promise<void> {
  if (!hasValgrind(true)) {
    console.log('bench:scaling skipped: counting instructions needs valgrind and callgrind_annotate (apt-get install -y valgrind).');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'htmlsift-scaling-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const started = performance.now();
  console.log(
    `scaling: instructions per run at 10n over n (callgrind, node --predictable), each (case, function) counted in three ` +
      `processes; linear ≈ 10, target ≤ 11; node ${process.version}`,
  );
  const w = Math.max(...cases.map((c) => c.name.length));
  console.log(`  ${'case'.padEnd(w)}  n        function       I(n) M  I(10n) M  ratio  the rest  heap@10n  compilers@10n`);
  const rows: { c: Case; fnName: string }[] = [];
  for (const c of cases) for (const fnName of Object.keys(functionsFor(c))) rows.push({ c, fnName });
  // Every process of every row, two (or as many as there are cores) at a time; rows print in order as their three
  // counts arrive.
  const jobs: { row: number; which: string }[] = [];
  rows.forEach((_, row) => jobs.push({ row, which: 'none' }, { row, which: 'small' }, { row, which: 'big' }));
  const results = inParallel(jobs.map(({ row, which }) => () => countedProcess(self, dir, [rows[row]!.c.name, rows[row]!.fnName, String(scale), which], timeoutMs)));
  const over: string[] = [];
  let overRest = 0;
  const M = (x: number): string => (x / 1e6).toFixed(x < 1e8 ? 2 : 1).padStart(7);
  for (let row = 0; row < rows.length; row++) {
    const { c, fnName } = rows[row]!;
    const n = Math.max(1, Math.round(c.n * scale));
    const head = `  ${c.name.padEnd(w)}  ${String(n).padEnd(7)}  ${fnName.padEnd(13)}`;
    let counts: Counts[];
    try {
      counts = await Promise.all([0, 1, 2].map((k) => results[3 * row + k]!));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      console.log(`${head}  FAILED: ${why}`);
      over.push(`${c.name} / ${fnName}: ${why}`);
      continue;
    }
    // Per run at n and at 10n: [all, the heap management's, the compilers'].
    const [base, withSmall, withBig] = counts as [Counts, Counts, Counts];
    const atN = withSmall.map((x, k) => (x - base[k]!) / COUNT_RUNS.small);
    const at10N = withBig.map((x, k) => (x - base[k]!) / COUNT_RUNS.big);
    const ratio = at10N[0]! / atN[0]!;
    const rest = (at10N[0]! - at10N[1]! - at10N[2]!) / (atN[0]! - atN[1]! - atN[2]!);
    if (ratio > 11) {
      over.push(`${c.name} / ${fnName}: ${ratio.toFixed(1)}x (the rest ${rest.toFixed(1)}x)`);
      if (rest > 11) overRest++;
    }
    const share = (k: number): string => `${(100 * (at10N[k]! / at10N[0]!)).toFixed(0)}%`;
    console.log(
      `${head}  ${M(atN[0]!)}  ${M(at10N[0]!)}  ${ratio.toFixed(1).padStart(5)}  ${rest.toFixed(1).padStart(8)}  ${share(1).padStart(8)}  ${share(2).padStart(13)}${ratio > 11 ? '  <-- over 11' : ''}`,
    );
  }
  console.log(`\n  ${over.length === 0 ? 'every case within 11x' : `${over.length} over 11x or failed:`}`);
  for (const o of over) console.log(`    ${o}`);
  if (over.length > 0) console.log(`  of these, ${overRest} over 11x outside V8's heap management and compilers`);
  console.log(`  total ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const argv = process.argv.slice(2);
if (argv[0] === '--count') {
  const [, caseName, fnName, scale, which] = argv;
  countChild(caseName!, fnName!, Number(scale), which!);
} else if (argv[0] === '--child') {
  const [, caseName, fnName, rounds, scale] = argv;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcPauses.push([e.startTime, e.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  const sampleWindows: [Window, Window][] = [];
  const res = runChild(caseName!, fnName!, Number(rounds), Number(scale), sampleWindows);
  // The pauses are reported after the synchronous measurement.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  if (res.ok) addGcFigures(res, sampleWindows);
  process.stdout.write(JSON.stringify(res));
} else {
  const rounds = Number(process.env.SCALING_ROUNDS ?? 5);
  const scale = Number(process.env.SCALING_SCALE ?? 1);
  const method = process.env.SCALING_METHOD ?? 'time';
  if (method !== 'time' && method !== 'instructions') {
    console.error(`bench:scaling: SCALING_METHOD must be time or instructions, got ${JSON.stringify(method)}`);
    process.exit(2);
  }
  const timeoutMs = Number(process.env.SCALING_TIMEOUT_S ?? (method === 'time' ? 60 : 900)) * 1000;
  const only = process.env.SCALING_ONLY?.split(',').map((s) => s.trim().toLowerCase());
  const self = fileURLToPath(import.meta.url);
  const cases = CASES.filter((c) => !only || only.some((o) => c.name.toLowerCase().includes(o)));
  if (method === 'instructions') {
    await countMain(self, cases, scale, timeoutMs);
    process.exit(0);
  }
  const started = performance.now();
  console.log(
    `scaling: t(10n)/t(n), median of ${rounds} alternating rounds, each (case, function) in a fresh process; ` +
      `linear ≈ 10, target ≤ 11; node ${process.version}`,
  );
  const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)).padStart(6);
  const w = Math.max(...cases.map((c) => c.name.length));
  console.log(`  ${'case'.padEnd(w)}  n        function       t(n) ms  t(10n) ms  ratio  (round spread)  best-of  no-GC  GC@10n  in×   out×`);
  const over: string[] = [];
  let overNoGc = 0;
  for (const c of cases) {
    for (const fnName of Object.keys(functionsFor(c))) {
      const r = spawnSync(process.execPath, ['--expose-gc', self, '--child', c.name, fnName, String(rounds), String(scale)], {
        encoding: 'utf8',
        timeout: timeoutMs,
        maxBuffer: 1 << 20,
      });
      const n = Math.max(1, Math.round(c.n * scale));
      const head = `  ${c.name.padEnd(w)}  ${String(n).padEnd(7)}  ${fnName.padEnd(13)}`;
      let res: ChildResult | ChildError;
      if (r.error || r.status !== 0) {
        const why = r.error ? `${(r.error as NodeJS.ErrnoException).code ?? r.error.message}` : `exit ${r.status ?? r.signal}`;
        res = { ok: false, error: `${why} ${(r.stderr ?? '').split('\n').find((l) => /Error/.test(l)) ?? ''}`.trim() };
      } else {
        res = JSON.parse(r.stdout) as ChildResult | ChildError;
      }
      if (!res.ok) {
        console.log(`${head}  FAILED: ${res.error}`);
        over.push(`${c.name} / ${fnName}: ${res.error}`);
        continue;
      }
      const flag = res.ratio > 11 ? (res.ratioBest > 11 ? '  <-- over 11' : '  <-- over 11 (median only: noise?)') : '';
      if (res.ratio > 11) {
        over.push(`${c.name} / ${fnName}: ${res.ratio.toFixed(1)}x (best-of ${res.ratioBest.toFixed(1)}x; outside GC ${res.ratioNoGc.toFixed(1)}x)`);
        if (res.ratioNoGc > 11) overNoGc++;
      }
      console.log(
        `${head}  ${fmt(res.tN)}   ${fmt(res.t10N)}   ${res.ratio.toFixed(1).padStart(5)}  (${res.ratioMin.toFixed(1)}–${res.ratioMax.toFixed(1)}, ${res.rounds} r)  ${res.ratioBest.toFixed(1).padStart(5)}  ${res.ratioNoGc.toFixed(1).padStart(5)}  ${(100 * res.gcShare10N).toFixed(0).padStart(5)}%  ${res.inRatio.toFixed(2).padStart(5)}` +
          `${res.outRatio === undefined ? '' : res.outRatio < 0 ? '  (empty)' : `  ${res.outRatio.toFixed(1)}`}${flag}`,
      );
    }
  }
  console.log(`\n  ${over.length === 0 ? 'every case within 11x' : `${over.length} over 11x or failed:`}`);
  for (const o of over) console.log(`    ${o}`);
  if (over.length > 0) console.log(`  of these, ${overNoGc} over 11x in the time outside garbage collection`);
  console.log(`  total ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
