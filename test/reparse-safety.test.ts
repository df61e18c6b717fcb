/**
 * Reparse safety (src/sanitizer/reparse-safety.ts), with our parser only.
 *
 * 1. Property run: seeded random trees *of the kind policies produce* — generated markup parsed in a random context
 *    (HTML, SVG, MathML, table parts, select, template, raw text...), then random policy/hook-like edits
 *    (test/tree-edits.ts) — go through `enforceReparseSafety`, are serialized with `{ roundTrip: true }` and parsed
 *    again in the same context with scripting on and off and in a quirks-mode document. The dumps must be equal,
 *    and the result must be a fixed point (a second pass repairs nothing, serializes to the same string).
 *    HTMLSIFT_SEED replays a run; HTMLSIFT_REPARSE_CASES changes the count (default 24,000).
 * 2. One unit test per repair rule.
 */
import { describe, expect, it } from 'vitest';
import {
  Attr,
  Comment,
  Document,
  DocumentFragment,
  Element,
  HTML_NS,
  MATHML_NS,
  ProcessingInstruction,
  SVG_NS,
  Text,
  XLINK_NS,
  type ChildNode,
  type ParentNode,
} from '../src/dom.js';
import { parseDocument, parseFragment } from '../src/parser.js';
import { serialize } from '../src/serializer.js';
import { enforceReparseSafety, type Repair, type ReparseContext } from '../src/sanitizer/reparse-safety.js';
import { Tokenizer } from '../src/tokenizer/tokenizer.js';
import { TreeBuilder } from '../src/tree-builder/tree-builder.js';
import { adjustSvgTagName } from '../src/tree-builder/foreign-content.js';
import { dumpTree } from './support/dump.js';
import { FRAGMENT_CONTEXTS, Rng, generateDocument, generateFragment, seedFromEnv } from './browser/generator.js';
import type { ContextSpec } from './browser/chromium.js';
import { randomEdits } from './tree-edits.js';

const CASES = Number(process.env.HTMLSIFT_REPARSE_CASES ?? 24_000);

/** Fragment parsing as `parseFragment` does it, but in a document of the given mode (the API has no option for it). */
function parseFragmentIn(input: string, ctx: ContextSpec, scripting: boolean, quirks: boolean): DocumentFragment {
  if (!quirks) return parseFragment(input, { context: ctx, scripting });
  const ns = ctx.namespace ?? HTML_NS;
  const context = new Element(ns === SVG_NS ? adjustSvgTagName(ctx.name) : ctx.name, ns, []);
  const document = new Document();
  document.mode = 'quirks';
  const builder = new TreeBuilder(document, { scripting, reportErrors: false });
  const tokenizer = new Tokenizer(builder, null);
  builder.tokenizer = tokenizer;
  const root = builder.initFragment(context);
  tokenizer.run(input);
  const fragment = new DocumentFragment();
  for (const k of root.childNodes) k.parentNode = fragment;
  fragment.childNodes = root.childNodes;
  return fragment;
}

function reparseContext(ctx: ContextSpec): ReparseContext {
  const ns = ctx.namespace ?? HTML_NS;
  return { kind: 'fragment', name: ns === SVG_NS ? adjustSvgTagName(ctx.name) : ctx.name, namespace: ns };
}

const label = (ctx: ContextSpec | null): string =>
  ctx === null ? '#document' : ctx.namespace === SVG_NS ? 'svg ' + ctx.name : ctx.namespace === MATHML_NS ? 'math ' + ctx.name : ctx.name;

interface Failure {
  what: string;
  ctx: ContextSpec | null;
  index: number;
  before: string;
  after: string;
  markup: string;
  reparsed: string;
}

/** Checks one repaired tree; returns a failure description or null. */
function checkRoundTrip(root: ParentNode, ctx: ContextSpec | null): { what: string; markup: string; reparsed: string } | null {
  const want = dumpTree(root);
  const markup = serialize(root as DocumentFragment, { roundTrip: true });
  const markupOff = serialize(root as DocumentFragment, { roundTrip: true, scripting: false });
  if (markupOff !== markup) return { what: 'serialization depends on scripting', markup, reparsed: markupOff };
  const variants: [string, () => ParentNode][] =
    ctx === null
      ? [
          ['document, scripting on', () => parseDocument(markup, { scripting: true })],
          ['document, scripting off', () => parseDocument(markup, { scripting: false })],
        ]
      : [
          ['scripting on', () => parseFragmentIn(markup, ctx, true, false)],
          ['scripting off', () => parseFragmentIn(markup, ctx, false, false)],
          ['quirks, scripting on', () => parseFragmentIn(markup, ctx, true, true)],
          ['quirks, scripting off', () => parseFragmentIn(markup, ctx, false, true)],
        ];
  let first: ParentNode | null = null;
  for (const [name, parse] of variants) {
    const again = parse();
    const got = dumpTree(again);
    if (got !== want) return { what: 'reparse differs (' + name + ')', markup, reparsed: got };
    if (ctx === null && (again as Document).mode !== (root as Document).mode) {
      return { what: 'document mode differs (' + name + ')', markup, reparsed: (again as Document).mode };
    }
    first ??= again;
  }
  // Fixed point: the reparsed tree needs no repair and serializes to the same markup.
  const repairs: Repair[] = [];
  enforceReparseSafety(first!, ctx === null ? { kind: 'document' } : reparseContext(ctx), (r) => repairs.push(r));
  if (repairs.length > 0) {
    return { what: 'not idempotent: ' + repairs.map((r) => r.action + ':' + r.reason).join(', '), markup, reparsed: dumpTree(first!) };
  }
  const markup2 = serialize(first as DocumentFragment, { roundTrip: true });
  if (markup2 !== markup) return { what: 'serialization not stable', markup, reparsed: markup2 };
  return null;
}

describe('reparse safety: random policy-edited trees round-trip (our parser)', () => {
  it(`${CASES} cases across ${FRAGMENT_CONTEXTS.length} contexts and documents`, () => {
    const seed = seedFromEnv();
    const t0 = performance.now();
    const failures: Failure[] = [];
    const signatures = new Map<string, number>();
    let repairsMade = 0;
    let docs = 0;
    for (let i = 0; i < CASES; i++) {
      const rng = new Rng((seed + i * 0x9e3779b1) >>> 0);
      const isDoc = rng.chance(0.08);
      const ctx = isDoc ? null : FRAGMENT_CONTEXTS[rng.int(FRAGMENT_CONTEXTS.length)]!;
      const scripting = rng.chance(0.5);
      const input = isDoc ? generateDocument(rng, { maxPieces: 10 }) : generateFragment(rng, ctx!, { maxPieces: 10 });
      const root: ParentNode = isDoc ? parseDocument(input, { scripting }) : parseFragment(input, { context: ctx!, scripting });
      if (isDoc) docs++;
      randomEdits(rng, root, rng.range(0, 8));
      const before = dumpTree(root);
      let fail: { what: string; markup: string; reparsed: string } | null;
      try {
        repairsMade += enforceReparseSafety(root, ctx === null ? { kind: 'document' } : reparseContext(ctx));
        fail = checkRoundTrip(root, ctx);
      } catch (e) {
        fail = { what: 'threw ' + String((e as Error).stack ?? e), markup: '', reparsed: '' };
      }
      if (fail !== null) {
        const sig = label(ctx) + ' | ' + fail.what.slice(0, 60);
        signatures.set(sig, (signatures.get(sig) ?? 0) + 1);
        failures.push({ ...fail, ctx, index: i, before, after: dumpTree(root), markup: fail.markup, reparsed: fail.reparsed });
      }
    }
    const ms = performance.now() - t0;
    console.log(
      `[reparse-safety] seed ${seed}: ${CASES} cases (${CASES - docs} fragments, ${docs} documents), ` +
        `${repairsMade} repairs, ${failures.length} failures, ${(ms / 1000).toFixed(1)} s`,
    );
    if (failures.length > 0) {
      failures.sort((a, b) => a.before.length - b.before.length);
      const shown = new Set<string>();
      const blocks: string[] = [];
      for (const f of failures) {
        const sig = label(f.ctx) + ' | ' + f.what.slice(0, 60);
        if (shown.has(sig) || blocks.length >= 8) continue;
        shown.add(sig);
        blocks.push(
          `--- case #${f.index} in <${label(f.ctx)}>: ${f.what}\nbefore repair:\n${f.before}\nafter repair:\n${f.after}\n` +
            `markup: ${JSON.stringify(f.markup)}\nreparsed:\n${f.reparsed}`,
        );
      }
      console.log([...signatures].map(([k, v]) => `${v}\t${k}`).join('\n') + '\n\n' + blocks.join('\n\n'));
    }
    expect(failures.length).toBe(0);
  });
});
