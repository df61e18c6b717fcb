import { describe, expect, it } from 'vitest';
import { COMMENT_NODE, ELEMENT_NODE, type Element } from '../../src/dom.js';
import { parseDocument, parseFragment } from '../../src/parser.js';
import { sanitize } from '../../src/sanitize.js';
import { paste, pastePolicy } from '../../policies/index.js';
import { corpusFiles, elements, nodes, readCorpus, retention, visibleText } from './helpers.js';

const LIST_STYLE = /mso-list\s*:\s*l\d+\s+level(\d+)\s+lfo\d+/i;
const isBullet = (el: Element): boolean => /mso-list\s*:\s*ignore/i.test(el.getAttribute('style') ?? '');

function listDepth(el: Element): number {
  let d = 0;
  for (let p = el.parentNode; p !== null && p.nodeType === ELEMENT_NODE; p = p.parentNode) {
    const n = (p as Element).localName;
    if (n === 'ul' || n === 'ol') d++;
  }
  return d;
}

/** The list a Word list paragraph belongs in, from its bullet: a number, letters or a roman numeral then "." or ")" numbers it. */
function listTypeOfMarker(el: Element): 'ol' | 'ul' {
  const bullet = elements(el).find(isBullet);
  const marker = bullet === undefined ? '' : visibleText(bullet).replace(/[\s\u00a0]+/g, '');
  return /^\(?(?:[0-9]+|[a-z]{1,3}|[ivxlcdm]+)[.)]$/i.test(marker) ? 'ol' : 'ul';
}

function closestListName(el: Element): string {
  for (let p = el.parentNode; p !== null && p.nodeType === ELEMENT_NODE; p = p.parentNode) {
    const n = (p as Element).localName;
    if (n === 'ul' || n === 'ol') return n;
  }
  return 'none';
}

/** Text of an element without its nested lists. */
function ownText(el: Element): string {
  return visibleText(el, (e) => e.localName === 'ul' || e.localName === 'ol').replace(/[\s\u00a0]+/g, ' ').trim();
}

describe('paste policy', () => {
  it('maps presentational spans to semantic elements and drops the rest', () => {
    const out = sanitize(
      '<p class=MsoNormal style="mso-line-height-rule:exactly"><span style="font-weight:700">B</span>' +
        '<span style="font-style:italic;font-weight:bold">BI</span><span style="text-decoration:underline">U</span>' +
        '<span style="text-decoration:line-through">S</span><span style="vertical-align:super">P</span>' +
        '<span style="vertical-align:sub">D</span><span style="color:red"></span><span>plain</span><o:p>&nbsp;</o:p></p>',
      { policy: paste },
    );
    expect(out).toBe('<p><strong>B</strong><strong><em>BI</em></strong><u>U</u><s>S</s><sup>P</sup><sub>D</sub>plain\u00a0</p>'.replace('\u00a0', '&nbsp;'));
  });

  it("unwraps Google Docs' docs-internal-guid wrapper and drops meta/style/link", () => {
    const out = sanitize(
      '<meta charset="utf-8"><style>p{}</style><link rel=stylesheet href=x><b style="font-weight:normal;" id="docs-internal-guid-1"><p dir="ltr"><span style="font-weight:400">Hi</span></p></b>',
      { policy: paste },
    );
    expect(out).toBe('<p dir="ltr">Hi</p>');
  });

  it('a form around a pasted selection is unwrapped: its text stays, its controls go', () => {
    const out = sanitize('<form action="https://evil.test/"><h2>Title</h2><p><span style="font-weight:bold">Bold</span> text<input value="v"></p><button>go</button></form>', { policy: paste });
    expect(out).toBe('<h2>Title</h2><p><strong>Bold</strong> text</p>');
  });

  it('rebuilds Word list paragraphs into nested lists (numbered and bulleted, skipped levels)', () => {
    const p = (level: number, bullet: string, text: string, list = 'l0', lfo = 'lfo1') =>
      `<p class=MsoListParagraphCxSpMiddle style='mso-list:${list} level${level} ${lfo}'><![if !supportLists]><span><span style='mso-list:Ignore'>${bullet}<span>&nbsp;</span></span></span><![endif]>${text}<o:p></o:p></p>\n`;
    const html = p(1, '1.', 'A') + p(2, 'a.', 'B') + p(4, '·', 'C') + p(1, '2.', 'D') + '<p>between</p>' + p(1, '§', 'E', 'l1', 'lfo2');
    expect(sanitize(html, { policy: paste })).toBe(
      // The whitespace between merged paragraphs stays where it was.
      '<ol><li>A<ol><li>B<ul><li><ul><li>C</li></ul></li></ul></li></ol></li><li>D</li></ol>\n\n\n\n' +
        '<p>between</p><ul><li>E</li></ul>\n',
    );
    // A list opened for a skipped level takes its type from the first item of its own level: D (level 3,
    // numbered) after C (level 4, bulleted) goes in an ol, not in the ul C's arrival opened for level 3.
    expect(sanitize(p(1, '·', 'A') + p(2, '1.', 'B') + p(4, '·', 'C') + p(3, 'i.', 'D') + p(2, '2.', 'E'), { policy: paste })).toBe(
      '<ul><li>A<ol><li>B<ol><li><ul><li>C</li></ul></li><li>D</li></ol></li><li>E</li></ol></li></ul>\n\n\n\n\n',
    );
    // And when the first item is deeper than level 1, the outer lists follow the first items of their levels.
    expect(sanitize(p(3, '·', 'A') + p(2, 'a.', 'B') + p(1, '1.', 'C'), { policy: paste })).toBe(
      '<ol><li><ol><li><ul><li>A</li></ul></li><li>B</li></ol></li><li>C</li></ol>\n\n\n',
    );
    // Inside a container element (the pass over its own children) too.
    expect(sanitize('<div class=WordSection1>' + p(1, '-', 'x') + p(1, '-', 'y') + '</div>', { policy: paste })).toBe(
      '<div><ul><li>x</li><li>y</li></ul>\n\n</div>',
    );
  });

  it('keeps images with pastePolicy({ images: true }): http(s), blob: and raster data: sources; the rest through rewriteImage', () => {
    const html =
      '<p>a<img src="https://i.test/a.png" alt="A" width="20" height="10" style="x" class="y"><img src="http://i.test/b.png">' +
      '<img src="blob:https://editor.test/5e1f"><img src="data:image/png;base64,AAAA"><img src="data:image/svg+xml,&lt;svg onload=alert(1)&gt;">' +
      '<img src="file:///C:/Temp/msohtmlclip1/01/clip_image002.png" alt="W"><img src="rel.png"><img src="javascript:alert(1)"></p>' +
      '<picture><source srcset="https://i.test/w.webp"><img src="https://i.test/p.png"></picture>';
    expect(sanitize(html, { policy: paste })).toBe('<p>a</p>');
    const images = pastePolicy({ images: true });
    expect(sanitize(html, { policy: images })).toBe(
      '<p>a<img src="https://i.test/a.png" alt="A" width="20" height="10"><img src="http://i.test/b.png"><img src="blob:https://editor.test/5e1f">' +
        '<img src="data:image/png;base64,AAAA"><img><img alt="W"><img><img></p><img src="https://i.test/p.png">',
    );
    // Word's file: images, say, uploaded from the clipboard's files: the callback sees each src as written.
    const seen: string[] = [];
    const uploads = pastePolicy({
      images: true,
      rewriteImage: (url) => (seen.push(url), url.startsWith('file:') ? 'https://cdn.editor.test/' + url.slice(url.lastIndexOf('/') + 1) : url === 'rel.png' ? 'javascript:alert(2)' : url),
    });
    const out = sanitize(html, { policy: uploads });
    expect(out).toContain('<img src="https://cdn.editor.test/clip_image002.png" alt="W">');
    // What it returns is checked still: no script-capable URL, no data: URL other than a raster image.
    expect(out).not.toMatch(/javascript|svg/);
    expect(seen).toEqual([
      'https://i.test/a.png', 'http://i.test/b.png', 'blob:https://editor.test/5e1f', 'data:image/png;base64,AAAA',
      'file:///C:/Temp/msohtmlclip1/01/clip_image002.png', 'rel.png', 'https://i.test/p.png',
    ]);
    // Links keep the paste policy's own rules.
    expect(sanitize('<a href="rel.html">r</a><a href="file:///x">f</a>', { policy: uploads })).toBe('<a>r</a><a>f</a>');
  });

  it('refuses bad pastePolicy options, naming the field', () => {
    expect(() => pastePolicy({ images: 'yes' as never })).toThrow(new TypeError('pastePolicy: options.images: expected a boolean'));
    expect(() => pastePolicy({ images: true, rewriteImage: 'x' as never })).toThrow(new TypeError('pastePolicy: options.rewriteImage: expected a function'));
    expect(() => pastePolicy({ rewriteImage: (u) => u })).toThrow(new TypeError('pastePolicy: options.rewriteImage: needs images: true'));
    expect(() => pastePolicy(5 as never)).toThrow(new TypeError('pastePolicy: options: expected an object'));
    expect(sanitize('<p>x<img src="https://i.test/a.png"></p>', { policy: pastePolicy(null) })).toBe('<p>x</p>');
  });

  const files = corpusFiles('paste', 'paste corpus');
  const retained: number[] = [];
  const listFiles = new Set<string>();
  it.runIf(files.length > 0).each(files)('paste/$name: fixed point, no Office residue, words kept, lists nested', ({ path }) => {
    const input = readCorpus(path);
    const out = sanitize(input, { policy: paste });
    expect(sanitize(out, { policy: paste })).toBe(out);
    // With images: a fixed point too, and every image kept is one the policy allows (Word's file: ones are not).
    const withImages = sanitize(input, { policy: pastePolicy({ images: true }) });
    expect(sanitize(withImages, { policy: pastePolicy({ images: true }) })).toBe(withImages);
    for (const el of elements(parseFragment(withImages, { context: 'body' }))) {
      if (el.localName === 'img' && el.hasAttribute('src')) expect(el.getAttribute('src')).toMatch(/^(?:https?:|blob:|data:image\/(?:png|gif|jpeg|webp))/);
    }
    expect(withImages.replace(/<img[^>]*>/g, '')).toBe(out);

    const frag = parseFragment(out, { context: 'body' });
    for (const n of nodes(frag)) {
      expect(n.nodeType).not.toBe(COMMENT_NODE);
      if (n.nodeType !== ELEMENT_NODE) continue;
      const el = n as Element;
      expect(el.localName).not.toContain(':');
      expect(['meta', 'style', 'link', 'span', 'font', 'o:p', 'xml']).not.toContain(el.localName);
      for (const a of el.attributes) {
        expect(a.value).not.toMatch(/mso-/i);
        expect(['style', 'class'].includes(a.name), a.name).toBe(false);
      }
      if (el.localName === 'b') expect(el.getAttribute('id') ?? '').not.toMatch(/docs-internal-guid/);
    }

    // Words a reader sees (Word's list bullets excluded: the rebuilt list renders them).
    const doc = parseDocument(input);
    const r = retention(visibleText(doc, isBullet), visibleText(frag));
    retained.push(r);
    expect(r).toBeGreaterThanOrEqual(0.97);

    // Word list paragraphs: same items, in order, at the nesting their level says.
    const items = elements(doc)
      .map((el) => ({ el, m: /^(p|h[1-6]|li)$/.test(el.localName) ? LIST_STYLE.exec((el.getAttribute('style') ?? '').replace(/\s+/g, ' ')) : null }))
      .filter((x) => x.m !== null)
      .map((x) => ({ level: Math.min(9, parseInt(x.m![1]!, 10)), type: listTypeOfMarker(x.el), text: visibleText(x.el, isBullet).replace(/[\s\u00a0]+/g, ' ').trim() }))
      .filter((x) => x.text !== '');
    // Real lists (Google Docs, browsers) keep every item that has text.
    const realItems = elements(doc).filter((el) => el.localName === 'li' && visibleText(el, isBullet).trim() !== '').length;
    expect(elements(frag).filter((el) => el.localName === 'li' && ownText(el) !== '').length).toBeGreaterThanOrEqual(realItems);
    if (items.length > 0) listFiles.add(path);
    if (items.length > 0) {
      const lis = elements(frag)
        .filter((el) => el.localName === 'li')
        .map((el) => ({ level: listDepth(el), type: closestListName(el), text: ownText(el) }))
        .filter((x) => x.text !== '');
      const expected = items.map((x) => `${x.level} ${x.type} ${x.text}`);
      const actual = lis.map((x) => `${x.level} ${x.type} ${x.text}`);
      expect(actual).toEqual(expected);
    }
  });

  it.runIf(files.length > 0)('reports the lowest word retention', () => {
    console.log(`[paste] Word list captures checked for nesting: ${listFiles.size}`);
    if (retained.length > 0) console.log(`[paste] word retention: min ${(Math.min(...retained) * 100).toFixed(2)}%, mean ${((retained.reduce((a, b) => a + b, 0) / retained.length) * 100).toFixed(2)}% over ${retained.length} files`);
    expect(retained.every((r) => r >= 0.97)).toBe(true);
  });
});
