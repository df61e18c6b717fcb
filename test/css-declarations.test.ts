/**
 * Declaration filtering (style attributes): allow-list, URL rewriting, always-dropped vectors.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './support/random.js';
import { filterDeclarationList, filterDeclarations, type DeclarationFilterOptions } from '../src/css/declarations.js';
import { serializeComponentValues, serializeDeclarations } from '../src/css/serialize.js';
import { parseDeclarationList } from '../src/css/parser.js';
import { tokenize } from '../src/css/tokenizer.js';
import { checkUrl } from '../src/url/url-policy.js';

const ALLOWED = new Set(['color', 'background', 'background-image', 'margin', 'width', 'font-family', 'content', 'cursor', 'list-style']);

const opts: DeclarationFilterOptions = {
  allow: (p) => ALLOWED.has(p),
  rewriteUrl: (url) => checkUrl(url, { schemes: ['https', 'cid'], relative: 'drop' }).value,
};

const css = (s: string, o: DeclarationFilterOptions = opts): string => filterDeclarations(s, o).css;

describe('filterDeclarations', () => {
  it('keeps allowed properties, lowercases names, keeps !important', () => {
    expect(css('COLOR: Red; Margin : 0  auto !IMPORTANT; position: fixed')).toBe('color:Red;margin:0 auto!important');
  });

  it('reports what it removed, with reasons', () => {
    const r = filterDeclarations('position: fixed; behavior: url(x.htc); width: expression(alert(1))', opts);
    expect(r.css).toBe('');
    expect(r.removed.map((x) => [x.property, x.reason])).toEqual([
      ['position', 'property not allowed'],
      ['behavior', 'property is never allowed'],
      ['width', 'expression() is not allowed'],
    ]);
  });

  it.each([
    ['behavior: url(a.htc)', 'behavior'],
    ['-moz-binding: url(x.xml#y)', '-moz-binding'],
    ['BEHAVIOR: x', 'escape-free uppercase'],
    ['b\\65havior: url(a.htc)', 'escaped name'],
    ['width: expression(alert(1))', 'expression'],
    ['width: EXPRESSION(alert(1))', 'uppercase expression'],
    ['width: ex\\70ression(alert(1))', 'escaped expression'],
    ['background: url(javascript:alert(1))', 'bad-url token'],
    ['background: url("javascript:alert(1)")', 'javascript in url()'],
    ['background: url(\\6a avascript:alert(1))', 'escaped javascript in url token'],
    ["background: url('java\\9script:alert(1)')", 'tab inside a url string'],
    ['background: url(vbscript:msgbox)', 'vbscript'],
    ['background: url(http://insecure/x.png)', 'scheme not in the URL policy'],
    ['background: url(relative.png)', 'relative refused by the URL policy'],
    ['background-image: image-set("javascript:x" 1x)', 'image-set string'],
    ['background-image: -webkit-image-set("http://x/a.png" 1x)', 'prefixed image-set string'],
    ['background-image: cross-fade("http://x/a.png", url(https://ok/b.png))', 'cross-fade string'],
    ['background: element(#secret)', 'element()'],
    ['background: -moz-element(#secret)', '-moz-element()'],
    ['color: "unterminated\n', 'bad string'],
    ['width: 1px)', 'unmatched )'],
    ['width: {1px}', '{} block'],
    ['background: src("https://ok/a.png" "b")', 'malformed src()'],
    ['background: src(var(--u))', 'var() in src()'],
    ['background-image: image-set(var(--u) 1x)', 'var() in image-set()'],
    ['background-image: image-set(attr(data-u) 1x)', 'attr() in image-set()'],
    ['background-image: image(--f(x))', 'custom function in image()'],
    ['background-image: image-set(("https://ok/a.png") 1x)', 'string in a block inside image-set()'],
    ['background-image: image-set(foo("https://ok/a.png") 1x)', 'string in another function inside image-set()'],
    ['background: url()', 'empty url token refused by the policy'],
  ])('drops %j (%s)', (input) => {
    expect(css(input)).toBe('');
  });

  it('passes url tokens, url() strings and image-set strings through rewriteUrl', () => {
    const seen: string[] = [];
    const o: DeclarationFilterOptions = {
      allow: () => true,
      rewriteUrl: (u, info) => {
        seen.push(`${info.property}:${info.context}:${u}`);
        return 'https://proxy.example/?u=' + encodeURIComponent(u);
      },
    };
    const out = css('background: url( a.png ) , url("b.png"); background-image: image-set("c.png" 1x, url(d.png) 2x)', o);
    expect(seen).toEqual([
      'background:url:a.png',
      'background:url:b.png',
      'background-image:image:c.png',
      'background-image:url:d.png',
    ]);
    expect(out).toContain('url(https://proxy.example/?u=a.png)');
    expect(out).toContain('url("https://proxy.example/?u=b.png")');
    expect(out).toContain('image-set("https://proxy.example/?u=c.png" 1x');
  });

  it('asks rewriteUrl only for the URLs of declarations allow keeps, and gives allow the value as written', () => {
    const seen: string[] = [];
    const values: string[] = [];
    const r = filterDeclarations(
      'cursor: url(a.cur), auto; list-style-image: url(b.png); background: image-set("c.png" 1x) url(d.png); ' +
        'position: f(url(e.png)); color: rgb(1 2 3)',
      {
        allow: (p, v) => (values.push(`${p}:${serializeComponentValues(v)}`), p === 'background' || p === 'color'),
        rewriteUrl: (u, info) => (seen.push(`${info.property}:${u}`), 'https://proxy/' + u),
      },
    );
    expect(seen.sort()).toEqual(['background:c.png', 'background:d.png']);
    expect(values).toEqual([
      'cursor:url(a.cur), auto',
      'list-style-image:url(b.png)',
      'background:image-set("c.png" 1x) url(d.png)',
      'position:f(url(e.png))',
      'color:rgb(1 2 3)',
    ]);
    expect(r.css).toBe('background:image-set("https://proxy/c.png" 1x) url(https://proxy/d.png);color:rgb(1 2 3)');
    expect(r.removed.map((x) => `${x.property}: ${x.reason}`)).toEqual([
      'cursor: property not allowed',
      'list-style-image: property not allowed',
      'position: property not allowed',
    ]);
    // A value refused on its own (a bad token) is refused before allow is asked; a refused URL is still refused.
    values.length = 0;
    seen.length = 0;
    const bad = filterDeclarations('background: url(x.png) "unclosed\n; color: red; background: url(javascript:1)', {
      allow: (p) => (values.push(p), true),
      rewriteUrl: (u) => (seen.push(u), u.startsWith('javascript:') ? null : u),
    });
    expect(values).toEqual(['color', 'background']);
    expect(seen).toEqual(['javascript:1']);
    expect(bad.removed.map((x) => x.reason)).toEqual(['invalid token', 'url refused']);
  });

  it('the string of type() in image-set() is a MIME type, not a URL', () => {
    expect(css('background-image: image-set("https://ok/a.png" type("image/png") 1x)')).toBe(
      'background-image:image-set("https://ok/a.png" type("image/png") 1x)',
    );
  });

  it('without rewriteUrl, any declaration holding a URL is dropped', () => {
    expect(css('background: url(https://ok/a.png); color: red', { allow: () => true })).toBe('color:red');
  });

  it('strings outside URL functions are not URLs', () => {
    expect(css('font-family: "javascript:x"; content: "url(x)"')).toBe('font-family:"javascript:x";content:"url(x)"');
  });

  it('custom properties: case-sensitive names, denied by default, URLs still checked', () => {
    const allowCustom: DeclarationFilterOptions = { ...opts, allow: (p, _v, info) => info.custom || ALLOWED.has(p) };
    expect(css('--Main: blue; color: var(--Main)', opts)).toBe('color:var(--Main)');
    expect(css('--Main: blue; color: var(--Main)', allowCustom)).toBe('--Main:blue;color:var(--Main)');
    expect(css('--x: url(javascript:alert(1))', allowCustom)).toBe('');
    expect(css('--x: url("https://ok/a.png")', allowCustom)).toBe('--x:url("https://ok/a.png")');
    expect(css('--x: url(http://no/a.png)', allowCustom)).toBe('');
  });

  it('replacement values are parsed and checked again', () => {
    const o: DeclarationFilterOptions = {
      allow: (p) => (p === 'position' ? 'static' : p === 'width' ? 'expression(1)' : p === 'margin' ? '0; color: red' : true),
    };
    expect(filterDeclarations('position: fixed; width: 1px; margin: 1px; color: red', o).css).toBe('position:static;color:red');
  });

  it('does not modify the parsed declarations it is given; reports values as parsed', () => {
    const decls = parseDeclarationList('background: f(url(a.png)); position: g(url(b.png))');
    const before = JSON.stringify(decls);
    const r = filterDeclarationList(decls, {
      allow: (p) => p === 'background',
      rewriteUrl: (u) => 'https://proxy/' + u,
    });
    expect(JSON.stringify(decls)).toBe(before);
    expect(serializeDeclarations(r.kept)).toBe('background:f(url(https://proxy/a.png))');
    expect(r.removed).toEqual([{ property: 'position', reason: 'property not allowed', value: 'g(url(b.png))' }]);
  });

  it('gives every removal its reason, and keeps flat and nested values apart from the parsed ones', () => {
    const decls = parseDeclarationList(
      'behavior: x; color: red !important; width: ; --v: ; margin: 0 4px; cursor: url(a.png), auto; content: "a"; ' +
        'list-style: x; font-family: Arial; background: url(b.png) [a] (b)',
    );
    const before = JSON.stringify(decls);
    const r = filterDeclarationList(decls, {
      allowImportant: false,
      allow: (p) => {
        if (p === 'content') return 'x; y';
        if (p === 'list-style') return 'url(javascript:1)';
        if (p === 'font-family') return ' serif ';
        return true;
      },
      rewriteUrl: (u) => (u.startsWith('javascript:') ? null : 'https://p/' + u),
    });
    expect(r.removed.map((x) => [x.property, x.reason, x.value])).toEqual([
      ['behavior', 'property is never allowed', 'x'],
      ['color', '!important not allowed', 'red'],
      ['width', 'empty value', ''],
      ['content', 'replacement: replacement is not a single value', '"a"'],
      ['list-style', 'replacement: url refused', 'x'],
    ]);
    expect(serializeDeclarations(r.kept)).toBe(
      '--v:;margin:0 4px;cursor:url(https://p/a.png), auto;font-family:serif;background:url(https://p/b.png) [a] (b)',
    );
    // The URL rewrites (in flat values and in nested ones) went to copies.
    expect(JSON.stringify(decls)).toBe(before);
  });

  it('values nested 100,000 deep are filtered without recursion', () => {
    const N = 100_000;
    const deep = 'f('.repeat(N) + 'url(a.png)' + ')'.repeat(N);
    const r = filterDeclarations(`background: ${deep}; color: red`, { allow: () => true, rewriteUrl: (u) => 'https://p/' + u });
    expect(r.css.length).toBe(`background:${deep};color:red`.length + 'https://p/'.length);
    expect(filterDeclarations(`background: ${deep.replace('url(a.png)', 'expression(1)')}`, { allow: () => true }).css).toBe('');
  });

  it('allowImportant: false drops important declarations', () => {
    expect(css('color: red !important; margin: 0', { ...opts, allowImportant: false })).toBe('margin:0');
  });

  it('output re-parses to exactly the kept declarations (random input)', () => {
    const random = mulberry32(42);
    const rnd = (n: number): number => Math.floor(random() * n);
    const bits = ['color', ':', ';', ' ', 'red', 'url(', ')', '"', 'https://ok/a', 'javascript:', '!important', '{', '}',
      'expression(', 'behavior', '\\', '/*', '*/', 'image-set(', '--x', 'var(--x)', ',', '\n', 'background', '(', '<', '/style'];
    for (let k = 0; k < 3000; k++) {
      let s = '';
      for (let i = 0, n = rnd(20); i < n; i++) s += bits[rnd(bits.length)];
      const all: DeclarationFilterOptions = { allow: () => true, rewriteUrl: opts.rewriteUrl! };
      const r = filterDeclarations(s, all);
      const again = parseDeclarationList(r.css);
      expect(again.map((d) => d.name)).toEqual(r.declarations.map((d) => d.name));
      expect(filterDeclarations(r.css, all).css).toBe(r.css);
      for (const t of tokenize(r.css)) {
        expect(t.type === 'bad-url' || t.type === 'bad-string').toBe(false);
        if (t.type === 'url') expect(t.value.startsWith('https:') || t.value.startsWith('cid:')).toBe(true);
        if (t.type === 'function') expect(['expression', 'element'].includes(t.value.toLowerCase())).toBe(false);
      }
      expect(/<\/[a-z]/i.test(r.css)).toBe(false);
    }
  });
});
