/**
 * sanitize()'s URL hardening (src/sanitizer/url-hardening.ts): URL-valued attributes lose values whose scheme runs
 * script or that are data: URLs of a type that can hold script; URL lists (srcset, ping, archive) lose the
 * attribute when any URL in them is such a URL.
 */
import { describe, expect, it } from 'vitest';
import { isScriptCapableUrl, urlHardening } from '../src/sanitizer/url-hardening.js';
import { Attr, Element, HTML_NS } from '../src/dom.js';
import { sanitize } from '../src/index.js';

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
