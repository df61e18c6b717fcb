import { describe, expect, test } from 'vitest';
import { ELEMENT_NODE, SVG_NS, TEXT_NODE, type Element } from '../../src/dom.js';
import { Sanitizer, declarativeShadowRootTemplates, parseHTMLLike, setHTMLLike } from '../../src/sanitizer-api/index.js';
import { parentLinksConsistent, show } from './helpers.js';

/** The markup `el.setHTML(html, options)` would leave in the element, in the helpers' notation. */
function setHTML(html: string, options?: Parameters<typeof setHTMLLike>[1]): string {
  const f = setHTMLLike(html, options);
  expect(parentLinksConsistent(f)).toBe(true);
  return show(f);
}

describe('setHTML-like: parse in context, then sanitize', () => {
  test('the default configuration on representative markup', () => {
    expect(setHTML('<div onclick=x title=t class=c><script>a()</script><p>t</p></div>')).toBe('<div title="t"><p>t</p></div>');
    expect(setHTML('<a href="javascript:x" title=y>l</a><a href=" JAVASCRIPT:x">m</a><a href="/ok">n</a>')).toBe(
      '<a title="y">l</a><a>m</a><a href="/ok">n</a>',
    );
    expect(setHTML('x<img src=x onerror=alert(1)>y')).toBe('xy');
    expect(setHTML('<svg viewBox="0 0 1 1"><use href="#x"/><circle r=1 /></svg>')).toBe(
      '<svg:svg viewBox="0 0 1 1"><svg:circle r="1"></svg:circle></svg:svg>',
    );
    expect(setHTML('<!--x--><p>a</p>')).toBe('<p>a</p>');
    expect(setHTML('<table><td colspan=2 style=x>c</table>')).toBe(
      '<table><tbody><tr><td colspan="2">c</td></tr></tbody></table>',
    );
  });

  test('unsafe keeps everything with no sanitizer', () => {
    const html = '<!--x--><p onclick="y()">a<script>s()</script><a href="javascript:z()">l</a></p>';
    expect(setHTML(html, { safe: false })).toBe('<!--x--><p onclick="y()">a<script>s()</script><a href="javascript:z()">l</a></p>');
  });

  test('javascript: URLs on MathML links are removed by the safe flavour', () => {
    expect(setHTML('<math><mi href="javascript:x" mathcolor=red>x</mi></math>', { sanitizer: {} })).toBe(
      '<math:math><math:mi mathcolor="red">x</math:mi></math:math>',
    );
  });

  test('template contents are sanitized', () => {
    expect(setHTML('<template><script>x</script><p onclick=y>y</p></template>', { sanitizer: { elements: ['template', 'p', 'script'], attributes: ['onclick'] } })).toBe(
      '<template><p>y</p></template>',
    );
  });

  test('declarative shadow root templates: removed with the default (template is not allowed)', () => {
    expect(setHTML('<div><template shadowrootmode="open">s</template>x</div>')).toBe('<div>x</div>');
    // With template allowed, htmlsift keeps an ordinary template (Chromium would attach a shadow root).
    expect(setHTML('<div><template shadowrootmode="open"><b onclick=x>s</b></template>x</div>', { safe: false, sanitizer: { removeAttributes: ['onclick'] } })).toBe(
      '<div><template shadowrootmode="open"><b>s</b></template>x</div>',
    );
  });

  test('which kept templates a browser would have made declarative shadow roots', () => {
    const html =
      '<template shadowrootmode=open>top</template>' + // child of the fragment: an ordinary template
      '<div><template shadowrootmode=OPEN>1</template><template shadowrootmode=open>second</template></div>' +
      '<my-el><template shadowrootmode=closed><span><template shadowrootmode=open>nested</template></span></template></my-el>' +
      '<ul><li><template shadowrootmode=open>not a host</template></li></ul>' +
      '<p><template shadowrootmode=none>bad mode</template><template>no mode</template></p>' +
      '<font-face><template shadowrootmode=open>reserved</template></font-face>';
    const f = setHTMLLike(html, { safe: false });
    const found = declarativeShadowRootTemplates(f).map((t) => t.content!.textContent);
    expect(found).toEqual(['1', '', 'nested']);
    // Removing shadowrootmode (or template) with the sanitizer leaves none.
    expect(declarativeShadowRootTemplates(setHTMLLike(html, { safe: false, sanitizer: { removeAttributes: ['shadowrootmode'] } }))).toEqual([]);
    expect(declarativeShadowRootTemplates(setHTMLLike(html))).toEqual([]);
  });

  test('replace with children', () => {
    expect(setHTML('<p><b>bold <i>it</i></b></p>', { safe: false, sanitizer: { replaceWithChildrenElements: ['b'] } })).toBe('<p>bold <i>it</i></p>');
  });

  test('the context element', () => {
    expect(setHTML('<td>x', { context: 'tr' })).toBe('<td>x</td>');
    expect(setHTML('<td>x', { context: 'div' })).toBe('x');
    // setHTML on a script element inserts nothing; setHTMLUnsafe parses its text.
    expect(setHTML('alert(1)', { context: 'script', sanitizer: {} })).toBe('');
    expect(setHTML('alert(1)', { context: { name: 'script', namespace: SVG_NS }, sanitizer: {} })).toBe('');
    expect(setHTML('alert(1)', { context: 'SCRIPT', safe: false })).toBe('alert(1)');
  });

  test('sanitizing parses with scripting disabled (noscript content is markup, as in Chromium 156)', () => {
    // `</noscript>` is ignored while the special <p> is the current node, so "y" ends up in the p.
    expect(setHTML('<noscript><p>x</noscript>y')).toBe('');
    expect(setHTML('<noscript><p>x</noscript>y', { sanitizer: { elements: ['noscript'] } })).toBe('<noscript></noscript>');
    expect(setHTML('<noscript><p>x</noscript>y', { sanitizer: { elements: ['noscript', 'p'] } })).toBe('<noscript><p>xy</p></noscript>');
    // setHTMLUnsafe without a sanitizer parses like innerHTML (scripting enabled: raw text).
    expect(setHTML('<noscript><p>x</noscript>y', { safe: false })).toBe('<noscript><p>x</noscript>y');
  });

  test('setHTMLUnsafe without a sanitizer on a template parses with scripting disabled (inert contents, as Chromium 156)', () => {
    const noscriptChild = (context: string): number => {
      const f = setHTMLLike('<noscript><b>x</b></noscript>', { safe: false, context });
      const noscript = f.childNodes[0] as Element;
      expect(noscript.localName).toBe('noscript');
      return noscript.childNodes[0]!.nodeType;
    };
    // Markup under a template (an element), raw text elsewhere.
    expect(noscriptChild('template')).toBe(ELEMENT_NODE);
    expect(noscriptChild('div')).toBe(TEXT_NODE);
    // An unterminated tag at the end is dropped as markup, kept as raw text.
    expect(setHTML('<noscript><b', { safe: false, context: 'template' })).toBe('<noscript></noscript>');
  });

  test('an invalid configuration throws a TypeError', () => {
    expect(() => setHTMLLike('<p>', { sanitizer: { elements: [], removeElements: [] } })).toThrow(TypeError);
    expect(() => setHTMLLike('<p>', { sanitizer: { replaceWithChildrenElements: ['html'] }, safe: false })).toThrow(/html/);
  });

  test('a Sanitizer instance is used as it is', () => {
    const s = new Sanitizer({ elements: ['p'] });
    expect(setHTML('<p>a</p><b>b</b>', { sanitizer: s })).toBe('<p>a</p>');
  });
});

describe('parseHTML-like', () => {
  test('the default keeps the document skeleton and the doctype', () => {
    const doc = parseHTMLLike('<!doctype html><title>t</title><body onload=x><p>x<script>y</script>');
    expect(show(doc)).toBe('<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p></body></html>');
  });

  test('parseHTMLUnsafe with no sanitizer keeps everything', () => {
    const doc = parseHTMLLike('<!doctype html><body onload=x><script>y</script>', { safe: false });
    expect(show(doc)).toBe('<!DOCTYPE html><html><head></head><body onload="x"><script>y</script></body></html>');
  });
});
