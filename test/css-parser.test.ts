/**
 * CSS parser structures (CSS Syntax 3 section 5, with nesting), serialization round trips, deep nesting.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './support/random.js';
import { tokenize, type CssToken } from '../src/css/tokenizer.js';
import {
  type AtRule,
  type BlockItem,
  type ComponentValue,
  type Declaration,
  type QualifiedRule,
  parseBlockContents,
  parseCommaSeparatedList,
  parseComponentValues,
  parseDeclaration,
  parseDeclarationList,
  parseStylesheet,
} from '../src/css/parser.js';
import {
  flattenComponentValues,
  serializeComponentValues,
  serializeIdent,
  serializeRules,
  serializeString,
  serializeTokens,
  tokenText,
} from '../src/css/serialize.js';

const text = (v: readonly ComponentValue[]): string => serializeComponentValues(v);

/** Token list with whitespace runs collapsed and numbers compared by representation. */
function canon(tokens: readonly CssToken[]): string {
  const out: string[] = [];
  for (const t of tokens) {
    if (t.type === 'whitespace' && out[out.length - 1] === 'ws') continue;
    out.push(t.type === 'whitespace' ? 'ws' : JSON.stringify(t));
  }
  return out.join(' ');
}

describe('component values', () => {
  it('groups blocks and functions, keeps unmatched closers as tokens, closes at EOF', () => {
    const v = parseComponentValues('f(a [b] {c}) ) (d');
    expect(v.map((x) => x.type)).toEqual(['func', 'whitespace', ')', 'whitespace', 'block']);
    const f = v[0] as Extract<ComponentValue, { type: 'func' }>;
    expect(f.name).toBe('f');
    expect(f.value.map((x) => x.type)).toEqual(['ident', 'whitespace', 'block', 'whitespace', 'block']);
    expect((v[4] as Extract<ComponentValue, { type: 'block' }>).open).toBe('(');
  });

  it('a mismatched closer inside a block is an ordinary token', () => {
    const v = parseComponentValues('[a)]');
    expect(v.length).toBe(1);
    const b = v[0] as Extract<ComponentValue, { type: 'block' }>;
    expect(b.value.map((x) => x.type)).toEqual(['ident', ')']);
  });

  it('splits comma-separated lists at the top level only', () => {
    const parts = parseCommaSeparatedList('a, f(b, c), d');
    expect(parts.map((p) => text(p).trim())).toEqual(['a', 'f(b, c)', 'd']);
  });
});

describe('parse a stylesheet', () => {
  it('qualified rules with declarations', () => {
    const [r] = parseStylesheet('a > b { color: red; background : blue !important }') as [QualifiedRule];
    expect(r.type).toBe('qualified-rule');
    expect(text(r.prelude)).toBe('a > b ');
    const decls = r.children as Declaration[];
    expect(decls.map((d) => [d.name, text(d.value), d.important])).toEqual([
      ['color', 'red', false],
      ['background', 'blue', true],
    ]);
  });

  it('at-rules with and without blocks', () => {
    const rules = parseStylesheet('@import "x.css" screen; @media (min-width: 1px) { a { b: c } } @foo');
    expect(rules.map((r) => r.type)).toEqual(['at-rule', 'at-rule', 'at-rule']);
    const [imp, media, foo] = rules as AtRule[];
    expect(imp!.name).toBe('import');
    expect(imp!.children).toBeNull();
    expect(media!.children!.length).toBe(1);
    expect((media!.children![0] as QualifiedRule).children.length).toBe(1);
    expect(foo!.name).toBe('foo');
    expect(foo!.children).toBeNull();
  });

  it('CDO/CDC are ignored at the top level only', () => {
    const rules = parseStylesheet('<!-- a { b: c } -->');
    expect(rules.length).toBe(1);
    expect(text((rules[0] as QualifiedRule).prelude)).toBe('a ');
  });

  it('a rule without a block is dropped at EOF', () => {
    expect(parseStylesheet('a b c')).toEqual([]);
  });

  it('unclosed blocks are closed at EOF', () => {
    const [r] = parseStylesheet('a { b: c') as [QualifiedRule];
    expect((r.children[0] as Declaration).name).toBe('b');
  });

  it('a prelude that looks like a custom property declaration invalidates the rule', () => {
    const rules = parseStylesheet('--x: { a: b } c { d: e }');
    expect(rules.length).toBe(1);
    expect(text((rules[0] as QualifiedRule).prelude)).toBe('c ');
  });

  it('stray } at the top level becomes part of a prelude', () => {
    const rules = parseStylesheet('} a { b: c }');
    expect(rules.length).toBe(1);
    expect(text((rules[0] as QualifiedRule).prelude)).toBe('} a ');
  });
});

describe("parse a block's contents (nesting)", () => {
  it('declarations first, rules when a declaration does not parse', () => {
    const items = parseBlockContents('color: red; a:hover { x: y } & b { z: w } ; margin: 0');
    expect(items.map((i) => i.type)).toEqual(['declaration', 'qualified-rule', 'qualified-rule', 'declaration']);
    expect(text((items[1] as QualifiedRule).prelude)).toBe('a:hover ');
  });

  it('a {} block is only allowed as the whole value of a non-custom property', () => {
    const items = parseBlockContents('b:c{d:e}');
    expect(items.map((i) => i.type)).toEqual(['qualified-rule']);
    const items2 = parseBlockContents('--x: a {b} c; y: {z}');
    expect(items2.map((i) => (i as Declaration).name)).toEqual(['--x', 'y']);
  });

  it('a nested rule stops at ; when it has no block', () => {
    const items = parseBlockContents('.a .b; color: red');
    expect(items.map((i) => i.type)).toEqual(['declaration']);
  });

  it('nested at-rules', () => {
    const items = parseBlockContents('@media print { color: red; a { b: c } } d: e');
    expect(items.map((i) => i.type)).toEqual(['at-rule', 'declaration']);
    const m = items[0] as AtRule;
    expect(m.children!.map((i) => i.type)).toEqual(['declaration', 'qualified-rule']);
  });

  it('!important detection', () => {
    expect(parseDeclaration('a: b ! IMPORTANT ')!.important).toBe(true);
    expect(parseDeclaration('a: b !important x')!.important).toBe(false);
    expect(parseDeclaration('a: !important')!.value).toEqual([]);
    expect(parseDeclaration('a: b ! /**/ important')!.important).toBe(true);
    expect(parseDeclaration('a b')).toBeNull();
    expect(parseDeclaration('1: b')).toBeNull();
  });

  it('parse a list of declarations drops junk and rules', () => {
    const d = parseDeclarationList('a:b; junk here; c : d; e{f:g}; 1:2; h:i');
    expect(d.map((x) => x.name)).toEqual(['a', 'c', 'h']);
  });

  it('a top-level } ends a block contents parse', () => {
    expect(parseDeclarationList('a:b } c:d').map((x) => x.name)).toEqual(['a']);
  });
});

describe('serialization', () => {
  it('identifiers and strings are escaped safely', () => {
    expect(serializeIdent('1a')).toBe('\\31 a');
    expect(serializeIdent('-1')).toBe('-\\31 ');
    expect(serializeIdent('-')).toBe('\\-');
    expect(serializeIdent('a b')).toBe('a\\ b');
    expect(serializeIdent('a<b>')).toBe('a\\3c b\\3e ');
    expect(serializeString('a"b\\c\n</style>')).toBe('"a\\"b\\\\c\\a \\3c /style\\3e "');
    for (const s of ['1a', '-1', '-', 'a b', '--', 'a\u0001', '\u00e9']) {
      expect(tokenize(serializeIdent(s))).toEqual([{ type: 'ident', value: s }]);
    }
  });

  it('identifiers and hash values: the same escapes as escaping each code unit in turn, on random names', () => {
    // The escapes written code unit by code unit (CSSOM "serialize an identifier", plus `<` and `>` as hex): the
    // model the fast path (names returned as they are) must agree with.
    const hex = (c: number): string => '\\' + c.toString(16) + ' ';
    const escapeUnit = (s: string, i: number): string => {
      const c = s.charCodeAt(i);
      if (c === 0) return '\uFFFD';
      if ((c >= 1 && c <= 0x1f) || c === 0x7f || c === 0x3c || c === 0x3e) return hex(c);
      if (c >= 0x80 || c === 0x2d || c === 0x5f || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return s[i]!;
      return '\\' + s[i]!;
    };
    const identModel = (s: string): string => {
      let out = '';
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (i === 0 && c >= 0x30 && c <= 0x39) out += hex(c);
        else if (i === 1 && s[0] === '-' && c >= 0x30 && c <= 0x39) out += hex(c);
        else if (s === '-') out += '\\-';
        else out += escapeUnit(s, i);
      }
      return out;
    };
    const alphabet = ['a', 'z', 'A', 'Z', '0', '9', '-', '_', '@', '[', '`', '{', '~', '\u007f', '/', ':', '<', '>', ' ', '\\', '"', '\u0001', '\u001f', '\0', '\u0080', '\u00e9', '\ud83d', '\ude00'];
    const random = mulberry32(7);
    const rand = (n: number): number => Math.floor(random() * n);
    let plain = 0;
    for (let k = 0; k < 20000; k++) {
      let s = '';
      const len = 1 + rand(6);
      // Half the names are drawn from the letters, digits, "-" and "_" alone, the ones the fast path returns.
      const from = k % 2 === 0 ? 8 : alphabet.length;
      for (let j = 0; j < len; j++) s += alphabet[rand(from)]!;
      const ident = serializeIdent(s);
      expect(ident, JSON.stringify(s)).toBe(identModel(s));
      if (ident === s) plain++;
      const hash = tokenText({ type: 'hash', value: s, id: false });
      expect(hash, JSON.stringify(s)).toBe('#' + [...Array(s.length).keys()].map((i) => escapeUnit(s, i)).join(''));
      expect(tokenText({ type: 'hash', value: s, id: true })).toBe('#' + identModel(s));
      if (!/[\0\ud800-\udfff]/.test(s)) expect(tokenize(ident), JSON.stringify(s)).toEqual([{ type: 'ident', value: s }]);
      expect(/[<>]/.test(ident)).toBe(false);
    }
    expect(plain).toBeGreaterThan(5000);
  });

  it('inserts comments exactly where tokens would merge', () => {
    const cases: [CssToken[], string][] = [
      [[{ type: 'ident', value: 'a' }, { type: 'ident', value: 'b' }], 'a/**/b'],
      [[{ type: 'number', value: 1, repr: '1', integer: true }, { type: 'ident', value: 'px' }], '1/**/px'],
      [[{ type: 'delim', value: '/' }, { type: 'delim', value: '*' }], '//**/*'],
      [[{ type: 'ident', value: 'U' }, { type: 'number', value: 25, repr: '+0025', integer: true }], 'U+0025'],
      [[{ type: 'delim', value: '-' }, { type: 'CDC' }], '-/**/-->'],
      [[{ type: 'ident', value: '--' }, { type: 'delim', value: '>' }], '--/**/>'],
      [[{ type: 'delim', value: '<' }, { type: 'delim', value: '/' }], '</**//'],
      [[{ type: 'dimension', value: 1, repr: '1', integer: true, unit: 'e3' }], '1\\65 3'],
    ];
    for (const [tokens, expected] of cases) {
      const s = serializeTokens(tokens);
      expect(s).toBe(expected);
      expect(canon(tokenize(s))).toBe(canon(tokens));
    }
  });

  it('every pair and triple of sample tokens round-trips (the comment table, exhaustively)', () => {
    const samples = [
      'a', '-a', '--', 'e', 'E3', 'f(', 'url(x)', 'url(a b)', '@a', '@--', '#a', '#1', '#-', '1', '+1', '-1', '.5', '1e3',
      '1%', '1px', '1e', '1\\65 3', '-->', '<!--', '-', '+', '.', '#', '@', '/', '*', '<', '!', '>', '%', ' ', ':', ';',
      ',', '(', ')', '[', ']', '{', '}', '"s"', '|', '~', 'U', '?', '\u00e9', '=', '$', '^',
    ];
    const atoms = samples.map((s) => {
      const ts = tokenize(s);
      expect(ts.length, s).toBe(1);
      return ts[0]!;
    });
    let n = 0;
    for (const a of atoms) {
      for (const b of atoms) {
        const pair = [a, b];
        expect(canon(tokenize(serializeTokens(pair))), JSON.stringify(pair)).toBe(canon(pair));
        for (const c of atoms) {
          const triple = [a, b, c];
          const out = serializeTokens(triple);
          if (canon(tokenize(out)) !== canon(triple)) expect.fail(JSON.stringify(triple) + ' -> ' + out);
          n++;
        }
      }
    }
    expect(n).toBe(atoms.length ** 3);
  });

  it('round-trips random token soup (tokenize, serialize, tokenize) and never writes "</" + letter', () => {
    const random = mulberry32(987654321);
    const rnd = (n: number): number => Math.floor(random() * n);
    const alphabet = [
      'a', 'e', 'E', '-', '+', '.', '1', '0', '%', '#', '@', '\\', '/', '*', '(', ')', '{', '}', '"', "'", ' ',
      '\n', '<', '!', '>', 'u', 'r', 'l', 'U', ',', ';', ':', '\u00e9', '5', 'x', '[', ']', '\0', '\uD800', '|',
      'url(', '/*', '*/', '-->', '<!--', '\\65 ', '</style>', 'S',
    ];
    let checked = 0;
    for (let k = 0; k < 40_000; k++) {
      let s = '';
      const len = 1 + rnd(14);
      for (let i = 0; i < len; i++) s += alphabet[rnd(alphabet.length)];
      const before = tokenize(s);
      const out = serializeTokens(before);
      expect(canon(tokenize(out)), JSON.stringify(s) + ' -> ' + JSON.stringify(out)).toBe(canon(before));
      expect(/<\/[a-z]/i.test(out), out).toBe(false);
      checked++;
    }
    expect(checked).toBe(40_000);
  });

  it('stylesheet round trip: parse(serialize(parse(x))) serializes identically', () => {
    const sheets = [
      'a{color:red}',
      '@media screen and (max-width:600px){.a .b>c{margin:0 auto!important;--x:{y};}}',
      '@import url(x.css);a[href^="http"]::before{content:"\\201C"}',
      'p{a:b;.c{d:e}&:hover{f:g}}h:i{}',
      '@font-face{font-family:"X";src:url(a.woff2)format("woff2"),local(X)}',
      ':is(a,b) :where(c) :not(d){}',
      'a{b:1e3 1\\65 3 +.5 -0 U+0025-00FF}',
      '} ; a { } @x y; @z { } <!-- b {} -->',
      'a{b:url( x )url("y")}',
    ];
    for (const s of sheets) {
      const once = serializeRules(parseStylesheet(s));
      const twice = serializeRules(parseStylesheet(once));
      expect(twice, s).toBe(once);
    }
    expect(serializeRules(parseStylesheet('a { color : red ; }'))).toBe('a {color:red;}');
  });
});

describe('serializing without a token list in between', () => {
  it('a big sheet (output in many chunks) serializes as its rules one by one, joined', () => {
    const random = mulberry32(2026112602);
    const pieces = ['a', '.b', '#c', 'x-1', '@media', 'screen', ';', ':', '1px', '-', '--', '\\', 'url(u)', '"s"', ' ', 'f()', '/', '*', '<', '+2'];
    const soup = (n: number): string => {
      let out = '';
      for (let i = 0; i < n; i++) out += pieces[Math.floor(random() * pieces.length)]!;
      return out;
    };
    let css = '';
    while (css.length < 150_000) css += soup(4) + '{' + soup(12) + (random() < 0.3 ? '{' + soup(6) + '}' : '') + '}';
    const rules = parseStylesheet(css);
    expect(rules.length).toBeGreaterThan(50);
    const whole = serializeRules(rules);
    // A rule ends with "}" or ";", after which no comment is ever needed: the pieces join as they are.
    expect(whole).toBe(rules.map((r) => serializeRules([r])).join(''));
    expect(whole.length).toBeGreaterThan(16_384 * 2);
    expect(serializeRules(parseStylesheet(whole))).toBe(whole);
  });

  it('a trailing "\\" delim is written without its newline, one before other tokens with it', () => {
    const bs: CssToken = { type: 'delim', value: '\\' };
    expect(serializeTokens([{ type: 'ident', value: 'a' }, bs])).toBe('a\\');
    expect(serializeTokens([bs, { type: 'ident', value: 'a' }])).toBe('\\\na');
    expect(serializeComponentValues([{ type: 'ident', value: 'a' }, bs])).toBe('a\\');
    expect(serializeTokens([])).toBe('');
  });
});

describe('100,000-deep nesting (no recursion)', () => {
  const N = 100_000;

  it('component values: nested parentheses, brackets and functions', () => {
    for (const open of ['(', '[', 'f(', '{']) {
      const v = parseComponentValues(open.repeat(N) + 'x');
      let depth = 0;
      let cur: readonly ComponentValue[] = v;
      while (cur.length > 0 && (cur[0]!.type === 'block' || cur[0]!.type === 'func')) {
        cur = (cur[0] as { value: ComponentValue[] }).value;
        depth++;
      }
      expect(depth).toBe(N);
      const out = serializeComponentValues(v);
      expect(out.length).toBeGreaterThan(N * 2);
      expect(flattenComponentValues(parseComponentValues(out)).length).toBe(flattenComponentValues(v).length);
    }
  });

  it('stylesheet: 100,000 nested rules parse and serialize', () => {
    const rules = parseStylesheet('a{'.repeat(N) + 'b:c');
    let depth = 0;
    let items: BlockItem[] = rules;
    while (items.length > 0 && items[0]!.type === 'qualified-rule') {
      items = (items[0] as QualifiedRule).children;
      depth++;
    }
    expect(depth).toBe(N);
    expect((items[0] as Declaration).name).toBe('b');
    const out = serializeRules(rules);
    expect(out.endsWith('b:c;' + '}'.repeat(N))).toBe(true);
  });

  it('a declaration value nested 100,000 deep', () => {
    const d = parseDeclarationList('color: ' + 'f('.repeat(N) + 'x' + ')'.repeat(N) + '; margin: 0');
    expect(d.map((x) => x.name)).toEqual(['color', 'margin']);
  });

  it('many sibling rules without semicolons stay linear', () => {
    const start = Date.now();
    const items = parseBlockContents('a:b{} '.repeat(50_000));
    expect(items.length).toBe(50_000);
    expect(Date.now() - start).toBeLessThan(5000);
  });
});
