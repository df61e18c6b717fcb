import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { sanitizeFragment } from '../../src/sanitize.js';
import { serialize } from '../../src/serializer.js';
import { parseFragment } from '../../src/parser.js';
import { createTrustedSanitizer, toDOM } from '../../src/browser/to-dom.js';
import { comment } from '../../policies/index.js';

describe('toDOM', () => {
  it('builds the same tree the markup describes, namespaces included', () => {
    const { window } = new JSDOM('<!doctype html><body></body>');
    const html = '<p>a <b title="t">b</b><!--c--></p><svg viewBox="0 0 1 1"><a xlink:href="#x"><circle r="1"></circle></a></svg><template><i>t</i></template><table><tbody><tr><td>1</td></tr></tbody></table>';
    const tree = parseFragment(html, { context: 'body' });
    const frag = toDOM(tree, window.document);
    const div = window.document.createElement('div');
    div.appendChild(frag);
    const svg = div.querySelector('svg')!;
    expect(svg.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(svg.getAttribute('viewBox')).toBe('0 0 1 1');
    expect(svg.querySelector('a')!.getAttributeNS('http://www.w3.org/1999/xlink', 'href')).toBe('#x');
    expect(div.querySelector('template')!.content.querySelector('i')!.textContent).toBe('t');
    expect(div.querySelector('template')!.childNodes.length).toBe(0);
    expect(div.querySelector('p')!.childNodes[2]!.nodeType).toBe(8);
    // The DOM built node by node serializes as our serializer serializes the tree.
    expect(div.innerHTML).toBe(serialize(tree));
    // And a sanitized tree goes in as it is.
    const safe = toDOM(sanitizeFragment('<a href="https://x.test/" onclick="x()">l</a>', { policy: comment }), window.document);
    expect((safe.firstChild as Element).getAttribute('rel')).toBe('nofollow ugc noopener noreferrer');
    expect((safe.firstChild as Element).hasAttribute('onclick')).toBe(false);
    window.close();
  });

  it('handles very deep trees without recursion', () => {
    // A minimal document (jsdom itself recurses on deep insertions): only what toDOM calls.
    interface FakeNode { kids: FakeNode[]; appendChild(c: FakeNode): FakeNode; setAttributeNS(): void }
    const node = (): FakeNode => ({ kids: [], appendChild(c) { this.kids.push(c); return c; }, setAttributeNS() {} });
    const fakeDoc = { createDocumentFragment: node, createElementNS: node, createTextNode: node, createComment: node } as unknown as Document;
    const tree = parseFragment('<div>'.repeat(100_000) + 'x', { context: 'body' });
    const frag = toDOM(tree, fakeDoc) as unknown as FakeNode;
    let depth = 0;
    for (let n: FakeNode | undefined = frag.kids[0]; n !== undefined; n = n.kids[0]) depth++;
    expect(depth).toBe(100_001);
  });

  it('skips attributes the DOM refuses, reporting them', () => {
    const { window } = new JSDOM('<!doctype html><body></body>');
    const tree = parseFragment('<p a"b="1" ok="2">x</p>', { context: 'body' });
    const skipped: string[] = [];
    const frag = toDOM(tree, window.document, { onSkip: (s) => skipped.push(s.name) });
    expect((frag.firstChild as Element).getAttribute('ok')).toBe('2');
    expect(skipped).toEqual(['a"b']);
    expect(() => toDOM(tree, {} as Document)).toThrow(/DOM Document/);
    window.close();
  });
});

describe('createTrustedSanitizer', () => {
  it('returns TrustedHTML from the named policy, or a string without Trusted Types', () => {
    const made: string[] = [];
    class FakeTrusted {
      constructor(readonly s: string) {}
      toString(): string {
        return this.s;
      }
    }
    const factory = {
      createPolicy(name: string, rules: { createHTML: (s: string) => string }) {
        if (made.includes(name)) throw new Error('duplicate');
        made.push(name);
        return { createHTML: (s: string) => new FakeTrusted(rules.createHTML(s)) };
      },
    };
    const ts = createTrustedSanitizer('htmlsift-comments', { policy: comment }, factory);
    const out = ts.sanitize('<img src=x onerror=alert(1)><b>ok</b>');
    expect(out).toBeInstanceOf(FakeTrusted);
    expect(String(out)).toBe('<b>ok</b>');
    expect(() => createTrustedSanitizer('htmlsift-comments', {}, factory)).toThrow(/'htmlsift-comments'/);
    expect(createTrustedSanitizer('plain').sanitize('<script>x</script>y')).toBe('y');
    expect(() => createTrustedSanitizer('')).toThrow(/name/);
  });
});
