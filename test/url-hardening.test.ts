/**
 * sanitize()'s URL hardening (src/sanitizer/url-hardening.ts): URL-valued attributes lose values whose scheme runs
 * script or that are data: URLs of a type that can hold script; URL lists (srcset, ping, archive) lose the
 * attribute when any URL in them is such a URL.
 */
import { describe, expect, it } from 'vitest';
import { isScriptCapableUrl, urlHardening } from '../src/sanitizer/url-hardening.js';
import { Attr, Element, HTML_NS } from '../src/dom.js';
import { sanitize, sanitizeFragment } from '../src/index.js';

const removes = (name: string, value: string): boolean => urlHardening()(new Element('img', HTML_NS, []), new Attr(name, value));

describe('URL hardening', () => {
  it('finds script schemes as the URL parser reads them', () => {
    expect(isScriptCapableUrl('javascript:alert(1)')).toBe(true);
    expect(isScriptCapableUrl(' \x01JaVa\tScRiPt:alert(1)')).toBe(true);
    expect(isScriptCapableUrl('vbscript:x')).toBe(true);
    expect(isScriptCapableUrl('livescript:x')).toBe(true);
    expect(isScriptCapableUrl('https://example.com/javascript:x')).toBe(false);
    expect(isScriptCapableUrl('./javascript:x')).toBe(false);
    expect(isScriptCapableUrl('java script:x')).toBe(false);
  });

  it('finds each script scheme in any case after leading spaces and controls, and no other', () => {
    for (const lead of ['', ' ', '\x00', '\x1f \x0b', '\t\n']) {
      expect(isScriptCapableUrl(lead + 'VBScript:x')).toBe(true);
      expect(isScriptCapableUrl(lead + 'LiveScript:x')).toBe(true);
      expect(isScriptCapableUrl(lead + 'Data:text/html,x')).toBe(true);
      expect(isScriptCapableUrl(lead + 'j\navascript:x')).toBe(true);
      expect(isScriptCapableUrl(lead + 'xjavascript:x')).toBe(false);
      expect(isScriptCapableUrl(lead + 'https://x/')).toBe(false);
    }
    expect(isScriptCapableUrl('')).toBe(false);
    expect(isScriptCapableUrl(' \x01 ')).toBe(false);
    expect(isScriptCapableUrl('\u00a0javascript:x')).toBe(false);
  });

  it('keeps data: URLs of raster image types only', () => {
    expect(isScriptCapableUrl('data:image/png;base64,iVBORw0KGgo=')).toBe(false);
    expect(isScriptCapableUrl('data:text/html,<script>alert(1)</script>')).toBe(true);
    expect(isScriptCapableUrl('data:image/svg+xml,<svg onload=alert(1)>')).toBe(true);
    expect(isScriptCapableUrl('data:,x')).toBe(true);
  });

  it('checks single-URL attributes and leaves other attributes alone', () => {
    expect(removes('href', 'javascript:x')).toBe(true);
    expect(removes('href', 'https://example.com/')).toBe(false);
    expect(removes('title', 'javascript:x')).toBe(false);
    // A single URL is not split: a comma in it is just a character.
    expect(removes('href', 'https://example.com/a,javascript:x')).toBe(false);
  });

  it('finds every script-capable URL a srcset parser could take', () => {
    expect(removes('srcset', 'a.png 1x, b.png 2x')).toBe(false);
    expect(removes('srcset', 'https://cdn.example.com/w_100,c_fill/a.jpg 100w, b.jpg 200w')).toBe(false);
    expect(removes('srcset', 'data:image/png;base64,iVBORw0KGgo= 1x, data:image/gif;base64,R0lGOD 2x')).toBe(false);
    expect(removes('srcset', 'a.png 1x, javascript:alert(1) 2x')).toBe(true);
    // No space after the comma: the descriptor ends at the comma and the next URL starts right after it.
    expect(removes('srcset', 'a.png 1x,javascript:alert(1) 2x')).toBe(true);
    expect(removes('srcset', 'a.png,data:text/html,<script>x</script>')).toBe(true);
    expect(removes('srcset', 'data:image/svg+xml,<svg/> 1x')).toBe(true);
    // A candidate whose descriptors are invalid is dropped by the parser; its URL is still checked.
    expect(removes('srcset', 'javascript:alert(1) 1q')).toBe(true);
    expect(removes('imagesrcset', ',,\tJAVASCRIPT:x')).toBe(true);
  });

  it('checks each URL of ping and archive', () => {
    expect(removes('ping', 'https://a.example/ https://b.example/')).toBe(false);
    expect(removes('ping', 'https://a.example/ javascript:x')).toBe(true);
    expect(removes('archive', 'a.jar,vbscript:x')).toBe(true);
  });

  it('stays linear on long lists', () => {
    // 60,000 safe data: URLs joined by commas in one run: each piece is checked once.
    const value = 'data:image/png,'.repeat(60_000);
    expect(removes('srcset', value)).toBe(false);
    expect(removes('srcset', value + 'javascript:x')).toBe(true);
  });

  it('applies in sanitize()', () => {
    const config = { sanitizer: { elements: ['img', 'a'], attributes: ['srcset', 'href'] } };
    expect(sanitize('<img srcset="a.png 1x,javascript:alert(1) 2x">', config)).toBe('<img>');
    expect(sanitize('<img srcset="a.png 1x, b.png 2x">', config)).toBe('<img srcset="a.png 1x, b.png 2x">');
  });
});

describe('the flags sanitize() sets and sanitizeFragment() reads', () => {
  const input = '<blockquote cite="javascript:y">q</blockquote><table><tr><td>x</td></tr></table>';
  // A table part replaced with its children: the rows are then directly in the table, which a reparse would not keep.
  const sanitizer = { replaceWithChildrenElements: ['tbody'] };

  it('sanitize() always hardens URLs and repairs for reparse, whatever the options say', () => {
    const forced = { sanitizer, hardenUrls: false, reparseSafe: false } as unknown as Parameters<typeof sanitize>[1];
    expect(sanitize(input, forced)).toBe('<blockquote>q</blockquote><table><tbody><tr><td>x</td></tr></tbody></table>');
    expect(sanitize(input, forced)).toBe(sanitize(input, { sanitizer }));
  });

  it('sanitizeFragment() hardens and repairs only when asked (each flag a boolean: anything else is a TypeError)', () => {
    const cite = (f: ReturnType<typeof sanitizeFragment>): string | null => (f.childNodes[0] as Element).getAttribute('cite');
    const tablePart = (f: ReturnType<typeof sanitizeFragment>): string => ((f.childNodes[1] as Element).childNodes[0] as Element).localName;
    expect(cite(sanitizeFragment(input, { sanitizer }))).toBe('javascript:y');
    expect(cite(sanitizeFragment(input, { sanitizer, hardenUrls: true }))).toBeNull();
    expect(() => sanitizeFragment(input, { sanitizer, hardenUrls: 1 as unknown as boolean })).toThrow(
      new TypeError('sanitizeFragment: options.hardenUrls must be a boolean'),
    );
    expect(tablePart(sanitizeFragment(input, { sanitizer }))).toBe('tr');
    expect(tablePart(sanitizeFragment(input, { sanitizer, reparseSafe: true }))).toBe('tbody');
    expect(() => sanitizeFragment(input, { sanitizer, reparseSafe: 1 as unknown as boolean })).toThrow(
      new TypeError('sanitizeFragment: options.reparseSafe must be a boolean'),
    );
  });

  it('the navigating URL step, skipped where URL hardening runs, still removes javascript: links where it does not', () => {
    // sanitize() and sanitizeFragment with both flags walk once with URL hardening, which removes these itself (the
    // Sanitizer API's step is skipped there); with reparse safety alone the same walk runs without it.
    const links = '<a href=" JavaScript:x">a</a><form action="javascript:y"><button formaction="javascript:z">b</button></form>' +
      '<svg><a xlink:href="javascript:w">c</a></svg><blockquote cite="javascript:v">d</blockquote>';
    const svg = 'http://www.w3.org/2000/svg';
    const kept = {
      sanitizer: {
        elements: ['a', 'form', 'button', 'blockquote', { name: 'svg', namespace: svg }, { name: 'a', namespace: svg }],
        attributes: ['href', 'action', 'formaction', 'cite', { name: 'href', namespace: 'http://www.w3.org/1999/xlink' }],
      },
    };
    const names = (f: ReturnType<typeof sanitizeFragment>): string[] => {
      const out: string[] = [];
      const walk = [...f.childNodes];
      while (walk.length > 0) {
        const n = walk.shift()!;
        if (n.nodeType !== 1) continue;
        const el = n as Element;
        for (const a of el.attributes) out.push(el.localName + ' ' + a.name);
        walk.push(...el.childNodes);
      }
      return out;
    };
    expect(sanitize(links, kept)).toBe('<a>a</a><form><button>b</button></form><svg><a>c</a></svg><blockquote>d</blockquote>');
    expect(names(sanitizeFragment(links, { ...kept, reparseSafe: true, hardenUrls: true }))).toEqual([]);
    // Without URL hardening only the navigating attributes lose their javascript: URLs; cite (not navigating) stays.
    expect(names(sanitizeFragment(links, { ...kept, reparseSafe: true }))).toEqual(['blockquote cite']);
    expect(names(sanitizeFragment(links, kept))).toEqual(['blockquote cite']);
  });

  it('a non-string input is a TypeError naming the function called', () => {
    expect(() => sanitize(42 as never)).toThrow(/^sanitize: input must be a string, got number$/);
    expect(() => sanitizeFragment(null as never)).toThrow(/^sanitizeFragment: input must be a string, got null$/);
  });
});
