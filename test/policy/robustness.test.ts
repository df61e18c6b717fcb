/**
 * Random markup through every policy feature: never throws, never hangs, never lets a script URL through; random
 * policies: every output reparses to itself.
 */
import { describe, expect, test } from 'vitest';
import { ELEMENT_NODE, MATHML_NS, SVG_NS, childrenOf, createElement, createText, type Element, type ParentNode } from '../../src/dom.js';
import { parseFragment, type FragmentContext } from '../../src/parser.js';
import { compilePolicy, type Policy } from '../../src/policy/index.js';
import { sanitize, sanitizeFragment } from '../../src/sanitize.js';
import { serialize } from '../../src/serializer.js';
import { cleanUrl, parseSrcset, urlScheme } from '../../src/url/index.js';
import { maxElementDepth, parentLinksConsistent } from './helpers.js';
import { mulberry32 as rng } from '../support/random.js';

const PIECES = [
  '<b>', '</b>', '<font color=red face="a,b" size=+9>', '<span class="x y lang-js">', '</span>', '<a href="', '<a href=#x id=x>',
  '<img srcset="', '<svg><a xlink:href="', '<math><mi href="', '<p align=center style="', '<template>', '</template>', '<table><td>',
  '<div id=y aria-labelledby="x y">', '</div>', '<!--c-->', '<meta http-equiv=refresh content="0;url=', '<label for=y>', '<center>',
  'javascript:alert(1)', ' JaVaScRiPt:x', 'https://ok.example/p?q#f', '/rel', '#frag', 'data:text/html,x', 'data:image/png,x', 'cid:a',
  '">', "'", ' 1x, ', ', ', 'color:red;background:url(javascript:x);position:fixed', 'x', ' ', '&amp;', '&#0;', '\u0000', '<', '>', '=',
];

const policy: Policy = {
  sanitizer: { removeElements: [], removeAttributes: [] },
  comments: true,
  elements: { b: { rename: 'strong' }, font: { rename: 'span', attributes: { color: { toStyle: 'color' }, size: { toStyle: 'font-size' } } }, center: { unwrap: true }, table: { drop: true }, a: { force: { rel: 'noopener' } } },
  attributes: { align: { toStyle: 'text-align' }, 'xlink:href': { rename: 'href' } },
  urls: { kinds: { image: { schemes: ['https', 'data', 'cid'] } }, rewrite: (u) => (u.startsWith('cid:') ? null : u) },
  style: { properties: ['color', 'text-align', 'font-size', 'background'] },
  classes: { allow: ['x'], prefixes: ['lang-'] },
  ids: { prefix: 'u-', references: 'existing' },
  hooks: { onElement: (el) => (el.localName === 'label' ? 'unwrap' : undefined) },
  maxDepth: 12,
};

const SCRIPT_URL = /^[\u0000-\u0020]*j[\t\n\r]*a[\t\n\r]*v[\t\n\r]*a[\t\n\r]*s[\t\n\r]*c[\t\n\r]*r[\t\n\r]*i[\t\n\r]*p[\t\n\r]*t/i;

function elements(root: ParentNode): Element[] {
  const out: Element[] = [];
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    for (const c of childrenOf(stack.pop()!)) {
      if (c.nodeType === ELEMENT_NODE) {
        out.push(c as Element);
        stack.push(c as Element);
      }
    }
  }
  return out;
}

describe('random markup through a policy with every feature', () => {
  test('500 seeded inputs', () => {
    const compiled = compilePolicy(policy);
    for (let seed = 1; seed <= 500; seed++) {
      const r = rng(seed);
      let html = '';
      const n = 5 + Math.floor(r() * 60);
      for (let i = 0; i < n; i++) html += PIECES[Math.floor(r() * PIECES.length)]!;
      const f = sanitizeFragment(html, { policy: compiled, safe: true, onReport: () => {} });
      expect(parentLinksConsistent(f), `seed ${seed}`).toBe(true);
      expect(maxElementDepth(f), `seed ${seed}`).toBeLessThanOrEqual(12);
      for (const el of elements(f)) {
        for (const a of el.attributes) {
          const urls =
            a.localName === 'href' || a.localName === 'src'
              ? [a.value]
              : a.localName === 'srcset'
                ? parseSrcset(a.value).candidates.map((c) => c.url)
                : a.localName === 'content' && el.localName === 'meta' && /;url=/.test(a.value)
                  ? [a.value.slice(a.value.indexOf(';url=') + 5)]
                  : [];
          for (const u of urls) {
            // No script URL, and no cid: URL (the rewrite refuses them all).
            const scheme = urlScheme(cleanUrl(u));
            expect(SCRIPT_URL.test(u) || scheme === 'cid' || scheme === 'javascript', `seed ${seed}: ${el.localName} ${a.name}=${a.value}`).toBe(false);
          }
          if (a.localName === 'style') expect(/javascript|position/i.test(a.value), `seed ${seed}: style=${a.value}`).toBe(false);
          expect(a.localName, `seed ${seed}`).not.toBe('align');
        }
        expect(['b', 'font', 'center', 'table', 'label'].includes(el.localName) && el.namespaceURI === 'http://www.w3.org/1999/xhtml', `seed ${seed}: ${el.localName}`).toBe(false);
      }
    }
  });
});

/**
 * Policies drawn at random (element and attribute rules, URL, style, class and id rules, depth caps, and hooks that
 * rename, drop, unwrap or edit the tree: children appended or moved, texts and attributes added), each on random
 * markup in a random context: every output reparses, in that context, with scripting off and on, to markup that
 * serializes back to it (the property `sanitize()` exists for: no parse differential with our own parser; the
 * browser suites hold it against Chromium for their own policies). A policy that does not compile is refused with a
 * TypeError naming its field.
 */
describe('random policies: every output reparses to itself', () => {
  const HTML_NAMES = ['b', 'i', 'p', 'div', 'span', 'a', 'table', 'tr', 'td', 'th', 'tbody', 'caption', 'col', 'colgroup', 'select', 'option',
    'optgroup', 'li', 'ul', 'dd', 'dt', 'form', 'button', 'nobr', 'h1', 'h2', 'pre', 'textarea', 'listing', 'style', 'template', 'noscript',
    'plaintext', 'xmp', 'iframe', 'img', 'br', 'hr', 'input', 'html', 'body', 'head', 'frameset', 'image', 'font', 'center', 'ruby', 'rt', 'rp',
    'selectedcontent', 'label', 'x-y', 'svg', 'math', 'svg:foreignObject', 'svg:desc', 'math:mi', 'math:annotation-xml'];
  const LOCAL_NAMES = HTML_NAMES.filter((n) => !n.includes(':'));
  const ATTRIBUTES = ['href', 'src', 'style', 'class', 'id', 'title', 'align', 'color', 'size', 'type', 'encoding', 'srcset', 'data-x', 'for',
    'name', 'value', 'xlink:href', 'xml:lang'];
  const PLAIN_ATTRIBUTES = ATTRIBUTES.filter((a) => !a.includes(':'));
  const MARKUP = ['<b>', '</b>', '<p>', '</p>', '<div>', '</div>', '<a href="javascript:x">', '</a>', '<table>', '<tr>', '<td>', '</td>',
    '</table>', '<select>', '<option>', '<optgroup>', '</select>', '<li>', '<dd>', '<form>', '</form>', '<button>', '<nobr>', '<h1>',
    '<pre>\n', '<textarea>', '</textarea>', '<script>', '</script>', '<style>', '</style>', '<template>', '</template>', '<noscript>',
    '<svg>', '</svg>', '<math>', '<mi>', '<foreignObject>', '<desc>', '<annotation-xml encoding=text/html>', '<img src=x onerror=y>', '<br>',
    '<input type=hidden>', '<font color=red size=3>', '<center>', '<ruby>', '<rt>', '<selectedcontent>', '<label>', '<x-y>', '<!--c-->',
    '<?pi x?>', 'x', ' ', '\n', '&amp;', '&lt;', '<', '>', '"', "'", '</', '<p id=a class="b c" style="color:red" title=t>',
    '<svg><a xlink:href=x>', '<math><mi href=y>', '<plaintext>', '<xmp>', '<iframe>', '<image>', '<frameset>', '<body bgcolor=x>',
    '<html lang=x>', '<caption>', '<col>', '<colgroup>', '<tbody>', '\r\n', '&nbsp;', '<img srcset="a 1x, javascript:b 2x">'];
  const CONTEXTS: FragmentContext[] = ['body', 'div', 'td', 'tr', 'template', 'select', 'textarea', 'pre', { name: 'svg', namespace: SVG_NS },
    { name: 'math', namespace: MATHML_NS }, { name: 'foreignObject', namespace: SVG_NS }];

  function randomPolicy(r: () => number): Policy {
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
    const name = (): string => pick(HTML_NAMES);
    const p: Record<string, unknown> = {};
    if (r() < 0.3) p.sanitizer = pick<Policy['sanitizer']>(['default', { removeElements: [], removeAttributes: [] }, { removeElements: ['b'] }]);
    if (r() < 0.5) p.comments = r() < 0.5;
    if (r() < 0.3) p.processingInstructions = r() < 0.5;
    if (r() < 0.8) {
      const elements: Record<string, unknown> = {};
      for (let k = 1 + Math.floor(r() * 5); k > 0; k--) {
        const rule: Record<string, unknown> = {};
        const t = r();
        if (t < 0.2) rule.drop = true;
        else if (t < 0.4) rule.unwrap = true;
        else if (t < 0.75) rule.rename = name();
        // (Attribute rules for an element dropped or unwrapped are refused: they would do nothing.)
        if (t >= 0.4 && r() < 0.3) rule.attributes = { [pick(ATTRIBUTES)]: pick([{ drop: true }, { rename: pick(PLAIN_ATTRIBUTES) }, { toStyle: 'color' }]) };
        if (t >= 0.4 && r() < 0.2) rule.force = { [pick(PLAIN_ATTRIBUTES)]: pick(['x', '"<>&', '\r\n']) };
        elements[name()] = rule;
      }
      p.elements = elements;
    }
    if (r() < 0.4) p.attributes = { [pick(ATTRIBUTES)]: pick([{ drop: true }, { rename: pick(PLAIN_ATTRIBUTES) }, { toStyle: 'text-align' }, { value: { oneOf: ['x'] } }]) };
    if (r() < 0.3) p.urls = pick([{ schemes: ['https'] }, { relative: 'drop' }, { base: 'https://e.example/a/', relative: 'resolve' }, { rewrite: (u: string) => (u.length % 2 === 0 ? null : u + '?p') }]);
    if (r() < 0.3) p.style = pick([false, { properties: ['color', 'background'] }]);
    if (r() < 0.2) p.classes = { allow: ['b'] };
    if (r() < 0.2) p.ids = { prefix: 'u-', references: 'existing' };
    if (r() < 0.2) p.maxDepth = 1 + Math.floor(r() * 10);
    if (r() < 0.6) {
      const hooks: Record<string, unknown> = {};
      // The hooks draw from their own generator, so that how often they run does not change the next policy.
      const h = rng(Math.floor(r() * 2 ** 31));
      hooks.onElement = (el: Element) => {
        const t = h();
        if (t < 0.1) return 'drop';
        if (t < 0.2) return 'unwrap';
        // (A local name, lower-case on an HTML element, and not template: its children would have to become contents.)
        if (t < 0.3) return { rename: pick(LOCAL_NAMES.filter((n) => n !== 'template')) };
        if (t < 0.36) el.appendChild(createElement(pick(LOCAL_NAMES)));
        else if (t < 0.42) el.appendChild(createText(pick(['x', '</p>', '\u0000', '\r\n', '<!--', '\n'])));
        else if (t < 0.48) el.setAttribute(pick(PLAIN_ATTRIBUTES), pick(['x', '"', 'javascript:z', '\u0000']));
        else if (t < 0.54 && el.childNodes.length > 1) el.appendChild(el.childNodes[0]!);
        return undefined;
      };
      if (r() < 0.5) hooks.onAttribute = () => pick([undefined, 'drop' as const, { rename: pick(PLAIN_ATTRIBUTES) }]);
      p.hooks = hooks;
    }
    return p as Policy;
  }

  // HTMLSIFT_RANDOM_POLICIES draws more (seeds 1 to that count; 400 by default).
  const count = Number(process.env.HTMLSIFT_RANDOM_POLICIES ?? 400);
  test(`${count} seeded policies, 4 inputs each`, () => {
    let compiled = 0;
    let checked = 0;
    for (let seed = 1; seed <= count; seed++) {
      const r = rng(seed);
      const policy = randomPolicy(r);
      let cp: ReturnType<typeof compilePolicy>;
      try {
        cp = compilePolicy(policy);
      } catch (e) {
        expect(e, `seed ${seed}`).toBeInstanceOf(TypeError);
        expect((e as Error).message, `seed ${seed}`).toMatch(/^policy\.[a-zA-Z]+/);
        continue;
      }
      compiled++;
      for (let j = 0; j < 4; j++) {
        let html = '';
        for (let n = 3 + Math.floor(r() * 30); n > 0; n--) html += MARKUP[Math.floor(r() * MARKUP.length)]!;
        const context = CONTEXTS[Math.floor(r() * CONTEXTS.length)]!;
        const out = sanitize(html, { policy: cp, context, scripting: r() < 0.5 });
        for (const scripting of [false, true]) {
          const again = serialize(parseFragment(out, { context, scripting }), { roundTrip: true, scripting: true });
          expect(again, `seed ${seed}.${j}, context ${JSON.stringify(context)}, scripting ${scripting}: ${JSON.stringify(html)}`).toBe(out);
        }
        checked++;
      }
    }
    // Most drawn policies compile (the refused ones name a field above), and they were exercised.
    expect(compiled).toBeGreaterThan(count / 2);
    expect(checked).toBe(compiled * 4);
  });
});
