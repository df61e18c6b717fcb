/**
 * `sanitize()` walks the tree once for the Sanitizer API's filter and reparse safety (src/sanitize.ts: reparse
 * safety runs the filter on each child list just before it reads it, ChildListFilter). With a report callback, or
 * a policy, or in an `html` context, the two run as two walks, one after the other. The one walk must give what the
 * two give, string for string and tree for tree:
 *
 * 1. pinned cases, one for each place the walk runs the filter (the root's list, an element's list as the walk
 *    enters it, the children of an element reparse safety unwraps, template contents before their first element
 *    sets the insertion mode), each of which gives another result if the filter is not run there;
 * 2. a seeded property run over generated fragments in every fragment context, with configurations that replace
 *    and remove structural elements (HTMLSIFT_SEED replays a run; HTMLSIFT_ONE_WALK_CASES sets the count).
 */
import { describe, expect, it } from 'vitest';
import { sanitize, sanitizeFragment, type SanitizeOptions } from '../../src/sanitize.js';
import type { SanitizerConfig } from '../../src/sanitizer-api/index.js';
import { dumpTree } from '../support/dump.js';
import { FRAGMENT_CONTEXTS, Rng, generateFragment, seedFromEnv } from '../browser/generator.js';

const CASES = Number(process.env.HTMLSIFT_ONE_WALK_CASES ?? 4000);

/** `sanitize()` in one walk, and in two (a report callback makes it take two). */
function bothWays(input: string, options: SanitizeOptions = {}): { one: string; two: string; reports: number } {
  let reports = 0;
  const one = sanitize(input, options);
  const two = sanitize(input, { ...options, onReport: () => void reports++ });
  return { one, two, reports };
}

/** The same for the tree (`sanitizeFragment` with reparse safety and URL hardening, as `sanitize()` makes it). */
function treesBothWays(input: string, options: SanitizeOptions = {}): { one: string; two: string } {
  const o = { ...options, reparseSafe: true, hardenUrls: true };
  return { one: dumpTree(sanitizeFragment(input, o)), two: dumpTree(sanitizeFragment(input, { ...o, onReport: () => {} })) };
}

describe('sanitize(): the Sanitizer API filter inside the reparse safety walk', () => {
  it('filters the root list', () => {
    const r = bothWays('<script>alert(1)</script>a<b onclick="x()">b</b>');
    expect(r.one).toBe('a<b>b</b>');
    expect(r.one).toBe(r.two);
  });

  it('filters each list as the walk enters its element', () => {
    const r = bothWays('<div><p><iframe src="x"></iframe>a<a href="javascript:x">b</a></p></div>');
    expect(r.one).toBe('<div><p>a<a>b</a></p></div>');
    expect(r.one).toBe(r.two);
  });

  it('filters the children of an element reparse safety unwraps before they take its place', () => {
    // The filter replaces table and tbody: the row is then outside a table, and reparse safety unwraps it and its
    // cell. The cell's script is in a list the walk enters only through those unwraps.
    const options = { sanitizer: { replaceWithChildrenElements: ['table', 'tbody'] } };
    const r = bothWays('<table><tr><td><script>alert(1)</script>x<img src=y onerror=z()></td></tr></table>', options);
    expect(r.one).toBe('x<img src="y">');
    expect(r.one).toBe(r.two);
    expect(r.reports).toBeGreaterThan(0);
    // Below the depth browsers build, elements are unwrapped too.
    const deep = '<div>'.repeat(520) + '<script>alert(1)</script><em onclick="x()">e</em>';
    const d = bothWays(deep);
    expect(d.one).not.toContain('script');
    expect(d.one).not.toContain('onclick');
    expect(d.one).toBe(d.two);
  });

  it('filters template contents before their first element sets the insertion mode', () => {
    // With the style gone, the row is the contents' first element: "in template" then reads a row there.
    const r = bothWays('<template><style>p{}</style><tr><td>x</td></tr></template>', {
      sanitizer: { elements: ['template', 'tr', 'td'] },
    });
    expect(r.one).toBe('<template><tr><td>x</td></tr></template>');
    expect(r.one).toBe(r.two);
  });

  it('leaves a document and an html context to two walks, with the same result', () => {
    const r = bothWays('<head><script>x</script></head><body><p onclick=y>a', { context: 'html' });
    expect(r.one).toBe(r.two);
    expect(r.one).toContain('<p>a</p>');
  });
});

describe('sanitize(): one walk and two give the same, property run', () => {
  const configs: (SanitizerConfig | undefined)[] = [
    undefined,
    { replaceWithChildrenElements: ['table', 'tbody', 'tr', 'p', 'b', 'a', 'template', 'div', 'select', 'option', 'svg', 'form'] },
    { removeElements: ['tbody', 'td', 'li', 'caption'], replaceWithChildrenElements: ['ul', 'span', 'i', 'colgroup'] },
    { elements: ['table', 'tr', 'td', 'p', 'div', 'template', 'b', 'a', 'style', 'select', 'option', 'math', 'mi'], replaceWithChildrenElements: ['tbody', 'font', 'span', 'caption', 'thead'] },
    { comments: true, processingInstructions: [{ target: 'x' }], replaceWithChildrenElements: ['section', 'h1', 'dl', 'svg', 'noscript'] },
  ];
  const seed = seedFromEnv();

  it(`${CASES} generated fragments (seed ${seed})`, () => {
    const rng = new Rng(seed);
    const failures: string[] = [];
    for (let i = 0; i < CASES && failures.length < 5; i++) {
      const ctx = FRAGMENT_CONTEXTS[rng.int(FRAGMENT_CONTEXTS.length)]!;
      const input = generateFragment(rng, ctx);
      const sanitizer = configs[rng.int(configs.length)];
      const options: SanitizeOptions = { context: { name: ctx.name, namespace: ctx.namespace ?? 'http://www.w3.org/1999/xhtml' } };
      if (sanitizer !== undefined) options.sanitizer = sanitizer;
      if (rng.chance(0.2)) options.safe = false;
      const s = bothWays(input, options);
      const t = treesBothWays(input, options);
      if (s.one !== s.two || t.one !== t.two) {
        failures.push(`${JSON.stringify(input)} in ${ctx.name} with ${JSON.stringify(options)}:\n  one walk  ${JSON.stringify(s.one)}\n  two walks ${JSON.stringify(s.two)}`);
      }
    }
    expect(failures).toEqual([]);
    // (About 1 ms a case; long runs get the time they need.)
  }, 30_000 + CASES * 5);
});
