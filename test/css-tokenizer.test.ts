/**
 * CSS tokenizer against token streams worked out by hand from CSS Syntax 3, section 4.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './support/random.js';
import { type CssToken, preprocess, tokenize } from '../src/css/tokenizer.js';

/** Compact notation: ident(a) fn(a) at(a) hash:id(a) hash:u(a) str(a) bad-str url(a) bad-url delim(a)
 * num(repr=value[i]) pct(repr) dim(repr|unit) ws CDO CDC : ; , [ ] ( ) { } */
function show(tokens: CssToken[]): string[] {
  return tokens.map((t) => {
    switch (t.type) {
      case 'ident':
        return `ident(${t.value})`;
      case 'function':
        return `fn(${t.value})`;
      case 'at-keyword':
        return `at(${t.value})`;
      case 'hash':
        return `hash:${t.id ? 'id' : 'u'}(${t.value})`;
      case 'string':
        return `str(${t.value})`;
      case 'bad-string':
        return 'bad-str';
      case 'url':
        return `url(${t.value})`;
      case 'bad-url':
        return 'bad-url';
      case 'delim':
        return `delim(${t.value})`;
      case 'number':
        return `num(${t.repr}=${t.value}${t.integer ? 'i' : ''})`;
      case 'percentage':
        return `pct(${t.repr}=${t.value})`;
      case 'dimension':
        return `dim(${t.repr}=${t.value}|${t.unit})`;
      case 'whitespace':
        return 'ws';
      case 'colon':
        return ':';
      case 'semicolon':
        return ';';
      case 'comma':
        return ',';
      default:
        return t.type;
    }
  });
}

const t = (s: string): string[] => show(tokenize(s));

describe('preprocessing', () => {
  it('normalizes newlines, NUL and lone surrogates', () => {
    expect(preprocess('a\r\nb\rc\fd')).toBe('a\nb\nc\nd');
    expect(preprocess('a\0b')).toBe('a\uFFFDb');
    expect(preprocess('\uD800x\uDC00')).toBe('\uFFFDx\uFFFD');
    expect(preprocess('\uD83D\uDE00')).toBe('\uD83D\uDE00');
    expect(t('a\r\n\fb')).toEqual(['ident(a)', 'ws', 'ident(b)']);
  });

  it('gives what a code unit by code unit pass gives, on random text (most of it with nothing to replace)', () => {
    const model = (s: string): string => {
      let out = '';
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c === 0x0d) {
          out += '\n';
          if (s.charCodeAt(i + 1) === 0x0a) i++;
        } else if (c === 0x0c) out += '\n';
        else if (c === 0) out += '\uFFFD';
        else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
          out += s[i]! + s[i + 1]!;
          i++;
        } else if (c >= 0xd800 && c <= 0xdfff) out += '\uFFFD';
        else out += s[i]!;
      }
      return out;
    };
    const plainUnits = ['a', ' ', ':', ';', '\n', '\t', '\u00e9', '\uffff', '\ud7ff', '\ue000'];
    const specialUnits = ['\r', '\f', '\0', '\ud83d', '\ude00'];
    const random = mulberry32(11);
    const rand = (n: number): number => Math.floor(random() * n);
    let unchanged = 0;
    for (let k = 0; k < 20000; k++) {
      let s = '';
      for (let j = rand(12); j > 0; j--) s += plainUnits[rand(plainUnits.length)]!;
      // One input in three has exactly one special code unit somewhere, one in three several.
      const specials = k % 3 === 0 ? 0 : k % 3 === 1 ? 1 : 1 + rand(4);
      for (let j = 0; j < specials; j++) {
        const at = rand(s.length + 1);
        s = s.slice(0, at) + specialUnits[rand(specialUnits.length)]! + s.slice(at);
      }
      const out = preprocess(s);
      expect(out, JSON.stringify(s)).toBe(model(s));
      if (out === s) unchanged++;
    }
    expect(unchanged).toBeGreaterThan(6000);
  });
});

describe('idents, functions, at-keywords, hashes', () => {
  it.each([
    ['a', ['ident(a)']],
    ['-a', ['ident(-a)']],
    ['--', ['ident(--)']],
    ['--x', ['ident(--x)']],
    ['-', ['delim(-)']],
    ['-->', ['CDC']],
    ['_x9-', ['ident(_x9-)']],
    ['\u00e9t\u00e9', ['ident(\u00e9t\u00e9)']],
    ['a\0b', ['ident(a\uFFFDb)']],
    ['\\31 a', ['ident(1a)']],
    ['\\0', ['ident(\uFFFD)']],
    ['\\110000', ['ident(\uFFFD)']],
    ['\\d800', ['ident(\uFFFD)']],
    ['\\1F600x', ['ident(\u{1F600}x)']],
    ['\\41\tB', ['ident(AB)']],
    ['\\', ['delim(\\)']],
    ['a\\', ['ident(a)', 'delim(\\)']],
    ['\\\nx', ['delim(\\)', 'ws', 'ident(x)']],
    ['f(', ['fn(f)']],
    ['f (', ['ident(f)', 'ws', '(']],
    ['@media', ['at(media)']],
    ['@-x', ['at(-x)']],
    ['@1', ['delim(@)', 'num(1=1i)']],
    ['@', ['delim(@)']],
    ['#a', ['hash:id(a)']],
    ['#1', ['hash:u(1)']],
    ['#-1', ['hash:u(-1)']],
    ['#--', ['hash:id(--)']],
    ['#\\31', ['hash:id(1)']],
    ['#', ['delim(#)']],
    ['# a', ['delim(#)', 'ws', 'ident(a)']],
  ])('%j', (input, expected) => {
    expect(t(input)).toEqual(expected);
  });
});

describe('numbers', () => {
  it.each([
    ['1', ['num(1=1i)']],
    ['+1', ['num(+1=1i)']],
    ['-1', ['num(-1=-1i)']],
    ['.5', ['num(.5=0.5)']],
    ['+.5', ['num(+.5=0.5)']],
    ['-.5e2', ['num(-.5e2=-50)']],
    ['1e3', ['num(1e3=1000)']],
    ['1E+3', ['num(1E+3=1000)']],
    ['1e-3', ['num(1e-3=0.001)']],
    ['1e', ['dim(1=1|e)']],
    ['1e+', ['dim(1=1|e)', 'delim(+)']],
    ['1e-x', ['dim(1=1|e-x)']],
    ['1.', ['num(1=1i)', 'delim(.)']],
    ['1.e3', ['num(1=1i)', 'delim(.)', 'ident(e3)']],
    ['1.5.5', ['num(1.5=1.5)', 'num(.5=0.5)']],
    ['10%', ['pct(10=10)']],
    ['-5px', ['dim(-5=-5|px)']],
    ['5--x', ['dim(5=5|--x)']],
    ['1-->', ['dim(1=1|--)', 'delim(>)']],
    ['1\\65 3', ['dim(1=1|e3)']],
    ['+', ['delim(+)']],
    ['+a', ['delim(+)', 'ident(a)']],
    ['.', ['delim(.)']],
    ['1+2', ['num(1=1i)', 'num(+2=2i)']],
    ['1-2', ['num(1=1i)', 'num(-2=-2i)']],
  ])('%j', (input, expected) => {
    expect(t(input)).toEqual(expected);
  });

  it('unicode-range-ish input stays ident + numbers (no unicode-range token)', () => {
    expect(t('U+0025-00FF')).toEqual(['ident(U)', 'num(+0025=25i)', 'dim(-00=0|FF)']);
    expect(t('u+1??')).toEqual(['ident(u)', 'num(+1=1i)', 'delim(?)', 'delim(?)']);
    expect(t('U+A5')).toEqual(['ident(U)', 'delim(+)', 'ident(A5)']);
    expect(t('u+1e5-2')).toEqual(['ident(u)', 'num(+1e5=100000)', 'num(-2=-2i)']);
  });
});

describe('strings', () => {
  it.each([
    ['"abc"', ['str(abc)']],
    ["'a\"b'", ['str(a"b)']],
    ['"abc', ['str(abc)']],
    ['"a\\"b"', ['str(a"b)']],
    ['"a\\\nb"', ['str(ab)']],
    ['"a\\', ['str(a)']],
    ['"a\\62 c"', ['str(abc)']],
    ['"ab\nc"', ['bad-str', 'ws', 'ident(c)', 'str()']],
    ['"a\rb"', ['bad-str', 'ws', 'ident(b)', 'str()']],
    ["''", ['str()']],
  ])('%j', (input, expected) => {
    expect(t(input)).toEqual(expected);
  });
});

describe('url tokens', () => {
  it.each([
    ['url(a)', ['url(a)']],
    ['url( a )', ['url(a)']],
    ['URL(a)', ['url(a)']],
    ['u\\rl(a)', ['url(a)']],
    ['url()', ['url()']],
    ['url(', ['url()']],
    ['url(a', ['url(a)']],
    ['url(a )', ['url(a)']],
    ['url( a', ['url(a)']],
    ['url("a")', ['fn(url)', 'str(a)', ')']],
    ['url( "a" )', ['fn(url)', 'ws', 'str(a)', 'ws', ')']],
    ["url(  'a')", ['fn(url)', 'ws', 'str(a)', ')']],
    ['url(a b)', ['bad-url']],
    ['url(a b) c', ['bad-url', 'ws', 'ident(c)']],
    ['url(a"b) c', ['bad-url', 'ws', 'ident(c)']],
    ["url(a'b)", ['bad-url']],
    ['url(a(b)', ['bad-url']],
    ['url(a\u0001)', ['bad-url']],
    ['url(a\\)b)', ['url(a)b)']],
    ['url(a\\\n)', ['bad-url']],
    ['url(a\\', ['bad-url']],
    ['url(a b\\) c) d', ['bad-url', 'ws', 'ident(d)']],
    ['url(javascript:alert(1))', ['bad-url', ')']],
    ['url(\\6a avascript:x)', ['url(javascript:x)']],
    ['url-x(a)', ['fn(url-x)', 'ident(a)', ')']],
  ])('%j', (input, expected) => {
    expect(t(input)).toEqual(expected);
  });
});

describe('punctuation, CDO/CDC, comments', () => {
  it.each([
    ['<!-- -->', ['CDO', 'ws', 'CDC']],
    ['<!-', ['delim(<)', 'delim(!)', 'delim(-)']],
    ['a:b;c,d', ['ident(a)', ':', 'ident(b)', ';', 'ident(c)', ',', 'ident(d)']],
    ['[(){}]', ['[', '(', ')', '{', '}', ']']],
    ['a/**/b', ['ident(a)', 'ident(b)']],
    ['a /* x */ b', ['ident(a)', 'ws', 'ws', 'ident(b)']],
    ['a/* unterminated', ['ident(a)']],
    ['/**/', []],
    ['/*/ a', []],
    ['a/', ['ident(a)', 'delim(/)']],
    ['*/', ['delim(*)', 'delim(/)']],
    [' \t\n ', ['ws']],
    ['$^|~', ['delim($)', 'delim(^)', 'delim(|)', 'delim(~)']],
  ])('%j', (input, expected) => {
    expect(t(input)).toEqual(expected);
  });
});

describe('robustness', () => {
  it('never throws and always terminates on random input', () => {
    const random = mulberry32(12345);
    const rnd = (n: number): number => Math.floor(random() * n);
    const alphabet = 'a-_1.+e%#@\\/*(){}[]"\'\n <!>u r l:;,\u00e9\0\uD800';
    for (let k = 0; k < 3000; k++) {
      let s = '';
      const len = rnd(40);
      for (let i = 0; i < len; i++) s += alphabet[rnd(alphabet.length)];
      expect(() => tokenize(s)).not.toThrow();
    }
  });

  it('handles long inputs (a quadratic bad-url scan would not finish within the test timeout; no timing asserted)', () => {
    const s = 'url(' + 'a'.repeat(200_000) + ' b' + ')'.repeat(10) + '"'.repeat(1) + 'x'.repeat(100_000);
    const tokens = tokenize(s);
    expect(tokens[0]!.type).toBe('bad-url');
    expect(tokens.length).toBeGreaterThan(1);
  });
});

describe('big inputs (ident and function tokens shared by text)', () => {
  it('gives each token its own text, also for names that share a lookup slot (same length, first, middle and last)', () => {
    // 'abcde'/'axcde' and 'vvvvv'/'vwvvv' differ only where the slot does not look; 'url(' is never shared.
    const pieces = ['abcde', 'axcde', 'abcde(', 'axcde(', 'vvvvv', 'vwvvv', 'url(x)', 'a\\62 cde', 'AbCdE', 'abcde(', 'color', 'x1', 'x2'];
    const random = mulberry32(2026112601);
    const parts: string[] = [];
    let length = 0;
    while (length < 80_000) {
      const p = pieces[Math.floor(random() * pieces.length)]! + (random() < 0.5 ? ' ' : ';');
      parts.push(p);
      length += p.length;
    }
    const big = tokenize(parts.join(''));
    // Each piece on its own is a small input, tokenized without the table.
    const expected = parts.flatMap((p) => show(tokenize(p)));
    expect(show(big)).toEqual(expected);
    // And the table is used: a repeated name is one object.
    const colors = big.filter((x) => x.type === 'ident' && x.value === 'color');
    expect(colors.length).toBeGreaterThan(100);
    expect(new Set(colors).size).toBe(1);
  });
});
