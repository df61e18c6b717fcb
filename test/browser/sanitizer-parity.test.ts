/**
 * Sanitizer API parity with Chromium: seeded random (configuration, markup, context element) cases run through
 * Chromium's `el.setHTML(markup, { sanitizer })` and `el.setHTMLUnsafe(markup, { sanitizer })` and through our
 * `setHTMLLike` (safe and unsafe), comparing
 * - `new Sanitizer(config).get()` (JSON) for dictionaries, or "both threw a TypeError" for invalid ones;
 * - for Sanitizer objects built by method calls: every method's return value, get() before and after use;
 * - the resulting trees (html5lib dump), or "both threw a TypeError".
 * A difference fails the run unless it is explained: by a narrow known deviation below (a Chromium departure from
 * the Sanitizer draft, sanitize-while-parsing, or a parser deviation the page works around), or by the parser-origin
 * check (the unsanitized parses already differ, our sanitizer on Chromium's parse gives Chromium's result, and a
 * predicate of known-deviations.ts recognizes the parse difference). An unexplained part is minimized and the seed,
 * configuration, context, markup and both trees are printed (for parser-caused ones, both unsanitized parses too).
 * There is no tolerance.
 *
 * Then a narrower stream where sanitizing while parsing changes most (adoptionCase): formatting elements, special
 * elements and tables in templates and declarative shadow roots, with elements replaced by their children.
 *
 * Then real markup: windows cut at random offsets from the shared corpus's files (web pages, email templates,
 * clipboard HTML), each with a random configuration and context, and every file whole in `<div>` with the default
 * configuration; skipped, with one line, without the shared data.
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/sanitizer-parity.test.ts
 *   HTMLSIFT_SEED=123 ...                     # replay a run (the seed is printed)
 *   HTMLSIFT_SANITIZER_CASES=20000 ...        # longer run (default 4000)
 *   HTMLSIFT_SANITIZER_WINDOWS=5000 ...       # more corpus windows (default 1000)
 *   HTMLSIFT_SANITIZER_ADOPTION_CASES=20000   # more adoption agency cases (default 1000)
 *   HTMLSIFT_DEBUG=1 ...                      # print the rewrites that threw while explaining
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  Attr,
  Comment,
  Document,
  DocumentFragment,
  ELEMENT_NODE,
  Element,
  ProcessingInstruction,
  TEXT_NODE,
  Text,
  walk,
  type ChildNode,
  type ParentNode,
} from '../../src/dom.js';
import { BASELINE_ELEMENTS_TO_REMOVE, EVENT_HANDLER_ATTRIBUTES } from '../../src/sanitizer-api/builtins.js';
import {
  Sanitizer,
  declarativeShadowRootTemplates,
  getSanitizerInstanceFromOptions,
  parseHTMLLike,
  sanitizeWith,
  setHTMLLike,
  setHTMLSkipsContext,
} from '../../src/sanitizer-api/index.js';
import { serialize } from '../../src/serializer.js';
import { contextElement as fragmentContext, parseFragment } from '../../src/parser.js';
import { removeUnsafeFromConfig, sanitizerState } from '../../src/sanitizer-api/config.js';
import type { CanonicalSanitizerConfig } from '../../src/sanitizer-api/types.js';
import { Tokenizer } from '../../src/tokenizer/tokenizer.js';
import type { TokenSink } from '../../src/tokenizer/token-sink.js';
import { TreeBuilder } from '../../src/tree-builder/tree-builder.js';
import { dumpTree } from '../support/dump.js';
import {
  HTML_NS,
  MATHML_NS,
  PAGE_SCRIPT as PARSER_PAGE_SCRIPT,
  chromiumParse,
  chromiumSkipReason,
  contextLabel,
  decodeUnits,
  encodeUnits,
  launchChromium,
  type ContextSpec,
} from './chromium.js';
import { Rng, seedFromEnv } from './generator.js';
import { matchKnownDeviation } from './known-deviations.js';
import { minimize, showInput } from './minimize.js';
import { OursHost, type WorkerCase } from './ours.js';
import {
  adoptionCase,
  randomCase,
  randomConfig,
  SANITIZER_CONTEXTS,
  type ConfigSpec,
  type Json,
  type MethodCall,
  type SanitizerCase,
} from './sanitizer-generator.js';
import { CORPUS_FOLDERS, corpusFiles, corpusWindow } from '../support/shared.js';

const SUITE = 'sanitizer-parity';
const CASES = Number(process.env.HTMLSIFT_SANITIZER_CASES ?? 4000);
/** Windows cut from the shared corpus's files per run. */
const WINDOWS = Number(process.env.HTMLSIFT_SANITIZER_WINDOWS ?? 1000);
/** Cases of adoptionCase per run: the adoption agency algorithm with replaced elements, in templates. */
const ADOPTION_CASES = Number(process.env.HTMLSIFT_SANITIZER_ADOPTION_CASES ?? 1000);
const BATCH = 200;
const MAX_REPORTED = Number(process.env.HTMLSIFT_SANITIZER_REPORT ?? 12);

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
  /** Chromium only: setHTML ran on the markup with CRASHING_EVENT_HANDLERS renamed to onclick. */
  renamed?: boolean;
  /** Chromium only: the safe / unsafe dumps with `is` attributes renamed to `is-` in start tags (null: not run). */
  isRenamed?: { safe: string | null; unsafe: string | null };
}

// ---------------------------------------------------------------------------------------------------------------
// The page side. Plain JavaScript text. The dumper mirrors test/support/dump.ts (iteratively); on top of it, an
// element with an open shadow root gets a first pseudo-child `<#shadow root>` holding the shadow root's children.

/**
 * Standard event handler content attributes (HTML's index) that Chromium 156's remove unsafe does not list; its
 * setHTML then crashes the renderer when one survives the configuration (a consistency check fires).
 */
const CRASHING_EVENT_HANDLERS = ['onbeforematch', 'onpagereveal', 'onpageswap', 'onrejectionhandled', 'onunhandledrejection'];

const PAGE_SCRIPT = `const CRASHING_EVENT_HANDLERS = ${JSON.stringify(CRASHING_EVENT_HANDLERS)};\n` + String.raw`(() => {
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
      if (options === undefined) el[method](markup);
      else el[method](markup, options);
    } catch (e) {
      return thrown(e);
    }
    return dump(isTemplate(el) ? el.content : el);
  }
  const copy = (v) => JSON.parse(JSON.stringify(v));
  const CRASHERS = new RegExp(CRASHING_EVENT_HANDLERS.join('|'), 'gi');
  // Tags run to the first '>' outside quotes. An attribute may follow a quoted value without white space (a parse
  // error, but an attribute all the same).
  const FORMATTING_IS = /<(?:a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)(?=[\t\n\f\r \/>])(?:[^>"']|"[^"]*"|'[^']*')*?[\t\n\f\r \/"']is(?:[\t\n\f\r \/=>]|$)/i;
  // In every start tag, an attribute named 'is' (any case) becomes 'is-' (a value that looks like one is renamed
  // too; the comparison then simply fails).
  const renameIs = (m) => m.replace(/<[A-Za-z](?:[^>"']|"[^"]*"|'[^']*')*/g, (tag) => tag.replace(/([\t\n\f\r \/"'])(is)(?=[\t\n\f\r \/=>]|$)/gi, '$1$2-'));
  function one(k) {
    const cfg = k.c;
    const markup = dec(k.m);
    const out = { g: null, r: [], a: null, s: '', u: '', k: false, vs: null, vu: null };
    let options;
    let sanitizer = null;
    switch (cfg.kind) {
      // No options argument at all: Chromium 156 treats setHTMLUnsafe(html, {}) as sanitizing (scripting off).
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
    // Chromium 156 crashes the renderer when setHTML meets one of these standard event handler attributes (its
    // remove unsafe list lacks them; a later check does not). Both sides remove them in safe mode like any event
    // handler, so the safe run uses them renamed to onclick (see the known deviation on the Node side).
    const safeMarkup = markup.replace(CRASHERS, 'onclick');
    out.k = safeMarkup !== markup;
    out.s = setInto('setHTML', k.x, safeMarkup, options);
    out.u = setInto('setHTMLUnsafe', k.x, markup, options);
    // The 'is' attribute on formatting elements (a Chromium parser deviation): the same runs with it renamed.
    if (FORMATTING_IS.test(markup)) {
      const renamed = renameIs(markup);
      if (renamed !== markup) {
        out.vs = setInto('setHTML', k.x, renamed.replace(CRASHERS, 'onclick'), options);
        out.vu = setInto('setHTMLUnsafe', k.x, renamed, options);
      }
    }
    if (sanitizer !== null) out.a = getJson(sanitizer);
    return out;
  }
  function run(cases) {
    return cases.map((k) => {
      const o = one(k);
      const e = (v) => (v === null ? null : enc(v));
      return { g: e(o.g), r: o.r, a: e(o.a), s: enc(o.s), u: enc(o.u), k: o.k, vs: e(o.vs), vu: e(o.vu) };
    });
  }
  // The unsanitized parse, as the parse differential makes it (innerHTML on a disconnected context element made by
  // this page's document for scripting on, by a DOMParser document for scripting off), as a JSON tree (iteratively):
  // [1, namespace, localName, [[namespace, prefix, localName, value]...], children, template contents | null],
  // [3, data], [8, data], [7, target, data]; every string encoded.
  let noScriptDoc = null;
  function parsedTree(k) {
    let doc = document;
    if (!k.s) {
      if (noScriptDoc === null) noScriptDoc = new DOMParser().parseFromString('<!DOCTYPE html>', 'text/html');
      doc = noScriptDoc;
    }
    const el = k.x.ns === HTML_NS ? doc.createElement(k.x.name) : doc.createElementNS(k.x.ns, k.x.name);
    el.innerHTML = dec(k.m);
    const root = [];
    const work = [[isTemplate(el) ? el.content : el, root]];
    while (work.length > 0) {
      const [parent, out] = work.pop();
      for (const n of parent.childNodes) {
        switch (n.nodeType) {
          case 1: {
            const kids = [];
            const content = isTemplate(n) ? [] : null;
            const attrs = Array.from(n.attributes, (a) => [a.namespaceURI, a.prefix === null ? null : enc(a.prefix), enc(a.localName), enc(a.value)]);
            out.push([1, n.namespaceURI, enc(n.localName), attrs, kids, content]);
            work.push([n, kids]);
            if (content !== null) work.push([n.content, content]);
            break;
          }
          case 3: out.push([3, enc(n.data)]); break;
          case 8: out.push([8, enc(n.data)]); break;
          case 7: out.push([7, enc(n.target), enc(n.data)]); break;
          default: out.push([0, n.nodeType]);
        }
      }
    }
    return JSON.stringify(root);
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
  globalThis.__sanitizerParity = { run, facts, parsedTree };
})()`;

interface RawOutcome {
  g: string | null;
  r: string[];
  a: string | null;
  s: string;
  u: string;
  k: boolean;
  vs: string | null;
  vu: string | null;
}

function wireCase(c: SanitizerCase, markup: string): unknown {
  return { c: c.config, m: encodeUnits(markup), x: { name: c.context.name, ns: c.context.namespace ?? HTML_NS } };
}

/** The page, reopened after a renderer crash. */
class PageHolder {
  page!: Page;
  crashes = 0;

  constructor(private readonly browser: Browser) {}

  async open(): Promise<void> {
    this.page = await this.browser.newPage();
    await this.page.setContent('<!DOCTYPE html><html><head><title>htmlsift</title></head><body></body></html>');
    await this.page.evaluate(PAGE_SCRIPT);
    // The parse differential's page helpers too (chromiumParse), for the parser-origin check.
    await this.page.evaluate(PARSER_PAGE_SCRIPT);
  }

  /** Chromium's unsanitized parse of `markup` (innerHTML, as the parse differential parses), as a JSON tree. */
  async parsedTree(markup: string, context: ContextSpec, scripting: boolean): Promise<NodeJson[]> {
    const k = { m: encodeUnits(markup), x: { name: context.name, ns: context.namespace ?? HTML_NS }, s: scripting };
    const raw = (await this.page.evaluate('__sanitizerParity.parsedTree(' + JSON.stringify(k) + ')')) as string;
    return JSON.parse(raw) as NodeJson[];
  }

  async run(wire: unknown[]): Promise<RawOutcome[]> {
    const raw = (await this.page.evaluate('__sanitizerParity.run(' + JSON.stringify(wire) + ')')) as RawOutcome[];
    if (!Array.isArray(raw) || raw.length !== wire.length) throw new Error('sanitizer-parity: malformed batch result');
    return raw;
  }

  /** Runs a batch; if the renderer crashes, reopens the page and runs its cases one by one to isolate the culprit. */
  async runIsolating(wire: unknown[]): Promise<RawOutcome[]> {
    try {
      return await this.run(wire);
    } catch (e) {
      if (!/crash|closed/i.test(String(e))) throw e;
    }
    await this.open();
    const out: RawOutcome[] = [];
    for (const w of wire) {
      try {
        out.push((await this.run([w]))[0]!);
      } catch (e) {
        if (!/crash|closed/i.test(String(e))) throw e;
        this.crashes++;
        const crashed = 'chromium renderer crashed';
        out.push({ g: crashed, r: [crashed], a: crashed, s: crashed, u: crashed, k: false, vs: null, vu: null });
        await this.open();
      }
    }
    return out;
  }
}

async function chromiumRun(holder: PageHolder, cases: readonly SanitizerCase[], markups?: readonly string[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (let i = 0; i < cases.length; i += BATCH) {
    const wire = cases.slice(i, i + BATCH).map((c, k) => wireCase(c, markups?.[i + k] ?? c.markup));
    for (const r of await holder.runIsolating(wire)) {
      out.push({
        get: r.g === null ? null : decodeUnits(r.g),
        returns: r.r,
        getAfter: r.a === null ? null : decodeUnits(r.a),
        safe: decodeUnits(r.s),
        unsafe: decodeUnits(r.u),
        renamed: r.k,
        isRenamed: {
          safe: r.vs === null ? null : decodeUnits(r.vs).replace(/^(\| +)is-="/gm, '$1is="'),
          unsafe: r.vu === null ? null : decodeUnits(r.vu).replace(/^(\| +)is-="/gm, '$1is="'),
        },
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
  /** The `sanitizer` option setHTMLLike got (a fresh copy per call), null when the Sanitizer could not be built. */
  option: (() => unknown) | null;
}

/**
 * A stand-in for our parser: the fragment `markup` parses into with the given scripting flag (the parser-origin
 * check hands in Chromium's unsanitized parse). Throws when it has none for these arguments.
 */
type ParseOverride = (markup: string, scripting: boolean) => DocumentFragment;

/**
 * The scripting flag of setHTMLLike's parse (set-html.ts): on only for setHTMLUnsafe without a sanitizer, and not
 * into an HTML template (inert contents).
 */
function parseScripting(context: ContextSpec, safe: boolean, option: unknown): boolean {
  const template = context.name === 'template' && (context.namespace ?? HTML_NS) === HTML_NS;
  return !safe && option === undefined && !template;
}

function setOurs(
  markup: string,
  context: ContextSpec,
  sanitizer: unknown,
  safe: boolean,
  parse?: ParseOverride,
): { dump: string; tree: ParentNode | null } {
  try {
    const ctx = { name: context.name, namespace: context.namespace ?? HTML_NS };
    let f: DocumentFragment;
    if (parse === undefined || setHTMLSkipsContext(ctx.name, ctx.namespace, safe)) {
      f = setHTMLLike(markup, { sanitizer: sanitizer as never, context: ctx, safe });
    } else {
      // setHTMLLike's steps with the parse replaced: the sanitizer first (it may throw), then the same scripting
      // flag, then sanitizing.
      const instance = getSanitizerInstanceFromOptions({ sanitizer: sanitizer as never }, safe);
      f = parse(markup, parseScripting(ctx, safe, sanitizer));
      sanitizeWith(f, instance, safe);
    }
    return { dump: dumpTree(f), tree: f };
  } catch (e) {
    return { dump: thrown(e), tree: null };
  }
}

/** How our side runs a case: as is, or with a Chromium behaviour emulated (see the run emulations below). */
interface RunOptions {
  parse?: ParseOverride;
  emulate?: readonly RunEmulation[];
}

function oursRun(c: SanitizerCase, markup: string, opts: RunOptions = {}): OurRun {
  const parse = opts.parse;
  const emulate = new Set(opts.emulate ?? []);
  const cfg: ConfigSpec =
    c.config.kind === 'object' && emulate.has('chromium-remove-unsafe-lacks-standard-handlers')
      ? { ...c.config, ops: withChromiumRemoveUnsafe(c.config.ops) }
      : c.config;
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
        return { outcome: o, safeTree: null, unsafeTree: null, option: null };
      }
      const s = sanitizer as unknown as Record<string, (a?: unknown) => unknown>;
      // '#begin' ... '#end' groups calls whose results are OR-ed into one (an emulated removeUnsafe()).
      let group: boolean | null = null;
      for (const op of cfg.ops) {
        if (op.m === '#begin') {
          group = false;
          continue;
        }
        if (op.m === '#end') {
          o.returns.push(String(group));
          group = null;
          continue;
        }
        try {
          const r =
            op.m === 'removeUnsafe'
              ? s.removeUnsafe!.call(sanitizer)
              : op.m === 'setDataAttributes' && emulate.has('chromium-set-data-attributes-flag-only')
                ? chromiumSetDataAttributes(sanitizer, copy(op.a))
                : s[op.m]!.call(sanitizer, copy(op.a));
          if (group !== null) group ||= r === true;
          else o.returns.push(String(r));
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
  const safe = setOurs(markup, c.context, option(), true, parse);
  const unsafe = setOurs(markup, c.context, option(), false, parse);
  o.safe = safe.dump;
  o.unsafe = unsafe.dump;
  if (sanitizer !== null) o.getAfter = getJson(sanitizer);
  return { outcome: o, safeTree: safe.tree, unsafeTree: unsafe.tree, option };
}

// ---------------------------------------------------------------------------------------------------------------
// Known deviations

/** Which comparison of a case differs. */
type Part = 'get' | 'returns' | 'getAfter' | 'safe' | 'unsafe';
const PARTS: readonly Part[] = ['get', 'returns', 'getAfter', 'safe', 'unsafe'];

/**
 * A known deviation: a narrow, reproducing rewrite. Each one transforms our outcome (by re-running our side
 * differently, or rewriting our fresh tree) and/or Chromium's, in a way that removes exactly the behaviour it
 * names; a part counts as explained when, after one or more of them (in list order), the two sides are identical.
 * The verdict names every deviation that changed something.
 */
interface KnownDeviation {
  id: string;
  description: string;
  /** Why we do not (or cannot) match Chromium. */
  why: string;
  parts: readonly Part[];
  /** Cheap test: can it apply to this case at all? */
  applies(c: SanitizerCase, chromium: Outcome): boolean;
  /** For tree parts: the markup our side runs on instead (Chromium's result stays as it is). */
  rewriteMarkup?(markup: string, c: SanitizerCase): string;
}

const CRASHERS = new RegExp(CRASHING_EVENT_HANDLERS.join('|'), 'gi');
const RCDATA_CONTEXTS = new Set(['textarea', 'title']);

/**
 * The parses parseTimeTree can redo as Chromium makes them, each tried apart from the others (see explainTree), and
 * the deviation each one reproduces.
 */
const REDIRECTS = {
  parentless: 'sanitize-while-parsing-parentless-table',
  'stack-home': 'sanitize-while-parsing-replaced-stack-home',
  bookmark: 'sanitize-while-parsing-unkept-furthest-block-bookmark',
} as const;
type Redirect = keyof typeof REDIRECTS;

/** The deviations parseTimeTree reproduces. */
const PARSE_TIME_DEVIATIONS = new Set<string>([
  'declarative-shadow-root',
  'sanitize-while-parsing-foster-parented-replaced',
  'sanitize-while-parsing-replaced-furthest-block',
  ...Object.values(REDIRECTS),
]);

/** A selectedcontent start or end tag, read from where one begins (`lastIndex`). */
const SELECTEDCONTENT_TAG = /<\/?selectedcontent(?=[\t\n\f\r />])(?:[^>"']|"[^"]*"|'[^']*')*>?/iy;

/** A token sink that gives `builder` every token, the tags through `tags` (which pass them on). */
function sinkTo(builder: TreeBuilder, tags: Pick<TokenSink, 'startTag' | 'endTag'>): TokenSink {
  return {
    startTag: (name, attributes, selfClosing, tagId) => tags.startTag(name, attributes, selfClosing, tagId),
    endTag: (name, tagId) => tags.endTag(name, tagId),
    characters: (data) => builder.characters(data),
    nullCharacter: () => builder.nullCharacter(),
    comment: (data) => builder.comment(data),
    processingInstruction: (target, data) => builder.processingInstruction(target, data),
    doctype: (name, publicId, systemId, forceQuirks) => builder.doctype(name, publicId, systemId, forceQuirks),
    endOfFile: () => builder.endOfFile(),
    cdataAllowed: () => builder.cdataAllowed(),
  };
}

/**
 * The markup without the start and end tags of its HTML selectedcontent elements: those the parser reads as such
 * in the case's context (scripting off, as setHTML parses), found where the tokenizer says each tag token began.
 * (Not every `<selectedcontent>` in the markup is one: in `<g<selectedcontent>` it is part of a tag name, and in
 * SVG it makes an SVG element.) A start tag is one when the element it made is an HTML selectedcontent; an end tag,
 * when the HTML rules take it (the adjusted current node is an HTML element).
 */
function withoutSelectedContentTags(markup: string, c: SanitizerCase): string {
  const context = { name: c.context.name, namespace: c.context.namespace ?? HTML_NS };
  const builder = new TreeBuilder(new Document(), { scripting: false, reportErrors: false });
  const open = (builder as unknown as { open: { current: Element | null; top: number } }).open;
  const contextElement = fragmentContext(context);
  const starts: number[] = [];
  let tokenizer: Tokenizer | null = null;
  const sink = sinkTo(builder, {
    startTag: (name, attributes, selfClosing, tagId) => {
      const at = tokenizer!.tokenStart;
      builder.startTag(name, attributes, selfClosing, tagId);
      const made = open.current;
      if (name === 'selectedcontent' && made !== null && made.attributes === attributes && made.namespaceURI === HTML_NS) starts.push(at);
    },
    endTag: (name, tagId) => {
      // (The fragment's root alone on the stack: the adjusted current node is the context element.)
      const adjusted = open.top === 0 ? contextElement : open.current;
      if (name === 'selectedcontent' && (adjusted === null || adjusted.namespaceURI === HTML_NS)) starts.push(tokenizer!.tokenStart);
      builder.endTag(name, tagId);
    },
  });
  tokenizer = new Tokenizer(sink);
  builder.tokenizer = tokenizer;
  builder.initFragment(contextElement);
  tokenizer.run(markup);
  let out = '';
  let from = 0;
  for (const at of starts) {
    SELECTEDCONTENT_TAG.lastIndex = at;
    const tag = SELECTEDCONTENT_TAG.exec(markup);
    if (tag === null || at < from) continue;
    out += markup.slice(from, at);
    from = at + tag[0].length;
  }
  return out + markup.slice(from);
}

/** Whether the case's configuration (as our side builds it) replaces HTML selectedcontent elements with their children. */
function replacesSelectedContent(c: SanitizerCase): boolean {
  const option = c.config.kind === 'none' ? null : oursRun(c, '').option;
  if (option === null) return false;
  // The flavour does not change the element lists, but it can make a configuration invalid (data attributes are
  // allowed by default in the unsafe one).
  for (const safe of [true, false]) {
    try {
      if (replacedElementKeys(option(), safe).has(`${HTML_NS} selectedcontent`)) return true;
    } catch {
      // Invalid in this flavour.
    }
  }
  return false;
}

/** Names as the page sends them back in get(): the standard handlers Chromium 156 does not remove. */
const CRASHING_SET = new Set(CRASHING_EVENT_HANDLERS);

const VOID_SETTERS = new Set(['setComments', 'setDataAttributes', 'removeUnsafe']);

/** What the sanitize-while-parsing deviations share (an `applies` of their own replaces this one). */
const WHILE_PARSING = {
  why: 'The current standard sanitizes the parsed fragment; htmlsift follows it until #12756 lands.',
  parts: ['safe', 'unsafe'] as const,
  applies: (c: SanitizerCase): boolean => c.config.kind !== 'none',
};

const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    id: 'chromium-void-setters',
    description:
      'Chromium 156 returns undefined from setComments(), setDataAttributes() and removeUnsafe() (an older IDL); ' +
      'the standard returns whether the configuration changed. Rewrite: Chromium\'s "undefined" results of exactly ' +
      'those calls take our value.',
    why: 'We follow the standard\'s boolean results.',
    parts: ['returns'],
    applies: (c, ch) => c.config.kind === 'object' && ch.returns.includes('undefined'),
  },
  {
    id: 'chromium-set-data-attributes-flag-only',
    description:
      'Chromium 156\'s setDataAttributes(v) only sets "dataAttributes": also when the configuration has no global ' +
      '"attributes" allow-list (the standard then changes nothing), and with true it leaves custom data attributes ' +
      'in the global and per-element "attributes" lists (the standard removes them, as redundant). Later calls see ' +
      'the difference too: removeAttribute("data-x") returns true, setDataAttributes(false) lets the still-listed ' +
      'data-x through, allowElement() keeps data-x in a per-element remove list (it is intersected with the global ' +
      'list). Rewrite: our side replays the method calls with setDataAttributes() done that way (on the ' +
      'Sanitizer\'s own state).',
    why: 'We follow the standard.',
    parts: ['get', 'getAfter', 'returns', 'safe', 'unsafe'],
    applies: (c) => c.config.kind === 'object' && c.config.ops.some((op) => op.m === 'setDataAttributes'),
  },
  {
    id: 'chromium-remove-unsafe-lacks-standard-handlers',
    description:
      'Chromium 156\'s remove unsafe does not list the standard event handler content attributes ' +
      CRASHING_EVENT_HANDLERS.join(', ') + '. Rewrite: replay the method calls on our side with removeUnsafe() ' +
      'emulated through removeElement()/removeAttribute() with Chromium\'s list (ours minus those five).',
    why: 'The standard removes every event handler content attribute in HTML\'s index; dropping these would let ' +
      'onbeforematch & co. through our safe methods.',
    parts: ['get', 'getAfter', 'returns', 'unsafe'],
    applies: (c) => c.config.kind === 'object' && c.config.ops.some((op) => op.m === 'removeUnsafe'),
  },
  {
    id: 'chromium-allow-element-existing-returns-true',
    description:
      'allowElement() of an element the allow-list already holds with an equal entry: the standard returns ' +
      'false (nothing changed); Chromium 156 returns true. Rewrite: such a Chromium "true" takes our "false" when ' +
      'replaying the calls before it on our side shows the element already allowed.',
    why: 'We follow the standard\'s return value; the configurations are identical.',
    parts: ['returns'],
    applies: (c) => c.config.kind === 'object' && c.config.ops.some((op) => op.m === 'allowElement'),
  },
  {
    id: 'chromium-sethtml-crashes-on-standard-handlers',
    description:
      'Chromium 156\'s setHTML crashes the renderer when one of ' + CRASHING_EVENT_HANDLERS.join(', ') + ' survives ' +
      'its configuration (a consistency check fires). The page runs setHTML with those names renamed to onclick, ' +
      'which both sides remove in safe mode like every event handler: our result on the original markup must ' +
      'equal it. Rewrite: our side runs on the same renamed markup (counted whenever the renaming happened).',
    why: 'A Chromium bug (renderer crash); nothing to match.',
    parts: ['safe'],
    applies: (_c, ch) => ch.renamed === true,
    rewriteMarkup: (m) => m.replace(CRASHERS, 'onclick'),
  },
  {
    id: 'chromium-nul-after-less-than',
    description:
      'A U+0000 right after "<" (tag open state, "anything else": "<" is emitted and the NUL reconsumed in the data ' +
      'state, where the tree builder ignores it in body and table text) comes out of Chromium 156 as U+FFFD ' +
      '(innerHTML shows the same; a parser deviation). Rewrite: our side runs on the markup with "<" U+0000 ' +
      'turned into "<" U+FFFD.',
    why: 'htmlsift\'s parser follows the standard.',
    parts: ['safe', 'unsafe'],
    applies: (c) => c.markup.includes('<\u0000'),
    rewriteMarkup: (m) => m.replace(/<\u0000/g, '<\uFFFD'),
  },
  {
    id: 'chromium-cdata-nul',
    description:
      'A U+0000 in a CDATA section (foreign content, including MathML text integration points such as <mi>) ' +
      'comes out of Chromium 156 as U+FFFD where the standard\'s tree builder ignores it (in body rules). ' +
      'Rewrite: our side runs on the markup with U+0000 inside CDATA sections turned into U+FFFD.',
    why: 'htmlsift\'s parser follows the standard.',
    parts: ['safe', 'unsafe'],
    applies: (c) =>
      c.markup.includes('<![CDATA[') &&
      c.markup.includes('\u0000') &&
      !((c.context.namespace ?? HTML_NS) === HTML_NS && RCDATA_CONTEXTS.has(c.context.name)),
    rewriteMarkup: (m) => m.replace(/<!\[CDATA\[[^]*?(?:\]\]>|$)/g, (cdata) => cdata.replace(/\u0000/g, '\uFFFD')),
  },
  {
    id: 'chromium-rcdata-context-drops-nul',
    description:
      'Fragment parsing with a textarea or title context element (RCDATA): Chromium 156 drops U+0000 where the ' +
      'tokenizer must emit U+FFFD (innerHTML shows the same; a parser deviation). A U+0000 right after "<", "</" or "</" and ' +
      'letters (where the RCDATA less-than / end tag open / end tag name state gives up and reconsumes it) survives ' +
      'as U+FFFD in Chromium too. Rewrite: our side runs on the markup without the other U+0000.',
    why: 'htmlsift\'s parser follows the standard (and the html5lib/WPT tests).',
    parts: ['safe', 'unsafe'],
    applies: (c) => (c.context.namespace ?? HTML_NS) === HTML_NS && RCDATA_CONTEXTS.has(c.context.name) && c.markup.includes('\u0000'),
    rewriteMarkup: (m) => m.replace(/(?<!<\/?|<\/[A-Za-z]+)\u0000/g, ''),
  },
  {
    id: 'chromium-validates-before-script-check',
    description:
      'setHTML on an HTML or SVG <script> element: the standard returns before getting the sanitizer, so an ' +
      'invalid configuration is not noticed; Chromium 156 throws a TypeError for it first. Recognized when ' +
      'Chromium threw and our "get a sanitizer instance from options" throws a TypeError for the same options.',
    why: 'We follow the standard\'s step order ("set and filter HTML" step 1).',
    parts: ['safe'],
    applies: (c) => c.context.name === 'script' && (c.context.namespace ?? HTML_NS) !== MATHML_NS,
  },
  {
    id: 'chromium-empty-markup-skips-validation',
    description:
      'setHTML("", { sanitizer }) and setHTMLUnsafe("", { sanitizer }) on an element other than an HTML template ' +
      '(any namespace): Chromium 156 returns before validating the configuration, so an invalid one does not throw ' +
      '(with "x" it does); the standard gets the sanitizer first. Recognized when the markup is empty, Chromium left ' +
      'the element empty and our side threw a TypeError.',
    why: 'We follow the standard\'s step order.',
    parts: ['safe', 'unsafe'],
    applies: (c) => c.markup === '' && !(c.context.name === 'template' && (c.context.namespace ?? HTML_NS) === HTML_NS),
  },
  {
    id: 'chromium-is-attribute-formatting-element',
    description:
      'A formatting element with an `is` attribute never enters Chromium\'s list of active formatting elements ' +
      '(the parser deviation of the same id in known-deviations.ts). The page also runs the markup with `is` ' +
      'renamed to `is-` in start tags (and back in its dump): ours must equal that.',
    why: 'The standard gives `is` no role in tree construction; htmlsift\'s parser follows it.',
    parts: ['safe', 'unsafe'],
    applies: (_c, ch) => ch.isRenamed !== undefined && (ch.isRenamed.safe !== null || ch.isRenamed.unsafe !== null),
  },
  {
    id: 'selectedcontent-mirroring',
    description:
      'Chromium replaces the children of a <select>\'s <selectedcontent> with a clone of the selected option\'s ' +
      'contents (customizable select, a DOM algorithm run as options are inserted). Rewrite: the descendants of ' +
      'every selectedcontent element are left out of both dumps.',
    why: 'htmlsift\'s tree has no selectedness or option cloning; the parser builds what the markup says.',
    parts: ['safe', 'unsafe'],
    applies: (_c, ch) => ch.safe.includes('<selectedcontent>') || ch.unsafe.includes('<selectedcontent>'),
  },
  {
    id: 'sanitize-while-parsing-selectedcontent-replaced',
    description:
      'A <selectedcontent> the configuration replaces with its children: Chromium sanitizes while parsing ' +
      '(whatwg/html#12756), so the element is never in the tree and the select\'s selectedcontent mirroring (which ' +
      'replaces a selectedcontent\'s children with a clone of the selected option\'s contents, e.g. empties ' +
      '`<select><selectedcontent><option>` of its option) never runs; sanitizing the parsed fragment replaces it ' +
      'after the mirroring did. Rewrite: our side parses the markup without the start and end tags of its HTML ' +
      'selectedcontent elements, found while parsing (not `<selectedcontent>` inside a tag name, nor in SVG) ' +
      '(an ordinary element for the tree builder, so only the mirroring is lost), when the configuration in effect ' +
      'lists HTML selectedcontent in "replaceWithChildrenElements".',
    ...WHILE_PARSING,
    applies: (c) => /<\/?selectedcontent/i.test(c.markup) && replacesSelectedContent(c),
    rewriteMarkup: withoutSelectedContentTags,
  },
  {
    id: 'declarative-shadow-root',
    description:
      'setHTML / setHTMLUnsafe parse with declarative shadow roots allowed: a kept <template shadowrootmode> under ' +
      'an eligible host becomes the host\'s shadow root and leaves the light tree. Rewrite: our tree with the ' +
      'templates declarativeShadowRootTemplates() names shown as the page shows shadow roots (open: a first ' +
      '<#shadow root> child with the sanitized contents; closed: unreachable from the page, left out).',
    why: 'htmlsift\'s tree has no shadow roots; setHTMLLike returns the light tree with the template in place.',
    parts: ['safe', 'unsafe'],
    applies: () => true,
  },
  {
    id: 'sanitize-while-parsing-placement',
    description:
      'Chromium sanitizes while parsing (whatwg/html#12756): a removed or replaced element is never in the tree, ' +
      'so the tree builder places later content differently (foster parenting before a table that is not there, ' +
      'a template\'s insertion mode with its template replaced...). Recognized when, with sanitizing involved, ' +
      'both sides keep exactly the same nodes and attributes (the multiset of element, attribute, comment and PI ' +
      'lines, and the multiset of text characters) and only their placement differs.',
    ...WHILE_PARSING,
  },
  {
    id: 'sanitize-while-parsing-foster-parented-replaced',
    description:
      'Chromium sanitizes while parsing (whatwg/html#12756): the children of an element the configuration replaces ' +
      'with its children go to its parent, and for a foster-parented element (inserted before a table) Chromium ' +
      'takes the table section that was the current node (table, tbody, thead, tfoot or tr) as that parent: ' +
      '`<table><tr><s>x` with s replaced gives `<table><tbody><tr>x</tr></tbody></table>`, and nothing at all when ' +
      'that section is removed; sanitizing the parsed fragment leaves "x" before the table. The same holds for an ' +
      'element the adoption agency algorithm foster-parents, with the common ancestor as that parent: ' +
      '`<table><b><div></b>x` with div replaced gives `<b></b><table><b></b>x</table>`, and for the clone of a ' +
      'formatting element it foster-parents holding the furthest block: `<table><u><s><p></u>` with s and p replaced ' +
      'gives `<u></u><table><u></u></table>` (the new u, appended to p, goes past the clone to the table), where ' +
      'sanitizing the parsed fragment gives `<u></u><u></u><table></table>`. Rewrite: our side parses ' +
      'noting each foster-parented element\'s target section, moves the children of the replaced ones there (after ' +
      'what it held then), then sanitizes.',
    ...WHILE_PARSING,
  },
  {
    id: 'sanitize-while-parsing-parentless-table',
    description:
      'Chromium sanitizes while parsing (whatwg/html#12756): a table the configuration removes or replaces with its ' +
      'children is never in the tree, so when foster parenting finds it as the last table it has no parent, and what is ' +
      'foster-parented goes to the end of the element above it on the stack of open elements (the standard\'s rule ' +
      'for a table without a parent), not before the table in its parent. The two differ when the stack no longer ' +
      'holds the table\'s parent: `<a><p><s><table><a>` in a template with `a` removed and `table` replaced gives ' +
      '`<s></s>` (the second `<a>` takes the first off the stack, and the reconstructed `s` goes to the fragment), ' +
      'where sanitizing the parsed fragment removes the `s` with the `a` around the table; `<a><table><a></a>w` with ' +
      'only `p` kept gives "w" (after the second `<a>` the stack holds no `a` below the table). A kept table follows ' +
      'the standard. Rewrite: our side parses again with those insertions made there, then sanitizes.',
    ...WHILE_PARSING,
  },
  {
    id: 'sanitize-while-parsing-replaced-stack-home',
    description:
      'Chromium sanitizes while parsing (whatwg/html#12756): an element the configuration replaces with its children ' +
      'is never in the tree, and what is inserted into it goes to the first element below it on the stack of open ' +
      'elements that is not replaced (or, removed, takes it away). That is the element\'s parent, through the ' +
      'replaced ones, unless the parent left the stack first: `</form>` takes the form element off the stack while ' +
      'elements opened inside it stay open, so `<form><font></form>x` with font replaced gives `<form></form>x`, and ' +
      'just `x` with form removed; sanitizing the parsed fragment gives `<form>x</form>` and nothing. The same after ' +
      'a round of the adoption agency algorithm: `<p><form><font><h1></font></form><` with h1 replaced and form ' +
      'removed gives `<p></p><` (the round moved the h1 into the form, and `</form>` took the form off the stack ' +
      'below it), where sanitizing the parsed fragment gives `<p></p>`. Rewrite: our side parses again with such ' +
      'insertions made there (but the algorithm\'s own insertion, and none into a foster-parented element, which the ' +
      'deviations above model), then sanitizes.',
    ...WHILE_PARSING,
  },
  {
    id: 'sanitize-while-parsing-replaced-furthest-block',
    description:
      'Chromium sanitizes while parsing (whatwg/html#12756): an element the configuration replaces with its children ' +
      'never holds any, so when the adoption agency algorithm takes one as its furthest block, the children it ' +
      'moves into the new formatting element (step 16) are not there: they stay where Chromium had put them, in the ' +
      'node the block was in then (or the first kept one above it), and are gone with it when that one is removed. ' +
      'The new element (step 17) goes where the block\'s children go; when that is a template (the common ancestor, ' +
      'or a replaced element or clone in its contents), to the template element itself, not to its contents: it is ' +
      'among the template\'s own children, and gone when the template becomes a declarative shadow root. ' +
      '`<template><i><li>x</i>y` with li replaced gives a template holding `<i>x</i>y` and, outside its contents, ' +
      'an empty `<i>`; `<u><n><div>x</u>` with n removed and div replaced gives nothing; sanitizing the parsed ' +
      'fragment gives `<i></i><i>x</i>y` and `x`. The block itself is where the round left it (in the clone the ' +
      'inner loop appended it to), and so is what Chromium inserts into it next: `<b><s><div><ul></b></s>x` with div ' +
      'replaced gives `<b><s></s></b><s><b></b></s><s></s><ul><s><b></b></s>x</ul>` (the first round\'s new b went into ' +
      'the clone of s; the second\'s new s holds nothing), sanitizing the parsed fragment `<s></s><s><b></b></s>` there. ' +
      'Rewrite: our side parses noting each round of the algorithm, moves ' +
      'a replaced block\'s earlier children to that node, takes a new element bound for a template out of its ' +
      'contents and, sanitized, appends it to the template\'s own children.',
    ...WHILE_PARSING,
  },
  {
    id: 'sanitize-while-parsing-unkept-furthest-block-bookmark',
    description:
      'Chromium sanitizes while parsing (whatwg/html#12756): when the adoption agency algorithm\'s furthest block is ' +
      'an element the configuration removes or replaces, the bookmark does not move after the first formatting ' +
      'element the inner loop clones (the standard\'s "if last node is furthest block" step), so the new formatting ' +
      'element takes the formatting element\'s own place in the list of active formatting elements, before the ' +
      'clones, and a later reconstruction makes them in that order. It shows when a clone of the formatting element ' +
      'stays in the list: the algorithm stops at its 8-round limit over 8 or more special elements. In `<tr>`, ' +
      '`<a title=A1><b><section>` + 7 `<div>` + `<a title=A2><td><col>x` with section removed gives ' +
      '`<a title=A1><b><a title=A2>x` at the end (the list: a, b, a), the standard `<b><a title=A1><a title=A2>x` ' +
      '(b, a, a); with only `a` kept Chromium keeps two `a`, the standard one. A kept furthest block (whatever its ' +
      'parent) follows the standard. Rewrite: our side parses again with step 18 putting the new element where the ' +
      'formatting element\'s entry was whenever the furthest block is not kept as itself, then sanitizes.',
    ...WHILE_PARSING,
  },
  {
    id: 'sanitize-while-parsing-text-merge',
    description:
      'Chromium sanitizes while parsing (whatwg/html#12756, open): a removed node is never inserted, so the text ' +
      'after it is appended to the text before it, where sanitizing the parsed fragment leaves two adjacent text ' +
      'nodes. Rewrite: merge adjacent text nodes in our tree (the parser itself never leaves any).',
    ...WHILE_PARSING,
    applies: () => true,
  },
];

/** What parseNoting notes while our parser runs. */
interface ParseNotes {
  tree: DocumentFragment;
  /** The root element the parser filled (its children are in `tree` now). */
  root: Element;
  /** HTML templates with a `shadowrootmode` attribute, in insertion order: the node each was inserted into. */
  templateParents: Map<Element, ParentNode>;
  /**
   * Foster-parented elements, in insertion order: the target of the insertion (table, tbody, thead, tfoot or tr:
   * the current node for an element made for a start tag or by reconstructing the active formatting elements, the
   * common ancestor for an element the adoption agency algorithm moves) and its last child then.
   */
  fosterTargets: Map<Element, FosterNote>;
  /** The rounds of the adoption agency algorithm (steps 14 to 17), in order: see AdoptionNote. */
  adoptions: AdoptionNote[];
  /**
   * The node each element was last seen in while parsing: noted for the whole stack of open elements at each
   * insertion outside the adoption agency algorithm, and for each inserted element.
   */
  lastParents: WeakMap<Element, ParentNode>;
  /** How many insertions went to the element above an unkept, parentless table (parseNoting's `parentless`). */
  parentlessMoves: number;
  /** How many insertions went down the stack of open elements past a replaced element (parseNoting's `stackHomes`). */
  stackHomeMoves: number;
  /** How many rounds of the adoption agency algorithm put their new element where Chromium does (parseNoting's `unkept`). */
  bookmarkMoves: number;
}

/**
 * One round of the adoption agency algorithm (steps 14 to 17): its furthest block, the node the block was in before
 * the round (where Chromium had put the children it held), those children (step 16 moves them into the new
 * formatting element), the new formatting element step 17 appended to the block, and the nodes the block was in
 * then, innermost first, up to the fragment (template contents as their template): where Chromium's step 17 goes
 * when the block is replaced, through the replaced ones.
 */
interface AdoptionNote {
  block: Element;
  before: ParentNode | null;
  earlier: ChildNode[];
  appended: Element;
  path: ParentNode[];
}

/**
 * Where a foster-parented element went, for sanitize while parsing: its target section and that section's last
 * child then. For the adoption agency algorithm's furthest block, also the children it held when moved (the
 * algorithm puts them into the new formatting element it appends to the furthest block) and the element below it
 * on the stack of open elements then, where Chromium had put those children if the block is replaced.
 */
interface FosterNote {
  target: Element;
  lastChild: ChildNode | null;
  earlier: { children: ChildNode[]; home: Element } | null;
}

const FOSTER_TARGETS = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);

/**
 * Our parser on a fragment, noting what Chromium's sanitize-while-parsing depends on and the parsed tree no longer
 * shows: the node a declarative-shadow-root template was inserted into (Chromium's host is the adjusted current node
 * then; the adoption agency algorithm may later move the template into a clone of a formatting element), and the
 * table-section target of each foster-parented element. The tokenizer and tree builder are put together as parser.ts
 * does, with a sink in between that watches start tags: the element made for one is the one whose attribute list is
 * the token's (the sink contract). Foster parenting is seen by wrapping two tree-builder internals, the
 * "appropriate place for inserting a node" (`findInsertionLocation`, its result in `locParent`) and the insertion
 * there (`insertAtLocation`), with the current node read from the stack of open elements (`open.current`); when
 * they are not there, no foster target is noted and cases that need one stay unexplained. A round of the adoption
 * agency algorithm is its insertion with an override target (step 14) followed by `selectedContentMoved` on the
 * furthest block (right after step 17); without that method no round is noted. Null when the tree is not exactly
 * parseFragment's. `parentless` and `unkept` say whether the configuration removes an element or replaces it with its
 * children; `stackHomes` and `replacedKeys` are the elements it replaces. `parentless` and `stackHomes` redirect
 * insertions as Chromium makes them (an unkept table without a parent; what goes into a replaced element, down the
 * stack of open elements), and the tree is then not parseFragment's; `replacedKeys` only tells which furthest blocks Chromium has in its tree.
 * `unkept` makes step 18 of the adoption agency algorithm put the new formatting element where Chromium does when
 * the furthest block is one of them (see 'sanitize-while-parsing-unkept-furthest-block-bookmark'); counted only when
 * the tree then differs from parseFragment's (a list of active formatting elements in another order that no
 * reconstruction reads changes nothing).
 */
function parseNoting(
  markup: string,
  context: { name: string; namespace: string },
  scripting: boolean,
  parentless: ((el: Element) => boolean) | null = null,
  stackHomes: ReadonlySet<string> | null = null,
  replacedKeys: ReadonlySet<string> | null = null,
  unkept: ((el: Element) => boolean) | null = null,
): ParseNotes | null {
  const document = new Document();
  const builder = new TreeBuilder(document, { scripting, reportErrors: false });
  const contextElement = fragmentContext(context);
  const internals = builder as unknown as {
    open?: { current?: Element | null; items?: Element[]; indexOf?: (el: Element) => number };
    locParent?: ParentNode;
    locBefore?: ChildNode | null;
    findInsertionLocation?: (overrideTarget: Element | null) => void;
    insertAtLocation?: (node: ChildNode) => void;
    selectedContentMoved?: (block: Element) => void;
  };
  const open = internals.open;
  let parentlessMoves = 0;
  let stackHomeMoves = 0;
  const currentNode = (): Element | null => (open !== undefined && open.current instanceof Element ? open.current : null);
  const templateParents = new Map<Element, ParentNode>();
  const fosterTargets = new Map<Element, FosterNote>();
  const adoptions: AdoptionNote[] = [];
  const lastParents = new WeakMap<Element, ParentNode>();
  const elements = (): Element[] => {
    const out: Element[] = [];
    walk(root, (n) => void (n.nodeType === ELEMENT_NODE && out.push(n as Element)));
    return out;
  };
  // "The appropriate place for inserting a node": when its target (the override target, else the current node) is
  // a table section and the place is elsewhere, the element inserted next was foster-parented. An element inserted
  // a second time is the adoption agency algorithm's furthest block: its children then are noted with the element
  // below it on the stack of open elements (the formatting element). A new element that already has children (a
  // clone of a formatting element holding the furthest block, foster-parented at step 14) is noted as a new one.
  const find = internals.findInsertionLocation;
  const insert = internals.insertAtLocation;
  const hooks = open !== undefined && typeof open.indexOf === 'function' && typeof find === 'function';
  if (hooks && typeof insert === 'function') {
    const inserted = new WeakSet<ChildNode>();
    let pending: { target: Element; lastChild: ChildNode | null } | null = null;
    let override: Element | null = null;
    // At the adoption agency algorithm's step 14: where each open element was before the round.
    let round: Map<Element, ParentNode | undefined> | null = null;
    internals.findInsertionLocation = (overrideTarget) => {
      const target = overrideTarget ?? currentNode();
      // Where each open element is now (not during the adoption agency algorithm, which moves them).
      if (overrideTarget === null) {
        for (const el of open.items ?? []) if (el.parentNode !== null) lastParents.set(el, el.parentNode);
      }
      override = overrideTarget;
      find.call(builder, overrideTarget);
      // Chromium's replaced element is not in the tree: what goes into it goes down the stack of open elements to the
      // first element that is not replaced (the root, at the bottom, never is). Where that is not where the element's
      // ancestors (through replaced ones) would take it, the insertion goes there instead.
      const into = internals.locParent;
      // (Not the adoption agency algorithm's own insertion, step 14, which the deviation of the replaced furthest block
      // models; what is inserted after a round goes down the stack as any other insertion does.)
      if (stackHomes !== null && overrideTarget === null && into === target && into instanceof Element && isReplacedIn(stackHomes, into) && !fosterTargets.has(into)) {
        const items = open.items ?? [];
        let at = open.indexOf!.call(open, into);
        while (at > 0 && isReplacedIn(stackHomes, items[at]!)) at--;
        let up: ParentNode = into;
        while (up !== root && isReplacedIn(stackHomes, up) && up.parentNode !== null) up = up.parentNode;
        const home = at >= 0 ? items[at]! : null;
        if (home !== null && (home.content ?? home) !== up) {
          internals.locParent = home.content ?? home;
          internals.locBefore = null;
          stackHomeMoves++;
        }
      }
      // Chromium's unkept table has no parent: the element above it on the stack takes what is foster-parented.
      const table = internals.locBefore;
      if (parentless !== null && table instanceof Element && table.localName === 'table' && table.namespaceURI === HTML_NS && parentless(table)) {
        const at = open.indexOf!.call(open, table);
        const above = at > 0 ? open.items?.[at - 1] : undefined;
        if (above !== undefined && above !== table.parentNode && !(above.content !== null && above.content === table.parentNode)) {
          internals.locParent = above.content ?? above;
          internals.locBefore = null;
          parentlessMoves++;
        }
      }
      pending =
        target !== null &&
        target.namespaceURI === HTML_NS &&
        FOSTER_TARGETS.has(target.localName) &&
        internals.locParent !== target
          ? { target, lastChild: target.childNodes[target.childNodes.length - 1] ?? null }
          : null;
    };
    internals.insertAtLocation = (node) => {
      const noted = pending;
      pending = null;
      if (noted !== null && node instanceof Element && !fosterTargets.has(node)) {
        if (!inserted.has(node)) {
          // (A new element with children is the adoption agency algorithm's clone of a formatting element, holding the
          // furthest block, inserted at step 14: replaced, Chromium sends what goes into it to its table section too.)
          if (node.childNodes.length === 0 || override !== null) fosterTargets.set(node, { ...noted, earlier: null });
        } else {
          const below = open.indexOf!.call(open, node) - 1;
          const home = below >= 0 ? open.items?.[below] : undefined;
          const children = [...node.childNodes];
          if (children.length === 0) fosterTargets.set(node, { ...noted, earlier: null });
          else if (home instanceof Element) fosterTargets.set(node, { ...noted, earlier: { children, home } });
        }
      }
      if (override !== null) round = new Map((open.items ?? []).map((el) => [el, lastParents.get(el)]));
      override = null;
      inserted.add(node);
      insert.call(builder, node);
      if (node instanceof Element) lastParents.set(node, node.parentNode!);
    };
    // Called right after step 17, with the furthest block: the new formatting element is its only child then, and
    // holds the children the block had.
    const moved = internals.selectedContentMoved;
    if (typeof moved === 'function') {
      internals.selectedContentMoved = (block) => {
        const before = round;
        round = null;
        const appended = block.childNodes[0];
        if (before !== null && block.childNodes.length === 1 && appended instanceof Element) {
          const path: ParentNode[] = [];
          for (let n: ParentNode | null = block.parentNode; n !== null && n !== root; ) {
            path.push(n);
            n = n.nodeType === ELEMENT_NODE ? n.parentNode : (open.items?.find((t) => t.content === n) ?? null);
          }
          adoptions.push({ block, before: before.get(block) ?? null, earlier: [...appended.childNodes], appended, path });
          // Step 16 moved the block's children into the new element, which step 17 appended to the block: that is
          // where a later round finds them, when the block is one Chromium has in its tree (`replacedKeys`: the
          // elements the configuration replaces). A replaced block holds nothing there: nothing moved.
          if (replacedKeys === null || !isReplacedIn(replacedKeys, block)) {
            lastParents.set(appended, block);
            for (const k of appended.childNodes) if (k instanceof Element) lastParents.set(k, appended);
          } else if (block.parentNode !== null) {
            // The block itself is where the round put it: in the clone the inner loop appended it to (or where step
            // 14 inserted it), and what Chromium inserts into it later goes there.
            lastParents.set(block, block.parentNode);
          }
        }
        moved.call(builder, block);
      };
    }
  }
  // Step 18 with an unkept furthest block: the formatting element's entry takes the new element, wherever the bookmark
  // is. The round calls `selectedContentMoved` on the block right after step 17; step 18 then either replaces the
  // entry (bookmark not moved: nothing to change) or removes it and inserts the new element after the bookmark, which
  // becomes the replacement. A missing method leaves the parse as it is (and cases that need it unexplained).
  let bookmarkMoves = 0;
  type Afe = {
    remove(e: unknown): void;
    replace(e: unknown, el: Element): unknown;
    insertAt(pos: number, el: Element, id: number): unknown;
    indexOfEntry(e: unknown): number;
  };
  const afe = (builder as unknown as { afe?: Partial<Afe> }).afe;
  const roundEnd = internals.selectedContentMoved;
  if (
    unkept !== null &&
    afe !== undefined &&
    typeof roundEnd === 'function' &&
    typeof afe.remove === 'function' &&
    typeof afe.replace === 'function' &&
    typeof afe.insertAt === 'function' &&
    typeof afe.indexOfEntry === 'function'
  ) {
    const { remove, replace, insertAt, indexOfEntry } = afe as Afe;
    let armed = false;
    let held: unknown = null;
    internals.selectedContentMoved = (block) => {
      roundEnd.call(builder, block);
      armed = unkept(block);
    };
    afe.remove = function (this: Afe, e) {
      if (!armed) return remove.call(this, e);
      armed = false;
      held = e;
    };
    afe.replace = function (this: Afe, e, el) {
      armed = false;
      return replace.call(this, e, el);
    };
    afe.insertAt = function (this: Afe, pos, el, id) {
      if (held === null) return insertAt.call(this, pos, el, id);
      const e = held;
      held = null;
      if (pos !== indexOfEntry.call(this, e) + 1) bookmarkMoves++;
      return replace.call(this, e, el);
    };
  }
  const sink = sinkTo(builder, {
    startTag(name, attributes, selfClosing, tagId) {
      builder.startTag(name, attributes, selfClosing, tagId);
      if (name !== 'template' || !attributes.some((a) => a.localName === 'shadowrootmode')) return;
      const el = elements().find((e) => e.attributes === attributes);
      if (el !== undefined && el.parentNode !== null && el.namespaceURI === HTML_NS && el.localName === 'template') {
        templateParents.set(el, el.parentNode);
      }
    },
    endTag: (name, tagId) => builder.endTag(name, tagId),
  });
  const tokenizer = new Tokenizer(sink);
  builder.tokenizer = tokenizer;
  const root = builder.initFragment(contextElement);
  tokenizer.run(markup);
  const tree = new DocumentFragment();
  for (const n of root.childNodes) {
    n.parentNode = tree;
    tree.childNodes.push(n);
  }
  root.childNodes = [];
  // The top level was the root html element while parsing: it is the fragment now.
  for (const [t, p] of templateParents) if (p === root) templateParents.set(t, tree);
  // The hooks only look (but for the redirections and step 18 asked for): the tree must be the parser's.
  if (parentlessMoves === 0 && stackHomeMoves === 0) {
    const same = dumpTree(tree) === dumpTree(parseFragment(markup, { context, scripting }));
    if (bookmarkMoves === 0 && !same) return null;
    if (same) bookmarkMoves = 0;
  }
  return { tree, root, templateParents, fosterTargets, adoptions, lastParents, parentlessMoves, stackHomeMoves, bookmarkMoves };
}

/** Whether an element like `host` (its name and namespace) can take a declarative shadow root (set-html.ts's rules). */
function canHostShadowRoot(host: Element): boolean {
  const probe = new DocumentFragment();
  const h = new Element(host.localName, host.namespaceURI, []);
  const t = new Element('template', HTML_NS, [new Attr('shadowrootmode', 'open')]);
  h.parentNode = probe;
  probe.childNodes.push(h);
  t.parentNode = h;
  h.childNodes.push(t);
  return declarativeShadowRootTemplates(probe).length === 1;
}

/** "namespace name" keys of the elements the sanitizer in effect replaces with their children. */
function replacedElementKeys(option: unknown, safe: boolean): Set<string> {
  const config = getSanitizerInstanceFromOptions({ sanitizer: option as never }, safe).get() as CanonicalSanitizerConfig;
  if (safe) removeUnsafeFromConfig(config);
  return new Set((config.replaceWithChildrenElements ?? []).map((e) => `${e.namespace ?? ''} ${e.name}`));
}

/**
 * Whether the sanitizer in effect removes or replaces an element like `el` (its name and namespace): sanitizing a
 * fragment holding only such an element, empty, does not leave it there.
 */
function unkeptElements(option: unknown, safe: boolean): (el: Element) => boolean {
  const sanitizer = getSanitizerInstanceFromOptions({ sanitizer: option as never }, safe);
  const known = new Map<string, boolean>();
  return (el) => {
    const key = `${el.namespaceURI} ${el.localName}`;
    let unkept = known.get(key);
    if (unkept === undefined) {
      const probe = new DocumentFragment();
      const copy = new Element(el.localName, el.namespaceURI, []);
      copy.parentNode = probe;
      probe.childNodes.push(copy);
      sanitizeWith(probe, sanitizer, safe);
      unkept = probe.childNodes[0] !== copy;
      known.set(key, unkept);
    }
    return unkept;
  };
}

/** Whether `n` is an element of a kind in `replaced` (replacedElementKeys). */
function isReplacedIn(replaced: ReadonlySet<string>, n: ParentNode): boolean {
  return n.nodeType === ELEMENT_NODE && replaced.has(`${(n as Element).namespaceURI} ${(n as Element).localName}`);
}

/**
 * Sanitize while parsing, foster parenting: the children of a replaced element that was foster-parented go, in
 * Chromium, into the table section that was its target (after what it held then), not before the table; for the
 * adoption agency algorithm's furthest block, the children it had before go where Chromium had put them, to the
 * end of the element below it on the stack then (through replaced elements to a kept one), unless a later round of
 * the algorithm moved them on. Moves them there in `notes.tree` and takes the element out. Null when a noted
 * position is gone; else whether anything moved.
 */
function moveFosteredReplacedChildren(notes: ParseNotes, replaced: Set<string>): boolean | null {
  const placed = new Map<object, ChildNode>();
  const isReplaced = (n: ParentNode): boolean => isReplacedIn(replaced, n);
  // Where Chromium put what went into `n`: for a replaced element, its own target section if it was
  // foster-parented, else where it was; up to a kept node.
  const keptHome = (from: ParentNode): ParentNode | null => {
    let n: ParentNode | undefined = from;
    for (let i = 0; n !== undefined && n !== (notes.root as ParentNode) && i < 1000 && isReplaced(n); i++) {
      n = notes.fosterTargets.get(n as Element)?.target ?? notes.lastParents.get(n as Element);
    }
    return n === (notes.root as ParentNode) ? notes.tree : n === undefined || isReplaced(n) ? null : n;
  };
  let moved = false;
  for (const [el, { target, lastChild, earlier }] of notes.fosterTargets) {
    if (!isReplaced(el) || el.parentNode === null) continue;
    if (earlier !== null) {
      // The adoption agency algorithm's furthest block: the children it had then were never its own in Chromium.
      const home = keptHome(earlier.home);
      if (home === null) return null;
      // Those a later round of the algorithm moved on are where that round put them (Chromium's too).
      const appended = notes.adoptions.find((a) => a.block === el)?.appended;
      for (const k of earlier.children) {
        if (k.parentNode === null) return null;
        if (appended !== undefined && k.parentNode !== appended) continue;
        const from = k.parentNode.childNodes;
        from.splice(from.indexOf(k), 1);
        k.parentNode = home;
        home.childNodes.push(k);
      }
    }
    const key: object = lastChild ?? target;
    const anchor = placed.get(key) ?? lastChild;
    const kids = target.childNodes;
    const at = anchor === null ? 0 : kids.indexOf(anchor) + 1;
    if (anchor !== null && at === 0) return null;
    const children = el.childNodes;
    el.childNodes = [];
    for (const k of children) k.parentNode = target;
    kids.splice(at, 0, ...children);
    if (children.length > 0) placed.set(key, children[children.length - 1]!);
    const from = el.parentNode.childNodes;
    from.splice(from.indexOf(el), 1);
    el.parentNode = null;
    moved = true;
  }
  return moved;
}

/**
 * Sanitize while parsing, the adoption agency algorithm with a replaced furthest block. The children the block held
 * before a round were never its own in Chromium: they are where it had put them, in the node the block was in
 * (through replaced elements to a kept one; gone with it when that one is removed). The new formatting element of
 * step 17 goes where the block's children go: the first kept node the block is in then (through the replaced ones:
 * clones of replaced formatting elements, the common ancestor, template contents taken as their template, and for a
 * foster-parented element its table section). When that is a template, Chromium appends it to the template element
 * itself, not to its contents: it is among the template's own children. In `notes.tree`, moves those children (the
 * ones still in the new element; a foster-parented block's are moveFosteredReplacedChildren's) to the end of that
 * node, and takes the new elements bound for a template out: returned with their templates, for parseTimeTree to
 * sanitize and append to the template's own children. Null when a noted node is gone; else whether anything changed.
 */
function replayReplacedFurthestBlocks(
  notes: ParseNotes,
  replaced: Set<string>,
): { changed: boolean; templateOwn: [Element, Element][] } | null {
  const isReplaced = (n: ParentNode): boolean => isReplacedIn(replaced, n);
  const isTemplate = (n: ParentNode): n is Element =>
    n.nodeType === ELEMENT_NODE && (n as Element).namespaceURI === HTML_NS && (n as Element).localName === 'template';
  // Template contents, with their templates.
  const templateOf = new Map<ParentNode, Element>();
  walk(notes.tree, (n) => {
    if (isTemplate(n as Element) && (n as Element).content !== null) templateOf.set((n as Element).content!, n as Element);
  });
  /** Where Chromium inserted what went into `from` while parsing: through replaced elements to a kept one. */
  const kept = (from: ParentNode | null): ParentNode | null => {
    let n = from;
    for (let i = 0; n !== null && i < 1000; i++) {
      n = templateOf.get(n) ?? n;
      // The root (the fragment) is never replaced, whatever the configuration says about html elements.
      if (n === (notes.root as ParentNode)) return notes.tree;
      if (!isReplaced(n)) break;
      n = notes.lastParents.get(n as Element) ?? null;
    }
    return n === null || isReplaced(n) ? null : n;
  };
  const taken: [Element, Element][] = [];
  let changed = false;
  for (const { block, before, earlier, appended, path } of notes.adoptions) {
    if (!isReplaced(block)) continue;
    if (!notes.fosterTargets.has(block)) {
      let home = kept(before);
      if (home === null) return null;
      if (isTemplate(home)) home = home.content!;
      for (const k of earlier) {
        if (k.parentNode !== appended) continue;
        appended.childNodes.splice(appended.childNodes.indexOf(k), 1);
        k.parentNode = home;
        home.childNodes.push(k);
        changed = true;
      }
    }
    // Where the block's children go: through replaced elements (the nodes it was in then, or for a foster-parented
    // one its table section, as moveFosteredReplacedChildren has it) to a kept one.
    const parentAt = new Map<ParentNode, ParentNode>();
    path.forEach((n, i) => parentAt.set(i === 0 ? block : path[i - 1]!, n));
    let at: ParentNode | undefined = block;
    for (let i = 0; at !== undefined && i < 1000; i++) {
      at = templateOf.get(at) ?? at;
      if (!isReplaced(at)) break;
      at = notes.fosterTargets.get(at as Element)?.target ?? parentAt.get(at) ?? at.parentNode ?? undefined;
    }
    if (at === undefined || !isTemplate(at)) continue;
    if (appended.parentNode === null) return null;
    const from = appended.parentNode.childNodes;
    from.splice(from.indexOf(appended), 1);
    appended.parentNode = null;
    taken.push([at, appended]);
    changed = true;
  }
  return { changed, templateOwn: taken };
}

/**
 * Our setHTMLLike result again, redone with what Chromium decides while parsing (sanitize while parsing), for the
 * deviations that need it (`ids`):
 * - 'sanitize-while-parsing-foster-parented-replaced': see moveFosteredReplacedChildren, done before sanitizing.
 * - 'declarative-shadow-root': the templates Chromium turns into declarative shadow roots, shown the way the page
 *   shows shadow roots. The host is the node the template start tag was inserted into (with Chromium's parse
 *   standing in for ours, the template's parent in that tree), when it can host one and has none yet (unsanitized
 *   attributes); the mode is that of the sanitized attributes. Each such template that is still in the sanitized
 *   tree with a valid mode leaves it; when its host is still in the tree (kept) an open one becomes the host's first
 *   `<#shadow root>` child holding its contents, otherwise (closed, or a host that was removed or replaced) nothing
 *   of it remains.
 * Returns the tree and the ids that changed something, or null when none did.
 */
function parseTimeTree(
  c: SanitizerCase,
  markup: string,
  safe: boolean,
  option: unknown,
  ids: ReadonlySet<string>,
  parse?: ParseOverride,
  redirect: Redirect | null = null,
): { tree: ParentNode; used: string[] } | null {
  const context = { name: c.context.name, namespace: c.context.namespace ?? HTML_NS };
  const scripting = parseScripting(context, safe, option);
  const used: string[] = [];
  const keys = parse === undefined ? replacedElementKeys(option, safe) : null;
  const unkept = parse === undefined && (redirect === 'parentless' || redirect === 'bookmark') ? unkeptElements(option, safe) : null;
  const notes =
    parse === undefined
      ? parseNoting(
          markup,
          context,
          scripting,
          redirect === 'parentless' ? unkept : null,
          redirect === 'stack-home' ? keys : null,
          keys,
          redirect === 'bookmark' ? unkept : null,
        )
      : null;
  if (redirect !== null) {
    // Only when the parse did go otherwise (else this is the parse already tried).
    const moves =
      notes === null ? 0 : redirect === 'parentless' ? notes.parentlessMoves : redirect === 'stack-home' ? notes.stackHomeMoves : notes.bookmarkMoves;
    if (moves === 0) return null;
    used.push(REDIRECTS[redirect]);
  }
  const tree: DocumentFragment =
    notes !== null ? notes.tree : parse !== undefined ? parse(markup, scripting) : parseFragment(markup, { context, scripting });
  const replaced =
    notes !== null &&
    (ids.has('sanitize-while-parsing-foster-parented-replaced') || ids.has('sanitize-while-parsing-replaced-furthest-block'))
      ? replacedElementKeys(option, safe)
      : null;
  if (replaced !== null && ids.has('sanitize-while-parsing-foster-parented-replaced')) {
    const moved = moveFosteredReplacedChildren(notes!, replaced);
    if (moved === null) return null;
    if (moved) used.push('sanitize-while-parsing-foster-parented-replaced');
  }
  let templateOwn: [Element, Element][] = [];
  if (replaced !== null && ids.has('sanitize-while-parsing-replaced-furthest-block')) {
    const replayed = replayReplacedFurthestBlocks(notes!, replaced);
    if (replayed === null) return null;
    if (replayed.changed) used.push('sanitize-while-parsing-replaced-furthest-block');
    templateOwn = replayed.templateOwn;
  }
  const hosts = new Map<Element, Element>();
  if (ids.has('declarative-shadow-root')) {
    if (notes === null) {
      for (const t of declarativeShadowRootTemplates(tree)) hosts.set(t, t.parentNode as Element);
    } else {
      const taken = new Set<Element>();
      for (const [t, p] of notes.templateParents) {
        const mode = (t.getAttributeNS(null, 'shadowrootmode') ?? '').toLowerCase();
        if ((mode !== 'open' && mode !== 'closed') || p.nodeType !== ELEMENT_NODE) continue;
        const host = p as Element;
        if (taken.has(host) || !canHostShadowRoot(host)) continue;
        taken.add(host);
        hosts.set(t, host);
      }
    }
  }
  if (hosts.size === 0 && used.length === 0) return null;
  const sanitizer = getSanitizerInstanceFromOptions({ sanitizer: option as never }, safe);
  sanitizeWith(tree, sanitizer, safe);
  // What is still in the tree (template contents included).
  const kept = new Set<ChildNode>();
  walk(tree, (n) => void kept.add(n));
  // Sanitized as Chromium did while parsing them, the elements the adoption agency algorithm put into a template
  // element itself join its own children (shown after its contents) if it is still there.
  for (const [template, el] of templateOwn) {
    const holder = new DocumentFragment();
    holder.childNodes.push(el);
    el.parentNode = holder;
    sanitizeWith(holder, sanitizer, safe);
    if (!kept.has(template)) continue;
    for (const k of holder.childNodes) {
      k.parentNode = template;
      template.childNodes.push(k);
    }
  }
  let shown = false;
  for (const [t, host] of hosts) {
    const mode = (t.getAttributeNS(null, 'shadowrootmode') ?? '').toLowerCase();
    if (!kept.has(t) || (mode !== 'open' && mode !== 'closed')) continue;
    const kids = t.parentNode!.childNodes;
    kids.splice(kids.indexOf(t), 1);
    shown = true;
    if (mode === 'open' && kept.has(host)) {
      host.childNodes.unshift({
        nodeType: ELEMENT_NODE,
        namespaceURI: '#shadow',
        localName: 'root',
        attributes: [],
        childNodes: t.content!.childNodes,
        content: null,
      } as unknown as ChildNode);
    }
  }
  if (shown) used.push('declarative-shadow-root');
  return used.length === 0 ? null : { tree, used };
}

/** Merges adjacent text nodes everywhere in a throwaway tree (iteratively). Returns whether it changed. */
function mergeAdjacentText(tree: ParentNode): boolean {
  let changed = false;
  const stack: ChildNode[][] = [tree.childNodes];
  while (stack.length > 0) {
    const list = stack.pop()!;
    let w = 0;
    for (let r = 0; r < list.length; r++) {
      const n = list[r]!;
      const prev = w > 0 ? list[w - 1]! : null;
      if (n.nodeType === TEXT_NODE && prev !== null && prev.nodeType === TEXT_NODE) {
        list[w - 1] = { nodeType: TEXT_NODE, data: (prev as Text).data + (n as Text).data } as unknown as ChildNode;
        changed = true;
        continue;
      }
      list[w++] = n;
      if (n.nodeType === ELEMENT_NODE) {
        const el = n as Element;
        stack.push(el.childNodes);
        if (el.content !== null && el.content !== undefined) stack.push(el.content.childNodes);
      }
    }
    list.length = w;
  }
  return changed;
}

/**
 * What a dump says regardless of placement: the sorted element / attribute / comment / PI lines (each one with
 * the attribute lines that follow it, indentation removed), then the sorted characters of all text.
 */
function placementFree(dump: string): string {
  const records: string[] = [];
  for (const line of dump.split('\n')) {
    if (line.startsWith('| ') || records.length === 0) records.push(line);
    else records[records.length - 1] += '\n' + line;
  }
  const nodes: string[] = [];
  let text = '';
  for (const r of records) {
    const body = r.slice(2).trimStart();
    if (body.startsWith('"')) text += body.slice(1, -1);
    else if (body.startsWith('<') || nodes.length === 0) nodes.push(body);
    else nodes[nodes.length - 1] += '\n' + body;
  }
  return nodes.sort().join('\n') + '\n#text ' + [...text].sort().join('');
}

/** A dump without the descendants of selectedcontent elements (their own attribute lines stay). */
function stripSelectedContent(dump: string): string {
  // Records: a '| '-line plus its continuation lines (text or attribute values with line breaks).
  const records: string[] = [];
  for (const line of dump.split('\n')) {
    if (line.startsWith('| ') || records.length === 0) records.push(line);
    else records[records.length - 1] += '\n' + line;
  }
  const indent = (r: string): number => r.length - r.slice(2).trimStart().length - 2;
  const out: string[] = [];
  let cut = -1;
  let attrsOf = -1;
  for (const r of records) {
    const d = indent(r);
    if (cut >= 0) {
      if (d <= cut) cut = -1;
      else if (attrsOf === cut && d === cut + 2 && !/^[<"]/.test(r.slice(2 + d))) {
        out.push(r);
        continue;
      } else {
        attrsOf = -1;
        continue;
      }
    }
    out.push(r);
    if (r.slice(2 + d) === '<selectedcontent>') {
      cut = d;
      attrsOf = d;
    }
  }
  return out.join('\n');
}

/** The deviations reproduced by running our side differently (oursRun's `emulate`), in the order they are tried. */
const RUN_EMULATIONS = ['chromium-set-data-attributes-flag-only', 'chromium-remove-unsafe-lacks-standard-handlers'] as const;
type RunEmulation = (typeof RUN_EMULATIONS)[number];

/** Method calls with each removeUnsafe() done through the public methods with Chromium 156's list (see the deviation). */
function withChromiumRemoveUnsafe(calls: readonly MethodCall[]): MethodCall[] {
  const ops: MethodCall[] = [];
  for (const op of calls) {
    if (op.m !== 'removeUnsafe') {
      ops.push(op);
      continue;
    }
    ops.push({ m: '#begin', a: null });
    for (const e of BASELINE_ELEMENTS_TO_REMOVE) ops.push({ m: 'removeElement', a: { name: e.name, namespace: e.namespace } });
    for (const a of EVENT_HANDLER_ATTRIBUTES) if (!CRASHING_SET.has(a.name)) ops.push({ m: 'removeAttribute', a: a.name });
    ops.push({ m: '#end', a: null });
  }
  return ops;
}

/**
 * setDataAttributes() as Chromium 156 does it (see the deviation): only the flag is set, with or without a global
 * allow-list, and listed data attributes stay. Done on the Sanitizer's own state (config.ts's sanitizerState); the
 * revision is bumped so that the compiled form is rebuilt. Returns whether the flag changed (Chromium returns
 * undefined; the void-setter deviation covers that).
 */
function chromiumSetDataAttributes(sanitizer: Sanitizer, allow: unknown): boolean {
  const st = sanitizerState(sanitizer) as { config: CanonicalSanitizerConfig; revision: number };
  const value = Boolean(allow);
  if (st.config.dataAttributes === value) return false;
  st.config.dataAttributes = value;
  st.revision++;
  return true;
}

/** Whether, after `new Sanitizer(init)` and `ops` on our side, the elements allow-list holds `element`. */
function alreadyAllowed(init: Json, ops: readonly MethodCall[], element: Json): boolean {
  try {
    const s = init === null ? new Sanitizer() : new Sanitizer(copy(init) as never);
    const m = s as unknown as Record<string, (a?: unknown) => unknown>;
    for (const op of ops) {
      try {
        m[op.m]!.call(s, copy(op.a));
      } catch {
        // As on the page: a throwing call changes nothing.
      }
    }
    const name = typeof element === 'string' ? element : isObject(element) ? String(element.name) : null;
    if (name === null) return false;
    let ns: string | null = HTML_NS;
    if (isObject(element) && element.namespace !== undefined) ns = element.namespace === '' ? null : (element.namespace as string | null);
    return (s.get().elements ?? []).some((e) => e.name === name && e.namespace === ns);
  } catch {
    return false;
  }
}

function isObject(v: Json): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function partString(o: Outcome, part: Part): string {
  return part === 'returns' ? o.returns.join(',') : String(o[part]);
}

/** explain() for the tree parts, with the given markup rewrites applied. */
function explainTree(
  c: SanitizerCase,
  markup: string,
  part: 'safe' | 'unsafe',
  chromium: Outcome,
  ks: readonly KnownDeviation[],
  rewrites: readonly KnownDeviation[],
  parse?: ParseOverride,
): string | null {
  const used: string[] = [];
  // 1. Markup rewrites (what our side parses).
  let m = markup;
  for (const k of rewrites) {
    const r = k.rewriteMarkup!(m, c);
    // The crash rename is what Chromium ran, so it counts even when it changes nothing on our side.
    if (r !== m || k.id === 'chromium-sethtml-crashes-on-standard-handlers') used.push(k.id);
    m = r;
  }
  // Chromium's result, and (for the `is` deviation) its result on markup with `is` renamed (not with Chromium's
  // parse standing in for ours: that parse has the deviation already).
  const alt = parse !== undefined ? null : (chromium.isRenamed?.[part] ?? null);
  const hit = (dump: string): string | null => {
    if (used.length > 0 && dump === chromium[part]) return used.join('+');
    if (alt !== null && alt !== chromium[part] && dump === alt) return [...used, 'chromium-is-attribute-formatting-element'].join('+');
    return null;
  };
  // 2. Run emulations, one after the other while each changes the result (Chromium's remove unsafe list shows in
  // setHTMLUnsafe's result only: setHTML removes the unsafe anyway).
  let run = oursRun(c, m, { parse });
  let found = hit(run.outcome[part]);
  if (found !== null) return found;
  const emulate: RunEmulation[] = [];
  for (const id of RUN_EMULATIONS) {
    if (!ks.some((k) => k.id === id) || (id === 'chromium-remove-unsafe-lacks-standard-handlers' && part !== 'unsafe')) continue;
    const next = oursRun(c, m, { parse, emulate: [...emulate, id] });
    if (next.outcome[part] === run.outcome[part]) continue;
    emulate.push(id);
    used.push(id);
    run = next;
    if ((found = hit(run.outcome[part])) !== null) return found;
  }
  if (m === '' && chromium[part] === '' && run.outcome[part] === 'throw:TypeError' && ks.some((k) => k.id === 'chromium-empty-markup-skips-validation')) {
    return [...used, 'chromium-empty-markup-skips-validation'].join('+');
  }
  // 3. setHTML on <script> with an invalid configuration.
  if (ks.some((k) => k.id === 'chromium-validates-before-script-check') && chromium.safe === 'throw:TypeError') {
    const spec = c.config.kind === 'dict' ? copy(c.config.value) : c.config.kind === 'preset' ? c.config.value : undefined;
    try {
      getSanitizerInstanceFromOptions({ sanitizer: spec as never }, true);
    } catch (e) {
      if (e instanceof TypeError) return [...used, 'chromium-validates-before-script-check'].join('+');
    }
    return null;
  }
  // 4. Tree rewrites.
  let tree = part === 'safe' ? run.safeTree : run.unsafeTree;
  if (tree === null) return null;
  // What the run gave, and the deviations used for it, before the parse-time rewrites and the text merge.
  const plainTree = tree;
  const plainUsed = used.length;
  const parseTime = new Set(ks.map((k) => k.id).filter((id) => PARSE_TIME_DEVIATIONS.has(id)));
  if (parseTime.size > 0 && run.option !== null) {
    const base = used.length;
    const redone = parseTimeTree(c, m, part === 'safe', run.option(), parseTime, parse);
    if (redone !== null) {
      used.push(...redone.used);
      tree = redone.tree;
      if ((found = hit(dumpTree(tree))) !== null) return found;
    }
    // Then with Chromium's parentless unkept tables, with its insertions down the stack past replaced elements, and
    // with its list of active formatting elements after a round over an unkept furthest block, each tried apart so
    // that it changes no other explanation.
    for (const redirect of Object.keys(REDIRECTS) as Redirect[]) {
      if (!parseTime.has(REDIRECTS[redirect])) continue;
      const again = parseTimeTree(c, m, part === 'safe', run.option(), parseTime, parse, redirect);
      if (again !== null) {
        const first = used.splice(base);
        used.push(...again.used);
        if ((found = hit(dumpTree(again.tree))) !== null) return found;
        if (ks.some((k) => k.id === 'sanitize-while-parsing-text-merge') && mergeAdjacentText(again.tree)) {
          used.push('sanitize-while-parsing-text-merge');
          if ((found = hit(dumpTree(again.tree))) !== null) return found;
        }
        used.splice(base, used.length - base, ...first);
      }
    }
  }
  if (ks.some((k) => k.id === 'sanitize-while-parsing-text-merge') && mergeAdjacentText(tree)) {
    used.push('sanitize-while-parsing-text-merge');
    if ((found = hit(dumpTree(tree))) !== null) return found;
  }
  // 5. Dump rewrites on both sides.
  if (ks.some((k) => k.id === 'sanitize-while-parsing-placement') && (part === 'safe' || c.config.kind !== 'none')) {
    const ours = placementFree(dumpTree(tree));
    if (ours === placementFree(chromium[part])) return [...used, 'sanitize-while-parsing-placement'].join('+');
    if (alt !== null && ours === placementFree(alt)) {
      return [...used, 'sanitize-while-parsing-placement', 'chromium-is-attribute-formatting-element'].join('+');
    }
    // Without the parse-time rewrites (a rewrite can lose nodes Chromium placed elsewhere than it models).
    if (tree !== plainTree && placementFree(run.outcome[part]) === placementFree(chromium[part])) {
      return [...used.slice(0, plainUsed), 'sanitize-while-parsing-placement'].join('+');
    }
  }
  if (ks.some((k) => k.id === 'selectedcontent-mirroring')) {
    const ours = stripSelectedContent(dumpTree(tree));
    const theirs = stripSelectedContent(chromium[part]);
    if (ours === theirs) return [...used, 'selectedcontent-mirroring'].join('+');
    if (alt !== null && ours === stripSelectedContent(alt)) {
      return [...used, 'selectedcontent-mirroring', 'chromium-is-attribute-formatting-element'].join('+');
    }
    // Both: what the mirroring put into selectedcontent aside, the same nodes placed differently.
    if (ks.some((k) => k.id === 'sanitize-while-parsing-placement') && (part === 'safe' || c.config.kind !== 'none')) {
      if (placementFree(ours) === placementFree(theirs)) {
        return [...used, 'selectedcontent-mirroring', 'sanitize-while-parsing-placement'].join('+');
      }
    }
  }
  return null;
}

/**
 * Tries the applicable deviations on one differing part: returns the '+'-joined ids of those that changed
 * something when the two sides then agree, else null.
 */
function explain(c: SanitizerCase, markup: string, part: Part, chromium: Outcome, parse?: ParseOverride): string | null {
  const ks = KNOWN_DEVIATIONS.filter((k) => k.parts.includes(part) && k.applies(c, chromium));
  if (ks.length === 0) return null;
  if (part === 'safe' || part === 'unsafe') {
    // The markup rewrites are tried all together, then one at a time, then none (the crash rename is always
    // applied when Chromium ran it): a rewrite meant for one NUL must not spoil another deviation. With
    // Chromium's own parse standing in for ours, the rewrites that emulate its parser deviations have nothing
    // left to do: only the crash rename (what Chromium ran) remains.
    const rewrites = ks.filter((k) => k.rewriteMarkup !== undefined);
    const crash = rewrites.filter((k) => k.id === 'chromium-sethtml-crashes-on-standard-handlers');
    const others = rewrites.filter((k) => k.id !== 'chromium-sethtml-crashes-on-standard-handlers');
    const sets: KnownDeviation[][] = parse !== undefined ? [crash] : [rewrites];
    if (parse === undefined && others.length > 1) for (const k of others) sets.push([...crash, k]);
    if (parse === undefined && others.length > 0) sets.push(crash);
    for (const set of sets) {
      const found = explainTree(c, markup, part, chromium, ks, set, parse);
      if (found !== null) return found;
    }
    return null;
  }
  // Run emulations (fewest first), then Chromium-side rewrites of the return values.
  const emulations = RUN_EMULATIONS.filter((id) => ks.some((k) => k.id === id));
  const subsets: RunEmulation[][] = [[]];
  for (const id of emulations) for (const sub of [...subsets]) subsets.push([...sub, id]);
  subsets.sort((a, b) => a.length - b.length);
  const ops = c.config.kind === 'object' ? c.config.ops : [];
  for (const emulate of subsets) {
    const ours = oursRun(c, markup, { emulate }).outcome;
    const ch: Outcome = { ...chromium, returns: [...chromium.returns] };
    const used: string[] = [...emulate];
    const rewrite = (id: string, f: () => void): void => {
      if (!ks.some((k) => k.id === id)) return;
      const before = partString(ch, part);
      f();
      if (partString(ch, part) !== before) used.push(id);
    };
    rewrite('chromium-void-setters', () => {
      ch.returns = ch.returns.map((r, i) => (r === 'undefined' && VOID_SETTERS.has(ops[i]?.m ?? '') ? ours.returns[i] ?? r : r));
    });
    rewrite('chromium-allow-element-existing-returns-true', () => {
      const cfg = c.config as { init: Json; ops: MethodCall[] };
      ch.returns = ch.returns.map((r, i) => {
        const op = cfg.ops[i];
        if (op?.m !== 'allowElement' || r !== 'true' || ours.returns[i] !== 'false') return r;
        return alreadyAllowed(cfg.init, cfg.ops.slice(0, i), op.a) ? 'false' : r;
      });
    });
    if (used.length > 0 && partString(ours, part) === partString(ch, part)) return used.join('+');
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Classification

/** Verdict of one part: 'same', 'diff', or the known deviation(s) that explain it. */
function classifyPart(c: SanitizerCase, markup: string, part: Part, ours: OurRun, chromium: Outcome): string {
  // A safe run on renamed markup is never plainly 'same': the known deviation accounts for it.
  if (partString(ours.outcome, part) === partString(chromium, part) && !(part === 'safe' && chromium.renamed === true)) {
    return 'same';
  }
  try {
    return explain(c, markup, part, chromium) ?? 'diff';
  } catch (e) {
    if (process.env.HTMLSIFT_DEBUG) console.log('explain threw', e);
    // A rewrite that throws explains nothing.
    return 'diff';
  }
}

/** classifyPart, then, for a tree that still differs, the parser-origin check. */
async function classifyPartFully(
  o: Oracles,
  c: SanitizerCase,
  markup: string,
  part: Part,
  ours: OurRun,
  chromium: Outcome,
): Promise<string> {
  const v = classifyPart(c, markup, part, ours, chromium);
  if (v !== 'diff' || (part !== 'safe' && part !== 'unsafe')) return v;
  return (await explainByParser(o, c, markup, part, chromium)) ?? 'diff';
}

async function classify(o: Oracles, c: SanitizerCase, markup: string, ours: OurRun, chromium: Outcome): Promise<Map<Part, string>> {
  const out = new Map<Part, string>();
  for (const p of PARTS) out.set(p, await classifyPartFully(o, c, markup, p, ours, chromium));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Parser origin. A sanitized tree can differ only because the two PARSERS differ on the markup; the parse
// differential owns those differences. A differing tree part counts as parser-caused when all of these hold:
// 1. parsed without sanitizing (innerHTML on the same context element, with the scripting flag the sanitizing
//    parse uses), Chromium's tree and ours differ;
// 2. our sanitizer, run on Chromium's unsanitized tree instead of ours (everything else as in setHTMLLike), gives
//    exactly Chromium's result, directly or through the sanitizer deviations above: the whole difference then
//    comes from the parse;
// 3. a Chromium parser deviation of the parse differential (known-deviations.ts, by reproducing it) explains the
//    difference of step 1. Without one, the verdict is PARSER_UNRECOGNIZED: still a difference (the run fails), shown
//    with both unsanitized parses for the parse differential's owner.

/** What the parser-origin check needs: the page (Chromium) and our parser's worker (hang-safe). */
interface Oracles {
  holder: PageHolder;
  host: OursHost;
}

/** Chromium's unsanitized parse, as the page sends it (see parsedTree in PAGE_SCRIPT). */
type NodeJson =
  | [1, string, string, [string | null, string | null, string, string][], NodeJson[], NodeJson[] | null]
  | [3, string]
  | [8, string]
  | [7, string, string]
  | [0, number];

/** Our tree for a page JSON tree (iteratively). Throws for a node type the HTML parser does not make. */
function buildTree(list: readonly NodeJson[]): DocumentFragment {
  const root = new DocumentFragment();
  const work: [ParentNode, readonly NodeJson[]][] = [[root, list]];
  while (work.length > 0) {
    const [parent, items] = work.pop()!;
    for (const n of items) {
      let node: ChildNode;
      switch (n[0]) {
        case 1: {
          const attrs = n[3].map(([ns, prefix, local, value]) => new Attr(decodeUnits(local), decodeUnits(value), ns, prefix === null ? null : decodeUnits(prefix)));
          const el = new Element(decodeUnits(n[2]), n[1], attrs);
          work.push([el, n[4]]);
          if (n[5] !== null && el.content !== null) work.push([el.content, n[5]]);
          node = el;
          break;
        }
        case 3:
          node = new Text(decodeUnits(n[1]));
          break;
        case 8:
          node = new Comment(decodeUnits(n[1]));
          break;
        case 7:
          node = new ProcessingInstruction(decodeUnits(n[1]), decodeUnits(n[2]));
          break;
        default:
          throw new Error(`sanitizer-parity: node type ${n[1]} in a parsed fragment`);
      }
      node.parentNode = parent;
      parent.childNodes.push(node);
    }
  }
  return root;
}

const PARSER_UNRECOGNIZED = 'parser-unrecognized';

/** The unsanitized parses behind a parser-caused verdict (for the report). */
interface ParserEvidence {
  markup: string;
  scripting: boolean;
  ours: string;
  chromium: string;
}

/**
 * The parser-origin check of one differing tree part: 'parser[<known-deviations id>]' (joined with the sanitizer
 * deviations it needed), PARSER_UNRECOGNIZED, or null (not the parser's doing).
 */
async function explainByParser(
  o: Oracles,
  c: SanitizerCase,
  markup: string,
  part: 'safe' | 'unsafe',
  chromium: Outcome,
  evidence?: (e: ParserEvidence) => void,
): Promise<string | null> {
  const safe = part === 'safe';
  const context = { name: c.context.name, namespace: c.context.namespace ?? HTML_NS };
  // setHTML on a script element parses nothing.
  if (setHTMLSkipsContext(context.name, context.namespace, safe)) return null;
  // What Chromium's run parsed (the safe run had the crashing handler names renamed), and its scripting flag.
  const m = safe && chromium.renamed === true ? markup.replace(CRASHERS, 'onclick') : markup;
  const scripting = parseScripting(context, safe, c.config.kind === 'none' ? undefined : null);
  // 1. The unsanitized parses differ.
  const [mine] = await o.host.parse([{ kind: 'fragment', input: m, context, scripting }]);
  if (mine === undefined || /^#(?:hang|crash|threw)/.test(mine.dump)) return null;
  const [theirs] = await chromiumParse(o.holder.page, [{ input: m, context, scripting }]);
  if (theirs === undefined || theirs.dump === mine.dump) return null;
  // 2. Our sanitizer on Chromium's parse reproduces Chromium's result.
  const json = await o.holder.parsedTree(m, context, scripting);
  let tree: DocumentFragment;
  try {
    tree = buildTree(json);
  } catch {
    return null;
  }
  if (dumpTree(tree) !== theirs.dump) return null;
  const parse: ParseOverride = (input, s) => {
    if (input !== m || s !== scripting) throw new Error('sanitizer-parity: no Chromium parse for this input');
    return buildTree(json);
  };
  let how: string | null;
  try {
    how = oursRun(c, m, { parse }).outcome[part] === chromium[part] ? '' : explain(c, markup, part, chromium, parse);
  } catch {
    how = null;
  }
  if (how === null) return null;
  evidence?.({ markup: m, scripting, ours: mine.dump, chromium: theirs.dump });
  // 3. A known Chromium parser deviation explains the parse difference.
  const known = await matchKnownDeviation({
    kind: 'fragment',
    input: m,
    context,
    scripting,
    ours: { dump: mine.dump, mode: null },
    chromium: { dump: theirs.dump, mode: null },
    simulate: async (without) =>
      (await o.host.parse([{ kind: 'fragment', input: m, context, scripting, simulate: { without: [...without] } }]))[0]!,
    chromiumParse: async (input) => {
      const [r] = await chromiumParse(o.holder.page, [{ input, context, scripting }]);
      return { dump: r!.dump, mode: r!.mode };
    },
  });
  if (known === null) return PARSER_UNRECOGNIZED;
  return [`parser[${known.id}]`, ...(how === '' ? [] : [how])].join('+');
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
// Hang guard: our parser runs in this process (the sanitizer needs its trees), so every markup is first parsed in
// the parse differential's worker (time and heap limits) with the scripting flags setHTMLLike will use. A case
// whose parse hangs or crashes there is not run here; it counts as a difference.

/** The parses setHTMLLike does for a case: scripting off when sanitizing, on for setHTMLUnsafe without one. */
function parsesOf(c: SanitizerCase, markup: string): WorkerCase[] {
  const ctx = { name: c.context.name, namespace: c.context.namespace ?? HTML_NS };
  const out: WorkerCase[] = [{ kind: 'fragment', input: markup, context: ctx, scripting: false }];
  if (parseScripting(ctx, false, c.config.kind === 'none' ? undefined : null)) out.push({ kind: 'fragment', input: markup, context: ctx, scripting: true });
  return out;
}

async function oursHangs(host: OursHost, items: readonly { c: SanitizerCase; markup: string }[]): Promise<boolean[]> {
  const work: WorkerCase[] = [];
  const owner: number[] = [];
  items.forEach((it, i) => {
    for (const w of parsesOf(it.c, it.markup)) {
      work.push(w);
      owner.push(i);
    }
  });
  const out = items.map(() => false);
  for (let i = 0; i < work.length; i += 500) {
    const res = await host.parse(work.slice(i, i + 500));
    res.forEach((r, k) => {
      if (r.dump.startsWith('#hang') || r.dump.startsWith('#crash')) out[owner[i + k]!] = true;
    });
  }
  return out;
}

const HANG = 'htmlsift parser hang/crash (parse-only worker; not run in process)';

const skipBrowser = chromiumSkipReason(SUITE) !== null;


describe.skipIf(skipBrowser)('Sanitizer API parity with Chromium setHTML', () => {
  let browser: Browser;
  let holder: PageHolder;
  let host: OursHost;
  const seed = seedFromEnv();

  beforeAll(async () => {
    host = new OursHost({ specs: ['../../src/parser.ts'] });
    const why = await host.start();
    if (why !== null) throw new Error(`[${SUITE}] our parser does not load in the worker: ${why}`);
    browser = await launchChromium();
    holder = new PageHolder(browser);
    await holder.open();
    console.log(`[${SUITE}] ${browser.version()}; seed ${seed} (replay: HTMLSIFT_SEED=${seed})`);
  });

  afterAll(async () => {
    await host?.close();
    await browser?.close();
  });

  test('the API surface Chromium exposes, and its built-in configurations, match ours', async () => {
    const f = (await holder.page.evaluate('__sanitizerParity.facts()')) as Record<string, unknown>;
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

  test('options read as Web IDL reads them: null, undefined, arrays, primitives, a null sanitizer', async () => {
    // Chromium converts the options dictionary before anything else: null and undefined are no options, a
    // primitive is a TypeError, `sanitizer: null` is an empty configuration (a dictionary member given as null).
    const html = '<p onclick="x()">a<my-el>b</my-el><script>1</script><span style="color:red">c</span>';
    const options: [string, unknown][] = [
      ['undefined', undefined], ['null', null], ['{}', {}], ['[]', []], ['{sanitizer:null}', { sanitizer: null }],
      ['{sanitizer:undefined}', { sanitizer: undefined }], ['5', 5], ['"x"', 'x'], ['true', true],
    ];
    const theirs = (await holder.page.evaluate(
      ({ html, options }) => {
        const out: string[] = [];
        const run = (f: () => string): string => {
          try {
            return f();
          } catch (e) {
            return 'threw ' + (e as Error).name;
          }
        };
        // (The page's own Document, not the one this file imports from src/dom.ts.)
        const D = (globalThis as unknown as Record<string, Record<string, (h: string, o: unknown) => { body: { innerHTML: string } }>>)['Document']!;
        for (const o of options) {
          for (const m of ['setHTML', 'setHTMLUnsafe']) {
            out.push(run(() => {
              const el = document.createElement('div');
              (el as unknown as Record<string, (h: string, o: unknown) => void>)[m]!(html, o);
              return el.innerHTML;
            }));
          }
          for (const m of ['parseHTML', 'parseHTMLUnsafe']) out.push(run(() => D[m]!(html, o).body.innerHTML));
        }
        return out;
      },
      { html, options: options.map(([, o]) => o) },
    )) as string[];
    const run = (f: () => string): string => {
      try {
        return f();
      } catch (e) {
        return 'threw ' + (e as Error).name;
      }
    };
    // setHTMLUnsafe and parseHTMLUnsafe are ours with `safe: false` added to the same dictionary.
    const unsafe = (o: unknown): unknown => (o === null || o === undefined ? { safe: false } : typeof o === 'object' ? { ...(o as object), safe: false } : o);
    const ours: string[] = [];
    for (const [, o] of options) {
      ours.push(run(() => serialize(setHTMLLike(html, o as never))));
      ours.push(run(() => serialize(setHTMLLike(html, unsafe(o) as never))));
      ours.push(run(() => serialize(parseHTMLLike(html, o as never).body!)));
      ours.push(run(() => serialize(parseHTMLLike(html, unsafe(o) as never).body!)));
    }
    const label = (i: number): string => `${['setHTML', 'setHTMLUnsafe', 'parseHTML', 'parseHTMLUnsafe'][i % 4]}(html, ${options[i >> 2]![0]})`;
    expect(ours.map((r, i) => `${label(i)}: ${r}`)).toEqual(theirs.map((r, i) => `${label(i)}: ${r}`));
    // Not vacuous: the cases differ (the default drops my-el, an empty configuration keeps it, primitives throw).
    expect(new Set(theirs).size).toBeGreaterThanOrEqual(4);
  });

  test('explanations are not free: doctored Chromium results stay unexplained', async () => {
    const oracles: Oracles = { holder, host };
    const div = { name: 'div' };
    const verdict = async (c: SanitizerCase, part: Part, ch: Outcome): Promise<string> =>
      classifyPartFully(oracles, c, c.markup, part, oursRun(c, c.markup), ch);
    /**
     * A sanitize-while-parsing case: Chromium's dump of `part` is `dump`, which `explained` explains, and the same
     * dump doctored into `doctored` stays unexplained.
     */
    const pinned = async (c: SanitizerCase, part: 'safe' | 'unsafe', dump: string, explained: string, doctored: string): Promise<void> => {
      const [ch] = await chromiumRun(holder, [c]);
      expect(ch![part]).toBe(dump);
      expect(await verdict(c, part, ch!)).toBe(explained);
      expect(await verdict(c, part, { ...ch!, [part]: doctored })).toBe('diff');
    };
    /** A case with a configuration dictionary. */
    const dictCase = (value: Json, markup: string, context: SanitizerCase['context'] = div): SanitizerCase => ({
      config: { kind: 'dict', value },
      markup,
      context,
    });
    // A case both sides agree on; Chromium's result doctored (other text, a throw) is explained by nothing.
    const plain: SanitizerCase = { config: { kind: 'dict', value: { elements: ['p', 'b'] } }, markup: '<p>x<b onclick=1>y</b></p>', context: div };
    const [ch1] = await chromiumRun(holder, [plain]);
    expect(await verdict(plain, 'safe', ch1!)).toBe('same');
    expect(await verdict(plain, 'safe', { ...ch1!, safe: ch1!.safe.replace('"y"', '"z"') })).toBe('diff');
    expect(await verdict(plain, 'safe', { ...ch1!, safe: 'throw:TypeError' })).toBe('diff');
    expect(await verdict(plain, 'get', { ...ch1!, get: 'throw:TypeError' })).toBe('diff');
    // A parser-caused difference (Chromium takes "anything else" for <base> in a template, then drops <col>): the
    // parser-origin check explains Chromium's real result with the parse differential's predicate, not a doctored one.
    const parsed: SanitizerCase = { config: { kind: 'dict', value: { removeElements: ['base'] } }, markup: '<template><base><col>', context: div };
    const [ch2] = await chromiumRun(holder, [parsed]);
    expect(await verdict(parsed, 'unsafe', ch2!)).toBe('parser[chromium-template-head-row-anything-else]');
    expect(await verdict(parsed, 'unsafe', { ...ch2!, unsafe: ch2!.unsafe + '\n| "extra"' })).toBe('diff');
    // Sanitize while parsing with the adoption agency algorithm: it foster-parents the replaced div; Chromium had put
    // "y" into b (the div's parent then) and puts "z" into the table (the common ancestor), which is removed, so
    // only <b>y</b> is left. Only the rewrite with both moves gives that; a doctored result stays unexplained.
    const adopted = dictCase({ elements: ['b'], replaceWithChildrenElements: ['div'] }, '<table><b><div>y</b>z');
    await pinned(adopted, 'safe', '| <b>\n|   "y"', 'sanitize-while-parsing-foster-parented-replaced', '| <b>\n|   "y"\n| "z"');
    // The same in a template, with the common ancestor the template: Chromium had put "x" into i (the li's parent
    // then) and appends the new i to the template element itself, not to its contents, so "x" stays in the first i
    // and the second one is among the template's own children. Only the rewrite with both gives that; a doctored
    // result without that i stays unexplained.
    // (Here the same nodes placed differently, which sanitize-while-parsing-placement would also accept; in a
    // declarative shadow root below, the template's own children are gone and only this rewrite explains it.)
    const templated: SanitizerCase = {
      config: { kind: 'dict', value: { elements: ['i', 'template'], replaceWithChildrenElements: ['li'] } },
      markup: '<template><i><li>x</i>y',
      context: div,
    };
    const shadow: SanitizerCase = {
      config: {
        kind: 'dict',
        value: { elements: ['i', 'template', 'y-'], attributes: ['shadowrootmode'], replaceWithChildrenElements: ['li'] },
      },
      markup: '<y-><template shadowrootmode=open><i><li>x</i>y',
      context: div,
    };
    const [ch4, ch5] = await chromiumRun(holder, [templated, shadow]);
    expect(ch4!.safe).toBe('| <template>\n|   content\n|     <i>\n|       "x"\n|     "y"\n|   <i>');
    expect(await verdict(templated, 'safe', ch4!)).toBe('sanitize-while-parsing-replaced-furthest-block');
    expect(await verdict(templated, 'safe', { ...ch4!, safe: ch4!.safe.replace('\n|   <i>', '') })).toBe('diff');
    // As a declarative shadow root the template's own children are not shown: the second i is not in the result.
    expect(ch5!.safe).toBe('| <y->\n|   <#shadow root>\n|     <i>\n|       "x"\n|     "y"');
    expect(await verdict(shadow, 'safe', ch5!)).toBe('sanitize-while-parsing-replaced-furthest-block+declarative-shadow-root');
    expect(await verdict(shadow, 'safe', { ...ch5!, safe: ch5!.safe + '\n|     <i>' })).toBe('diff');
    // A replaced table is parentless in Chromium: the second <a> takes the first off the stack of open elements, and
    // the reconstructed s goes to the element above the table there (the template contents), not before the table
    // inside the removed a. Only the parse with that placement gives <s>; a doctored result stays unexplained.
    const parentless = dictCase({ removeElements: ['a'], replaceWithChildrenElements: ['table'] }, '<a><p><s><table><a>', { name: 'template' });
    await pinned(parentless, 'safe', '| <s>', 'sanitize-while-parsing-parentless-table', '| <s>\n|   <p>');
    // A removed table too: `<a>` in the table takes the first a off the stack, and "w", foster-parented, goes to the
    // fragment (the element above the table there), not before the table inside the removed a.
    const removedTable = dictCase({ elements: ['p'] }, '<a><table><a></a>w');
    await pinned(removedTable, 'safe', '| "w"', 'sanitize-while-parsing-parentless-table', '| "x"');
    // `</form>` takes the form off the stack with font still open in it: Chromium sends "x" (inserted into the
    // replaced font) down the stack to the fragment, not into the form. Kept form and removed form alike; only the
    // parse with that placement explains it, and a doctored result stays unexplained.
    const stackHome = (elements: string[]): SanitizerCase => ({
      config: { kind: 'dict', value: { elements, replaceWithChildrenElements: ['font'] } },
      markup: '<form><font></form>x',
      context: div,
    });
    await pinned(stackHome(['form']), 'safe', '| <form>\n| "x"', 'sanitize-while-parsing-replaced-stack-home', '| <form>\n| "y"');
    await pinned(stackHome(['b']), 'safe', '| "x"', 'sanitize-while-parsing-replaced-stack-home', '| "y"');
    // The same after a round of the adoption agency algorithm: `</font>` moves the replaced h1 into the form (removed)
    // and `</form>` takes the form off the stack below it: Chromium sends "<" past the h1 to the fragment.
    const afterRound = dictCase({ removeElements: ['form'], replaceWithChildrenElements: ['h1'] }, '<p><form><font><h1></font></form><');
    await pinned(afterRound, 'safe', '| <p>\n| "<"', 'sanitize-while-parsing-replaced-stack-home', '| <p>\n| ">"');
    // The adoption agency algorithm's clone of a replaced formatting element (s), holding the replaced furthest block
    // (p), foster-parented at step 14: Chromium sends what goes into it to the table, so the new u (step 17, into
    // p) is in the table, not beside it. And in a template, with the table removed: `</u>` foster-parents a clone of
    // the replaced b holding the replaced li, and Chromium sends "<" past the li and the clone to the table: nothing
    // is left.
    const fosteredClone = dictCase({ replaceWithChildrenElements: ['s', 'p'] }, '<table><u><s><p></u>');
    await pinned(fosteredClone, 'safe', '| <u>\n| <table>\n|   <u>', 'sanitize-while-parsing-foster-parented-replaced', '| <u>\n| <table>\n|   <s>');
    const fosteredCloneRemoved = dictCase(
      { removeElements: ['table'], replaceWithChildrenElements: ['li', 'b', 'u'] },
      '<table><u><b><li></u><',
      { name: 'template' },
    );
    await pinned(fosteredCloneRemoved, 'safe', '', 'sanitize-while-parsing-foster-parented-replaced', '| ">"');
    // A replaced selectedcontent: the markup is parsed without its selectedcontent tags, but only those of HTML
    // selectedcontent elements (the first `<selectedcontent>` here is part of the tag name `g<selectedcontent`; in
    // the second case, the first makes an SVG element): the option stays in the select.
    const selectedContent = dictCase({ replaceWithChildrenElements: ['selectedcontent'] }, '<g<selectedcontent><select><selectedcontent><option>');
    await pinned(
      selectedContent,
      'safe',
      '| <g<selectedcontent>\n|   <select>\n|     <option>',
      'sanitize-while-parsing-selectedcontent-replaced',
      '| <g<selectedcontent>\n|   <select>\n|     <option>\n|       "x"',
    );
    const svgSelectedContent = dictCase(
      { replaceWithChildrenElements: ['selectedcontent'] },
      '<svg><selectedcontent><table><select><selectedcontent><option>',
    );
    await pinned(
      svgSelectedContent,
      'safe',
      '| <svg svg>\n|   <svg selectedcontent>\n| <select>\n|   <option>\n| <table>',
      'sanitize-while-parsing-selectedcontent-replaced',
      '| <svg svg>\n|   <svg selectedcontent>\n| <select>\n|   <option>\n|     "x"\n| <table>',
    );
    // Two rounds of the adoption agency algorithm in a declarative shadow root: the first moves the div's children
    // (the replaced p) into the new b, so the second round, with p as its furthest block, finds the ">" Chromium
    // had put into the div (p is not in its tree) in that b, which is removed: only the div is left. (Taking the p's
    // place from before the first round put ">" back into the div.)
    const twoRounds = dictCase({ replaceWithChildrenElements: ['p'], removeElements: ['b'] }, '<y-><template shadowrootmode=open><b><div><p>></b>');
    const twoRoundsDump = '| <y->\n|   <#shadow root>\n|     <div>';
    await pinned(twoRounds, 'unsafe', twoRoundsDump, 'sanitize-while-parsing-replaced-furthest-block+declarative-shadow-root', twoRoundsDump + '\n|       ">"');
    // Two rounds again, the second with a replaced block (the div) that the first moved into the new b, itself
    // replaced: the rewrite follows the b (in the li, where step 17 appended it) to the li. Only the li is left.
    const replacedRounds = dictCase(
      { elements: ['template', 'y-', 'li'], attributes: ['shadowrootmode'], replaceWithChildrenElements: ['div', 'b'] },
      '<y-><template shadowrootmode=open><b><li><div></b>',
      { name: 'template' },
    );
    await pinned(replacedRounds, 'safe', '| <y->\n|   <#shadow root>\n|     <li>', 'declarative-shadow-root', '| <y->\n|   <#shadow root>');
    // Outside templates: "x" went into n (the div's parent then), which is removed, so nothing is left.
    const lost: SanitizerCase = {
      config: { kind: 'dict', value: { removeElements: ['n'], replaceWithChildrenElements: ['div', 'u'] } },
      markup: '<u><n><div>x</u>',
      context: div,
    };
    await pinned(lost, 'unsafe', '', 'sanitize-while-parsing-replaced-furthest-block', '| "y"');
    // A replaced block stays where its round put it: `</b>` appends the div (replaced) to the clone of s and the new b
    // to the div, which Chromium puts into that clone; `</s>` takes the div as its furthest block again, and its new s
    // is left empty. Sanitizing the parsed fragment leaves the b in the new s: `<s></s><s><b></b></s>`. (Found by CI,
    // seed 1768087726, over four div/ul pairs.)
    const moved = dictCase({ replaceWithChildrenElements: ['div'] }, '<b><s><div><ul></b></s>x');
    const movedDump = ['| <b>', '|   <s>', '| <s>', '|   <b>', '| <s>', '| <ul>', '|   <s>', '|     <b>', '|   "x"'].join('\n');
    await pinned(moved, 'safe', movedDump, 'sanitize-while-parsing-replaced-furthest-block', movedDump.replace('"x"', '"y"'));
    // The adoption agency algorithm over eight removed blocks stops at its round limit with a clone of the first <a>
    // still in the list of active formatting elements. With the first furthest block removed, Chromium's list is
    // a, b, a (the standard's b, a, a), so the text after the cell reconstructs an <a> outside the removed <b>:
    // Chromium keeps two <a>, the standard one. Only the parse with Chromium's step 18 explains it (the other
    // rewrites and the placement rule do not: the kept nodes differ); a doctored result stays unexplained. With b
    // kept, the a/b/a order itself is checked.
    const blocks = '<div>'.repeat(8);
    const limit = dictCase({ elements: ['a'] }, `<a><b>${blocks}<a><td><col>x`, { name: 'tr' });
    await pinned(limit, 'safe', '| <a>\n| <a>', 'sanitize-while-parsing-unkept-furthest-block-bookmark', '| <a>\n| <a>\n| <a>');
    const order = dictCase({ elements: ['a', 'b', 'div'], attributes: ['title'] }, `<a title=1><b><section>${blocks.slice(5)}<a title=2><td><col>x`, { name: 'tr' });
    const orderDump = [
      '| <a>', '|   title="1"', '|   <b>', '| <b>', '| <a>', '|   title="1"', '|   <b>', '|     <a>', '|       title="2"', '|       "x"',
    ].join('\n');
    await pinned(order, 'safe', orderDump, 'sanitize-while-parsing-unkept-furthest-block-bookmark', orderDump.replace('title="2"', 'title="1"'));
    // Four formatting elements between: the inner loop clones s, u and i, and takes b out of the list (its fourth
    // step). Chromium's list is a, i, u, s (then the second a), the standard's i, u, s, a.
    const inner = dictCase(
      { elements: ['a', 'b', 'i', 'u', 's', 'div'], attributes: ['title'] },
      `<a title=1><b><i><u><s><section>${blocks.slice(5)}<a title=2><td><col>x`,
      { name: 'tr' },
    );
    const [chInner] = await chromiumRun(holder, [inner]);
    expect(chInner!.safe.endsWith('| <a>\n|   title="1"\n|   <i>\n|     <u>\n|       <s>\n|         <a>\n|           title="2"\n|           "x"')).toBe(true);
    expect(await verdict(inner, 'safe', chInner!)).toBe('sanitize-while-parsing-unkept-furthest-block-bookmark');
  });

  test('the adoption agency algorithm and foster parenting with replaced elements, in templates', async () => {
    // Its own stream, apart from the other tests'.
    const rng = new Rng((seed ^ 0x27d4eb2f) >>> 0);
    const cases: SanitizerCase[] = [];
    for (let i = 0; i < ADOPTION_CASES; i++) cases.push(adoptionCase(rng));
    await checkCases('adoption', cases);
  });

  test('random configurations, markup and contexts', async () => {
    const rng = new Rng(seed);
    const cases: SanitizerCase[] = [];
    for (let i = 0; i < CASES; i++) cases.push(randomCase(rng));
    await checkCases('random', cases);
  });

  test('the shared corpus: windows with random configurations and contexts, whole files with the default', async (ctx) => {
    const files = corpusFiles(CORPUS_FOLDERS, SUITE);
    if (files === null) return ctx.skip();
    // Its own stream, apart from the random test's.
    const rng = new Rng((seed ^ 0x85ebca6b) >>> 0);
    const cases: SanitizerCase[] = [];
    for (let i = 0; i < WINDOWS; i++) {
      const f = files[rng.int(files.length)]!;
      cases.push({ config: randomConfig(rng), markup: corpusWindow(rng, f.text).input, context: rng.pick(SANITIZER_CONTEXTS) });
    }
    for (const f of files) cases.push({ config: { kind: 'none' }, markup: f.text, context: { name: 'div' } });
    await checkCases('corpus', cases);
  });

  /** Runs `cases` through both sides, prints the summary (and the minimized differences), and fails on any. */
  async function checkCases(label: string, cases: SanitizerCase[]): Promise<void> {
    const t0 = performance.now();
    const oracles: Oracles = { holder, host };
    const chromium = await chromiumRun(holder, cases);
    const tChromium = performance.now() - t0;
    const hangs = await oursHangs(host, cases.map((c) => ({ c, markup: c.markup })));
    const stats = new Map<string, number>();
    const bump = (k: string): void => void stats.set(k, (stats.get(k) ?? 0) + 1);
    /** `verdict`: 'diff' or PARSER_UNRECOGNIZED (both unexplained). */
    const diffs: { index: number; part: Part; verdict: string; hang?: boolean }[] = [];
    let comparisons = 0;
    let invalid = 0;
    let identical = 0;
    let explainedCases = 0;
    let parserParts = 0;
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      if (hangs[i]) {
        comparisons++;
        diffs.push({ index: i, part: 'safe', verdict: 'diff', hang: true });
        continue;
      }
      const ours = oursRun(c, c.markup);
      const verdicts = await classify(oracles, c, c.markup, ours, chromium[i]!);
      if (chromium[i]!.get?.startsWith('throw:') || chromium[i]!.safe.startsWith('throw:')) invalid++;
      let all = true;
      let unexplained = false;
      for (const [part, v] of verdicts) {
        comparisons++;
        if (v !== 'same') all = false;
        if (v === 'diff' || v === PARSER_UNRECOGNIZED) {
          diffs.push({ index: i, part, verdict: v });
          unexplained = true;
        } else if (v !== 'same') {
          bump(v);
          if (v.startsWith('parser[')) parserParts++;
        }
      }
      if (all) identical++;
      else if (!unexplained) explainedCases++;
    }
    const diffCases = new Set(diffs.map((d) => d.index)).size;
    const known = [...stats].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join(', ');
    const knownTotal = [...stats.values()].reduce((a, b) => a + b, 0);
    const contexts = new Set(cases.map((c) => contextLabel(c.context))).size;
    const kinds = new Map<string, number>();
    for (const c of cases) kinds.set(c.config.kind, (kinds.get(c.config.kind) ?? 0) + 1);
    const unrecognized = diffs.filter((d) => d.verdict === PARSER_UNRECOGNIZED).length;
    const line =
      `[${SUITE}] ${label}, seed ${seed}: ${cases.length} cases (${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ')}; ` +
      `${invalid} throwing) across ${contexts} contexts, ${comparisons} comparisons; ${identical} cases identical, ` +
      `${explainedCases} explained, ${diffCases} unexplained (${diffs.length} parts, ${unrecognized} of them ` +
      `parser-caused without a known-deviations.ts predicate); ${knownTotal} differing parts explained ` +
      `(${parserParts} by the parser-origin check)${known ? ' (' + known + ')' : ''}; ` +
      `Chromium's renderer crashed on ${holder.crashes}; ` +
      `our parser hung on ${diffs.filter((d) => d.hang === true).length} (crashes/hangs in the worker: ${host.hangs}/${host.crashes}); ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s ` +
      `(Chromium ${(tChromium / 1000).toFixed(1)} s)`;
    console.log(line);
    if (diffs.length === 0) return;

    // Minimize and print the first differences (one per case and part).
    const blocks: string[] = [];
    const seen = new Set<string>();
    for (const d of diffs.slice(0, MAX_REPORTED)) {
      const c = cases[d.index]!;
      const stillDiffers = async (candidates: string[]): Promise<boolean[]> => {
        const hung = await oursHangs(host, candidates.map((markup) => ({ c, markup })));
        // A hang is minimized as a hang; for other differences a hanging candidate is another failure.
        if (d.hang === true) return hung;
        const res = await chromiumRun(holder, candidates.map(() => c), candidates);
        const out: boolean[] = [];
        for (let k = 0; k < candidates.length; k++) {
          const m = candidates[k]!;
          // The same verdict: a sanitizer difference must not turn into a parser one, or the reverse.
          out.push(!hung[k] && (await classifyPartFully(oracles, c, m, d.part, oursRun(c, m), res[k]!)) === d.verdict);
        }
        return out;
      };
      const min = await minimize(c.markup, stillDiffers, 1500);
      const key = d.part + '\n' + describeConfig(c.config) + '\n' + min.input;
      if (seen.has(key)) continue;
      seen.add(key);
      const [ch] = await chromiumRun(holder, [c], [min.input]);
      const o: Outcome = d.hang === true ? { get: HANG, returns: [HANG], getAfter: HANG, safe: HANG, unsafe: HANG } : oursRun(c, min.input).outcome;
      const show = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : String(v));
      const lines = [
        `--- case #${d.index} (seed ${seed}), ${d.hang === true ? 'our parser hangs or crashes' : d.part + ' differs'}` +
          (d.verdict === PARSER_UNRECOGNIZED ? ' (parser-caused; no known-deviations.ts predicate recognizes it)' : ''),
        `config: ${describeConfig(c.config)}`,
        `context: <${contextLabel(c.context)}>`,
        `markup (${c.markup.length} chars): ${showInput(c.markup)}`,
        `minimized (${min.input.length} chars, ${min.tested} candidates): ${showInput(min.input)}`,
        'ours:',
        show(o[d.part]),
        'chromium:',
        show(ch![d.part]),
      ];
      if (d.verdict === PARSER_UNRECOGNIZED && (d.part === 'safe' || d.part === 'unsafe')) {
        let e: ParserEvidence | null = null;
        await explainByParser(oracles, c, min.input, d.part, ch!, (x) => void (e = x));
        const ev = e as ParserEvidence | null;
        if (ev !== null) {
          lines.push(
            `unsanitized parse (innerHTML, scripting ${ev.scripting ? 'on' : 'off'}) of ${showInput(ev.markup)}:`,
            'ours:',
            ev.ours,
            'chromium:',
            ev.chromium,
          );
        }
      }
      blocks.push(lines.join('\n'));
    }
    const more = diffs.length > MAX_REPORTED ? `\n(${diffs.length - MAX_REPORTED} more differing parts not minimized)` : '';
    const text = blocks.join('\n\n') + more;
    const file = join(tmpdir(), `htmlsift-${SUITE}-${label}-${seed}.txt`);
    writeFileSync(file, line + '\n\n' + text + '\n');
    console.log(text + `\n[${SUITE}] report written to ${file}`);
    // No tolerance: every unexplained part fails the run, parser-caused ones without a known-deviations.ts predicate
    // included (our setHTML output does differ from Chromium's there; the parse differential's owner fixes the
    // parser or adds the predicate).
    expect(diffs.length, 'unexplained differences with Chromium (see report above)').toBe(0);
  }
});
