/**
 * CSS URL differential against Chromium's own CSS parser: whatever URL Chromium finds in the sanitized output's
 * styles must be one the caller's callbacks produced.
 *
 * Each case is HTML email markup holding generated CSS (css-generator.ts: `url(` in every spelling CSS Syntax 3
 * allows and some it does not, escapes, comments, CR/FF/NUL, bad-string and bad-url recovery, image-set strings,
 * substitution functions, `!important`, stray closers, unclosed constructs at the end, and in sheets `@import`,
 * `@font-face`, nesting, conditional and unknown at-rules, CDO/CDC, `</style` text), in style attributes, `<style>`
 * elements in the body, in tables and in a full document's head. It is sanitized in Node three ways:
 *   - `sanitizeEmail` with a `proxyImage` that proxies most http(s) URLs (`https://proxy.test/p?u=...`) and refuses
 *     some (by a hash of the URL) and a `resolveCid` that maps most `cid:x` to `https://att.test/x`; the URLs the
 *     two callbacks return are recorded per case. A container class per case scopes its sheet;
 *   - `sanitize` with the `paste` policy (it drops every style and image: no URL at all may be left);
 *   - `sanitize` with the `comment` policy (the same: `style: false`, no images).
 * In Chromium (one page, a few hundred cases per `page.evaluate`) each output goes into a container with innerHTML,
 * and the page walks what Chromium built: every element's inline `style` (`item(i)`/`getPropertyValue`, and
 * `cssText`), every rule of every `<style>` sheet, recursively (style rules and nested ones, `@import` hrefs and
 * imported sheets, `@font-face`, `@keyframes`, `@media`/`@supports`/`@layer`/`@container`/`@scope`/
 * `@starting-style`, `@page` and its margin rules, `@property` initial values, and the text of any other rule but
 * `@namespace`), and the computed style of the properties that load images (background-image, list-style-image,
 * border-image-source, mask-image, cursor, content, filter...) on every element, and where the output has a sheet
 * on its `::before`, `::after`, `::marker` and `::first-line` too (computed values show what `var()`, `attr()` and
 * `if()` substitute). Every `url(...)` in those serializations (found by a scan that steps over strings, comments
 * and escapes; a url( right after an escape continues that escape's name) is unescaped and resolved against the page: it must be one a callback produced (compared resolved),
 * or, for the email policy only, a raster `data:` image, which the policy keeps. Anything else is an escape. Each
 * output sits in its own container (its own class) and leaves the document once checked, so no case's sheet
 * reaches another's elements.
 * Second detector: every request of the page's context is routed; the harness, proxy.test and att.test are served,
 * any other request (remote.test, or a relative URL on the harness's origin) is an escape, attributed to its case
 * by the marker every generated URL carries.
 *
 * Positive controls run first: the generated inputs inserted unsanitized must show escapes on both detectors, and a
 * hand-made output holding a remote URL must be flagged (a proxied URL and a data: PNG must not be).
 * An escape is minimized (minimize.ts's delta debugging, over tokens and then over characters, while the escape
 * persists) and printed with the output and what Chromium saw; the test then fails. A stray request that the CSSOM
 * did not explain is printed with its case's input.
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/css-differential.test.ts
 *   HTMLSIFT_SEED=123 ...            # replay a run (the seed is printed)
 *   HTMLSIFT_CSS_CASES=20000 ...     # longer run (default 5,000)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumSkipReason, decodeUnits, encodeUnits, launchChromium } from './chromium.js';
import { Rng, seedFromEnv } from './generator.js';
import { minimize, showInput } from './minimize.js';
import { REMOTE_HOST, generateCssCase } from './css-generator.js';
import { sanitize } from '../../src/sanitize.js';
import { comment, paste, sanitizeEmail } from '../../policies/index.js';

const SUITE = 'css-differential';
const CASES = Number(process.env.HTMLSIFT_CSS_CASES ?? 5000);
const BATCH = 250;
const CONTROL_CASES = 300;
/** Escaping cases minimized and printed in full (the others are counted). */
const MAX_MINIMIZED = 6;
const ORIGIN = 'http://htmlsift.test';
const PROXY = 'https://proxy.test/p?u=';
const ATTACHMENTS = 'https://att.test/';
const ALLOWED_HOSTS = new Set(['proxy.test', 'att.test']);
const HARNESS = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>htmlsift css differential</title></head><body><div id="stage"></div></body></html>';
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

type PolicyName = 'email' | 'paste' | 'comment' | 'raw';

/** One output to check in the page. */
interface WireCase {
  /** The markup (encodeUnits). */
  html: string;
  /** The container's class ('' for none). */
  cls: string;
  /** URLs the callbacks produced for this case. */
  produced: string[];
  /** Whether raster data: images are allowed (the email policy keeps them). */
  data: boolean;
}

interface Escape {
  url: string;
  where: string;
}

interface PageResult {
  /** Declarations Chromium holds (inline and in rules). */
  decls: number;
  /** CSS rules Chromium holds. */
  rules: number;
  /** Distinct URLs seen. */
  seen: number;
  /** Where they were first seen: style attributes, sheets, computed values only. */
  places: [number, number, number];
  escapes: Escape[];
}

/** FNV-1a, for the callbacks' deterministic refusals. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

interface Sanitized {
  html: string;
  cls: string;
  produced: string[];
  threw: string | null;
}

function runEmail(input: string, container: string): Sanitized {
  const produced: string[] = [];
  try {
    const r = sanitizeEmail(input, {
      container,
      proxyImage: (u) => {
        if (hash(u) % 7 === 3) return null;
        const out = PROXY + encodeURIComponent(u);
        produced.push(out);
        return out;
      },
      resolveCid: (id) => {
        if (hash(id) % 5 === 2) return null;
        const out = ATTACHMENTS + encodeURIComponent(id);
        produced.push(out);
        return out;
      },
    });
    return { html: r.html, cls: r.container, produced, threw: null };
  } catch (e) {
    return { html: '', cls: container, produced, threw: String((e as Error).stack ?? e) };
  }
}

function runPolicy(kind: PolicyName, input: string, container: string): Sanitized {
  if (kind === 'email') return runEmail(input, container);
  if (kind === 'raw') return { html: input, cls: container, produced: [], threw: null };
  try {
    return { html: sanitize(input, { policy: kind === 'paste' ? paste : comment, context: 'div' }), cls: container, produced: [], threw: null };
  } catch (e) {
    return { html: '', cls: container, produced: [], threw: String((e as Error).stack ?? e) };
  }
}

function wire(s: Sanitized, kind: PolicyName): WireCase {
  return { html: encodeUnits(s.html), cls: s.cls, produced: s.produced, data: kind === 'email' || kind === 'raw' };
}

// ---------------------------------------------------------------------------------------------------------------
// In-page code, plain JavaScript (no transpiler helper can leak into it). Nothing here recurses.

const PAGE_SCRIPT = String.raw`(() => {
  const dec = (s) => (s.indexOf('%') < 0 ? s : s.replace(/%([0-9A-F]{4})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))));
  const enc = (s) => s.replace(/[%\u0000\uD800-\uDFFF]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
  const RASTER = /^data:[\t\n\f\r ]*image\/(?:png|jpeg|gif|webp|avif|bmp)[\t\n\f\r ]*[;,]/i;
  const COMPUTED = [
    'background-image', 'list-style-image', 'border-image-source', 'mask-image', '-webkit-mask-image', 'mask-border-source',
    '-webkit-mask-box-image-source', 'cursor', 'content', 'filter', 'backdrop-filter', 'shape-outside', '-webkit-box-reflect',
    'clip-path', 'mask', 'marker-start', 'marker-mid', 'marker-end', 'fill', 'stroke', 'offset-path', 'font-family',
  ];
  /** Pseudo-elements, checked where a sheet could style them (a style attribute cannot), for the properties they load images for. */
  const PSEUDOS = ['::before', '::after', '::marker', '::first-line'];
  const PSEUDO_COMPUTED = ['background-image', 'list-style-image', 'border-image-source', 'mask-image', 'cursor', 'content', 'filter'];

  function unescapeCss(s) {
    return s.replace(/\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n\r\f])?|([\s\S]))/g, (_m, hex, ch) => {
      if (hex !== undefined) {
        const n = parseInt(hex, 16);
        return n === 0 || (n >= 0xd800 && n <= 0xdfff) || n > 0x10ffff ? '\uFFFD' : String.fromCodePoint(n);
      }
      return ch === '\n' ? '' : ch;
    });
  }

  const NAME_CHAR = /[\w\u0080-\uffff\\-]/;
  const HEX = /[0-9a-fA-F]/;

  /** The index after the string that starts at i (its closing quote, or the end of the text). */
  function skipString(text, i) {
    const q = text[i];
    i++;
    while (i < text.length && text[i] !== q) i += text[i] === '\\' ? 2 : 1;
    return Math.min(text.length, i + 1);
  }

  /**
   * Every url(...) (and src("...")) argument in a serialization, unescaped. A scan that steps over strings, comments
   * and escapes, so that url( inside a string (a data: URL's text, a font name) or a longer name (-url() is none.
   */
  function urlsIn(text, note, where) {
    if (typeof text !== 'string' || text === '') return;
    const n = text.length;
    let i = 0;
    // Where the last escape ended: a url( right after one continues that escape's name ("\\ url(" and "\\55 url("
    // are functions named " url" and "Uurl", no URL).
    let escapeEnd = -1;
    while (i < n) {
      const ch = text[i];
      if (ch === '"' || ch === "'") {
        i = skipString(text, i);
        continue;
      }
      if (ch === '/' && text[i + 1] === '*') {
        const e = text.indexOf('*/', i + 2);
        i = e < 0 ? n : e + 2;
        continue;
      }
      if (ch === '\\') {
        // An escape: up to six hex digits and one whitespace after them, or any one other character.
        i++;
        if (i < n && HEX.test(text[i])) {
          for (let k = 0; k < 6 && i < n && HEX.test(text[i]); k++) i++;
          if (text[i] === '\r' && text[i + 1] === '\n') i += 2;
          else if (i < n && /[ \t\n\r\f]/.test(text[i])) i++;
        } else i++;
        escapeEnd = i;
        continue;
      }
      const head = text.slice(i, i + 4).toLowerCase();
      if ((head !== 'url(' && head !== 'src(') || i === escapeEnd || (i > 0 && NAME_CHAR.test(text[i - 1]))) {
        i++;
        continue;
      }
      let j = i + 4;
      while (j < n && /[ \t\n\r\f]/.test(text[j])) j++;
      let raw;
      const q = text[j];
      if (q === '"' || q === "'") {
        let k = j + 1;
        while (k < n && text[k] !== q) k += text[k] === '\\' ? 2 : 1;
        raw = text.slice(j + 1, Math.min(k, n));
        i = k + 1;
      } else if (head === 'src(') {
        i = j; // src() takes a string only
        continue;
      } else {
        let k = j;
        while (k < n && text[k] !== ')') k += text[k] === '\\' ? 2 : 1;
        raw = text.slice(j, Math.min(k, n)).replace(/[ \t\n\r\f]+$/, '');
        i = k + 1;
      }
      note(unescapeCss(raw), where);
    }
  }

  function walkDecl(style, where, note) {
    const n = style.length;
    for (let i = 0; i < n; i++) {
      const name = style.item(i);
      urlsIn(style.getPropertyValue(name), note, where + ' ' + name);
    }
    urlsIn(style.cssText, note, where + ' (cssText)');
    return n;
  }

  function ruleLabel(r) {
    const t = r.constructor.name;
    const what = r.selectorText ?? r.keyText ?? r.name ?? r.conditionText ?? r.media?.mediaText ?? '';
    return t + (what ? ' ' + String(what).slice(0, 60) : '');
  }

  /** Walks a sheet's rules (and imported sheets) iteratively; returns [rules, declarations]. */
  function walkSheet(sheet, where, note) {
    let rules = 0;
    let decls = 0;
    const stack = [];
    const push = (list, w) => {
      let rs;
      try {
        rs = list.cssRules;
      } catch {
        return;
      }
      if (!rs) return;
      for (let i = rs.length - 1; i >= 0; i--) stack.push([rs[i], w]);
    };
    push(sheet, where);
    while (stack.length > 0) {
      const [r, w0] = stack.pop();
      rules++;
      const w = w0 + ' > ' + ruleLabel(r);
      if (typeof CSSImportRule !== 'undefined' && r instanceof CSSImportRule) {
        note(r.href, w + ' href');
        if (r.styleSheet) push(r.styleSheet, w);
        continue;
      }
      if (typeof CSSNamespaceRule !== 'undefined' && r instanceof CSSNamespaceRule) continue; // a name, not a load
      let handled = false;
      if (r.style && typeof r.style.length === 'number') {
        decls += walkDecl(r.style, w, note);
        handled = true;
      }
      if (typeof CSSPropertyRule !== 'undefined' && r instanceof CSSPropertyRule) {
        urlsIn(r.initialValue, note, w + ' initial-value');
        handled = true;
      }
      if (r.cssRules) {
        push(r, w);
        handled = true;
      }
      if (!handled) urlsIn(r.cssText, note, w + ' (cssText)');
    }
    return [rules, decls];
  }

  function resolve(u) {
    try {
      return new URL(u, document.baseURI).href;
    } catch {
      return null;
    }
  }

  const raf = () => new Promise((r) => requestAnimationFrame(() => r()));

  async function run(cases) {
    const stage = document.getElementById('stage');
    stage.replaceChildren();
    const out = [];
    for (const c of cases) {
      const box = document.createElement('div');
      if (c.cls) box.className = c.cls;
      stage.appendChild(box);
      box.innerHTML = dec(c.html);
      const produced = new Set();
      for (const p of c.produced) {
        produced.add(p);
        const r = resolve(p);
        if (r !== null) produced.add(r);
      }
      // Each URL and where it was seen (the first few places).
      const seen = new Map();
      const note = (u, where) => {
        if (typeof u !== 'string') return;
        const w = seen.get(u);
        if (w === undefined) seen.set(u, [where]);
        else if (w.length < 4 && !w.includes(where)) w.push(where);
      };
      let decls = 0;
      let rules = 0;
      const els = Array.from(box.getElementsByTagName('*'));
      for (const el of els) {
        const tag = '<' + el.localName + '>';
        if (el.style && typeof el.style.length === 'number') decls += walkDecl(el.style, tag + ' style', note);
        if ((el.localName === 'style') && el.sheet) {
          const [r, d] = walkSheet(el.sheet, tag + ' sheet', note);
          rules += r;
          decls += d;
        }
      }
      const sheets = box.getElementsByTagName('style').length > 0;
      // Without a style attribute, a sheet or a background attribute in the box, no computed value of its can
      // hold a URL (nothing else on the page loads one): not asked.
      const styled = sheets || box.querySelector('[style], [background]') !== null;
      for (const el of styled ? els : []) {
        const tag = '<' + el.localName + '>';
        let cs = getComputedStyle(el);
        for (const p of COMPUTED) {
          const v = cs.getPropertyValue(p);
          if (v.indexOf('url(') >= 0) urlsIn(v, note, 'computed ' + tag + ' ' + p);
        }
        if (!sheets) continue;
        for (const pseudo of PSEUDOS) {
          cs = getComputedStyle(el, pseudo);
          for (const p of PSEUDO_COMPUTED) {
            const v = cs.getPropertyValue(p);
            if (v.indexOf('url(') >= 0) urlsIn(v, note, 'computed ' + tag + pseudo + ' ' + p);
          }
        }
      }
      const escapes = [];
      for (const [u, where] of seen) {
        if (produced.has(u)) continue;
        const r = resolve(u);
        if (r !== null && produced.has(r)) continue;
        if (c.data && RASTER.test(u.replace(/^[\u0000-\u0020]+/, ''))) continue;
        escapes.push({ url: enc(u), where: enc(where.join(' | ')) });
      }
      const places = [0, 0, 0];
      for (const [where] of seen.values()) places[where.startsWith('computed') ? 2 : where.indexOf(' sheet') >= 0 ? 1 : 0]++;
      out.push({ decls, rules, seen: seen.size, places, escapes });
      // Checked: out of the document, so that the next case's style recalcs and its sheets' reach stay its own (the
      // image loads its recalcs started go on).
      box.remove();
    }
    // Let the style recalcs of the batch start their image loads (the request detector sees them).
    await raf();
    await raf();
    return out;
  }

  globalThis.__cssDiff = { run };
})()`;

interface CssDiffApi {
  __cssDiff: { run(cases: WireCase[]): Promise<PageResult[]> };
}

async function check(page: Page, cases: WireCase[]): Promise<PageResult[]> {
  const out: PageResult[] = [];
  for (let i = 0; i < cases.length; i += BATCH) {
    const batch = cases.slice(i, i + BATCH);
    const r = await page.evaluate((cs) => (globalThis as unknown as CssDiffApi).__cssDiff.run(cs), batch);
    for (const x of r) out.push({ ...x, escapes: x.escapes.map((e) => ({ url: decodeUnits(e.url), where: decodeUnits(e.where) })) });
  }
  return out;
}

/** Requests to anything but the harness page, the proxy and the attachments host. */
const strayRequests: string[] = [];
let allowedRequests = 0;

/** The case a generated URL belongs to, from its marker (`<prefix><n>u<k>`). */
function markerCase(url: string, prefix: string): number | null {
  let text = url;
  try {
    text += ' ' + decodeURIComponent(url);
  } catch {
    // the URL as it is
  }
  const m = new RegExp(prefix + '(\\d+)u\\d+').exec(text);
  return m === null ? null : Number(m[1]);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Delta debugging in two passes: over tokens (tags, comments, runs of name and URL characters, single other characters: each
 * written as one private-use character for minimize()), then over characters.
 */
async function shrink(
  input: string,
  fails: (candidates: string[]) => Promise<boolean[]>,
  deadline: number,
): Promise<{ input: string; tested: number; rounds: number }> {
  const tokens = input.match(/<\/?[A-Za-z][^<>]*>|\/\*[\s\S]*?\*\/|[^\s;:,{}()<>"'\\/*!]+|[\s\S]/g) ?? [];
  let cur = input;
  let tested = 0;
  let rounds = 0;
  if (tokens.length > 1 && tokens.length < 0x1900) {
    const encoded = tokens.map((_t, i) => String.fromCharCode(0xe000 + i)).join('');
    const decode = (e: string): string => Array.from(e, (ch) => tokens[ch.charCodeAt(0) - 0xe000]!).join('');
    const r = await minimize(encoded, (cands) => fails(cands.map(decode)), 3000, deadline);
    cur = decode(r.input);
    tested += r.tested;
    rounds += r.rounds;
  }
  const r = await minimize(cur, fails, 3000, deadline);
  return { input: r.input, tested: tested + r.tested, rounds: rounds + r.rounds };
}

const skipBrowser = chromiumSkipReason(SUITE) !== null;

describe.skipIf(skipBrowser)('CSS URLs in sanitized output, as Chromium parses them', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const seed = seedFromEnv();

  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === ORIGIN + '/') return route.fulfill({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: HARNESS });
      if (url === ORIGIN + '/favicon.ico') return route.fulfill({ status: 404, body: '' });
      let host = '';
      try {
        host = new URL(url).host;
      } catch {
        // counted below
      }
      if (ALLOWED_HOSTS.has(host)) {
        allowedRequests++;
        return route.fulfill({ status: 200, headers: { 'content-type': 'image/gif' }, body: GIF });
      }
      strayRequests.push(url);
      return route.abort();
    });
    page = await context.newPage();
    await page.goto(ORIGIN + '/');
    await page.evaluate(PAGE_SCRIPT);
    console.log(`[${SUITE}] ${browser.version()}; seed ${seed} (replay: HTMLSIFT_SEED=${seed}); ${CASES} cases`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  test('positive controls: unsanitized CSS and a hand-made leaky output are flagged; proxied and data: PNG URLs are not', async () => {
    // Hand-made outputs.
    const hand: { html: string; produced: string[]; escapes: boolean }[] = [
      { html: `<div style="background:url(http://${REMOTE_HOST}/k0u0)">x</div>`, produced: [], escapes: true },
      { html: `<style>.h1 p{background-image:-webkit-image-set("http://${REMOTE_HOST}/k0u1" 1x)}</style><p>x</p>`, produced: [], escapes: true },
      { html: `<style>@import "http://${REMOTE_HOST}/k0u2";</style>`, produced: [], escapes: true },
      { html: `<style>.h1 li{list-style:url(rk0u3.png)}</style><ul><li>x</li></ul>`, produced: [], escapes: true },
      { html: `<div style="background:url('data:text/html,x')">x</div>`, produced: [], escapes: true },
      { html: `<div style="background:url(${PROXY}a)">x</div>`, produced: [PROXY + 'a'], escapes: false },
      { html: `<div style="background:url(data:image/png;base64,iVBORw0KGgo=)">x</div>`, produced: [], escapes: false },
      { html: `<div style="background:red">x</div><p style="font-family:'http://${REMOTE_HOST}/k0u4'">y</p>`, produced: [], escapes: false },
      // An escape that spells url( makes a url token; one before url( makes a longer function name (" url", "uurl").
      { html: `<div style="background-image:\\75 rl(http://${REMOTE_HOST}/k0u8)">x</div>`, produced: [], escapes: true },
      { html: `<div style="background-image:var(--x,\\ url(http://${REMOTE_HOST}/k0u9));color:\\75 url(http://${REMOTE_HOST}/k0u10)">x</div>`, produced: [], escapes: false },
    ];
    const handResults = await check(
      page,
      hand.map((h, i) => ({ html: encodeUnits(h.html.replace(/\.h1 /g, `.h${i} `)), cls: 'h' + i, produced: h.produced, data: true })),
    );
    hand.forEach((h, i) => expect(handResults[i]!.escapes.length > 0, h.html).toBe(h.escapes));

    // Generated inputs, unsanitized.
    const rng = new Rng(seed ^ 0x5a5a5a5a);
    const inputs: string[] = [];
    for (let i = 0; i < CONTROL_CASES; i++) inputs.push(generateCssCase(rng, 'k' + (i + 1)));
    const raw = await check(page, inputs.map((input, i) => wire(runPolicy('raw', input, 'r' + i), 'raw')));
    const flagged = raw.filter((r) => r.escapes.length > 0).length;
    await sleep(500);
    const rawRequests = strayRequests.filter((u) => markerCase(u, 'k') !== null);
    const sample = raw.find((r) => r.escapes.length > 0)?.escapes[0];
    console.log(
      `[${SUITE}] positive control: ${handResults.filter((r) => r.escapes.length > 0).length}/${hand.length} hand-made outputs flagged ` +
        `(${hand.filter((h) => h.escapes).length} expected); ${flagged}/${CONTROL_CASES} unsanitized generated cases show escapes in Chromium's CSSOM ` +
        `(e.g. ${sample ? JSON.stringify(sample.url) + ' at ' + sample.where : 'none'}); ${rawRequests.length} stray requests to their URLs`,
    );
    expect(flagged).toBeGreaterThan(CONTROL_CASES / 5);
    expect(rawRequests.length).toBeGreaterThan(0);
    // The minimizer shrinks a leaky input and keeps it leaky.
    const leaky = `<p>padding</p><div title="t" style="color:red;background:url(http://${REMOTE_HOST}/k0u5) no-repeat">x</div><p>more</p>`;
    const stillLeaks = async (cands: string[]): Promise<boolean[]> =>
      (await check(page, cands.map((c, i) => ({ html: encodeUnits(c), cls: 'mk' + i, produced: [], data: true })))).map((r) => r.escapes.length > 0);
    const min = await shrink(leaky, stillLeaks, performance.now() + 30_000);
    expect(min.input.length).toBeLessThan(leaky.length / 2);
    expect((await stillLeaks([min.input]))[0]).toBe(true);
    strayRequests.length = 0;
  });

  test('sanitized email, paste and comment outputs hold no URL the callbacks did not produce', async () => {
    const started = performance.now();
    const rng = new Rng(seed);
    const kinds: PolicyName[] = ['email', 'paste', 'comment'];
    const totals = { cases: 0, inline: 0, sheets: 0, decls: 0, rules: 0, seen: 0, emailSeen: 0, produced: 0, escapes: 0, threw: 0, nodeMs: 0 };
    const failures: { kind: PolicyName; index: number; input: string; output: string; escapes: Escape[] }[] = [];
    const threw: { kind: PolicyName; input: string; error: string }[] = [];
    const places = [0, 0, 0];
    const inputs: string[] = [];
    type Item = { kind: PolicyName; index: number; s: Sanitized };
    const absorb = (batch: readonly Item[], results: readonly PageResult[]): void => {
      results.forEach((r, k) => {
        const b = batch[k]!;
        totals.decls += r.decls;
        totals.rules += r.rules;
        totals.seen += r.seen;
        if (b.kind === 'email') {
          totals.emailSeen += r.seen;
          for (let i = 0; i < 3; i++) places[i]! += r.places[i]!;
        }
        if (r.escapes.length > 0) {
          totals.escapes += r.escapes.length;
          failures.push({ kind: b.kind, index: b.index, input: inputs[b.index]!, output: b.s.html, escapes: r.escapes });
        }
      });
    };
    // Node sanitizes batch k+1 while Chromium checks batch k.
    let inflight: Promise<[Item[], PageResult[]]> | null = null;
    for (let start = 0; start < CASES; start += BATCH) {
      const n = Math.min(BATCH, CASES - start);
      const batch: Item[] = [];
      const t0 = performance.now();
      for (let j = 0; j < n; j++) {
        const index = start + j;
        const input = generateCssCase(rng, 'c' + index);
        inputs.push(input);
        if (/style=/.test(input)) totals.inline++;
        if (/<style/i.test(input)) totals.sheets++;
        for (const kind of kinds) {
          // A class of its own per output: no sheet reaches another case's elements.
          const s = runPolicy(kind, input, kind[0]! + index);
          if (s.threw !== null) {
            totals.threw++;
            threw.push({ kind, input, error: s.threw });
            continue;
          }
          totals.produced += s.produced.length;
          batch.push({ kind, index, s });
        }
      }
      totals.cases += n;
      totals.nodeMs += performance.now() - t0;
      if (inflight !== null) absorb(...(await inflight));
      inflight = check(page, batch.map((b) => wire(b.s, b.kind))).then((r): [Item[], PageResult[]] => [batch, r]);
    }
    if (inflight !== null) absorb(...(await inflight));
    // Late image loads.
    await sleep(800);
    const requestOnly: { url: string; index: number | null }[] = [];
    for (const u of strayRequests) {
      if (markerCase(u, 'k') !== null) continue; // a late load of the positive control's
      const index = markerCase(u, 'c');
      if (index !== null && failures.some((f) => f.index === index)) continue;
      requestOnly.push({ url: u, index });
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `[${SUITE}] seed ${seed}: ${totals.cases} cases (${totals.inline} with style attributes, ${totals.sheets} with <style>), each through email, paste and comment; ` +
        `Chromium held ${totals.decls} declarations and ${totals.rules} rules; URLs seen ${totals.seen} (email ${totals.emailSeen}: ${places[0]} in style attributes, ${places[1]} in sheets, ${places[2]} in computed values only); ` +
        `URLs produced by the callbacks ${totals.produced}; requests to proxy/attachments ${allowedRequests}; ` +
        `escapes ${totals.escapes} in ${failures.length} outputs (CSSOM), ${requestOnly.length} stray requests not seen in the CSSOM; ` +
        `sanitizer threw ${totals.threw}; ${seconds} s (Node ${(totals.nodeMs / 1000).toFixed(1)} s)`,
    );

    // Minimize and print the first escapes.
    const reports: string[] = [];
    const deadline = performance.now() + 240_000;
    const seenKeys = new Set<string>();
    let minimized = 0;
    for (const f of failures) {
      if (minimized >= MAX_MINIMIZED) break;
      const key = f.kind + ' ' + f.escapes.map((e) => e.where.replace(/\d+/g, '#')).join('|');
      if (seenKeys.has(key)) continue;
      seenKeys.add(key);
      minimized++;
      let m = 0;
      // An escape of the same sort: a remote URL when the case's was one (not, say, the empty url() that a cut leaves).
      const remote = /remote\.t/i;
      const wantRemote = f.escapes.some((e) => remote.test(e.url));
      const stillEscapes = async (cands: string[]): Promise<boolean[]> => {
        const ss = cands.map((c) => runPolicy(f.kind, c, 'm' + m++));
        const rs = await check(page, ss.map((s) => wire(s, f.kind)));
        return rs.map((r, i) => ss[i]!.threw === null && r.escapes.some((e) => !wantRemote || remote.test(e.url)));
      };
      const min = await shrink(f.input, stillEscapes, Math.min(deadline, performance.now() + 60_000));
      const s = runPolicy(f.kind, min.input, 'min');
      const [r] = await check(page, [wire(s, f.kind)]);
      reports.push(
        [
          `--- ${f.kind} case ${f.index} (replay: HTMLSIFT_SEED=${seed}): ${f.escapes.length} URL(s) escaped`,
          `input:     ${showInput(f.input)}`,
          `output:    ${showInput(f.output)}`,
          `Chromium:  ${f.escapes.map((e) => `${JSON.stringify(e.url)} at ${e.where}`).join('; ')}`,
          `requested: ${strayRequests.filter((u) => markerCase(u, 'c') === f.index).join(' ') || 'nothing (the URL is in the CSSOM, not loaded)'}`,
          `minimized (${min.tested} candidates, ${min.rounds} rounds): ${showInput(min.input)}`,
          `  output:   ${showInput(s.html)}`,
          `  produced: ${JSON.stringify(s.produced)}`,
          `  Chromium: ${(r?.escapes ?? []).map((e) => `${JSON.stringify(e.url)} at ${e.where}`).join('; ')}`,
        ].join('\n'),
      );
    }
    const rest = failures.filter((f) => !reports.some((r) => r.startsWith(`--- ${f.kind} case ${f.index} `)));
    for (const f of rest.slice(0, 40)) {
      reports.push(`--- ${f.kind} case ${f.index} (not minimized): ${f.escapes.map((e) => `${JSON.stringify(e.url)} at ${e.where}`).join('; ')}\n  output: ${showInput(f.output)}`);
    }
    for (const x of requestOnly.slice(0, MAX_MINIMIZED)) {
      reports.push(`--- stray request not seen in the CSSOM: ${x.url}` + (x.index !== null ? `\ninput: ${showInput(inputs[x.index] ?? '')}` : ''));
    }
    for (const t of threw.slice(0, 3)) reports.push(`--- ${t.kind} threw on ${showInput(t.input)}\n${t.error}`);
    if (reports.length > 0) console.log(reports.join('\n'));

    expect(threw.length, 'the sanitizers threw').toBe(0);
    expect(failures.length, `outputs whose CSS holds a URL no callback produced (replay: HTMLSIFT_SEED=${seed})`).toBe(0);
    expect(requestOnly, 'requests to hosts other than the proxy and attachments').toEqual([]);
  });
});
