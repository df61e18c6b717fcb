/**
 * Round-trip acceptance against Chromium: the sanitizer's output, parsed by a browser in the same context, is exactly
 * the sanitized tree — with scripting on (innerHTML on a disconnected element of the page's document) and off
 * (innerHTML on an element of a DOMParser document, which has no browsing context, so the fragment parser runs with
 * the scripting flag off: chromium.ts's `contextElement`; a noscript context then parses its content as markup) —
 * and sanitizing the output again changes nothing.
 *
 * Each case is (markup, context, policy): markup from the parser differential's corner-hunting generator (or, for
 * 30% of the fragments, the Sanitizer API parity test's markup generator), a context
 * from HTML, SVG and MathML (table parts, select, template, raw text, ...), and a policy:
 * - a Sanitizer API configuration: the default, `{}` with safe: false, allow-lists and replaceWithChildren lists that
 *   keep table parts but not tables, lists without li, select without option, svg without foreignObject, ...;
 * - an htmlsift policy (src/policy) with element renames (span→p, b→td, var→svg, kbd→noscript, ...), unwraps, drops
 *   and an onElement hook (HTML, SVG and MathML renames, to upper-case and prefixed names too);
 * - "edited": a configuration followed by random policy/hook-like edits (test/tree-edits.ts: unwraps, drops,
 *   renames across namespaces, moved subtrees, awkward text/comments/PIs/attributes) and `enforceReparseSafety`.
 * About 10% of the cases are whole documents (sanitizeDocument; DOMParser in Chromium, and the document mode).
 * For every case: `sanitize(x)` equals the serialization of `sanitizeFragment(x, { reparseSafe: true })`; Chromium's
 * dump of `sanitize(x)` equals that tree's dump (scripting on and off); `sanitize(sanitize(x)) === sanitize(x)`
 * (edited cases: the reparsed output needs no repair). Mismatches are minimized (delta debugging on the markup) and
 * printed.
 *
 * Then real markup: every file of the shared corpus (web pages, email templates, clipboard HTML) as a document and as
 * a fragment in `<body>`, sanitized by the built-in policy its users would use (pages: `comment`, email: `email`,
 * clipboard: `paste`), and seeded windows cut from those files at random offsets, in random contexts, with the
 * built-in policy or a random case's configuration, policy and edits. That part skips, with one line, without the
 * shared data.
 *
 *   HTMLSIFT_SEED=123 npx vitest run --config vitest.browser.config.ts test/browser/round-trip.test.ts
 *   HTMLSIFT_ROUNDTRIP_CASES=50000 ...   # longer run (default 10,000)
 *   HTMLSIFT_ROUNDTRIP_WINDOWS=20000 ... # more corpus windows (default 2,000)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Document, type DocumentFragment, Element, HTML_NS, MATHML_NS, SVG_NS, Text } from '../../src/dom.js';
import { parseDocument, parseFragment } from '../../src/parser.js';
import { sanitize, sanitizeDocument, sanitizeFragment } from '../../src/sanitize.js';
import { enforceReparseSafety, type Repair } from '../../src/sanitizer/reparse-safety.js';
import type { SanitizerSpec } from '../../src/sanitizer-api/sanitize.js';
import { type Policy, compilePolicy } from '../../src/policy/index.js';
import { serialize } from '../../src/serializer.js';
import { dumpTree } from '../support/dump.js';
import {
  chromiumParse,
  chromiumSkipReason,
  contextLabel,
  launchChromium,
  openParserPage,
  type BrowserCase,
  type ContextSpec,
} from './chromium.js';
import { FRAGMENT_CONTEXTS, Rng, generateDocument, generateFragment, seedFromEnv } from './generator.js';
import { minimize, showInput } from './minimize.js';
import { randomMarkup } from './sanitizer-generator.js';
import { randomEdits } from '../tree-edits.js';
import { corpusFiles, corpusWindow } from '../support/shared.js';
import { comment, email, paste } from '../../policies/index.js';

const SUITE = 'round-trip';
const CASES = Number(process.env.HTMLSIFT_ROUNDTRIP_CASES ?? 10_000);
/** Windows cut from the shared corpus's files per run. */
const WINDOWS = Number(process.env.HTMLSIFT_ROUNDTRIP_WINDOWS ?? 2000);
const BATCH = 500;
const MAX_DEPTH = 480;
const MAX_REPORTED = 10;
/** Share of whole documents (sanitizeDocument, DOMParser). */
const DOCUMENT_SHARE = 0.1;


const svg = (name: string): { name: string; namespace: string } => ({ name, namespace: SVG_NS });
const math = (name: string): { name: string; namespace: string } => ({ name, namespace: MATHML_NS });

interface PolicySpec {
  id: string;
  sanitizer: SanitizerSpec | undefined;
  safe: boolean;
  /** An htmlsift policy (src/policy): renames, unwraps, drops, hooks. */
  policy?: Policy;
}

/**
 * htmlsift policies that rename and unwrap. Their renames map a set of names onto names outside that set (and
 * outside what reparse safety creates: div, tbody, tr, colgroup, html, head, body), so a second pass has nothing
 * left to rename and `sanitize(sanitize(x)) === sanitize(x)` must hold for them too.
 */
const RENAMES: Record<string, string> = {
  span: 'p', em: 'a', i: 'form', u: 'option', small: 'select', strong: 'li', b: 'td', code: 'h1', q: 'nobr',
  sub: 'button', sup: 'table', abbr: 'image', var: 'svg', cite: 'math', kbd: 'noscript', samp: 'plaintext',
  s: 'textarea', strike: 'xmp', big: 'style', tt: 'caption', label: 'dd', nav: 'dt', article: 'h2',
};
const HOOK_RENAMES: Record<string, string> = {
  h3: 'h1', h4: 'h2', h5: 'li', section: 'menu', aside: 'x:y', figure: 'my-el', g: 'foreignobject', path: 'desc',
  rect: 'title', mrow: 'mi', mn: 'annotation-xml', mo: 'svg', circle: 'font', header: 'frameset', footer: 'body',
};
const HTMLSIFT_POLICIES: readonly PolicySpec[] = [
  {
    id: 'htmlsift-renames',
    sanitizer: {},
    safe: false,
    policy: { sanitizer: {}, elements: Object.fromEntries(Object.entries(RENAMES).map(([k, v]) => [k, { rename: v }])) },
  },
  {
    id: 'htmlsift-renames-safe',
    sanitizer: {},
    safe: true,
    policy: { sanitizer: {}, elements: Object.fromEntries(Object.entries(RENAMES).map(([k, v]) => [k, { rename: v }])) },
  },
  {
    id: 'htmlsift-unwraps',
    sanitizer: {},
    safe: false,
    policy: {
      sanitizer: {},
      elements: {
        table: { unwrap: true }, ul: { unwrap: true }, ol: { unwrap: true }, select: { unwrap: true }, p: { unwrap: true },
        a: { unwrap: true }, form: { unwrap: true }, svg: { unwrap: true }, math: { unwrap: true }, li: { drop: true },
        option: { drop: true }, thead: { unwrap: true }, caption: { unwrap: true },
      },
    },
  },
  {
    id: 'htmlsift-hooks',
    sanitizer: {},
    safe: false,
    policy: {
      sanitizer: {},
      hooks: {
        onElement: (el) => {
          const to = HOOK_RENAMES[el.localName];
          if (to !== undefined) return { rename: to };
          if (el.localName === 'dl' || el.localName === 'ruby' || el.localName === 'mtext') return 'unwrap';
          return undefined;
        },
      },
    },
  },
];

/** The built-in policies, each for the corpus folder its users bring (policies/). */
const BUILTIN_POLICIES: readonly (PolicySpec & { folder: string })[] = [
  { id: 'builtin-comment', folder: 'corpus/pages', sanitizer: undefined, safe: true, policy: comment },
  { id: 'builtin-email', folder: 'corpus/email', sanitizer: undefined, safe: true, policy: email },
  { id: 'builtin-paste', folder: 'corpus/paste', sanitizer: undefined, safe: true, policy: paste },
];

/** Sanitizer API configurations whose output trees stress reparse safety. */
const POLICIES: readonly PolicySpec[] = [
  { id: 'default', sanitizer: undefined, safe: true },
  { id: 'default-unsafe', sanitizer: 'default', safe: false },
  { id: 'permissive-unsafe', sanitizer: {}, safe: false },
  { id: 'permissive-safe', sanitizer: {}, safe: true },
  { id: 'table-parts-without-table', sanitizer: { replaceWithChildrenElements: ['table'] }, safe: false },
  {
    id: 'allow-table-parts-only',
    sanitizer: {
      elements: ['tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup', 'col', 'b', 'p', 'a', 'span', 'div'],
      replaceWithChildrenElements: ['table', 'ul', 'li', 'select', 'svg', 'math'],
    },
    safe: true,
  },
  { id: 'lists-without-li', sanitizer: { replaceWithChildrenElements: ['li'] }, safe: false },
  { id: 'select-without-option', sanitizer: { replaceWithChildrenElements: ['option', 'optgroup'] }, safe: false },
  { id: 'svg-without-foreignobject', sanitizer: { replaceWithChildrenElements: [svg('foreignObject'), svg('desc'), svg('title')] }, safe: false },
  { id: 'math-without-token-elements', sanitizer: { replaceWithChildrenElements: [math('mi'), math('mo'), math('mtext'), math('annotation-xml')] }, safe: false },
  {
    id: 'unwrap-structure',
    sanitizer: {
      replaceWithChildrenElements: ['table', 'tbody', 'tr', 'p', 'a', 'form', 'select', 'option', 'ul', 'ol', 'dl', 'button', 'nobr', 'template', 'ruby', 'svg', 'math', 'h1', 'h2'],
    },
    safe: false,
  },
  { id: 'remove-containers', sanitizer: { removeElements: ['table', 'select', 'ul', 'ol', 'svg', 'math', 'template'] }, safe: true },
  {
    id: 'allow-list-blocks',
    sanitizer: {
      elements: ['p', 'div', 'a', 'b', 'i', 'li', 'td', 'tr', 'option', 'form', 'button', 'h1', 'h2', 'span', 'pre', 'textarea', 'br', 'hr', 'input', 'dd', 'dt', 'nobr', 'rt', 'rb', 'rp', 'rtc'],
      replaceWithChildrenElements: ['table', 'tbody', 'ul', 'ol', 'dl', 'select', 'ruby', 'svg', 'math', 'font', 'em'],
      comments: true,
    },
    safe: true,
  },
];

interface Case {
  index: number;
  input: string;
  /** null: a whole document (sanitizeDocument; Chromium's DOMParser, scripting off, plus the document mode). */
  context: ContextSpec | null;
  policy: PolicySpec;
  /** Seed of the random edits after sanitizing, or null for a plain Sanitizer API case. */
  editSeed: number | null;
  scripting: boolean;
}

interface Outcome {
  /** `sanitize(x)` (plain) or the serialization of the edited, repaired tree. */
  output: string;
  /** Dump of the tree the output must parse to. */
  want: string;
  /** Documents: the document mode the output must parse to. */
  mode: string | null;
  /** Problems found on our side alone (consistency, idempotence), empty when none. */
  problems: string[];
}

function sanitizeContext(ctx: ContextSpec): string | { name: string; namespace: string } {
  return (ctx.namespace ?? HTML_NS) === HTML_NS ? ctx.name : { name: ctx.name, namespace: ctx.namespace! };
}

/** Context elements whose children the serializer writes unescaped (sanitize() serializes those fragments so). */
const RAW_TEXT_CONTEXTS = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);

function serializeFor(tree: DocumentFragment, ctx: ContextSpec, scripting: boolean): string {
  if ((ctx.namespace ?? HTML_NS) === HTML_NS && RAW_TEXT_CONTEXTS.has(ctx.name)) {
    const host = new Element(ctx.name, HTML_NS, []);
    host.childNodes = tree.childNodes;
    return serialize(host, { roundTrip: true, scripting });
  }
  return serialize(tree, { roundTrip: true, scripting });
}

function reparseContext(ctx: ContextSpec): { kind: 'fragment'; name: string; namespace: string } {
  // The sanitizer resolves SVG names through parseFragment's context element (foreignObject stays camel-cased).
  return { kind: 'fragment', name: ctx.name, namespace: ctx.namespace ?? HTML_NS };
}

/** Our side of one case. */
function runOurs(c: Case, input: string): Outcome {
  if (c.context === null) return runOursDocument(c, input);
  const ctx = c.context;
  const problems: string[] = [];
  const options = {
    ...(c.policy.sanitizer !== undefined ? { sanitizer: c.policy.sanitizer } : {}),
    ...(c.policy.policy !== undefined ? { policy: c.policy.policy } : {}),
    safe: c.policy.safe,
    context: sanitizeContext(ctx),
    scripting: c.scripting,
  };
  try {
    if (c.editSeed === null) {
      const output = sanitize(input, options);
      // sanitize() is sanitizeFragment with reparse safety and its URL hardening, serialized (in a raw-text context
      // as the context element writes its children).
      const tree = sanitizeFragment(input, { ...options, reparseSafe: true, hardenUrls: true });
      const want = dumpTree(tree);
      const again = serializeFor(tree, ctx, c.scripting);
      if (again !== output) problems.push('sanitize() differs from serialize(sanitizeFragment(reparseSafe)): ' + showInput(again));
      const twice = sanitize(output, options);
      if (twice !== output) problems.push('not idempotent: sanitize(sanitize(x)) = ' + showInput(twice));
      return { output, want, mode: null, problems };
    }
    const tree: DocumentFragment = sanitizeFragment(input, options);
    const rng = new Rng(c.editSeed);
    randomEdits(rng, tree, rng.range(1, 6));
    enforceReparseSafety(tree, reparseContext(ctx));
    const output = serializeFor(tree, ctx, c.scripting);
    const want = dumpTree(tree);
    const reparsed = parseFragment(output, { context: sanitizeContext(ctx), scripting: c.scripting });
    const repairs: Repair[] = [];
    enforceReparseSafety(reparsed, reparseContext(ctx), (r) => repairs.push(r));
    if (repairs.length > 0) problems.push('reparsed output needs repairs: ' + repairs.map((r) => r.action + ':' + r.reason).join(', '));
    return { output, want, mode: null, problems };
  } catch (e) {
    return { output: '', want: '#threw', mode: null, problems: ['threw: ' + String((e as Error).stack ?? e)] };
  }
}

/** Our side of a document case. Chromium's DOMParser has scripting off, so scripting on is checked with our parser. */
function runOursDocument(c: Case, input: string): Outcome {
  const problems: string[] = [];
  const options = {
    ...(c.policy.sanitizer !== undefined ? { sanitizer: c.policy.sanitizer } : {}),
    ...(c.policy.policy !== undefined ? { policy: c.policy.policy } : {}),
    safe: c.policy.safe,
    scripting: c.scripting,
  };
  try {
    let doc: Document;
    if (c.editSeed === null) {
      doc = sanitizeDocument(input, { ...options, reparseSafe: true, hardenUrls: true });
    } else {
      doc = sanitizeDocument(input, options);
      const rng = new Rng(c.editSeed);
      randomEdits(rng, doc, rng.range(1, 6));
      enforceReparseSafety(doc, { kind: 'document' });
    }
    const output = serialize(doc, { roundTrip: true, scripting: c.scripting });
    const want = dumpTree(doc);
    const on = parseDocument(output, { scripting: true });
    if (dumpTree(on) !== want || on.mode !== doc.mode) problems.push('our parser (scripting on) reads the output differently');
    if (c.editSeed === null) {
      const twice = serialize(sanitizeDocument(output, { ...options, reparseSafe: true, hardenUrls: true }), { roundTrip: true, scripting: c.scripting });
      if (twice !== output) problems.push('not idempotent: sanitizeDocument twice = ' + showInput(twice));
    } else {
      const repairs: Repair[] = [];
      enforceReparseSafety(parseDocument(output, { scripting: c.scripting }), { kind: 'document' }, (r) => repairs.push(r));
      if (repairs.length > 0) problems.push('reparsed output needs repairs: ' + repairs.map((r) => r.action + ':' + r.reason).join(', '));
    }
    return { output, want, mode: doc.mode, problems };
  } catch (e) {
    return { output: '', want: '#threw', mode: null, problems: ['threw: ' + String((e as Error).stack ?? e)] };
  }
}

function label(c: Case): string {
  return c.context === null ? '#document' : contextLabel(c.context);
}

function describeCase(c: Case): string {
  return (
    `<${label(c)}>, policy ${c.policy.id}${c.editSeed !== null ? ' + edits (seed ' + c.editSeed + ')' : ''}, ` +
    `sanitized with scripting ${c.scripting ? 'on' : 'off'}`
  );
}

const skipBrowser = chromiumSkipReason(SUITE) !== null;

describe.skipIf(skipBrowser)('sanitizer output round-trips through Chromium', () => {
  let browser: Browser;
  let page: Page;
  const seed = seedFromEnv();

  beforeAll(async () => {
    browser = await launchChromium();
    page = await openParserPage(browser);
    console.log(`[${SUITE}] ${browser.version()}; seed ${seed} (replay: HTMLSIFT_SEED=${seed})`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Chromium's dumps of `output` in the case's context, scripting on and off. */
  async function chromiumDumps(items: { c: Case; output: string }[]): Promise<{ on: string; off: string; mode: string | null; deep: boolean }[]> {
    const wire: BrowserCase[] = [];
    for (const { c, output } of items) {
      // Documents: DOMParser only (no browsing context, so scripting off); our parser checks scripting on.
      wire.push({ input: output, context: c.context, scripting: c.context !== null });
      if (c.context !== null) wire.push({ input: output, context: c.context, scripting: false });
    }
    const res = await chromiumParse(page, wire);
    const out: { on: string; off: string; mode: string | null; deep: boolean }[] = [];
    let k = 0;
    for (const { c } of items) {
      const on = res[k++]!;
      const off = c.context !== null ? res[k++]! : on;
      out.push({ on: on.dump, off: off.dump, mode: on.mode, deep: on.depth >= MAX_DEPTH || off.depth >= MAX_DEPTH });
    }
    return out;
  }

  const c0 = (c: Case): boolean => c.context === null;

  /** 'ok', 'deep', or a description of the failure. */
  async function verdicts(items: { c: Case; input: string }[], compareDeep = false): Promise<string[]> {
    const ours = items.map(({ c, input }) => runOurs(c, input));
    const dumps = await chromiumDumps(items.map(({ c }, i) => ({ c, output: ours[i]!.output })));
    return ours.map((o, i) => {
      const d = dumps[i]!;
      if (o.problems.length > 0) return o.problems.join('; ');
      if (d.deep && !compareDeep) return 'deep';
      if (d.on !== o.want) return c0(items[i]!.c) ? 'chromium (DOMParser) differs' : 'chromium (scripting on) differs';
      if (d.mode !== o.mode) return 'chromium document mode differs: ' + d.mode + ' vs ' + o.mode;
      if (d.off !== o.want) return 'chromium (scripting off) differs';
      return 'ok';
    });
  }

  async function report(c: Case, verdict: string): Promise<string> {
    // An exception is not a parse differential: show it as it is.
    const min = verdict.startsWith('threw') ? { input: c.input, tested: 0, rounds: 0 } : await minimize(
      c.input,
      async (candidates) => {
        const v = await verdicts(candidates.map((input) => ({ c, input })));
        return v.map((x) => x !== 'ok' && x !== 'deep' && x.split(':')[0] === verdict.split(':')[0]);
      },
      1500,
    );
    const o = runOurs(c, min.input);
    const [d] = await chromiumDumps([{ c, output: o.output }]);
    return [
      `--- case #${c.index}: ${describeCase(c)}: ${verdict.slice(0, 400)}`,
      `input (${c.input.length} chars): ${showInput(c.input)}`,
      `minimized (${min.input.length} chars, ${min.tested} candidates): ${showInput(min.input)}`,
      `our output: ${showInput(o.output)}`,
      ...(o.problems.length ? ['problems: ' + o.problems.join('; ').slice(0, 2000)] : []),
      'sanitized tree:',
      o.want,
      'chromium, scripting on:',
      d!.on,
      ...(d!.off !== d!.on ? ['chromium, scripting off:', d!.off] : []),
    ].join('\n');
  }

  test('scripting off really is off: innerHTML on an element of a DOMParser document parses noscript as markup', async () => {
    const input = '<noscript><p>x</p></noscript>';
    const [on, off] = await chromiumParse(page, [
      { input, context: { name: 'div' }, scripting: true },
      { input, context: { name: 'div' }, scripting: false },
    ]);
    expect(on!.dump).toBe(dumpTree(parseFragment(input, { context: 'div', scripting: true })));
    expect(off!.dump).toBe(dumpTree(parseFragment(input, { context: 'div', scripting: false })));
    expect(off!.dump).not.toBe(on!.dump);
  });

  test('the comparison detects output that does not round-trip (unrepaired p in p, row in a div)', async () => {
    // Trees a policy could build, serialized without reparse safety: Chromium must parse them into other trees.
    const node = (name: string, ...kids: (Element | string)[]): Element => {
      const e = new Element(name, HTML_NS, []);
      for (const k of kids) {
        const n = typeof k === 'string' ? new Text(k) : k;
        n.parentNode = e;
        e.childNodes.push(n);
      }
      return e;
    };
    for (const tree of [node('p', 'a', node('p', 'b'), 'c'), node('div', node('tr', node('td', 'x')))]) {
      const holder = node('body', tree);
      const c = { context: { name: 'body' } } as Case;
      const [d] = await chromiumDumps([{ c, output: serialize(holder) }]);
      expect(d!.on).not.toBe(dumpTree(holder));
      // ...and reparse safety repairs exactly that.
      enforceReparseSafety(holder, { kind: 'fragment', name: 'body', namespace: HTML_NS });
      const [r] = await chromiumDumps([{ c, output: serialize(holder, { roundTrip: true }) }]);
      expect(r!.on).toBe(dumpTree(holder));
    }
  });

  test('nesting at and beyond the depth browsers build (512) round-trips', async () => {
    const openers = ['<div>', '<b>', '<span>', '<svg><g>', '<template>', '<table><tbody><tr><td>', '<ul><li>', '<math><mi>', '<a><p>'];
    const contexts: (ContextSpec | null)[] = [{ name: 'body' }, { name: 'div' }, { name: 'template' }, { name: 'svg', namespace: SVG_NS }, null];
    const items: { c: Case; input: string }[] = [];
    let index = 0;
    for (const open of openers) {
      for (const n of [255, 256, 510, 511, 512, 513, 520, 1200]) {
        const context = contexts[index % contexts.length]!;
        const policy = POLICIES[index % 3]!;
        const input = open.repeat(Math.ceil(n / (open.split('<').length - 1))) + 'x';
        items.push({ c: { index: index++, input, context, policy, editSeed: null, scripting: true }, input });
      }
    }
    const v = await verdicts(items, true);
    const bad = items.map((it, i) => [it, v[i]!] as const).filter(([, x]) => x !== 'ok');
    for (const [it, x] of bad.slice(0, 3)) console.log(`[${SUITE}] deep: ${describeCase(it.c)}: ${x} (${it.input.slice(0, 40)}...)`);
    console.log(`[${SUITE}] deep nesting: ${items.length} cases, ${bad.length} failures`);
    expect(bad.length).toBe(0);
  });

  test(`${CASES} generated (markup, context, policy) cases`, async () => {
    const t0 = performance.now();
    const root = new Rng(seed);
    // src/policy is young: a policy its compiler rejects is reported and left out rather than failing every case.
    const usablePolicies = HTMLSIFT_POLICIES.filter((p) => {
      try {
        compilePolicy(p.policy!);
        return true;
      } catch (e) {
        console.log(`[${SUITE}] htmlsift policy ${p.id} left out: ${String(e).split('\n')[0]}`);
        return false;
      }
    });
    const cases: Case[] = [];
    for (let i = 0; cases.length < CASES; i++) {
      const rng = root.fork();
      const isDocument = rng.chance(DOCUMENT_SHARE);
      const context = isDocument ? null : FRAGMENT_CONTEXTS[rng.int(FRAGMENT_CONTEXTS.length)]!;
      const input =
        context === null
          ? generateDocument(rng, { maxPieces: 14 })
          : rng.chance(0.3)
            ? randomMarkup(rng, context) // the Sanitizer API parity test's markup (attributes, foreign content, ...)
            : generateFragment(rng, context, { maxPieces: 12 });
      const policy = rng.chance(0.25) && usablePolicies.length > 0 ? rng.pick(usablePolicies) : rng.pick(POLICIES);
      const editSeed = rng.chance(0.35) ? rng.u32() : null;
      cases.push({ index: i, input, context, policy, editSeed, scripting: rng.chance(0.5) });
    }

    await checkCases(cases, t0, `${POLICIES.length} Sanitizer API configurations and ${usablePolicies.length} htmlsift policies`);
  });

  test('the shared corpus: whole files and windows, with the built-in policies and random cases', async (ctx) => {
    const t0 = performance.now();
    const files = corpusFiles(BUILTIN_POLICIES.map((p) => p.folder), SUITE);
    if (files === null) return ctx.skip();
    const policyOf = (folder: string): PolicySpec => BUILTIN_POLICIES.find((p) => p.folder === folder)!;
    const cases: Case[] = [];
    for (const f of files) {
      const policy = policyOf(f.folder);
      cases.push({ index: cases.length, input: f.text, context: null, policy, editSeed: null, scripting: false });
      cases.push({ index: cases.length, input: f.text, context: { name: 'body' }, policy, editSeed: null, scripting: true });
    }
    // Its own stream: the seed's fork after the ones the generated cases take would shift with their count.
    const rng = new Rng((seed ^ 0x9e3779b9) >>> 0);
    const others = [...POLICIES, ...HTMLSIFT_POLICIES];
    for (let i = 0; i < WINDOWS; i++) {
      const f = files[rng.int(files.length)]!;
      const { input } = corpusWindow(rng, f.text);
      const isDocument = rng.chance(DOCUMENT_SHARE);
      const context = isDocument ? null : FRAGMENT_CONTEXTS[rng.int(FRAGMENT_CONTEXTS.length)]!;
      const builtin = rng.chance(0.5);
      const policy = builtin ? policyOf(f.folder) : rng.pick(others);
      const editSeed = !builtin && rng.chance(0.35) ? rng.u32() : null;
      cases.push({ index: cases.length, input, context, policy, editSeed, scripting: rng.chance(0.5) });
    }
    await checkCases(cases, t0, `${files.length} corpus files, ${WINDOWS} windows, ${BUILTIN_POLICIES.length} built-in policies`);
  });

  /** Runs `cases` in batches, prints the summary line (and the minimized failures), and fails on any failure. */
  async function checkCases(cases: Case[], t0: number, what: string): Promise<void> {
    const stats = new Map<string, number>();
    const failures: { c: Case; verdict: string }[] = [];
    let ok = 0;
    let deep = 0;
    let idempotenceFailures = 0;
    let chromiumMismatches = 0;
    for (let b = 0; b < cases.length; b += BATCH) {
      const batch = cases.slice(b, b + BATCH);
      const v = await verdicts(batch.map((c) => ({ c, input: c.input })));
      for (let i = 0; i < batch.length; i++) {
        const c = batch[i]!;
        const key = c.policy.id + (c.editSeed !== null ? '+edits' : '');
        stats.set(key, (stats.get(key) ?? 0) + 1);
        if (v[i] === 'ok') ok++;
        else if (v[i] === 'deep') deep++;
        else {
          if (v[i]!.startsWith('chromium')) chromiumMismatches++;
          else idempotenceFailures++;
          failures.push({ c, verdict: v[i]! });
        }
      }
    }
    const ms = performance.now() - t0;
    const contexts = new Set(cases.map(label)).size;
    const documents = cases.filter((c) => c.context === null).length;
    const edited = cases.filter((c) => c.editSeed !== null).length;
    const parses = cases.length * 2 - documents;
    console.log(
      `[${SUITE}] seed ${seed}: ${cases.length} cases (${cases.length - edited} sanitized, ${edited} sanitized and edited; ` +
        `${documents} documents) across ${contexts} contexts, ${what}; ${parses} Chromium parses; ` +
        `${ok} round-trip exactly, ${chromiumMismatches} Chromium mismatches, ${idempotenceFailures} idempotence/consistency failures, ` +
        `${deep} too deep to compare; ${(ms / 1000).toFixed(1)} s\n` +
        `[${SUITE}] per policy: ${[...stats].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
    if (failures.length > 0) {
      const blocks: string[] = [];
      const seen = new Set<string>();
      for (const f of failures) {
        const sig = f.c.policy.id + '|' + label(f.c) + '|' + f.verdict.slice(0, 40);
        if (seen.has(sig)) continue;
        seen.add(sig);
        if (blocks.length >= MAX_REPORTED) break;
        blocks.push(await report(f.c, f.verdict));
      }
      console.log(blocks.join('\n\n') + (failures.length > blocks.length ? `\n(${failures.length - blocks.length} more failures not shown)` : ''));
    }
    expect.soft(chromiumMismatches, 'sanitizer output that Chromium parses into another tree').toBe(0);
    expect.soft(idempotenceFailures, 'sanitize(sanitize(x)) !== sanitize(x), or inconsistent output').toBe(0);
  }
});
