import { describe, expect, test } from 'vitest';
import {
  ELEMENT_NODE,
  HTML_NS,
  MATHML_NS,
  SVG_NS,
  createDocumentFragment,
  createElement,
  createProcessingInstruction,
  createText,
  type Element,
} from '../../src/dom.js';
import {
  Sanitizer,
  builtinSafeDefaultConfig,
  canonicalizeConfig,
  containsJavascriptUrl,
  sanitizeFragmentLikeSetHTML,
  sanitizeNode,
  sanitizeWith,
  setHTMLSkipsContext,
  type SanitizerConfig,
} from '../../src/sanitizer-api/index.js';
import { comment, frag, h, parentLinksConsistent, show } from './helpers.js';

/** setHTML-like: sanitize a hand-built fragment (safe) and show what is left. */
function safe(config: SanitizerConfig | Sanitizer | 'default' | undefined, ...children: Parameters<typeof frag>): string {
  const f = frag(...children);
  sanitizeFragmentLikeSetHTML(f, config, true);
  expect(parentLinksConsistent(f)).toBe(true);
  return show(f);
}

/** setHTMLUnsafe-like. */
function unsafe(config: SanitizerConfig | Sanitizer | 'default' | undefined, ...children: Parameters<typeof frag>): string {
  const f = frag(...children);
  sanitizeFragmentLikeSetHTML(f, config, false);
  expect(parentLinksConsistent(f)).toBe(true);
  return show(f);
}

describe('the built-in safe default configuration', () => {
  test('representative markup', () => {
    const out = safe(
      undefined,
      h(
        'div',
        { title: 't', class: 'c', onclick: 'x()', id: 'i', 'data-x': '1' },
        h('p', { lang: 'en', style: 'color:red' }, 'a', h('b', null, 'b')),
        h('script', null, 'alert(1)'),
        comment('note'),
        h('img', { src: 'x', onerror: 'y()' }),
        h('a', { href: 'javascript:alert(1)', target: '_blank' }, 'bad'),
        h('a', { href: 'https://example.com/', hreflang: 'en' }, 'ok'),
        h('form', { action: '/x' }, h('input', { name: 'q' })),
        h('svg:svg', { viewBox: '0 0 1 1', onload: 'x()' }, h('svg:circle', { r: '1', fill: 'red' }), h('svg:script', null, 'x')),
        h('math:math', null, h('math:mi', { href: 'javascript:x', mathcolor: 'red' }, 'x')),
      ),
    );
    expect(out).toBe(
      '<div title="t"><p lang="en">a<b>b</b></p><a>bad</a><a href="https://example.com/" hreflang="en">ok</a>' +
        '<svg:svg viewBox="0 0 1 1"><svg:circle r="1" fill="red"></svg:circle></svg:svg>' +
        '<math:math><math:mi mathcolor="red">x</math:mi></math:math></div>',
    );
  });

  test('keeps every element of the default with its own attributes and the global ones, and nothing else', () => {
    const config = builtinSafeDefaultConfig();
    for (const entry of config.elements!) {
      const el = createElement(entry.name, undefined, entry.namespace!);
      for (const a of entry.attributes!) el.setAttribute(a.name, 'v');
      el.setAttribute('title', 'g'); // global
      el.setAttribute('style', 's'); // nowhere
      el.setAttribute('data-x', 'd'); // dataAttributes: false
      el.setAttribute('onclick', 'x'); // event handler
      const f = createDocumentFragment();
      f.appendChild(el);
      sanitizeFragmentLikeSetHTML(f, 'default', true);
      expect(f.childNodes.length, entry.name).toBe(1);
      expect(el.attributes.map((a) => a.name).sort(), entry.name).toEqual([...entry.attributes!.map((a) => a.name), 'title'].sort());
    }
  });

  test('drops elements outside the default (with their subtrees), comments and PIs', () => {
    for (const [name, ns] of [
      ['img', HTML_NS],
      ['style', HTML_NS],
      ['template', HTML_NS],
      ['input', HTML_NS],
      ['iframe', HTML_NS],
      ['use', SVG_NS],
      ['image', SVG_NS],
      ['annotation-xml', MATHML_NS],
      ['DIV', HTML_NS],
      ['div', SVG_NS],
    ] as const) {
      const dropped = createElement(name, { title: 't' }, ns);
      dropped.appendChild(h('b', null, 'inner'));
      const f = frag(h('p', null, 'a', dropped, 'b'));
      sanitizeFragmentLikeSetHTML(f, undefined, true);
      expect(show(f), `${ns} ${name}`).toBe('<p>ab</p>');
    }
    expect(safe(undefined, comment('x'), createProcessingInstruction('xml-stylesheet', 'href="a"'), 'text')).toBe('text');
  });
});

describe('safe and unsafe flavours', () => {
  const risky = () => [
    h('script', null, 'a()'),
    h('iframe', { src: 'x' }),
    h('embed'),
    h('object'),
    h('frame'),
    h('svg:svg', null, h('svg:script', null, 'b()'), h('svg:use', { href: '#x' }), h('svg:a', { href: 'javascript:c()' }, 'l')),
    h('a', { href: 'javascript:d()', onclick: 'e()', onpointerdown: 'f()' }, 'a'),
    comment('c'),
    createProcessingInstruction('php', 'echo 1'),
  ];

  test('setHTMLUnsafe with {} keeps everything', () => {
    const before = show(frag(...risky()));
    expect(unsafe(undefined, ...risky())).toBe(before);
    expect(unsafe({}, ...risky())).toBe(before);
  });

  test('setHTML with {} removes what executes script, comments and PIs', () => {
    expect(safe({}, ...risky())).toBe('<svg:svg><svg:a>l</svg:a></svg:svg><a>a</a>');
    // Comments and PIs only when asked for.
    expect(safe({ comments: true, removeProcessingInstructions: [] }, comment('c'), createProcessingInstruction('php', 'x'))).toBe(
      '<!--c--><?php x?>',
    );
  });

  test('setHTML cannot be talked into keeping script: allow-lists lose the unsafe entries', () => {
    const config = { elements: ['script', 'a', 'iframe'], attributes: ['onclick', 'href', 'src'] };
    expect(safe(config, h('script', null, 'x'), h('iframe', { src: 'x' }), h('a', { onclick: 'x', href: '/ok' }))).toBe('<a href="/ok"></a>');
    // The same Sanitizer unsafe keeps them; and the Sanitizer is not modified by the safe use.
    const s = new Sanitizer(config);
    safe(s, h('script'));
    expect(unsafe(s, h('script', null, 'x'), h('a', { onclick: 'x' }))).toBe('<script>x</script><a onclick="x"></a>');
  });

  test('sanitizeNode applies remove unsafe to a copy, not to the configuration given', () => {
    const config = canonicalizeConfig({ elements: ['script', 'p'] }, true);
    const f = frag(h('script'), h('p'));
    sanitizeNode(f, config, true);
    expect(show(f)).toBe('<p></p>');
    expect(config.elements!.map((e) => e.name)).toEqual(['script', 'p']);
    const g = frag(h('script'), h('p'));
    sanitizeNode(g, config, false);
    expect(show(g)).toBe('<script></script><p></p>');
  });

  test('script contexts: setHTML does nothing there', () => {
    expect(setHTMLSkipsContext('script', HTML_NS, true)).toBe(true);
    expect(setHTMLSkipsContext('script', SVG_NS, true)).toBe(true);
    expect(setHTMLSkipsContext('script', MATHML_NS, true)).toBe(false);
    expect(setHTMLSkipsContext('script', HTML_NS, false)).toBe(false);
    expect(setHTMLSkipsContext('div', HTML_NS, true)).toBe(false);
  });
});

describe('javascript: URLs (safe flavour only)', () => {
  test('contains a javascript: URL, as the URL parser reads it', () => {
    const yes = ['javascript:x', 'JavaScript:x', ' \u0000javascript:x ', '\tjava\nscr\ript:x', 'javascript:', 'jAvAsCrIpT:alert(1)'];
    const no = ['', 'javascript', 'javascript :x', 'java script:x', 'https://x/javascript:', 'javascripts:x', '/javascript:x', '\u00a0javascript:x', 'vbscript:x'];
    for (const v of yes) expect(containsJavascriptUrl(v), JSON.stringify(v)).toBe(true);
    for (const v of no) expect(containsJavascriptUrl(v), JSON.stringify(v)).toBe(false);
  });

  test('the navigating URL attributes, MathML links and SVG animation of href', () => {
    const tree = () => [
      h('a', { href: 'javascript:1' }),
      h('area', { href: ' javascript:2' }),
      h('base', { href: 'JAVASCRIPT:3' }),
      h('button', { formaction: 'javascript:4' }),
      h('form', { action: 'javascript:5' }),
      h('input', { formaction: 'javascript:6' }),
      h('svg:a', { href: 'javascript:7', 'xlink:href': 'javascript:8' }),
      h('math:mi', { href: 'javascript:9', 'xlink:href': 'javascript:10' }),
      h('svg:animate', { attributeName: 'href' }),
      h('svg:animateTransform', { attributeName: 'xlink:href' }),
      h('svg:set', { attributeName: 'href', to: 'javascript:11' }),
      h('svg:animate', { attributeName: 'fill' }),
      h('svg:animate', { attributeName: 'HREF' }),
      h('div', { href: 'javascript:12' }),
      h('a', { href: 'https://ok/', action: 'javascript:13' }),
    ];
    expect(safe({}, ...tree())).toBe(
      // <base> itself goes: the safe baseline removes it (whatwg/html#12664).
      '<a></a><area></area><button></button><form></form><input></input><svg:a></svg:a><math:mi></math:mi>' +
        '<svg:animate></svg:animate><svg:animateTransform></svg:animateTransform><svg:set to="javascript:11"></svg:set>' +
        '<svg:animate attributeName="fill"></svg:animate><svg:animate attributeName="HREF"></svg:animate>' +
        '<div href="javascript:12"></div><a href="https://ok/" action="javascript:13"></a>',
    );
    expect(unsafe({}, ...tree())).toBe(show(frag(...tree())));
  });
});

describe('configurable parts of sanitize core', () => {
  test('processing instructions by target', () => {
    const pis = () => [createProcessingInstruction('a', '1'), createProcessingInstruction('b', '2'), createProcessingInstruction('A', '3')];
    expect(unsafe({ processingInstructions: ['a'] }, ...pis())).toBe('<?a 1?>');
    expect(unsafe({ removeProcessingInstructions: ['a'] }, ...pis())).toBe('<?b 2?><?A 3?>');
    expect(safe({ processingInstructions: ['b', 'A'] }, ...pis())).toBe('<?b 2?><?A 3?>');
  });

  test('data attributes', () => {
    const el = () =>
      h('p', { 'data-x': '1', 'data-': '2', title: 't', data: 'n', 'xlink:data-y': 'ns' });
    expect(unsafe({ attributes: ['title'], dataAttributes: true }, el())).toBe('<p data-x="1" data-="2" title="t"></p>');
    expect(unsafe({ attributes: ['title'], dataAttributes: false }, el())).toBe('<p title="t"></p>');
    expect(unsafe({ attributes: ['title'] }, el())).toBe('<p data-x="1" data-="2" title="t"></p>'); // constructor flavour: true
    expect(safe({ attributes: ['title'] }, el())).toBe('<p title="t"></p>'); // safe flavour: false
    expect(unsafe({ removeAttributes: ['data-x'] }, el())).toBe('<p data-="2" title="t" data="n" xlink:data-y="ns"></p>');
  });

  test('per-element attribute lists with a global allow-list', () => {
    const config = {
      attributes: ['title', 'lang'],
      elements: [{ name: 'a', attributes: ['href'], removeAttributes: ['lang'] }, { name: 'p' }],
    };
    const tree = () => [h('a', { href: '/', title: 't', lang: 'en', id: 'i' }), h('p', { href: '/', title: 't', lang: 'en' })];
    expect(unsafe(config, ...tree())).toBe('<a href="/" title="t"></a><p title="t" lang="en"></p>');
  });

  test('per-element attribute lists with a global remove-list', () => {
    const config = {
      removeAttributes: ['style'],
      elements: [{ name: 'a', attributes: ['href', 'class'] }, { name: 'p', removeAttributes: ['id'] }, { name: 'hr', attributes: [] }, 'b'],
    };
    const tree = () => [
      h('a', { href: '/', style: 's', id: 'i', class: 'c' }),
      h('p', { style: 's', id: 'i', class: 'c' }),
      h('hr', { class: 'c', id: 'i' }),
      h('b', { style: 's', id: 'i' }),
    ];
    expect(unsafe(config, ...tree())).toBe('<a href="/" class="c"></a><p class="c"></p><hr></hr><b id="i"></b>');
  });

  test('each kept element gets its own rule, next to dropped and replaced ones and inside replaced ones', () => {
    const config = {
      elements: [{ name: 'a', attributes: ['href'] }, { name: 'p', attributes: ['title'] }, { name: 'span', removeAttributes: ['title'] }],
      replaceWithChildrenElements: ['b'],
    };
    const both = { title: 't', href: 'h' };
    const out = unsafe(
      config,
      h('p', both, h('a', both), h('x', both), h('span', both), h('b', both, h('a', both), h('p', both)), h('span', both)),
      h('span', both),
    );
    expect(out).toBe('<p title="t"><a href="h"></a><span href="h"></span><a href="h"></a><p title="t"></p><span href="h"></span></p><span href="h"></span>');
  });

  test('attributes are matched by namespace and local name', () => {
    const f = frag(h('svg:a', { 'xlink:href': '#a', href: '#b' }));
    sanitizeFragmentLikeSetHTML(f, { removeAttributes: [{ name: 'href', namespace: 'http://www.w3.org/1999/xlink' }] }, false);
    expect(show(f)).toBe('<svg:a href="#b"></svg:a>');
    expect(unsafe({ removeElements: [{ name: 'a', namespace: SVG_NS }] }, h('svg:a'), h('a'))).toBe('<a></a>');
  });

  test('replace with children: children are kept in place and sanitized, also nested', () => {
    const config = { replaceWithChildrenElements: ['b', 'i'], removeElements: ['script'], comments: false };
    const out = unsafe(
      config,
      'x',
      h('b', { title: 't' }, '1', h('i', null, '2', h('script', null, 's'), h('u', { id: 'u' }, '3'), comment('c')), '4'),
      h('p', null, h('b', null, h('b', null, h('b', null, 'deep')))),
      'y',
    );
    expect(out).toBe('x12<u id="u">3</u>4<p>deep</p>y');
  });

  test('a list whose first children stay, then one replaced (also empty) and one removed', () => {
    // The filter reads the children that stay where they are without moving them; from the first that changes,
    // it builds the rest of the list anew. Both parts filter attributes and sanitize below their elements.
    const config = { replaceWithChildrenElements: ['b'], removeElements: ['script'], removeAttributes: ['onclick'] };
    const replaced = h('b', null, '2', h('em', { onclick: 'y()' }, '3'));
    const out = unsafe(
      config,
      h('u', { onclick: 'x()', id: 'a' }, '1', h('script', null, 's')),
      'x',
      h('b'),
      replaced,
      h('script', null, 's'),
      h('i', { onclick: 'z()' }, '4'),
    );
    expect(out).toBe('<u id="a">1</u>x2<em>3</em><i>4</i>');
    // The replaced element is left out of the tree, with no children.
    expect(replaced.parentNode).toBe(null);
    expect(replaced.childNodes.length).toBe(0);
    expect(unsafe(config, 'a', h('u', null, 'b'))).toBe('a<u>b</u>');
    expect(unsafe(config, h('b'))).toBe('');
  });

  test('replace with children on a template keeps its contents (as Chromium does), then its child nodes', () => {
    const t = h('template', null, h('p', null, 'content'));
    t.appendChild(createText('child'));
    expect(unsafe({ replaceWithChildrenElements: ['template'] }, h('div', null, t, 'x'))).toBe('<div><p>content</p>childx</div>');
  });

  test('template contents are sanitized; an element root is not judged itself', () => {
    const config = { removeElements: ['script'], removeAttributes: ['onclick'] };
    expect(unsafe(config, h('template', { onclick: 'x' }, h('script'), h('p', { onclick: 'y' }, h('template', null, h('script')))))).toBe(
      '<template><p><template></template></p></template>',
    );
    const root = h('script', { onclick: 'x' }, h('script'), h('p'));
    sanitizeWith(root, new Sanitizer(config), false);
    expect(root.attributes.length).toBe(1);
    expect(show(root)).toBe('<p></p>');
    const tpl = h('template', null, h('script'), h('p'));
    sanitizeWith(tpl, new Sanitizer(config), false);
    expect(show(tpl)).toBe('<p></p>');
  });

  test('a Sanitizer changed after use sanitizes with its new configuration', () => {
    const s = new Sanitizer({ elements: ['p'] });
    expect(unsafe(s, h('p'), h('b'))).toBe('<p></p>');
    s.allowElement('b');
    expect(unsafe(s, h('p'), h('b'))).toBe('<p></p><b></b>');
    s.removeElement('p');
    expect(safe(s, h('p'), h('b'))).toBe('<b></b>');
  });
});

describe('robustness', () => {
  const DEPTH = 100_000;

  /** Built bottom-up: appending under a deep node costs its depth (the tree's cycle check). */
  function chain(name: string, depth: number, leaf: string, attrs?: Record<string, string>): Element {
    let cur = createElement(name, attrs);
    cur.appendChild(createText(leaf));
    for (let i = 1; i < depth; i++) {
      const parent = createElement(name, attrs);
      parent.appendChild(cur);
      cur = parent;
    }
    return cur;
  }

  function depthOf(root: Element): number {
    let d = 0;
    for (let cur: Element | undefined = root; cur !== undefined; cur = cur.childNodes.find((c) => c.nodeType === ELEMENT_NODE) as Element | undefined) d++;
    return d;
  }

  test(`${DEPTH.toLocaleString('en')} nested kept elements`, () => {
    // Every level carries an attribute to remove.
    const f = frag(chain('div', DEPTH, 'leaf', { onclick: 'x' }));
    sanitizeFragmentLikeSetHTML(f, 'default', true);
    expect(depthOf(f.firstChild as Element)).toBe(DEPTH);
    expect(f.textContent).toBe('leaf');
    expect((f.firstChild as Element).attributes.length).toBe(0);
  });

  test(`${DEPTH.toLocaleString('en')} nested elements replaced with their children`, () => {
    const f = frag(chain('span', DEPTH, 'leaf'));
    sanitizeFragmentLikeSetHTML(f, { replaceWithChildrenElements: ['span'] }, false);
    expect(show(f)).toBe('leaf');
    expect(f.firstChild!.parentNode).toBe(f);
  });

  test(`${DEPTH.toLocaleString('en')} nested elements under a removed one, and in template contents`, () => {
    const f = frag(h('p', null, chain('img', DEPTH, 'x')), 'y');
    sanitizeFragmentLikeSetHTML(f, 'default', true);
    expect(show(f)).toBe('<p></p>y');
    let tpl = h('template', { onclick: 'x' });
    for (let i = 1; i < DEPTH; i++) tpl = h('template', { onclick: 'x' }, tpl);
    const g = frag(tpl);
    sanitizeFragmentLikeSetHTML(g, { removeAttributes: ['onclick'] }, false);
    expect(show(g)).not.toContain('onclick');
  });

  test('many replaced siblings are linear, not quadratic', () => {
    const N = 200_000;
    const p = createElement('p');
    for (let i = 0; i < N; i++) p.appendChild(h('b', null, 'x', h('i')));
    const f = frag(p);
    const t0 = performance.now();
    sanitizeFragmentLikeSetHTML(f, { replaceWithChildrenElements: ['b'] }, false);
    const ms = performance.now() - t0;
    expect(p.childNodes.length).toBe(2 * N);
    expect(parentLinksConsistent(f)).toBe(true);
    expect(ms).toBeLessThan(5_000);
  });
});

describe('sanitizeFragment options as setHTML reads them', () => {
  test('sanitizer: null is an empty configuration (custom elements kept), a missing sanitizer the default', async () => {
    const { sanitizeFragment, serialize } = await import('../../src/index.js');
    expect(serialize(sanitizeFragment('<my-el>x</my-el>', { sanitizer: null as never }))).toBe('<my-el>x</my-el>');
    expect(serialize(sanitizeFragment('<my-el>x</my-el>'))).toBe(''); // not in the default's allow-list: dropped
    expect(serialize(sanitizeFragment('<my-el>x</my-el><script>1</script>', { sanitizer: null as never }))).toBe('<my-el>x</my-el>');
  });

  test('unsafe without a sanitizer parses with scripting on, except into a template', async () => {
    const { sanitizeFragment } = await import('../../src/index.js');
    const inBody = sanitizeFragment('<noscript><b>x</b></noscript>', { safe: false });
    expect((inBody.childNodes[0] as Element).childNodes[0]!.nodeType).toBe(3); // raw text
    const inTemplate = sanitizeFragment('<noscript><b>x</b></noscript>', { safe: false, context: 'template' });
    expect((inTemplate.childNodes[0] as Element).childNodes[0]!.nodeType).toBe(ELEMENT_NODE);
  });
});
