/**
 * `serialize()` against Chromium's own serialization of the same tree, as a string.
 * - Documents: DOMParser, scripting off. Chromium's side writes the document's children: each doctype as
 *   `<!DOCTYPE name>`, each element's outerHTML, and each comment or processing instruction as the innerHTML of a
 *   div holding a copy of it.
 * - Fragments: innerHTML set and then read on a disconnected context element. With scripting on, the element
 *   belongs to the page's document; with scripting off, to a DOMParser document. (A template context parses
 *   into its template contents, with scripting off.)
 *
 * The inputs are the fixed cases below and random markup from the parse differential's generator, drawn from the
 * run's seed. The two serializations are compared only where the two parsers built the same tree (the same
 * html5lib dump). The parse differential covers the other cases: Chromium's known departures from the standard.
 * Round-trip mode is not compared here: it is htmlsift's own, and round-trip.test.ts checks it against Chromium's
 * parser.
 *
 *   HTMLSIFT_SER_CASES=20000 npm run test:browser -- serializer-differential    # more random inputs
 *   HTMLSIFT_SER_SHOW_TREES=1 ...                                                 # print the trees that differ
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { parseDocument, parseFragment, serialize } from '../../src/index.js';
import { Element, type DocumentFragment } from '../../src/dom.js';
import { htmlRawTextParent } from '../../src/serializer.js';
import { dumpTree } from '../support/dump.js';
import {
  HTML_NS,
  HangTolerantPage,
  MATHML_NS,
  SVG_NS,
  chromiumParse,
  chromiumSkipReason,
  contextLabel,
  decodeUnits,
  encodeUnits,
  launchChromium,
  type ContextSpec,
} from './chromium.js';
import { FRAGMENT_CONTEXTS, Rng, generateDocument, generateFragment, seedFromEnv } from './generator.js';

const SUITE = 'serializer-differential';

interface Case {
  input: string;
  /** null: a document. */
  context: ContextSpec | null;
  scripting: boolean;
}

const FIXED: readonly Case[] = [
  // Text and attribute escaping, `<` and `>` in attribute values included.
  { input: '<p title="a<b>c&amp;&quot;\u00a0\'">x&lt;y&gt;z&amp;\u00a0"\'</p>', context: { name: 'body' }, scripting: true },
  // Raw text, as a parent and as the context element.
  { input: '<style>a<b>&amp;</style><script>if (a<b) x="&amp;"</script><xmp><i>&</xmp>', context: { name: 'div' }, scripting: true },
  { input: 'a<b>&amp;</b>', context: { name: 'style' }, scripting: true },
  { input: 'a<b>&amp;</b>', context: { name: 'plaintext' }, scripting: false },
  // noscript: raw text with scripting on, elements with it off; in template contents scripting is disabled.
  { input: '<noscript><b>x</b>&amp;</noscript>', context: { name: 'body' }, scripting: true },
  { input: '<noscript><b>x</b>&amp;</noscript>', context: { name: 'body' }, scripting: false },
  { input: '<template><noscript><b>x</b>&amp;</noscript><template><div><noscript><i></noscript></div></template></template><noscript><u></noscript>', context: { name: 'body' }, scripting: true },
  // innerHTML on a template parses into its contents, for which scripting is disabled.
  { input: '<noscript><b>x</b></noscript><p>y', context: { name: 'template' }, scripting: false },
  // Void elements, template contents, processing instructions, comments.
  { input: '<br><img src=x><input><template><p>t</p></template><?php echo 1 ?><!--c-->', context: { name: 'body' }, scripting: true },
  // Foreign content: adjusted names, namespaced attributes.
  { input: '<svg viewBox="0 0 1 1"><foreignObject><p>x</p></foreignObject><a xlink:href="#a" xml:lang="en" xmlns:xlink="http://www.w3.org/1999/xlink"/></svg><math><mi definitionURL="u">x</mi></math>', context: { name: 'div' }, scripting: true },
  { input: '<path d="M0"/><clipPath/>', context: { name: 'svg', namespace: SVG_NS }, scripting: true },
  { input: '<mi>x</mi><annotation-xml encoding="text/html"><p>y</p></annotation-xml>', context: { name: 'math', namespace: MATHML_NS }, scripting: true },
  // pre/textarea/listing: the plain serializer does not add back the newline the parser drops.
  { input: '<pre>\n\nx</pre><textarea>\n\ny</textarea><listing>\nz</listing>', context: { name: 'body' }, scripting: true },
  // Documents: the doctype is written with its name only; comments around the html element.
  { input: '<!--a--><!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><html><head></head><body>x</body></html><!--b-->', context: null, scripting: false },
  { input: '<!DOCTYPE html><title>a&amp;b</title><noscript><p>n</p></noscript>', context: null, scripting: false },
];

/** Chromium's serialization of each case's tree (see the file's comment). */
async function chromiumSerialize(page: Page, cases: readonly Case[]): Promise<string[]> {
  const wire = cases.map((c) => ({
    i: encodeUnits(c.input),
    c: c.context === null ? null : { name: c.context.name, ns: c.context.namespace ?? HTML_NS },
    s: c.scripting,
  }));
  const out = await page.evaluate((wire) => {
    // The transport helpers openParserPage installed (chromium.ts).
    const { enc, dec } = (globalThis as unknown as { __htmlsift: { enc(s: string): string; dec(s: string): string } }).__htmlsift;
    let scriptingOff: Document | null = null;
    return wire.map((k) => {
      const input = dec(k.i);
      if (k.c === null) {
        const d = new DOMParser().parseFromString(input, 'text/html');
        let html = '';
        for (const n of Array.from(d.childNodes)) {
          if (n.nodeType === Node.DOCUMENT_TYPE_NODE) html += '<!DOCTYPE ' + (n as DocumentType).name + '>';
          else if (n.nodeType === Node.ELEMENT_NODE) html += (n as unknown as { outerHTML: string }).outerHTML;
          else {
            const holder = document.createElement('div');
            holder.append(n.cloneNode());
            html += holder.innerHTML;
          }
        }
        return enc(html);
      }
      let doc: Document = document;
      if (!k.s) doc = scriptingOff ??= new DOMParser().parseFromString('<!DOCTYPE html>', 'text/html');
      const el = k.c.ns === 'http://www.w3.org/1999/xhtml' ? doc.createElement(k.c.name) : doc.createElementNS(k.c.ns, k.c.name);
      el.innerHTML = input;
      return enc(el.innerHTML);
    });
  }, wire);
  return out.map(decodeUnits);
}

/** Our parse of a case: its html5lib dump, and its serialization as the context element's innerHTML. */
function ours(c: Case): { dump: string; html: string } {
  if (c.context === null) {
    const doc = parseDocument(c.input, { scripting: false });
    return { dump: dumpTree(doc), html: serialize(doc, { scripting: false }) };
  }
  const ns = c.context.namespace ?? HTML_NS;
  const fragment: DocumentFragment = parseFragment(c.input, {
    context: ns === HTML_NS ? c.context.name : { name: c.context.name, namespace: ns },
    scripting: c.scripting,
  });
  const dump = dumpTree(fragment);
  if (ns === HTML_NS && (htmlRawTextParent(c.context.name, c.scripting) || c.context.name === 'template')) {
    // Serialized as the context element's children, as innerHTML does (raw text; a template's contents).
    const host = new Element(c.context.name, HTML_NS, []);
    if (host.content !== null) host.content.childNodes = fragment.childNodes;
    else host.childNodes = fragment.childNodes;
    return { dump, html: serialize(host, { scripting: c.scripting }) };
  }
  return { dump, html: serialize(fragment, { scripting: c.scripting }) };
}

const describeCase = (c: Case): string =>
  (c.context === null ? 'document' : `fragment in <${contextLabel(c.context)}>`) + ` (scripting ${c.scripting ? 'on' : 'off'})`;

const skip = chromiumSkipReason(SUITE);

describe.skipIf(skip !== null)('serialize() against Chromium', () => {
  let browser: Browser;
  let tolerant: HangTolerantPage;
  const seed = seedFromEnv();
  const count = Number(process.env.HTMLSIFT_SER_CASES ?? 4000);

  beforeAll(async () => {
    browser = await launchChromium();
    tolerant = await HangTolerantPage.open(browser);
    console.log(`[${SUITE}] ${browser.version()}; seed ${seed} (replay: HTMLSIFT_SEED=${seed} npm run test:browser)`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * Compares; returns the differences, and how many cases had the same tree in both parsers. A case on which
   * Chromium hangs (see HangTolerantPage) is not compared, nor serialized once its parse hung.
   */
  async function compare(cases: readonly Case[]): Promise<{ same: number; differ: string[]; hung: number }> {
    let same = 0;
    let hung = 0;
    const differ: string[] = [];
    const trees = await tolerant.run(
      cases.map((c) => ({ input: c.input, context: c.context, scripting: c.scripting })),
      chromiumParse,
      () => null,
    );
    const parsed = cases.filter((_, i) => trees[i] !== null);
    const htmls = await tolerant.run(parsed, chromiumSerialize, () => null);
    let next = 0;
    cases.forEach((c, i) => {
      const tree = trees[i]!;
      const html = tree === null ? null : htmls[next++]!;
      if (tree === null || html === null) {
        hung++;
        return;
      }
      const o = ours(c);
      if (o.dump !== tree.dump) {
        if (process.env.HTMLSIFT_SER_SHOW_TREES) console.log(describeCase(c), JSON.stringify(c.input), '\n' + o.dump + '\n---\n' + tree.dump);
        return;
      }
      same++;
      if (o.html !== html) {
        differ.push(`${describeCase(c)} ${JSON.stringify(c.input)}\n  ours:     ${JSON.stringify(o.html)}\n  Chromium: ${JSON.stringify(html)}`);
      }
    });
    return { same, differ, hung };
  }

  test('the fixed cases', async () => {
    const { same, differ } = await compare(FIXED);
    expect(differ).toEqual([]);
    expect(same, 'every fixed case parses to the same tree in both parsers').toBe(FIXED.length);
  });

  test('random documents and fragments', async () => {
    const rng = new Rng(seed);
    const cases: Case[] = [];
    for (let k = 0; k < count; k++) {
      if (k % 2 === 0) cases.push({ input: generateDocument(rng), context: null, scripting: false });
      else {
        const context = rng.pick(FRAGMENT_CONTEXTS);
        // innerHTML on a template parses with scripting disabled (see the parse differential); elsewhere either.
        const inTemplate = context.name === 'template' && (context.namespace ?? HTML_NS) === HTML_NS;
        cases.push({ input: generateFragment(rng, context), context, scripting: !inTemplate && rng.chance(0.5) });
      }
    }
    const { same, differ, hung } = await compare(cases);
    console.log(
      `[${SUITE}] ${count} random inputs, ${same} with the same tree in both parsers, ${same - differ.length} serialized ` +
        `identically; Chromium hung on ${hung} (not compared)`,
    );
    expect(same, 'most random inputs parse to the same tree in both parsers').toBeGreaterThan(count * 0.8);
    expect(differ.slice(0, 10), `${differ.length} serializations differ (replay: HTMLSIFT_SEED=${seed})`).toEqual([]);
  });
});
