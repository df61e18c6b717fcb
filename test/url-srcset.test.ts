/**
 * srcset: the HTML Standard's "parse a srcset attribute" (cases worked out from its steps), serialization that
 * re-parses identically, and filtering through a URL policy.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './support/random.js';
import { filterSrcset, parseSrcset, serializeSrcset, srcsetSafeUrl, type SrcsetCandidate } from '../src/url/srcset.js';
import type { UrlContext, UrlPolicy } from '../src/url/url-policy.js';

const brief = (cs: SrcsetCandidate[]): string[] => cs.map((c) => [c.url, ...c.descriptors].join(' '));

describe('parseSrcset', () => {
  it.each([
    ['a.png', ['a.png']],
    ['a.png 1x, b.png 2x', ['a.png 1x', 'b.png 2x']],
    ['a.png 100w, b.png 200w', ['a.png 100w', 'b.png 200w']],
    ['a.png,b.png', ['a.png,b.png']],
    ['a.png, b.png', ['a.png', 'b.png']],
    ['a.png,, b.png', ['a.png', 'b.png']],
    [',,, a.png ,, b.png 2x', ['a.png', 'b.png 2x']],
    ['a.png 1x,b.png 2x', ['a.png 1x', 'b.png 2x']],
    ['a.png\t100w\n, b.png\f', ['a.png 100w', 'b.png']],
    ['data:image/png;base64,AAA= 1x, b.png 2x', ['data:image/png;base64,AAA= 1x', 'b.png 2x']],
    ['a.png 1x 2x', []],
    ['a.png 100w 2x', []],
    ['a.png 2x 100w', []],
    ['a.png 0w', []],
    ['a.png 0x', ['a.png 0x']],
    ['a.png -1x', []],
    ['a.png 1.5x', ['a.png 1.5x']],
    ['a.png .5x', ['a.png .5x']],
    ['a.png 1.x', []],
    ['a.png 1e1x', ['a.png 1e1x']],
    ['a.png +1x', []],
    ['a.png 1X', []],
    ['a.png 100w 50h', ['a.png 100w 50h']],
    ['a.png 50h 100w', ['a.png 50h 100w']],
    ['a.png 50h', []],
    ['a.png 1x 50h', []],
    ['a.png 100w 0h', []],
    ['a.png foo', []],
    ['a.png 1x (a, b), c.png', ['c.png']],
    ['a.png 1x (a, b', []],
    ['  ', []],
    ['', []],
    [',', []],
  ])('%j', (input, expected) => {
    expect(brief(parseSrcset(input).candidates)).toEqual(expected);
  });

  it('parses numbers and counts errors', () => {
    const r = parseSrcset(',,, a.png 1.5x ,, b.png 100w 20h, c.png 1x 1x');
    expect(r.candidates).toEqual([
      { url: 'a.png', density: 1.5, descriptors: ['1.5x'] },
      { url: 'b.png', width: 100, height: 20, descriptors: ['100w', '20h'] },
    ]);
    expect(r.errors).toBe(5); // three leading commas, one stray comma, one bad candidate
  });
});

describe('serializeSrcset', () => {
  it('writes url and descriptors, comma-separated', () => {
    expect(serializeSrcset(parseSrcset('a.png   1x ,b.png 2x').candidates)).toBe('a.png 1x, b.png 2x');
  });

  it('encodes what would not survive re-parsing: whitespace, leading/trailing commas', () => {
    expect(srcsetSafeUrl('a b.png')).toBe('a%20b.png');
    expect(srcsetSafeUrl(',a,b,')).toBe('%2Ca,b%2C');
    const cs: SrcsetCandidate[] = [
      { url: 'x,', descriptors: ['2x'], density: 2 },
      { url: ',y z', descriptors: [] },
    ];
    expect(brief(parseSrcset(serializeSrcset(cs)).candidates)).toEqual(['x%2C 2x', '%2Cy%20z']);
  });

  it('round-trips random srcsets: parse(serialize(parse(x))) equals parse(x)', () => {
    const random = mulberry32(77);
    const rnd = (n: number): number => Math.floor(random() * n);
    const bits = ['a.png', 'b', ',', ' ', '\t', '1x', '2x', '100w', '50h', '(', ')', '1.5x', '-1x', 'data:x,y', '0w', 'x'];
    for (let k = 0; k < 5000; k++) {
      let s = '';
      for (let i = 0, n = rnd(12); i < n; i++) s += bits[rnd(bits.length)];
      const first = parseSrcset(s).candidates;
      const again = parseSrcset(serializeSrcset(first)).candidates;
      expect(again, JSON.stringify(s)).toEqual(first);
    }
  });
});

describe('filterSrcset', () => {
  const ctx: UrlContext = { element: 'img', attribute: 'srcset', kind: 'image' };
  const policy: UrlPolicy = { schemes: ['https'], relative: 'drop' };

  it('passes every candidate URL through the policy', () => {
    const r = filterSrcset('https://a.example/x.png 1x, javascript:alert(1) 2x, /rel.png 3x, JaVaScRiPt:x 4x', policy, ctx);
    expect(r.value).toBe('https://a.example/x.png 1x');
    expect(r.removed.map((x) => x.reason)).toEqual([
      'scheme not allowed: javascript',
      'relative URL',
      'scheme not allowed: javascript',
    ]);
  });

  it('returns null when nothing is left', () => {
    expect(filterSrcset('javascript:a 1x, vbscript:b 2x', policy, ctx).value).toBeNull();
  });

  it('rewrites candidate URLs and keeps the result re-parseable', () => {
    const p: UrlPolicy = {
      schemes: ['https'],
      relative: 'resolve',
      base: 'https://mail.example/m/',
      rewrite: (u) => `https://proxy.example/${encodeURIComponent(String(u))},w=1, x`,
    };
    const r = filterSrcset('a.png 1x, https://b.example/b.png 100w', p, ctx);
    const reparsed = parseSrcset(r.value!).candidates;
    expect(reparsed.map((c) => c.descriptors)).toEqual([['1x'], ['100w']]);
    expect(reparsed[0]!.url).toBe('https://proxy.example/https%3A%2F%2Fmail.example%2Fm%2Fa.png,w=1,%20x');
    expect(reparsed).toEqual(r.candidates);
  });

  it('random srcsets through a policy with an awkward rewrite re-parse to exactly the kept candidates', () => {
    const random = mulberry32(5);
    const rnd = (n: number): number => Math.floor(random() * n);
    const bits = ['https://a.example/x', 'a.png', 'javascript:x', ',', ' ', '1x', '2x', '100w', '20h', 'data:image/png,', '(', ')'];
    const tails = ['', ',', ' ', ', ,', '\t', ' 2x'];
    for (let k = 0; k < 3000; k++) {
      let s = '';
      for (let i = 0, n = rnd(10); i < n; i++) s += bits[rnd(bits.length)];
      const tail = tails[rnd(tails.length)]!;
      const p: UrlPolicy = {
        schemes: ['https', 'data'],
        relative: 'resolve',
        base: 'https://m.example/',
        rewrite: (u) => (rnd(2) === 0 ? ',' : '') + String(u) + tail,
      };
      const r = filterSrcset(s, p, ctx);
      if (r.value === null) {
        expect(r.candidates).toEqual([]);
        continue;
      }
      expect(parseSrcset(r.value).candidates, JSON.stringify(s) + ' -> ' + r.value).toEqual(r.candidates);
    }
  });
});
