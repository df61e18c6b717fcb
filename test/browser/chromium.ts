/**
 * Shared Chromium launch and in-page parsing code for the browser suites (parse differential, and later sanitizer
 * parity, XSS corpus, benchmarks).
 *
 * Chromium is Debian's package driven through playwright-core. When the binary is absent the suites skip with one
 * line saying how to install it.
 *
 * Transport: strings cross the CDP/JSON boundary as UTF-8, which cannot carry lone surrogates (and U+0000 is not
 * trusted either). Every string sent to or read back from the page therefore goes through `encodeUnits` /
 * `decodeUnits`: `%`, U+0000 and every surrogate code unit become `%XXXX` (four upper-case hex digits), so the wire
 * only ever carries plain BMP scalar values. harness.test.ts checks that this survives the round trip code unit for
 * code unit.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

export const HTML_NS = 'http://www.w3.org/1999/xhtml';
export const SVG_NS = 'http://www.w3.org/2000/svg';
export const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

/** Path of the Chromium binary (`$CHROMIUM_PATH`, else /usr/bin/chromium), or null when it is not installed. */
export function chromiumExecutable(): string | null {
  const p = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(p) ? p : null;
}

/** Null when Chromium is available; otherwise prints (once per suite) the one-line skip reason and returns it. */
export function chromiumSkipReason(suite: string): string | null {
  if (chromiumExecutable() !== null) return null;
  const why =
    `[${suite}] skipped: Chromium not found at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'}. ` +
    `Install it with 'apt-get update && apt-get install -y chromium' or set CHROMIUM_PATH.`;
  console.log(why);
  return why;
}

/**
 * The Chromium the browser suites are the oracle of (the project's target: the current standard as Chromium 156
 * implements it). The known deviations and the simulations of them (known-deviations.ts, chromium-sim.ts) describe
 * this version; an older one answers differently, and its answers would be reported as htmlsift's failures
 * (Chromium 150, measured 2026-11-22: 96 of 4,000 random parses differ from 156's, and most Sanitizer API cases,
 * its built-in configurations having no `processingInstructions`).
 */
export const ORACLE_CHROMIUM_MAJOR = 156;

let versionNoted = false;

/**
 * Launches Chromium. Throws, naming the version found and how to update it, when it is older than
 * ORACLE_CHROMIUM_MAJOR (a stale package index installs an old one: `apt-get install` without `apt-get update`);
 * a newer one is noted once and used. HTMLSIFT_CHROMIUM_ANY_VERSION=1 compares with whatever version is found (to
 * see what another version changes), noting it once.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumExecutable();
  if (executablePath === null) throw new Error('Chromium is not installed (see chromiumSkipReason)');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const version = browser.version();
  const major = Number(/^\d+/.exec(version)?.[0]);
  if (!(major >= ORACLE_CHROMIUM_MAJOR) && process.env.HTMLSIFT_CHROMIUM_ANY_VERSION !== '1') {
    await browser.close();
    throw new Error(
      `Chromium ${version} at ${executablePath} is older than the browser suites' oracle, Chromium ${ORACLE_CHROMIUM_MAJOR}: ` +
        `update it with 'apt-get update && apt-get install -y chromium', or set CHROMIUM_PATH to a newer one`,
    );
  }
  if (major !== ORACLE_CHROMIUM_MAJOR && !versionNoted) {
    versionNoted = true;
    console.log(`[chromium] ${version}: not the version the known deviations describe (Chromium ${ORACLE_CHROMIUM_MAJOR})`);
  }
  return browser;
}

/**
 * A fresh page whose document is a no-quirks HTML document (so fragment parsing on elements it creates is not in
 * quirks mode) with the in-page helpers of `PAGE_SCRIPT` installed as `globalThis.__htmlsift`.
 */
export async function openParserPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await page.setContent('<!DOCTYPE html><html><head><title>htmlsift</title></head><body></body></html>');
  await page.evaluate(PAGE_SCRIPT);
  const mode = await page.evaluate('document.compatMode');
  if (mode !== 'CSS1Compat') throw new Error(`parser page is in ${String(mode)}, expected CSS1Compat`);
  return page;
}

/**
 * A parser page that survives Chromium hanging on an input. Chromium 156 loops (and allocates without end) on some
 * customizable-select markup in a connected tree (a DOMParser document, or innerHTML on a connected element; not
 * innerHTML, setHTML or setHTMLUnsafe on a disconnected element), e.g.
 * `<select><button><selectedcontent></button><option><div><option selected>`; a random document can be one. `run`
 * calls the page in batches; a batch that does not answer in time is re-run case by case on a fresh page (the hung
 * renderer's page is closed), and a case that does not answer either gets the caller's `hung` result.
 */
export class HangTolerantPage {
  private constructor(
    private readonly browser: Browser,
    private page: Page,
    private readonly batchMs: number,
    private readonly caseMs: number,
  ) {}

  static async open(browser: Browser, batchMs = 30_000, caseMs = 5_000): Promise<HangTolerantPage> {
    return new HangTolerantPage(browser, await openParserPage(browser), batchMs, caseMs);
  }

  /** A fresh page; the old one (its renderer possibly hung) is closed. */
  private async reset(): Promise<void> {
    const old = this.page;
    this.page = await openParserPage(this.browser);
    await old.close().catch(() => {});
  }

  async run<C, R>(
    cases: readonly C[],
    call: (page: Page, batch: readonly C[]) => Promise<R[]>,
    hung: (c: C) => R,
    batchSize = 250,
  ): Promise<R[]> {
    const out: R[] = [];
    for (let i = 0; i < cases.length; i += batchSize) {
      const batch = cases.slice(i, i + batchSize);
      const r = await withTimeout(call(this.page, batch), this.batchMs);
      if (r !== null) {
        out.push(...r);
        continue;
      }
      await this.reset();
      for (const c of batch) {
        const one = await withTimeout(call(this.page, [c]), this.caseMs);
        if (one !== null) {
          out.push(one[0]!);
          continue;
        }
        await this.reset();
        out.push(hung(c));
      }
    }
    return out;
  }
}

/** `p`'s value, or null when it has not settled within `ms`. */
async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  p.catch(() => {}); // rejected once its page is closed
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Lossless transport

const ENCODE_RE = /[%\u0000\uD800-\uDFFF]/g;
const DECODE_RE = /%([0-9A-F]{4})/g;

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}

export function encodeUnits(s: string): string {
  return s.replace(ENCODE_RE, (c) => '%' + hex4(c.charCodeAt(0)));
}

export function decodeUnits(s: string): string {
  return s.indexOf('%') < 0 ? s : s.replace(DECODE_RE, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The UTF-16 code units of `s`, for checks that must not depend on any string transport. */
export function codeUnits(s: string): number[] {
  const out = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// In-page code. Kept as plain JavaScript text (not a TS function handed to page.evaluate) so no transpiler helper can
// leak into it. The dumper mirrors test/support/dump.ts exactly, iteratively (deep documents must not overflow).

export const PAGE_SCRIPT = String.raw`(() => {
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
  const XLINK_NS = 'http://www.w3.org/1999/xlink';
  const XML_NS = 'http://www.w3.org/XML/1998/namespace';
  const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
  const hex4 = (c) => c.toString(16).toUpperCase().padStart(4, '0');
  const enc = (s) => s.replace(/[%\u0000\uD800-\uDFFF]/g, (c) => '%' + hex4(c.charCodeAt(0)));
  const dec = (s) => s.indexOf('%') < 0 ? s : s.replace(/%([0-9A-F]{4})/g, (m, h) => String.fromCharCode(parseInt(h, 16)));
  const units = (s) => { const a = []; for (let i = 0; i < s.length; i++) a.push(s.charCodeAt(i)); return a; };

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
  function isTemplate(el) {
    return el.namespaceURI === HTML_NS && el.localName === 'template' && el.content instanceof DocumentFragment;
  }
  // Returns { dump, depth } for the children of root; depth is the deepest node level (1 = child of root).
  function dump(root) {
    const out = [];
    let maxDepth = 0;
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
      if (depth + 1 > maxDepth) maxDepth = depth + 1;
      const node = list[i];
      const pad = '| ' + '  '.repeat(depth);
      switch (node.nodeType) {
        case 1: {
          out.push(pad + '<' + elementName(node) + '>');
          const attrs = [];
          for (const a of node.attributes) attrs.push([attributeName(a), a.value]);
          attrs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          for (const [name, value] of attrs) out.push(pad + '  ' + name + '="' + value + '"');
          if (isTemplate(node)) {
            out.push(pad + '  content');
            lists.push(node.childNodes); index.push(0); depths.push(depth + 1);
            lists.push(node.content.childNodes); index.push(0); depths.push(depth + 2);
          } else {
            lists.push(node.childNodes); index.push(0); depths.push(depth + 1);
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
    return { dump: out.join('\n'), depth: maxDepth };
  }
  const asciiLower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const LIMITED = ['-//w3c//dtd xhtml 1.0 frameset//', '-//w3c//dtd xhtml 1.0 transitional//',
    '-//w3c//dtd html 4.01 frameset//', '-//w3c//dtd html 4.01 transitional//'];
  // compatMode only tells quirks from the rest. The doctype that set the mode is document.doctype (later DOCTYPE
  // tokens are dropped); when it did not make the document quirky, a public id with one of these prefixes means
  // limited-quirks (the HTML 4.01 ones only when a system id was present, which no-quirks-vs-quirks already decided).
  function docMode(doc) {
    if (doc.compatMode === 'BackCompat') return 'quirks';
    const dt = doc.doctype;
    if (dt !== null) {
      const p = asciiLower(dt.publicId);
      for (const prefix of LIMITED) if (p.startsWith(prefix)) return 'limited-quirks';
    }
    return 'no-quirks';
  }
  // Context elements: made by this page's document (scripting enabled) or, for scripting off, by a document made
  // with DOMParser (no browsing context). Both are no-quirks documents and the elements stay disconnected.
  let noScriptDoc = null;
  function contextElement(ctx, scripting) {
    let doc = document;
    if (!scripting) {
      if (noScriptDoc === null) noScriptDoc = new DOMParser().parseFromString('<!DOCTYPE html>', 'text/html');
      doc = noScriptDoc;
    }
    return ctx.ns === HTML_NS ? doc.createElement(ctx.name) : doc.createElementNS(ctx.ns, ctx.name);
  }
  function parseDocument(input) {
    const doc = new DOMParser().parseFromString(input, 'text/html');
    const r = dump(doc);
    return { d: enc(r.dump), x: r.depth, m: docMode(doc) };
  }
  function parseFragment(input, ctx, scripting) {
    const el = contextElement(ctx, scripting);
    el.innerHTML = input;
    const r = dump(isTemplate(el) ? el.content : el);
    return { d: enc(r.dump), x: r.depth, m: null };
  }
  // Batch entry point. Each case: { i: encoded input, c: null | { name, ns }, s: scripting (fragments only) }.
  function run(cases) {
    const out = [];
    for (const k of cases) {
      try {
        const input = dec(k.i);
        out.push(k.c === null ? parseDocument(input) : parseFragment(input, k.c, k.s));
      } catch (e) {
        out.push({ d: enc('#error ' + String(e)), x: 0, m: null });
      }
    }
    return out;
  }
  // Builds a tree from a JSON description (harness.test.ts) and dumps it: validates the dumper without the parser.
  function build(doc, parent, spec) {
    for (const n of spec) {
      let node;
      switch (n.t) {
        case 'e': {
          node = n.ns === HTML_NS ? doc.createElement(n.name) : doc.createElementNS(n.ns, n.name);
          for (const a of n.attrs) {
            if (a.ns === null) node.setAttribute(a.q, dec(a.v));
            else node.setAttributeNS(a.ns, a.q, dec(a.v));
          }
          build(doc, isTemplate(node) ? node.content : node, n.kids);
          if (isTemplate(node) && n.direct) build(doc, node, n.direct);
          break;
        }
        case 't': node = doc.createTextNode(dec(n.v)); break;
        case 'c': node = doc.createComment(dec(n.v)); break;
        case 'p': node = doc.createProcessingInstruction(n.target, dec(n.v)); break;
        case 'd': node = doc.implementation.createDocumentType(n.name, n.pub, n.sys); break;
      }
      parent.appendChild(node);
    }
  }
  function dumpBuilt(spec, asDocument) {
    const doc = document.implementation.createHTMLDocument('');
    let root;
    if (asDocument) {
      while (doc.firstChild) doc.removeChild(doc.firstChild);
      root = doc;
    } else {
      root = doc.createDocumentFragment();
    }
    build(doc, root, spec);
    return enc(dump(root).dump);
  }
  // A chain of depth alternating svg g / div elements (each with d="<level>") ending in a text node.
  function dumpChain(depth) {
    const root = document.createDocumentFragment();
    let parent = root;
    for (let i = 0; i < depth; i++) {
      const el = i % 2 ? document.createElement('div') : document.createElementNS(SVG_NS, 'g');
      el.setAttribute('d', String(i));
      parent.appendChild(el);
      parent = el;
    }
    parent.appendChild(document.createTextNode('bottom'));
    return enc(dump(root).dump);
  }
  globalThis.__htmlsift = { run, dumpBuilt, dumpChain, enc, dec, units, docMode };
})()`;

// ---------------------------------------------------------------------------------------------------------------
// Node-side wrappers

/** A fragment-parsing context element, as `parseFragment` takes it (namespace defaults to HTML). */
export interface ContextSpec {
  name: string;
  namespace?: string;
}

/** html5lib-style label of a context: `div`, `svg foreignObject`, `math mi`. */
export function contextLabel(c: ContextSpec): string {
  if (c.namespace === SVG_NS) return 'svg ' + c.name;
  if (c.namespace === MATHML_NS) return 'math ' + c.name;
  return c.name;
}

/** Inverse of `contextLabel`. */
export function parseContextLabel(label: string): ContextSpec {
  if (label.startsWith('svg ')) return { name: label.slice(4), namespace: SVG_NS };
  if (label.startsWith('math ')) return { name: label.slice(5), namespace: MATHML_NS };
  return { name: label };
}

export interface BrowserCase {
  input: string;
  /** null: parse as a document with DOMParser (scripting off). Otherwise: innerHTML on a disconnected element. */
  context: ContextSpec | null;
  /** Fragments only (documents from DOMParser always have scripting off). */
  scripting?: boolean;
}

export interface BrowserResult {
  dump: string;
  /** Deepest node level in the tree (Chromium flattens trees deeper than 512). */
  depth: number;
  /** Document mode for documents ('quirks' | 'limited-quirks' | 'no-quirks'), null for fragments. */
  mode: string | null;
}

interface RawResult {
  d: string;
  x: number;
  m: string | null;
}

/** Parses a batch of cases in one `page.evaluate`. */
export async function chromiumParse(page: Page, cases: readonly BrowserCase[]): Promise<BrowserResult[]> {
  const wire = cases.map((c) => ({
    i: encodeUnits(c.input),
    c: c.context === null ? null : { name: c.context.name, ns: c.context.namespace ?? HTML_NS },
    s: c.scripting ?? true,
  }));
  const raw = (await page.evaluate('__htmlsift.run(' + JSON.stringify(wire) + ')')) as RawResult[];
  if (!Array.isArray(raw) || raw.length !== cases.length) throw new Error('chromiumParse: malformed batch result');
  return raw.map((r) => ({ dump: decodeUnits(r.d), depth: r.x, mode: r.m }));
}

/** Parses many cases, `batchSize` per `page.evaluate`. */
export async function chromiumParseAll(
  page: Page,
  cases: readonly BrowserCase[],
  batchSize = 250,
): Promise<BrowserResult[]> {
  const out: BrowserResult[] = [];
  for (let i = 0; i < cases.length; i += batchSize) {
    out.push(...(await chromiumParse(page, cases.slice(i, i + batchSize))));
  }
  return out;
}
