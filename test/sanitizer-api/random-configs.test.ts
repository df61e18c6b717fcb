/**
 * `sanitize()` with Sanitizer API configurations drawn at random (element allow and remove lists with their own
 * attribute lists, in the HTML, SVG and MathML namespaces, replace-with-children lists, attribute lists, comments,
 * data attributes, processing instructions; as dictionaries and as Sanitizer objects; safe and unsafe) on random
 * markup in random contexts. Every output:
 * - reparses, in its context, with scripting off and on, to markup that serializes back to it (no parse
 *   differential with our own parser; the browser suites hold outputs against Chromium);
 * - in safe mode, reparsed, holds nothing that runs script: no HTML or SVG `script`, no `iframe`, `frame`,
 *   `object` or `embed`, no SVG `use`, no event handler attribute, no `javascript:` URL in a URL attribute or in the
 *   values of an SVG animation of a link (whatever the configuration allows: the safe baseline removes them all, and
 *   `sanitize()` hardens every URL attribute).
 * A configuration the Sanitizer refuses is a TypeError. HTMLSIFT_RANDOM_CONFIGS draws more (400 by default).
 */
import { describe, expect, test } from 'vitest';
import { ELEMENT_NODE, HTML_NS, MATHML_NS, SVG_NS, walk, type Element } from '../../src/dom.js';
import { parseFragment, type FragmentContext } from '../../src/parser.js';
import { sanitize } from '../../src/sanitize.js';
import { Sanitizer, type SanitizerConfig } from '../../src/sanitizer-api/index.js';
import { serialize } from '../../src/serializer.js';
import { mulberry32 as rng } from '../support/random.js';

const HTML_NAMES = ['b', 'p', 'div', 'a', 'table', 'tr', 'td', 'tbody', 'select', 'option', 'li', 'form', 'button', 'template', 'pre',
  'textarea', 'style', 'noscript', 'svg', 'math', 'img', 'font', 'selectedcontent', 'span', 'h1', 'caption', 'col', 'colgroup', 'ruby', 'rt',
  'iframe', 'xmp', 'plaintext', 'script', 'object', 'embed', 'frame', 'input', 'area', 'base', 'meta'];
const FOREIGN_NAMES = [
  { name: 'svg', namespace: SVG_NS }, { name: 'foreignObject', namespace: SVG_NS }, { name: 'desc', namespace: SVG_NS },
  { name: 'a', namespace: SVG_NS }, { name: 'script', namespace: SVG_NS }, { name: 'use', namespace: SVG_NS },
  { name: 'animate', namespace: SVG_NS }, { name: 'set', namespace: SVG_NS }, { name: 'math', namespace: MATHML_NS },
  { name: 'mi', namespace: MATHML_NS }, { name: 'annotation-xml', namespace: MATHML_NS }, { name: 'mtext', namespace: MATHML_NS },
];
const ATTRIBUTES = ['href', 'src', 'class', 'id', 'title', 'style', 'type', 'encoding', 'data-x', 'onclick', 'onerror', 'srcset', 'value',
  'action', 'formaction', 'attributeName', 'to', 'xlink:href'];
const MARKUP = ['<b>', '</b>', '<p>', '</p>', '<div>', '</div>', '<a href="javascript:x">', '<a href=" JaVa\tScRiPt:y">', '</a>',
  '<table>', '<tr>', '<td>', '</td>', '</table>', '<select>', '<option>', '</select>', '<li>', '<form action="javascript:z">', '</form>',
  '<button formaction=javascript:w>', '<pre>\n', '<textarea>', '</textarea>', '<script>', '</script>', '<style>', '</style>', '<template>',
  '</template>', '<noscript>', '<svg>', '</svg>', '<math>', '<mi>', '<foreignObject>', '<desc>', '<annotation-xml encoding=text/html>',
  '<img src=x onerror=y>', '<font color=red>', '<selectedcontent>', 'x', ' ', '\n', '&amp;', '<', '>', '<!--c-->', '<?pi x?>',
  '<p id=a class=b title=t data-x=1 onclick=v>', '<svg><a href="javascript:u" xlink:href="javascript:t">', '<svg><use href=#x>',
  '<svg><script>s</script>', '<svg><animate attributeName=href to=javascript:r>', '<svg><set attributeName=xlink:href to=javascript:q>',
  '<math><mi href=javascript:p>', '<plaintext>', '<xmp>', '<iframe src=javascript:o>', '<object data=javascript:n>', '<embed src=m>',
  '<caption>', '<col>', '<tbody>', '\r', '<input formaction=javascript:l>', '<img srcset="a 1x, javascript:k 2x">', '<base href=javascript:j>'];
const CONTEXTS: FragmentContext[] = ['body', 'div', 'td', 'tr', 'template', 'select', 'textarea', { name: 'svg', namespace: SVG_NS },
  { name: 'math', namespace: MATHML_NS }, { name: 'foreignObject', namespace: SVG_NS }];

const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'data', 'srcset', 'poster', 'background', 'cite']);
/** The values of an SVG animation, which are URLs when it animates a link (its attributeName). */
const ANIMATION_VALUES = new Set(['to', 'from', 'values', 'by']);

/** What in a reparsed output would run script (see the file comment). */
function scriptCapable(out: string, context: FragmentContext): string[] {
  const found: string[] = [];
  walk(parseFragment(out, { context, scripting: true }), (node) => {
    if (node.nodeType !== ELEMENT_NODE) return;
    const el = node as Element;
    const ns = el.namespaceURI;
    const name = el.localName;
    if (name === 'script' && (ns === HTML_NS || ns === SVG_NS)) found.push(`${ns === SVG_NS ? 'svg ' : ''}script`);
    if (ns === HTML_NS && ['iframe', 'frame', 'object', 'embed'].includes(name)) found.push(name);
    if (ns === SVG_NS && name === 'use') found.push('svg use');
    const animatesLink = el.attributes.some((a) => a.localName === 'attributeName' && /^(xlink:)?href$/i.test(a.value.trim()));
    for (const a of el.attributes) {
      if (/^on/i.test(a.localName)) found.push(`${name} ${a.name}`);
      const url = URL_ATTRIBUTES.has(a.localName) || (animatesLink && ANIMATION_VALUES.has(a.localName));
      if (url && /javascript:/i.test(a.value.replace(/[\u0000-\u0020]/g, ''))) found.push(`${name} ${a.name}=${a.value}`);
    }
  });
  return found;
}

function randomConfig(r: () => number): SanitizerConfig {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const name = (): string | { name: string; namespace: string } =>
    r() < 0.25 ? pick(FOREIGN_NAMES) : r() < 0.3 ? { name: pick(HTML_NAMES), namespace: HTML_NS } : pick(HTML_NAMES);
  // (Without duplicates, which the Sanitizer refuses: a name in HTML is the same as the string name.)
  const some = <T extends string | { name: string; namespace?: string }>(make: () => T, max: number): T[] => {
    const seen = new Set<string>();
    return Array.from({ length: Math.floor(r() * (max + 1)) }, make).filter((n) => {
      const key = typeof n === 'string' ? HTML_NS + ' ' + n : (n.namespace ?? HTML_NS) + ' ' + n.name;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  const config: Record<string, unknown> = {};
  if (r() < 0.5) {
    config.elements = some(() => {
      if (r() >= 0.3) return name();
      const n = name();
      return { ...(typeof n === 'string' ? { name: n } : n), attributes: ATTRIBUTES.filter(() => r() < 0.3) };
    }, 14);
  } else if (r() < 0.7) config.removeElements = some(name, 6);
  if (r() < 0.4) config.replaceWithChildrenElements = some(name, 4);
  if (r() < 0.5) config.attributes = ATTRIBUTES.filter(() => r() < 0.4);
  else if (r() < 0.5) config.removeAttributes = ATTRIBUTES.filter(() => r() < 0.3);
  if (r() < 0.5) config.comments = r() < 0.5;
  // (dataAttributes true with a data attribute listed is refused.)
  if (config.attributes !== undefined && r() < 0.3) config.dataAttributes = !(config.attributes as string[]).includes('data-x') && r() < 0.5;
  if (r() < 0.3) config.processingInstructions = ['pi'];
  return config as SanitizerConfig;
}

describe('random Sanitizer API configurations', () => {
  const count = Number(process.env.HTMLSIFT_RANDOM_CONFIGS ?? 400);
  test(`${count} seeded configurations, 4 inputs each: outputs reparse to themselves, safe ones run no script`, () => {
    let accepted = 0;
    let checkedSafe = 0;
    for (let seed = 1; seed <= count; seed++) {
      const r = rng(seed);
      const config = randomConfig(r);
      let sanitizer: Sanitizer;
      try {
        sanitizer = new Sanitizer(config);
      } catch (e) {
        // (Refusals: an element both allowed and removed, attribute lists that overlap, and the like.)
        expect(e, `seed ${seed}: ${JSON.stringify(config)}`).toBeInstanceOf(TypeError);
        continue;
      }
      accepted++;
      const spec = r() < 0.3 ? sanitizer : config;
      for (let j = 0; j < 4; j++) {
        let html = '';
        for (let n = 3 + Math.floor(r() * 30); n > 0; n--) html += MARKUP[Math.floor(r() * MARKUP.length)]!;
        const context = CONTEXTS[Math.floor(r() * CONTEXTS.length)]!;
        const safe = r() < 0.6;
        const out = sanitize(html, { sanitizer: spec, context, safe });
        const label = `seed ${seed}.${j}, ${JSON.stringify(config)}, context ${JSON.stringify(context)}, safe ${safe}: ${JSON.stringify(html)}`;
        for (const scripting of [false, true]) {
          expect(serialize(parseFragment(out, { context, scripting }), { roundTrip: true, scripting: true }), `${label}, scripting ${scripting}`).toBe(out);
        }
        if (safe) {
          expect(scriptCapable(out, context), `${label} -> ${out}`).toEqual([]);
          checkedSafe++;
        }
      }
    }
    expect(accepted).toBeGreaterThan(count / 2);
    expect(checkedSafe).toBeGreaterThan(accepted);
  });
});
