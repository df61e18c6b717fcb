/**
 * Sanitizer API parity with Chromium: seeded random (configuration, markup, context element) cases run through
 * Chromium's `el.setHTML(markup, { sanitizer })` and `el.setHTMLUnsafe(markup, { sanitizer })` and through our
 * `setHTMLLike` (safe and unsafe), comparing
 * - `new Sanitizer(config).get()` (JSON) for dictionaries, or "both threw a TypeError" for invalid ones;
 * - for Sanitizer objects built by method calls: every method's return value, get() before and after use;
 * - the resulting trees (html5lib dump), or "both threw a TypeError".
 * A difference fails the run unless a narrow known-deviation predicate below explains it; otherwise its markup is
 * minimized and the seed, configuration, context, markup and both trees are printed.
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/sanitizer-parity.test.ts
 *   HTMLSIFT_SEED=123 ...                     # replay a run (the seed is printed)
 *   HTMLSIFT_SANITIZER_CASES=20000 ...        # longer run (default 4000)
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ELEMENT_NODE, type ChildNode, type Element, type ParentNode } from '../../src/dom.js';
import { Sanitizer, declarativeShadowRootTemplates, setHTMLLike } from '../../src/sanitizer-api/index.js';
import { dumpTree } from '../support/dump.js';
import {
  HTML_NS,
  chromiumSkipReason,
  contextLabel,
  decodeUnits,
  encodeUnits,
  launchChromium,
  type ContextSpec,
} from './chromium.js';
import { Rng, seedFromEnv } from './generator.js';
import { minimize, showInput } from './minimize.js';
import { randomCase, type ConfigSpec, type Json, type SanitizerCase } from './sanitizer-generator.js';

const SUITE = 'sanitizer-parity';
const CASES = Number(process.env.HTMLSIFT_SANITIZER_CASES ?? 4000);
const BATCH = 200;
const MAX_REPORTED = 12;

// ---------------------------------------------------------------------------------------------------------------
// One case's observable outcome, on either side

/** Strings are dumps / JSON; a thrown exception is `throw:<constructor name>`. */
interface Outcome {
  /** get() of `new Sanitizer(dict)` (dict), of the built object before use (object); null otherwise. */
  get: string | null;
  /** Method call results (object). */
  returns: string[];
  /** get() of the object after setHTML and setHTMLUnsafe used it (object); null otherwise. */
  getAfter: string | null;
  /** setHTML result. */
  safe: string;
  /** setHTMLUnsafe result. */
  unsafe: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The page side. Plain JavaScript text. The dumper mirrors test/support/dump.ts (iteratively); on top of it, an
// element with an open shadow root gets a first pseudo-child `<#shadow root>` holding the shadow root's children.

const PAGE_SCRIPT = String.raw`(() => {
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
  const XLINK_NS = 'http://www.w3.org/1999/xlink';
  const XML_NS = 'http://www.w3.org/XML/1998/namespace';
  const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
  const hex4 = (c) => c.toString(16).toUpperCase().padStart(4, '0');
  const enc = (s) => s.replace(/[%\u0000\uD800-\uDFFF]/g, (c) => '%' + hex4(c.charCodeAt(0)));
  const dec = (s) => s.indexOf('%') < 0 ? s : s.replace(/%([0-9A-F]{4})/g, (m, h) => String.fromCharCode(parseInt(h, 16)));
  function elementName(el) {
    if (el.namespaceURI === SVG_NS) return 'svg ' + el.localName;
    if (el.namespaceURI === MATHML_NS) return 'math ' + el.localName;
    if (el.namespaceURI === HTML_NS) return el.localName;
    return el.namespaceURI + ' ' + el.localName;
  }
  function attributeName(a) {
    switch (a.namespaceURI) {
      case null: return a.localName;
      case XLINK_NS: return 'xlink ' + a.localName;
      case XML_NS: return 'xml ' + a.localName;
      case XMLNS_NS: return 'xmlns ' + a.localName;
      default: return a.namespaceURI + ' ' + a.localName;
    }
  }
  const isTemplate = (el) => el.namespaceURI === HTML_NS && el.localName === 'template' && el.content instanceof DocumentFragment;
  function dump(root) {
    const out = [];
    const lists = [root.childNodes];
    const index = [0];
    const depths = [0];
    while (lists.length > 0) {
      const top = lists.length - 1;
      const list = lists[top];
      const i = index[top];
      if (i >= list.length) { lists.pop(); index.pop(); depths.pop(); continue; }
      index[top] = i + 1;
      const depth = depths[top];
      const node = list[i];
      const pad = '| ' + '  '.repeat(depth);
      switch (node.nodeType) {
        case 1: {
          if (node.__shadow) {
            out.push(pad + '<#shadow root>');
            lists.push(node.__shadow.childNodes); index.push(0); depths.push(depth + 1);
            break;
          }
          out.push(pad + '<' + elementName(node) + '>');
          const attrs = [];
          for (const a of node.attributes) attrs.push([attributeName(a), a.value]);
          attrs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          for (const [name, value] of attrs) out.push(pad + '  ' + name + '="' + value + '"');
          lists.push(node.childNodes); index.push(0); depths.push(depth + 1);
          if (isTemplate(node)) {
            out.push(pad + '  content');
            lists.push(node.content.childNodes); index.push(0); depths.push(depth + 2);
          } else if (node.shadowRoot) {
            // An open shadow root: a pseudo-element <#shadow root> before the light children.
            lists.push([{ nodeType: 1, __shadow: node.shadowRoot }]); index.push(0); depths.push(depth + 1);
          }
          break;
        }
        case 3: out.push(pad + '"' + node.data + '"'); break;
        case 4: out.push(pad + '<![CDATA[' + node.data + ']]>'); break;
        case 8: out.push(pad + '<!-- ' + node.data + ' -->'); break;
        case 7: out.push(pad + '<?' + node.target + ' ' + node.data + '?>'); break;
        case 10:
          if (node.publicId !== '' || node.systemId !== '') {
            out.push(pad + '<!DOCTYPE ' + node.name + ' "' + node.publicId + '" "' + node.systemId + '">');
          } else {
            out.push(pad + '<!DOCTYPE ' + node.name + '>');
          }
          break;
        default: out.push(pad + '<#node type ' + node.nodeType + '>');
      }
    }
    return out.join('\n');
  }
  const thrown = (e) => 'throw:' + (e && e.constructor ? e.constructor.name : typeof e);
  const getJson = (s) => { try { return JSON.stringify(s.get()); } catch (e) { return thrown(e); } };
  function setInto(method, ctx, markup, options) {
    const el = ctx.ns === HTML_NS ? document.createElement(ctx.name) : document.createElementNS(ctx.ns, ctx.name);
    try {
      el[method](markup, options);
    } catch (e) {
      return thrown(e);
    }
    return dump(isTemplate(el) ? el.content : el);
  }
  const copy = (v) => JSON.parse(JSON.stringify(v));
  function one(k) {
    const cfg = k.c;
    const markup = dec(k.m);
    const out = { g: null, r: [], a: null, s: '', u: '' };
    let options = {};
    let sanitizer = null;
    switch (cfg.kind) {
      case 'none': break;
      case 'preset': options = { sanitizer: cfg.value }; break;
      case 'dict':
        try { out.g = getJson(new Sanitizer(copy(cfg.value))); } catch (e) { out.g = thrown(e); }
        options = { sanitizer: copy(cfg.value) };
        break;
      case 'object':
        try {
          sanitizer = cfg.init === null ? new Sanitizer() : new Sanitizer(copy(cfg.init));
        } catch (e) {
          out.g = thrown(e);
          break;
        }
        for (const op of cfg.ops) {
          try {
            out.r.push(String(op.m === 'removeUnsafe' ? sanitizer.removeUnsafe() : sanitizer[op.m](copy(op.a))));
          } catch (e) {
            out.r.push(thrown(e));
          }
        }
        out.g = getJson(sanitizer);
        options = { sanitizer };
        break;
    }
    if (cfg.kind === 'object' && sanitizer === null) {
      out.s = out.u = 'no sanitizer';
      return out;
    }
    out.s = setInto('setHTML', k.x, markup, options);
    out.u = setInto('setHTMLUnsafe', k.x, markup, options);
    if (sanitizer !== null) out.a = getJson(sanitizer);
    return out;
  }
  function run(cases) {
    return cases.map((k) => {
      const o = one(k);
      return { g: o.g === null ? null : enc(o.g), r: o.r, a: o.a === null ? null : enc(o.a), s: enc(o.s), u: enc(o.u) };
    });
  }
  function facts() {
    const has = (o, k) => typeof o !== 'undefined' && typeof o[k] === 'function';
    return {
      Sanitizer: typeof Sanitizer === 'function',
      setHTML: has(Element.prototype, 'setHTML'),
      setHTMLUnsafe: has(Element.prototype, 'setHTMLUnsafe'),
      shadowRootSetHTML: has(ShadowRoot.prototype, 'setHTML'),
      parseHTML: has(Document, 'parseHTML'),
      parseHTMLUnsafe: has(Document, 'parseHTMLUnsafe'),
      methods: typeof Sanitizer === 'function' ? Object.getOwnPropertyNames(Sanitizer.prototype).sort() : [],
      defaultGet: typeof Sanitizer === 'function' ? JSON.stringify(new Sanitizer().get()) : null,
      emptyGet: typeof Sanitizer === 'function' ? JSON.stringify(new Sanitizer({}).get()) : null,
      javascriptURLs: typeof Sanitizer === 'function' ? JSON.stringify(new Sanitizer({ javascriptURLs: true }).get()) : null,
    };
  }
  globalThis.__sanitizerParity = { run, facts };
})()`;

interface RawOutcome {
  g: string | null;
  r: string[];
  a: string | null;
  s: string;
  u: string;
}

function wireCase(c: SanitizerCase, markup: string): unknown {
  return { c: c.config, m: encodeUnits(markup), x: { name: c.context.name, ns: c.context.namespace ?? HTML_NS } };
}

async function chromiumRun(page: Page, cases: readonly SanitizerCase[], markups?: readonly string[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (let i = 0; i < cases.length; i += BATCH) {
    const wire = cases.slice(i, i + BATCH).map((c, k) => wireCase(c, markups?.[i + k] ?? c.markup));
    const raw = (await page.evaluate('__sanitizerParity.run(' + JSON.stringify(wire) + ')')) as RawOutcome[];
    if (!Array.isArray(raw) || raw.length !== wire.length) throw new Error('sanitizer-parity: malformed batch result');
    for (const r of raw) {
      out.push({
        get: r.g === null ? null : decodeUnits(r.g),
        returns: r.r,
        getAfter: r.a === null ? null : decodeUnits(r.a),
        safe: decodeUnits(r.s),
        unsafe: decodeUnits(r.u),
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Our side

function thrown(e: unknown): string {
  return 'throw:' + (e !== null && typeof e === 'object' ? (e as object).constructor.name : typeof e);
}

/** JSON round trip: each use gets its own copy, as the page does. */
function copy<T extends Json>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function getJson(s: Sanitizer): string {
  try {
    return JSON.stringify(s.get());
  } catch (e) {
    return thrown(e);
  }
}

interface OurRun {
  outcome: Outcome;
  /** The sanitized fragments (null when it threw), for the known-deviation predicates. */
  safeTree: ParentNode | null;
  unsafeTree: ParentNode | null;
}

function setOurs(markup: string, context: ContextSpec, sanitizer: unknown, safe: boolean): { dump: string; tree: ParentNode | null } {
  try {
    const f = setHTMLLike(markup, { sanitizer: sanitizer as never, context: { name: context.name, namespace: context.namespace ?? HTML_NS }, safe });
    return { dump: dumpTree(f), tree: f };
  } catch (e) {
    return { dump: thrown(e), tree: null };
  }
}

function oursRun(c: SanitizerCase, markup: string): OurRun {
  const cfg: ConfigSpec = c.config;
  const o: Outcome = { get: null, returns: [], getAfter: null, safe: '', unsafe: '' };
  let option: () => unknown = () => undefined;
  let sanitizer: Sanitizer | null = null;
  switch (cfg.kind) {
    case 'none':
      break;
    case 'preset':
      option = () => cfg.value;
      break;
    case 'dict':
      try {
        o.get = getJson(new Sanitizer(copy(cfg.value) as never));
      } catch (e) {
        o.get = thrown(e);
      }
      option = () => copy(cfg.value);
      break;
    case 'object': {
      try {
        sanitizer = cfg.init === null ? new Sanitizer() : new Sanitizer(copy(cfg.init) as never);
      } catch (e) {
        o.get = thrown(e);
        o.safe = o.unsafe = 'no sanitizer';
        return { outcome: o, safeTree: null, unsafeTree: null };
      }
      const s = sanitizer as unknown as Record<string, (a?: unknown) => unknown>;
      for (const op of cfg.ops) {
        try {
          o.returns.push(String(op.m === 'removeUnsafe' ? s.removeUnsafe!.call(sanitizer) : s[op.m]!.call(sanitizer, copy(op.a))));
        } catch (e) {
          o.returns.push(thrown(e));
        }
      }
      o.get = getJson(sanitizer);
      const fixed = sanitizer;
      option = () => fixed;
      break;
    }
  }
  const safe = setOurs(markup, c.context, option(), true);
  const unsafe = setOurs(markup, c.context, option(), false);
  o.safe = safe.dump;
  o.unsafe = unsafe.dump;
  if (sanitizer !== null) o.getAfter = getJson(sanitizer);
  return { outcome: o, safeTree: safe.tree, unsafeTree: unsafe.tree };
}

// ---------------------------------------------------------------------------------------------------------------
// Known deviations

/** Which comparison of a case differs. */
type Part = 'get' | 'returns' | 'getAfter' | 'safe' | 'unsafe';
const PARTS: readonly Part[] = ['get', 'returns', 'getAfter', 'safe', 'unsafe'];

interface DeviationInput {
  c: SanitizerCase;
  part: Part;
  ours: OurRun;
  chromium: Outcome;
}

interface KnownDeviation {
  id: string;
  description: string;
  /** Why we do not (or cannot) match Chromium. */
  why: string;
  matches(d: DeviationInput): boolean;
}

/**
 * Rewrites a sanitized fragment of ours (in place; it is not used afterwards) the way the page shows shadow roots:
 * each template that Chromium turns into a declarative shadow root leaves its host's children; an open one is
 * replaced by a pseudo-element `<#shadow root>` in first position holding the template's (sanitized) contents, a
 * closed one simply goes (the page cannot reach closed shadow roots). Then dumpTree.
 */
function dumpWithShadowRoots(tree: ParentNode, templates: readonly Element[]): string {
  for (const t of templates) {
    const host = t.parentNode;
    if (host === null) continue;
    const kids = host.childNodes;
    kids.splice(kids.indexOf(t), 1);
    if (isOpen(t)) {
      kids.unshift({
        nodeType: ELEMENT_NODE,
        namespaceURI: '#shadow',
        localName: 'root',
        attributes: [],
        childNodes: t.content!.childNodes,
        content: null,
      } as unknown as ChildNode);
    }
  }
  return dumpTree(tree);
}

function isOpen(template: Element): boolean {
  return (template.getAttributeNS(null, 'shadowrootmode') ?? '').toLowerCase() === 'open';
}

const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    id: 'declarative-shadow-root',
    description:
      'setHTML / setHTMLUnsafe parse with declarative shadow roots allowed: a kept <template shadowrootmode> under ' +
      'an eligible host becomes the host\'s shadow root and leaves the light tree. Recognized by dumping our result ' +
      'with the templates declarativeShadowRootTemplates() names shown as shadow roots (open ones with their ' +
      'sanitized contents; closed ones are unreachable from the page and left out): the dumps must then be identical.',
    why: 'htmlsift\'s tree has no shadow roots; setHTMLLike returns the light tree with the template in place.',
    matches(d) {
      if (d.part !== 'safe' && d.part !== 'unsafe') return false;
      const tree = d.part === 'safe' ? d.ours.safeTree : d.ours.unsafeTree;
      if (tree === null) return false;
      const templates = declarativeShadowRootTemplates(tree);
      if (templates.length === 0) return false;
      return dumpWithShadowRoots(tree, templates) === d.chromium[d.part];
    },
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Classification

/** Verdict of one part: 'same', 'diff', or a known deviation id. */
function classifyPart(c: SanitizerCase, part: Part, ours: OurRun, chromium: Outcome): string {
  const a = ours.outcome[part];
  const b = chromium[part];
  const same = part === 'returns' ? (a as string[]).join(',') === (b as string[]).join(',') : a === b;
  if (same) return 'same';
  for (const k of KNOWN_DEVIATIONS) {
    try {
      if (k.matches({ c, part, ours, chromium })) return k.id;
    } catch {
      // A predicate that throws recognizes nothing.
    }
  }
  return 'diff';
}

function classify(c: SanitizerCase, ours: OurRun, chromium: Outcome): Map<Part, string> {
  const out = new Map<Part, string>();
  for (const p of PARTS) out.set(p, classifyPart(c, p, ours, chromium));
  return out;
}

function describeConfig(cfg: ConfigSpec): string {
  switch (cfg.kind) {
    case 'none':
      return '(no sanitizer option)';
    case 'preset':
      return JSON.stringify(cfg.value);
    case 'dict':
      return JSON.stringify(cfg.value);
    case 'object':
      return (
        `new Sanitizer(${cfg.init === null ? '' : JSON.stringify(cfg.init)})` +
        cfg.ops.map((op) => `.${op.m}(${op.m === 'removeUnsafe' ? '' : JSON.stringify(op.a)})`).join('')
      );
  }
}

// ---------------------------------------------------------------------------------------------------------------

const skipBrowser = chromiumSkipReason(SUITE) !== null;

describe.skipIf(skipBrowser)('Sanitizer API parity with Chromium setHTML', () => {
  let browser: Browser;
  let page: Page;
  const seed = seedFromEnv();

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setContent('<!DOCTYPE html><html><head><title>htmlsift</title></head><body></body></html>');
    await page.evaluate(PAGE_SCRIPT);
    console.log(`[${SUITE}] ${browser.version()}; seed ${seed} (replay: HTMLSIFT_SEED=${seed})`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  test('the API surface Chromium exposes, and its built-in configurations, match ours', async () => {
    const f = (await page.evaluate('__sanitizerParity.facts()')) as Record<string, unknown>;
    console.log(
      `[${SUITE}] Chromium exposes Sanitizer=${f.Sanitizer} Element.setHTML=${f.setHTML} setHTMLUnsafe=${f.setHTMLUnsafe} ` +
        `ShadowRoot.setHTML=${f.shadowRootSetHTML} Document.parseHTML=${f.parseHTML} parseHTMLUnsafe=${f.parseHTMLUnsafe}; ` +
        `Sanitizer methods: ${(f.methods as string[]).join(' ')}`,
    );
    expect(f.Sanitizer && f.setHTML && f.setHTMLUnsafe).toBe(true);
    // Every method Chromium's Sanitizer has, ours has (and the reverse).
    const ours = Object.getOwnPropertyNames(Sanitizer.prototype).sort();
    expect(ours).toEqual(f.methods);
    expect(JSON.stringify(new Sanitizer().get())).toBe(f.defaultGet);
    expect(JSON.stringify(new Sanitizer({}).get())).toBe(f.emptyGet);
    // javascriptURLs (whatwg/html#12898) is not a member Chromium 156 knows: it is ignored, like any unknown member.
    expect(JSON.stringify(new Sanitizer({ javascriptURLs: true } as never).get())).toBe(f.javascriptURLs);
  });

  test('random configurations, markup and contexts', async () => {
    const t0 = performance.now();
    const rng = new Rng(seed);
    const cases: SanitizerCase[] = [];
    for (let i = 0; i < CASES; i++) cases.push(randomCase(rng));
    const chromium = await chromiumRun(page, cases);
    const tChromium = performance.now() - t0;
    const stats = new Map<string, number>();
    const bump = (k: string): void => void stats.set(k, (stats.get(k) ?? 0) + 1);
    const diffs: { index: number; part: Part }[] = [];
    let comparisons = 0;
    let invalid = 0;
    let identical = 0;
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      const ours = oursRun(c, c.markup);
      const verdicts = classify(c, ours, chromium[i]!);
      if (chromium[i]!.get?.startsWith('throw:') || chromium[i]!.safe.startsWith('throw:')) invalid++;
      let all = true;
      for (const [part, v] of verdicts) {
        comparisons++;
        if (v !== 'same') all = false;
        if (v === 'diff') diffs.push({ index: i, part });
        else if (v !== 'same') bump(v);
      }
      if (all) identical++;
    }
    const diffCases = new Set(diffs.map((d) => d.index)).size;
    const known = [...stats].map(([k, v]) => `${k}: ${v}`).join(', ');
    const knownTotal = [...stats.values()].reduce((a, b) => a + b, 0);
    const contexts = new Set(cases.map((c) => contextLabel(c.context))).size;
    const kinds = new Map<string, number>();
    for (const c of cases) kinds.set(c.config.kind, (kinds.get(c.config.kind) ?? 0) + 1);
    const line =
      `[${SUITE}] seed ${seed}: ${cases.length} cases (${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ')}; ` +
      `${invalid} throwing) across ${contexts} contexts, ${comparisons} comparisons; ${identical} cases identical, ` +
      `${diffCases} cases with differences (${diffs.length} parts), ${knownTotal} known deviations matched` +
      `${known ? ' (' + known + ')' : ''}; ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
      `(Chromium ${(tChromium / 1000).toFixed(1)} s)`;
    console.log(line);
    if (diffs.length === 0) return;

    // Minimize and print the first differences (one per case and part).
    const blocks: string[] = [];
    const seen = new Set<string>();
    for (const d of diffs.slice(0, MAX_REPORTED)) {
      const c = cases[d.index]!;
      const stillDiffers = async (candidates: string[]): Promise<boolean[]> => {
        const res = await chromiumRun(page, candidates.map(() => c), candidates);
        return candidates.map((m, k) => classifyPart(c, d.part, oursRun(c, m), res[k]!) === 'diff');
      };
      const min = await minimize(c.markup, stillDiffers, 1500);
      const key = d.part + '\n' + describeConfig(c.config) + '\n' + min.input;
      if (seen.has(key)) continue;
      seen.add(key);
      const [ch] = await chromiumRun(page, [c], [min.input]);
      const o = oursRun(c, min.input).outcome;
      const show = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : String(v));
      blocks.push(
        [
          `--- case #${d.index} (seed ${seed}), ${d.part} differs`,
          `config: ${describeConfig(c.config)}`,
          `context: <${contextLabel(c.context)}>`,
          `markup (${c.markup.length} chars): ${showInput(c.markup)}`,
          `minimized (${min.input.length} chars, ${min.tested} candidates): ${showInput(min.input)}`,
          'ours:',
          show(o[d.part]),
          'chromium:',
          show(ch![d.part]),
        ].join('\n'),
      );
    }
    const more = diffs.length > MAX_REPORTED ? `\n(${diffs.length - MAX_REPORTED} more differing parts not minimized)` : '';
    const text = blocks.join('\n\n') + more;
    const file = join(tmpdir(), `htmlsift-${SUITE}-${seed}.txt`);
    writeFileSync(file, line + '\n\n' + text + '\n');
    console.log(text + `\n[${SUITE}] report written to ${file}`);
    expect(diffs.length, 'differences with Chromium (see report above)').toBe(0);
  });
});
