/**
 * Differential test of our parser against Chromium (the oracle): the fixed regression list, then thousands of seeded
 * random documents (DOMParser, scripting off, plus the document mode) and fragments (innerHTML on a disconnected
 * context element, scripting on) across HTML, SVG and MathML contexts. Trees are compared in the html5lib dump
 * format. Any difference that the known Chromium deviations (known-deviations.ts, reproduced in our parser by
 * chromium-sim.ts) do not explain fails the run, after being minimized; each run prints how many differences each
 * deviation (or combination) explained. Inputs on which Chromium hangs are counted and not compared.
 *
 * After the regression list, a sweep (sweep.ts): the input up to every tokenizer state, then every short run of the
 * characters states treat specially, the same inputs every run.
 *
 * Then real markup: every file of the shared corpus (web pages, email templates, clipboard HTML from Word, Google
 * Docs, Safari and Firefox) as a document and as a fragment in `<body>`, and seeded windows cut from those files at
 * random offsets (mid-tag, mid-comment, mid-attribute), a quarter of them parsed as documents, the rest as fragments
 * in random contexts. The random generator writes the grammar's corner cases; the corpus brings what real authoring
 * tools write (conditional comments, Office namespaces, inline styles, long scripts). That part skips, with one line,
 * without the shared data.
 *
 *   npm run test:browser                                  # fresh seed, printed
 *   HTMLSIFT_SEED=123 npm run test:browser                # replay a run
 *   HTMLSIFT_DIFF_DOCS=20000 HTMLSIFT_DIFF_FRAGMENTS=20000 npm run test:browser   # longer run
 *   HTMLSIFT_DIFF_WINDOWS=20000 npm run test:browser      # more corpus windows
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  HangTolerantPage,
  chromiumParse,
  chromiumSkipReason,
  contextLabel,
  launchChromium,
  parseContextLabel,
  type BrowserCase,
  type BrowserResult,
  type ContextSpec,
} from './chromium.js';
import { FRAGMENT_CONTEXTS, Rng, generateDocument, generateFragment, seedFromEnv } from './generator.js';
import { matchKnownDeviation, type DiffCase, type ParseOutcome } from './known-deviations.js';
import { minimize, showInput } from './minimize.js';
import { OursHost, type WorkerCase } from './ours.js';
import { REGRESSIONS } from './regressions.js';
import { sweepPairs, sweepWhitespace } from './sweep.js';
import { CORPUS_FOLDERS, corpusFiles, corpusWindow } from '../support/shared.js';

const SUITE = 'parse-differential';
const DOCS = Number(process.env.HTMLSIFT_DIFF_DOCS ?? 5000);
const FRAGMENTS = Number(process.env.HTMLSIFT_DIFF_FRAGMENTS ?? 5000);
/** Windows cut from the shared corpus's files per run (a quarter as documents, the rest as fragments). */
const WINDOWS = Number(process.env.HTMLSIFT_DIFF_WINDOWS ?? 3000);
/** Chromium flattens trees deeper than 512 levels (a deviation from the standard); such cases are not compared. */
const MAX_DEPTH = 480;
/** Time limits for Chromium: a batch, then (after a batch timed out) one case. */
const CHROMIUM_BATCH_MS = 30_000;
const CHROMIUM_CASE_MS = 5_000;
/** The dump of a case Chromium did not finish (it is not compared). */
const CHROMIUM_HANG = '#chromium-hang';
/** How many differences get minimized and printed in full per run. */
const MAX_REPORTED = 15;
/** Candidate inputs tried per minimization. */
const MINIMIZE_BUDGET = 3000;
/** Wall-clock budget for minimizing one run's differences (a hang costs a worker restart per candidate). */
const MINIMIZE_MS = Number(process.env.HTMLSIFT_MINIMIZE_MS ?? 90_000);

/** Our parser in a worker thread (a hang or runaway allocation must not take the test run down). */
async function startOurParser(): Promise<OursHost | null> {
  // HTMLSIFT_DIFF_PARSER=/abs/path/module.ts compares another implementation with the same two exports instead.
  const env = process.env.HTMLSIFT_DIFF_PARSER;
  const host = new OursHost({ specs: env ? [env] : ['../../src/index.ts', '../../src/parser.ts'] });
  const why = await host.start();
  if (why === null) return host;
  console.log(`[${SUITE}] skipped: our parser is not importable yet (${why})`);
  return null;
}

interface Case {
  /** Set when our parser hung or crashed on it (minimized last: every failing candidate costs a worker swap). */
  hang?: boolean;
  kind: 'document' | 'fragment';
  input: string;
  context: ContextSpec | null;
  scripting: boolean;
  origin: string;
}

function describeCase(c: Case): string {
  return c.kind === 'document'
    ? `document (scripting ${c.scripting ? 'on' : 'off'})`
    : `fragment in <${contextLabel(c.context!)}> (scripting ${c.scripting ? 'on' : 'off'})`;
}

const skipBrowser = chromiumSkipReason(SUITE) !== null;

describe.skipIf(skipBrowser)('parse differential vs Chromium', () => {
  let browser: Browser;
  let tolerant: HangTolerantPage;
  let ours: OursHost | null = null;
  const seed = seedFromEnv();

  beforeAll(async () => {
    ours = await startOurParser();
    if (ours === null) return;
    browser = await launchChromium();
    tolerant = await HangTolerantPage.open(browser, CHROMIUM_BATCH_MS, CHROMIUM_CASE_MS);
    console.log(`[${SUITE}] ${browser.version()}; seed ${seed} (replay: HTMLSIFT_SEED=${seed} npm run test:browser)`);
  });

  afterAll(async () => {
    await ours?.close();
    await browser?.close();
  });

  /**
   * Chromium on many cases, in batches; a case that hangs Chromium gets the dump CHROMIUM_HANG and is not compared
   * (see HangTolerantPage).
   */
  async function chromiumRun(cases: readonly BrowserCase[], batchSize = 250): Promise<BrowserResult[]> {
    return tolerant.run(cases, chromiumParse, () => ({ dump: CHROMIUM_HANG, depth: 0, mode: null }), batchSize);
  }

  function workerCase(c: Pick<Case, 'kind' | 'context' | 'scripting'>, input: string): WorkerCase {
    return { kind: c.kind, input, context: c.context, scripting: c.scripting };
  }

  /** Our parser on many inputs, in batches. */
  async function parseOurs(c: Pick<Case, 'kind' | 'context' | 'scripting'>[], inputs: string[]): Promise<ParseOutcome[]> {
    const out: ParseOutcome[] = [];
    for (let i = 0; i < inputs.length; i += 100) {
      const batch = inputs.slice(i, i + 100).map((input, k) => workerCase(c[i + k]!, input));
      out.push(...(await ours!.parse(batch)));
    }
    return out;
  }

  function diffCase(c: Case, input: string, o: ParseOutcome, chromium: BrowserResult): DiffCase {
    return {
      kind: c.kind,
      input,
      context: c.context,
      scripting: c.scripting,
      ours: o,
      chromium: { dump: chromium.dump, mode: chromium.mode },
      simulate: async (without) => (await ours!.parse([{ ...workerCase(c, input), simulate: { without: [...without] } }]))[0]!,
      chromiumParse: async (other) => {
        const [r] = await chromiumRun([{ input: other, context: c.context, scripting: c.scripting }]);
        return { dump: r!.dump, mode: r!.mode };
      },
    };
  }

  /** 'same', 'deep' or 'chromium-hang' (not comparable), a known deviation id, or 'diff'. */
  async function classify(c: Case, input: string, chromium: BrowserResult, o: ParseOutcome): Promise<string> {
    if (chromium.depth >= MAX_DEPTH) return 'deep';
    if (chromium.dump === CHROMIUM_HANG) return 'chromium-hang';
    if (o.dump === chromium.dump && o.mode === chromium.mode) return 'same';
    const known = await matchKnownDeviation(diffCase(c, input, o, chromium));
    return known === null ? 'diff' : known.id;
  }

  async function runCases(cases: Case[]): Promise<{ stats: Map<string, number>; diffs: Case[] }> {
    const inputs = cases.map((c) => c.input);
    const chromium = await chromiumRun(
      cases.map((c) => ({ input: c.input, context: c.context, scripting: c.scripting })),
    );
    const mine = await parseOurs(cases, inputs);
    const stats = new Map<string, number>();
    const diffs: Case[] = [];
    for (let i = 0; i < cases.length; i++) {
      const verdict = await classify(cases[i]!, inputs[i]!, chromium[i]!, mine[i]!);
      stats.set(verdict, (stats.get(verdict) ?? 0) + 1);
      if (verdict === 'diff') {
        const d = mine[i]!.dump;
        diffs.push(d.startsWith('#hang') || d.startsWith('#crash') ? { ...cases[i]!, hang: true } : cases[i]!);
      }
    }
    return { stats, diffs };
  }

  /** Minimizes each difference (up to MAX_REPORTED), dedupes, and renders the report. */
  async function report(diffs: Case[]): Promise<string> {
    const seen = new Map<string, number>();
    const blocks: string[] = [];
    const deadline = performance.now() + MINIMIZE_MS;
    // At most two hangs/crashes (each failing candidate costs a worker swap), the rest ordinary differences.
    const hangCases = diffs.filter((d) => d.hang).slice(0, 2);
    const ordered = [...diffs.filter((d) => !d.hang), ...hangCases];
    const ordinaryQuota = MAX_REPORTED - hangCases.length;
    const minimized: string[] = [];
    let ordinaryDone = 0;
    let skippedAsSeen = 0;
    for (const c of ordered) {
      if (!c.hang && ordinaryDone >= ordinaryQuota) continue;
      if (performance.now() >= deadline) break;
      // Cheap dedupe: an input that contains an earlier minimized input (ignoring case) most likely fails the same way.
      const lower = c.input.toLowerCase();
      if (minimized.some((m) => m.length > 0 && lower.includes(m))) {
        skippedAsSeen++;
        continue;
      }

      const min = await minimize(c.input, async (candidates) => {
        const res = await chromiumRun(
          candidates.map((input) => ({ input, context: c.context, scripting: c.scripting })),
        );
        // Ours in small chunks, stopping at the first hang: a hanging candidate costs a worker restart.
        for (let i = 0; i < candidates.length; i += 16) {
          const chunk = candidates.slice(i, i + 16);
          const mine = await ours!.parse(chunk.map((input) => workerCase(c, input)), { stopAtFirstFailure: true });
          for (let k = 0; k < chunk.length; k++) {
            if (mine[k]!.dump === '#skipped') break;
            if ((await classify(c, chunk[k]!, res[i + k]!, mine[k]!)) === 'diff') return i + k;
          }
        }
        return -1;
      }, MINIMIZE_BUDGET, deadline);
      // Only distinct results (ignoring case) count towards the quota.
      if (!c.hang && !minimized.includes(min.input.toLowerCase())) ordinaryDone++;
      minimized.push(min.input.toLowerCase());
      const key = describeCase(c) + '\n' + min.input;
      if (seen.has(key)) {
        seen.set(key, seen.get(key)! + 1);
        continue;
      }
      seen.set(key, 1);
      const [chromium] = await chromiumRun([{ input: min.input, context: c.context, scripting: c.scripting }]);
      const [o] = await parseOurs([c], [min.input]);
      // For triage: our tree with the known departures reproduced, when any of them fired.
      const sim = c.hang ? undefined : (await ours!.parse([{ ...workerCase(c, min.input), simulate: { without: [] } }]))[0];
      const simLines =
        sim?.sim === undefined || sim.sim.fired.length === 0
          ? []
          : [
              `ours with known Chromium deviations reproduced (${sim.sim.fired.join(', ')}):`,
              sim.dump,
              ...(sim.sim.chromiumInput === min.input ? [] : [`(Chromium's input edited to ${showInput(sim.sim.chromiumInput)})`]),
            ];
      blocks.push(
        [
          `--- ${describeCase(c)} [${c.origin}]${c.hang ? ' OUR PARSER HANGS OR CRASHES' : ''}`,
          `input (${c.input.length} chars): ${showInput(c.input)}`,
          `minimized (${min.input.length} chars, ${min.tested} candidates): ${showInput(min.input)}`,
          ...(c.kind === 'document' ? [`mode: ours ${o!.mode}, chromium ${chromium!.mode}`] : []),
          'ours:',
          o!.dump,
          ...simLines,
          'chromium:',
          chromium!.dump,
        ].join('\n'),
      );
    }
    const hangs = diffs.filter((d) => d.hang).length;
    const more =
      `\n(${diffs.length} differences, ${hangs} of them hangs/crashes of our parser; ${minimized.length} minimized` +
      `${performance.now() >= deadline ? ' (time budget reached)' : ''}, ` +
      `${skippedAsSeen} skipped as containing an earlier minimized input, ${blocks.length} distinct shown)`;
    return blocks.join('\n\n') + more;
  }

  function summary(label: string, cases: Case[], stats: Map<string, number>, ms: number): string {
    const docs = cases.filter((c) => c.kind === 'document').length;
    const frags = cases.length - docs;
    const contexts = new Set(cases.filter((c) => c.context !== null).map((c) => contextLabel(c.context!))).size;
    const known = [...stats].filter(([k]) => !['same', 'deep', 'chromium-hang', 'diff'].includes(k));
    const knownTotal = known.reduce((n, [, v]) => n + v, 0);
    return (
      `[${SUITE}] ${label}: ${docs} documents, ${frags} fragments across ${contexts} contexts; ` +
      `${stats.get('same') ?? 0} identical, ${stats.get('diff') ?? 0} differences, ` +
      `${knownTotal} known deviations matched${known.length ? ' (' + known.map(([k, v]) => `${k}: ${v}`).join(', ') + ')' : ''}, ` +
      `${stats.get('deep') ?? 0} too deep to compare, ${stats.get('chromium-hang') ?? 0} where Chromium hung; ` +
      `our parser hung on ${ours!.hangs} and crashed on ${ours!.crashes}; ` +
      `${(ms / 1000).toFixed(1)} s`
    );
  }

  async function check(label: string, cases: Case[]): Promise<void> {
    const t0 = performance.now();
    const { stats, diffs } = await runCases(cases);
    const line = summary(label, cases, stats, performance.now() - t0);
    console.log(line);
    if (diffs.length === 0) return;
    const text = await report(diffs);
    const file = join(tmpdir(), `htmlsift-${SUITE}-${label}-${seed}.txt`);
    writeFileSync(file, line + '\n\n' + text + '\n');
    // Every differing case, one JSON object per line (input, context label, scripting), for triage scripts.
    const all = join(tmpdir(), `htmlsift-${SUITE}-${label}-${seed}.jsonl`);
    writeFileSync(
      all,
      diffs
        .map((d) => JSON.stringify({ kind: d.kind, context: d.context && contextLabel(d.context), scripting: d.scripting, hang: d.hang ?? false, input: d.input }))
        .join('\n') + '\n',
    );
    console.log(text + `\n[${SUITE}] report written to ${file}; all ${diffs.length} differing inputs in ${all}`);
    expect.soft(diffs.filter((d) => d.hang).length, `${label}: our parser hung or crashed`).toBe(0);
    expect.soft(diffs.length, `${label}: differences with Chromium that no known deviation explains (see report above)`).toBe(0);
  }

  test('regression list', async (ctx) => {
    if (ours === null) return ctx.skip();
    const cases: Case[] = [];
    for (const r of REGRESSIONS) {
      if (r.document !== false) {
        cases.push({ kind: 'document', input: r.input, context: null, scripting: false, origin: 'regression: ' + r.note });
      }
      for (const label of r.contexts ?? []) {
        cases.push({
          kind: 'fragment',
          input: r.input,
          context: parseContextLabel(label),
          scripting: r.scripting ?? !isTemplateContext(parseContextLabel(label)),
          origin: 'regression: ' + r.note,
        });
      }
    }
    await check('regressions', cases);
  });

  test('a sweep: every tokenizer state, then every short run of its special characters', async (ctx) => {
    if (ours === null) return ctx.skip();
    const cases: Case[] = [];
    const svg = parseContextLabel('svg svg');
    for (const input of sweepPairs()) {
      const origin = 'sweep (pairs)';
      cases.push({ kind: 'document', input, context: null, scripting: false, origin });
      cases.push({ kind: 'fragment', input, context: { name: 'body' }, scripting: true, origin });
      cases.push({ kind: 'fragment', input, context: svg, scripting: true, origin });
    }
    for (const input of sweepWhitespace()) {
      const origin = 'sweep (whitespace)';
      // (A DOCTYPE's name and identifiers show in documents; elsewhere a document adds nothing to the fragment.)
      if (input.startsWith('<!DOCTYPE')) cases.push({ kind: 'document', input, context: null, scripting: false, origin });
      cases.push({ kind: 'fragment', input, context: { name: 'body' }, scripting: true, origin });
    }
    await check('sweep', cases);
  });

  test('random documents and fragments', async (ctx) => {
    if (ours === null) return ctx.skip();
    const root = new Rng(seed);
    const docRng = root.fork();
    const fragRng = root.fork();
    const cases: Case[] = [];
    for (let i = 0; i < DOCS; i++) {
      cases.push({ kind: 'document', input: generateDocument(docRng), context: null, scripting: false, origin: `seed ${seed} document #${i}` });
    }
    for (let i = 0; i < FRAGMENTS; i++) {
      const context = FRAGMENT_CONTEXTS[i % FRAGMENT_CONTEXTS.length]!;
      cases.push({
        kind: 'fragment',
        input: generateFragment(fragRng, context),
        context,
        // innerHTML on a template parses into its template contents, whose node document (inert, no browsing
        // context) has scripting disabled (whatwg/html 4c4c8136); every other context: scripting on.
        scripting: !isTemplateContext(context),
        origin: `seed ${seed} fragment #${i}`,
      });
    }
    await check('random', cases);
  });

  test('the shared corpus: whole files and random windows of them', async (ctx) => {
    if (ours === null) return ctx.skip();
    const files = corpusFiles(CORPUS_FOLDERS, SUITE);
    if (files === null) return ctx.skip();
    // The third fork of the run's seed (the random test takes the first two), so each test's inputs stand alone.
    const root = new Rng(seed);
    root.fork();
    root.fork();
    const rng = root.fork();
    const cases: Case[] = [];
    for (const f of files) {
      const name = `${f.folder}/${f.name}`;
      cases.push({ kind: 'document', input: f.text, context: null, scripting: false, origin: `corpus ${name}` });
      cases.push({ kind: 'fragment', input: f.text, context: { name: 'body' }, scripting: true, origin: `corpus ${name} in <body>` });
    }
    for (let i = 0; i < WINDOWS; i++) {
      const f = files[rng.int(files.length)]!;
      const { start, input } = corpusWindow(rng, f.text);
      const context = FRAGMENT_CONTEXTS[rng.int(FRAGMENT_CONTEXTS.length)]!;
      const origin = `corpus ${f.folder}/${f.name} [${start}, +${input.length}]`;
      if (rng.chance(0.25)) cases.push({ kind: 'document', input, context: null, scripting: false, origin });
      else cases.push({ kind: 'fragment', input, context, scripting: !isTemplateContext(context), origin });
    }
    await check('corpus', cases);
  });
});

function isTemplateContext(context: { name: string; namespace?: string } | null): boolean {
  return context !== null && context.name === 'template' && (context.namespace ?? 'http://www.w3.org/1999/xhtml') === 'http://www.w3.org/1999/xhtml';
}
