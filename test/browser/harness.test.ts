/**
 * Checks the browser test bed itself, before any comparison with our parser is trusted:
 *  - strings (lone surrogates, U+0000, every UTF-16 code unit) cross the CDP boundary intact;
 *  - the in-page dumper prints exactly what test/support/dump.ts prints, on trees built through the DOM API on both
 *    sides (no parser involved);
 *  - Chromium + the in-page dumper reproduce the html5lib/WPT expected trees, except the listed Chromium deviations;
 *  - the generator is deterministic per seed and keeps Chromium's trees shallow.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  Attr,
  Comment,
  Document,
  DocumentFragment,
  DocumentType,
  Element,
  ProcessingInstruction,
  Text,
  type ChildNode,
  type ParentNode,
} from '../../src/dom.js';
import { dumpTree } from '../support/dump.js';
import { sharedPath } from '../support/shared.js';
import {
  HTML_NS,
  MATHML_NS,
  SVG_NS,
  chromiumParseAll,
  chromiumSkipReason,
  codeUnits,
  decodeUnits,
  encodeUnits,
  launchChromium,
  openParserPage,
  parseContextLabel,
  type BrowserCase,
} from './chromium.js';
import { loadTreeConstructionTests, type DatTest } from './dat.js';
import { FRAGMENT_CONTEXTS, Rng, generateDocument, generateFragment } from './generator.js';
import { KNOWN_DEVIATIONS } from './known-deviations.js';

const SUITE = 'browser-harness';
const skip = chromiumSkipReason(SUITE) !== null;

const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

describe.skipIf(skip)('browser test bed', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await openParserPage(browser);
    console.log(`[${SUITE}] ${browser.version()}`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  test('strings survive the CDP round trip code unit for code unit', async () => {
    let all = '';
    for (let c = 0; c < 0x10000; c++) all += String.fromCharCode(c);
    const samples = [
      all,
      '\uD800',
      '\uDC00x\uD800',
      'a\u0000b',
      '%',
      '%0025%D800',
      '\uD83D\uDE00',
      '\uDE00\uD83D',
      '\r\n\r',
      '\uFFFF\uFFFE\u2028\u2029',
      '',
    ];
    for (const s of samples) {
      const encoded = encodeUnits(s);
      expect(decodeUnits(encoded)).toBe(s);
      // The page sees exactly our code units (returned as numbers, which JSON carries losslessly)...
      const seen = (await page.evaluate(`__htmlsift.units(__htmlsift.dec(${JSON.stringify(encoded)}))`)) as number[];
      expect(seen).toEqual(codeUnits(s));
      // ...and what the page sends back decodes to the same string.
      const back = (await page.evaluate(`__htmlsift.enc(__htmlsift.dec(${JSON.stringify(encoded)}))`)) as string;
      expect(decodeUnits(back)).toBe(s);
    }
    // Why the encoding exists: a raw lone surrogate does not survive (informational, Chromium-version dependent).
    const raw = (await page.evaluate(`__htmlsift.units(${JSON.stringify('a\uD800b')})`)) as number[];
    console.log(`[${SUITE}] raw lone surrogate over CDP arrives as code units [${raw.join(', ')}] (sent [97, 55296, 98])`);
  });

  test('in-page dumper prints what dumpTree prints (trees built through the DOM API)', async () => {
    const rng = new Rng(0x5eed);
    const specs: { spec: Spec[]; doc: boolean }[] = [];
    for (let i = 0; i < 300; i++) specs.push({ spec: randomSpec(rng, 0), doc: false });
    for (let i = 0; i < 60; i++) {
      const doctype: Spec = { t: 'd', name: rng.pick(['html', 'HTML', '', 'foo']), pub: rng.pick(['', 'p"x']), sys: rng.pick(['', 's']) };
      const html: Spec = { t: 'e', ns: HTML_NS, name: 'html', attrs: [], kids: randomSpec(rng, 1) };
      specs.push({ spec: [...randomComments(rng), doctype, ...randomComments(rng), html, ...randomComments(rng)], doc: true });
    }
    const wire = specs.map((s) => ({ spec: encodeSpec(s.spec), doc: s.doc }));
    const dumps = (await page.evaluate(
      `${JSON.stringify(wire)}.map((w) => __htmlsift.dumpBuilt(w.spec, w.doc))`,
    )) as string[];
    let lines = 0;
    for (let i = 0; i < specs.length; i++) {
      const root: ParentNode = specs[i]!.doc ? new Document() : new DocumentFragment();
      buildOurs(root, specs[i]!.spec);
      const ours = dumpTree(root);
      expect(decodeUnits(dumps[i]!), `spec #${i}`).toBe(ours);
      lines += ours.split('\n').length;
    }
    // A 3,000-level chain built without recursion on both sides: neither dumper may recurse.
    const depth = 3000;
    const chain = decodeUnits((await page.evaluate(`__htmlsift.dumpChain(${depth})`)) as string);
    const root = new DocumentFragment();
    let parent: ParentNode = root;
    for (let i = 0; i < depth; i++) {
      const el = new Element(i % 2 ? 'div' : 'g', i % 2 ? HTML_NS : SVG_NS, [new Attr('d', String(i))]);
      parent.appendChild(el);
      parent = el;
    }
    parent.appendChild(new Text('bottom'));
    expect(chain === dumpTree(root), 'deep chain dump').toBe(true);
    console.log(`[${SUITE}] dumper parity: ${specs.length} DOM-built trees (${lines} dump lines) and a ${depth}-level chain identical`);
  });

  test('Chromium reproduces the html5lib/WPT expected trees (except the known deviations)', async (ctx) => {
    const dir = sharedPath('html5lib-tests/tree-construction', SUITE);
    if (dir === null) return ctx.skip();
    const tests = loadTreeConstructionTests(dir.replace(/\/html5lib-tests\/tree-construction$/, ''));
    const runnable: { t: DatTest; c: BrowserCase }[] = [];
    let scriptOnDocuments = 0;
    for (const t of tests) {
      if (t.fragment === null) {
        // DOMParser documents always have scripting off.
        if (t.scripting === true) {
          scriptOnDocuments++;
          continue;
        }
        runnable.push({ t, c: { input: t.data, context: null } });
      } else {
        runnable.push({ t, c: { input: t.data, context: parseContextLabel(t.fragment), scripting: t.scripting ?? true } });
      }
    }
    const results = await chromiumParseAll(page, runnable.map((r) => r.c));
    const expectedDeviations = new Set(KNOWN_DEVIATIONS.flatMap((d) => d.html5lib.map((h) => h.file + '\n' + h.data)));
    const unexpected: string[] = [];
    const seenDeviations = new Set<string>();
    for (let i = 0; i < runnable.length; i++) {
      const { t } = runnable[i]!;
      const got = results[i]!.dump;
      if (got === t.document) continue;
      const key = t.file + '\n' + t.data;
      if (expectedDeviations.has(key)) {
        seenDeviations.add(key);
        continue;
      }
      unexpected.push(
        `${t.file} #${t.index} ${t.fragment === null ? 'document' : 'fragment in ' + t.fragment}: ${JSON.stringify(t.data)}\n` +
          `expected:\n${t.document}\nchromium:\n${got}`,
      );
    }
    console.log(
      `[${SUITE}] html5lib/WPT trees: ${tests.length} tests, ${runnable.length} run in Chromium ` +
        `(${scriptOnDocuments} script-on document tests not runnable with DOMParser), ` +
        `${runnable.length - unexpected.length - seenDeviations.size} identical, ${seenDeviations.size} known Chromium deviations, ` +
        `${unexpected.length} unexpected`,
    );
    for (const u of unexpected.slice(0, 20)) console.log(u + '\n');
    expect(unexpected).toEqual([]);
    // Every listed deviation must still show up; if Chromium fixes one, its entry should go.
    expect([...seenDeviations].sort()).toEqual([...expectedDeviations].sort());
  });

  test('document mode: compatMode plus doctype-derived limited-quirks', async () => {
    // Mode per the standard's "initial" insertion mode rules.
    const cases: [string, string][] = [
      ['<!DOCTYPE html>', 'no-quirks'],
      ['', 'quirks'],
      ['<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">', 'quirks'],
      // An empty system identifier counts as missing for these checks since whatwg/html#12084 (January 2026).
      ['<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "">', 'quirks'],
      ['<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "x">', 'limited-quirks'],
      ['<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Frameset//EN">', 'limited-quirks'],
      ['<!DOCTYPE html PUBLIC "-//w3c//dtd xhtml 1.0 transitional//x">', 'limited-quirks'],
      ['<!DOCTYPE html PUBLIC "-//W3O//DTD W3 HTML Strict 3.0//EN//">', 'quirks'],
      ['<!DOCTYPE html SYSTEM "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd">', 'quirks'],
      ['<!DOCTYPE foo>', 'quirks'],
      ['<!DOCTYPE html><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Frameset//EN">', 'no-quirks'],
      ['<!--x--><!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "x">', 'limited-quirks'],
      ['<p><!DOCTYPE html>', 'quirks'],
    ];
    const got = await chromiumParseAll(page, cases.map(([input]) => ({ input, context: null })));
    expect(got.map((g) => g.mode)).toEqual(cases.map(([, m]) => m));
  });

  test('generator: deterministic per seed, shallow trees, all contexts parse', async () => {
    const a = new Rng(1234);
    const b = new Rng(1234);
    const docsA = Array.from({ length: 200 }, () => generateDocument(a));
    const docsB = Array.from({ length: 200 }, () => generateDocument(b));
    expect(docsA).toEqual(docsB);
    expect(new Set(docsA).size).toBeGreaterThan(190);
    const frags = FRAGMENT_CONTEXTS.map((c) => ({ input: generateFragment(a, c), context: c, scripting: true }));
    const results = await chromiumParseAll(page, [...docsA.map((input) => ({ input, context: null })), ...frags]);
    const maxDepth = Math.max(...results.map((r) => r.depth));
    const errors = results.filter((r) => r.dump.startsWith('#error'));
    console.log(`[${SUITE}] generator: 200 documents + ${frags.length} fragments, deepest Chromium tree ${maxDepth} levels`);
    expect(errors).toEqual([]);
    expect(maxDepth).toBeLessThan(400);
    expect(FRAGMENT_CONTEXTS.length).toBeGreaterThanOrEqual(20);
    expect(FRAGMENT_CONTEXTS.some((c) => c.namespace === SVG_NS)).toBe(true);
    expect(FRAGMENT_CONTEXTS.some((c) => c.namespace === MATHML_NS)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// DOM-built trees for the dumper parity check

type Spec =
  | { t: 'e'; ns: string; name: string; attrs: { ns: string | null; q: string; v: string }[]; kids: Spec[]; direct?: Spec[] }
  | { t: 't'; v: string }
  | { t: 'c'; v: string }
  | { t: 'p'; target: string; v: string }
  | { t: 'd'; name: string; pub: string; sys: string };

const ODD_STRINGS = ['', 'x', ' ', 'a b', '"q"', "'", '<b>', '| x', '\n', 'a\nb\r\nc', '\u0000', '\uD800', '\uDFFF x', '\uD83D\uDE00', 'é中', '%', '%0025', '-->', '?', '&amp;'];

function randomString(rng: Rng): string {
  let s = '';
  for (let i = rng.int(3); i >= 0; i--) s += rng.pick(ODD_STRINGS);
  return s;
}

function randomComments(rng: Rng): Spec[] {
  return rng.chance(0.5) ? [{ t: 'c', v: randomString(rng) }] : [];
}

function randomAttrs(rng: Rng, ns: string): { ns: string | null; q: string; v: string }[] {
  const pool: { ns: string | null; q: string }[] = [
    { ns: null, q: 'id' },
    { ns: null, q: 'class' },
    { ns: null, q: 'b' },
    { ns: null, q: 'a' },
    { ns: null, q: 'xlink:href' },
    { ns: null, q: 'z' },
    { ns: XLINK_NS, q: 'xlink:href' },
    { ns: XLINK_NS, q: 'xlink:title' },
    { ns: XML_NS, q: 'xml:lang' },
    { ns: XMLNS_NS, q: 'xmlns' },
    { ns: XMLNS_NS, q: 'xmlns:xlink' },
    { ns: 'urn:other', q: 'p:attr' },
  ];
  if (ns !== HTML_NS) pool.push({ ns: null, q: 'viewBox' }, { ns: null, q: 'definitionURL' }, { ns: null, q: 'B' });
  const out: { ns: string | null; q: string; v: string }[] = [];
  const used = new Set<string>();
  for (let i = rng.int(4); i > 0; i--) {
    const a = rng.pick(pool);
    const key = (a.ns ?? '') + ' ' + a.q.slice(a.q.indexOf(':') + 1);
    // Distinct (namespace, local name) and distinct qualified names: setAttribute matches by qualified name.
    if (used.has(key) || used.has(a.q)) continue;
    used.add(key);
    used.add(a.q);
    out.push({ ...a, v: randomString(rng) });
  }
  return out;
}

function randomSpec(rng: Rng, depth: number): Spec[] {
  const out: Spec[] = [];
  for (let i = rng.int(depth > 5 ? 1 : 4); i >= 0; i--) {
    const k = rng.int(10);
    if (k < 5) {
      const [ns, name] = rng.pick<[string, string]>([
        [HTML_NS, 'div'],
        [HTML_NS, 'p'],
        [HTML_NS, 'template'],
        [HTML_NS, 'template'],
        [HTML_NS, 'my-el'],
        [SVG_NS, 'svg'],
        [SVG_NS, 'foreignObject'],
        [SVG_NS, 'template'],
        [MATHML_NS, 'math'],
        [MATHML_NS, 'annotation-xml'],
        ['urn:other', 'thing'],
      ]);
      const el: Spec = { t: 'e', ns, name, attrs: randomAttrs(rng, ns), kids: depth > 6 ? [] : randomSpec(rng, depth + 1) };
      if (ns === HTML_NS && name === 'template' && rng.chance(0.3)) el.direct = randomSpec(rng, 7);
      out.push(el);
    } else if (k < 8) {
      out.push({ t: 't', v: randomString(rng) });
    } else if (k === 8) {
      out.push({ t: 'c', v: randomString(rng) });
    } else {
      out.push({ t: 'p', target: rng.pick(['x', 'xml-stylesheet', 'a.b', 'php']), v: randomString(rng).replace(/\?>/g, '') });
    }
  }
  return out;
}

function encodeSpec(spec: Spec[]): unknown[] {
  return spec.map((n) => {
    switch (n.t) {
      case 'e':
        return {
          ...n,
          attrs: n.attrs.map((a) => ({ ...a, v: encodeUnits(a.v) })),
          kids: encodeSpec(n.kids),
          direct: n.direct ? encodeSpec(n.direct) : undefined,
        };
      case 't':
      case 'c':
      case 'p':
        return { ...n, v: encodeUnits(n.v) };
      case 'd':
        return n;
    }
  });
}

function buildOurs(parent: ParentNode, spec: Spec[]): void {
  for (const n of spec) {
    let node: ChildNode;
    switch (n.t) {
      case 'e': {
        const attrs = n.attrs.map((a) => {
          const colon = a.q.indexOf(':');
          return a.ns === null
            ? new Attr(a.q, a.v)
            : new Attr(colon < 0 ? a.q : a.q.slice(colon + 1), a.v, a.ns, colon < 0 ? null : a.q.slice(0, colon));
        });
        const el = new Element(n.name, n.ns, attrs);
        buildOurs(el.content ?? el, n.kids);
        if (n.direct) buildOurs(el, n.direct);
        node = el;
        break;
      }
      case 't':
        node = new Text(n.v);
        break;
      case 'c':
        node = new Comment(n.v);
        break;
      case 'p':
        node = new ProcessingInstruction(n.target, n.v);
        break;
      case 'd':
        node = new DocumentType(n.name, n.pub, n.sys);
        break;
    }
    parent.appendChild(node);
  }
}

