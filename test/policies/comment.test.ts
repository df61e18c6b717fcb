import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../src/parser.js';
import { sanitize } from '../../src/sanitize.js';
import { extendPolicy } from '../../src/policy/index.js';
import { comment, commentPolicy } from '../../policies/index.js';
import { corpusFiles, elements, readCorpus } from './helpers.js';

function depthOf(el: { parentNode: unknown }): number {
  let d = 0;
  for (let p = el as { parentNode: unknown } | null; p !== null && (p as { nodeType?: number }).nodeType === 1; p = p.parentNode as never) d++;
  return d;
}

describe('comment policy', () => {
  it('keeps formatting, lists, quotes and code; clamps headings; forces rel on links', () => {
    const out = sanitize(
      '<h1>T</h1><h2>U</h2><h4>V</h4><p><b>b</b><em>e</em><code>c</code></p><ul><li>x</li></ul><blockquote>q</blockquote><pre>p</pre>' +
        '<a href="https://a.test/" onclick="x()" class="k" id="i" style="color:red" target="_top">l</a>',
      { policy: comment },
    );
    const frag = parseFragment(out, { context: 'body' });
    const names = elements(frag).map((e) => e.localName);
    expect(names).not.toContain('h1');
    expect(names).not.toContain('h2');
    expect(names.filter((n) => n === 'h3')).toHaveLength(2);
    for (const n of ['b', 'em', 'code', 'ul', 'li', 'blockquote', 'pre', 'h4', 'a']) expect(names).toContain(n);
    const a = elements(frag).find((e) => e.localName === 'a')!;
    expect(a.getAttribute('rel')!.split(' ').sort()).toEqual(['noopener', 'noreferrer', 'nofollow', 'ugc'].sort());
    expect(a.attributes.map((x) => x.name).sort()).toEqual(['href', 'rel']);
  });

  it('allows only http(s) and mailto links', () => {
    for (const href of ['javascript:alert(1)', 'data:text/html,x', 'ftp://x.test/', 'tel:123', '/relative', 'vbscript:x']) {
      expect(sanitize(`<a href="${href}">x</a>`, { policy: comment })).not.toContain('href');
    }
    for (const href of ['http://x.test/', 'https://x.test/', 'mailto:a@x.test']) {
      expect(sanitize(`<a href="${href}">x</a>`, { policy: comment })).toContain(`href="${href}"`);
    }
  });

  it('drops images, forms, media, foreign content, styles; unwraps layout elements keeping text', () => {
    const out = sanitize(
      '<div class="x"><span style="color:red">kept</span><img src="https://i.test/a.png"><form><input value="v">' +
        '<button>go</button></form><video src="v"></video><svg><text>s</text></svg><math><mi>m</mi></math>' +
        '<iframe src="https://x.test"></iframe><table><tr><td>cell</td></tr></table></div>',
      { policy: comment },
    );
    expect(out).toContain('kept');
    expect(out).toContain('cell');
    for (const bad of ['<img', '<form', '<input', '<button', '<video', '<svg', '<math', '<iframe', 'style=', 'class=', '<div', '<table']) {
      expect(out).not.toContain(bad);
    }
  });

  it('a form is unwrapped, not dropped: its text stays, its controls go', () => {
    // ASP.NET pages (corpus/pages/dx.html) wrap the whole body in one <form>: dropping it lost every word.
    const out = sanitize('<form action="https://evil.test/" method=post><p>Kept <b>words</b></p><label>Name <input name=n></label><select><option>o</option></select><textarea>t</textarea><button>go</button></form>', { policy: comment });
    expect(out).toBe('<p>Kept <b>words</b></p>Name ');
    expect(sanitize(out, { policy: comment })).toBe(out);
  });

  it('images only when enabled, https only', () => {
    const html = '<img src="https://i.test/a.png" alt="a"><img src="http://i.test/b.png"><img src="data:image/png;base64,AAAA">';
    expect(sanitize(html, { policy: comment })).not.toContain('<img');
    const withImages = commentPolicy({ images: true });
    const out = sanitize(html, { policy: withImages });
    expect(out).toContain('src="https://i.test/a.png"');
    expect(out).not.toContain('http://i.test/b.png');
    expect(out).not.toContain('data:');
    // The documented alternative: extendPolicy on the built-in policy keeps its other rules.
    const extended = extendPolicy(withImages, { maxDepth: 16 });
    expect(sanitize(html, { policy: extended })).toContain('https://i.test/a.png');
    expect(() => commentPolicy({ maxDepth: 0 })).toThrow(/maxDepth/);
  });

  it("keeps a picture's img (the image every browser shows) where images are on; its sources go", () => {
    const html = '<p>a</p><picture><source srcset="https://i.test/a.webp" type="image/webp"><source media="(min-width: 9em)" srcset="https://i.test/w.png"><img src="https://i.test/a.png" alt="A"></picture><p>b</p>';
    expect(sanitize(html, { policy: commentPolicy({ images: true }) })).toBe('<p>a</p><img src="https://i.test/a.png" alt="A"><p>b</p>');
    expect(sanitize(html, { policy: comment })).toBe('<p>a</p><p>b</p>');
  });

  it('caps the depth at 32', () => {
    const deep = '<blockquote>'.repeat(100) + 'deep' + '</blockquote>'.repeat(100);
    const frag = parseFragment(sanitize(deep, { policy: comment }), { context: 'body' });
    const els = elements(frag);
    expect(els.length).toBeGreaterThan(0);
    expect(Math.max(...els.map(depthOf))).toBeLessThanOrEqual(32);
  });

  const files = corpusFiles('pages', 'comment corpus');
  it.runIf(files.length > 0).each(files)('pages/$name: sanitizes to a fixed point with only comment markup', ({ path }) => {
    const out = sanitize(readCorpus(path), { policy: comment });
    expect(sanitize(out, { policy: comment })).toBe(out);
    const frag = parseFragment(out, { context: 'body' });
    const allowed = new Set(['p', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'ins', 'sub', 'sup', 'small', 'mark', 'abbr', 'code', 'kbd', 'samp', 'var', 'q', 'cite', 'pre', 'blockquote', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h3', 'h4', 'h5', 'h6', 'a']);
    for (const el of elements(frag)) {
      expect(allowed.has(el.localName), el.localName).toBe(true);
      expect(depthOf(el)).toBeLessThanOrEqual(32);
      for (const a of el.attributes) expect(['style', 'class', 'id'].includes(a.name), a.name).toBe(false);
      if (el.localName === 'a') {
        expect(el.getAttribute('rel')).toContain('nofollow');
        const href = el.getAttribute('href');
        if (href !== null) expect(href).toMatch(/^(https?|mailto):/i);
      }
    }
  });
});

describe('built-in policies are immutable', () => {
  it('cannot be edited in place (extendPolicy makes changed copies)', async () => {
    const { paste, email } = await import('../../policies/index.js');
    for (const p of [comment, paste, email]) {
      expect(Object.isFrozen(p)).toBe(true);
      expect(Object.isFrozen(p.sanitizer)).toBe(true);
      expect(() => {
        (p as { maxDepth?: number }).maxDepth = 1;
      }).toThrow(TypeError);
    }
  });
});
