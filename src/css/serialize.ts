/**
 * CSS serialization (CSS Syntax Module Level 3, section 9 "Serialization"; identifiers and strings escaped as
 * CSSOM's "serialize an identifier" / "serialize a string", plus extra hex escapes for `<` and `>`).
 *
 * Guarantee: tokenizing the output gives the same token list, except that runs of whitespace may collapse.
 * An empty comment is inserted between adjacent tokens that would otherwise merge (the spec's table).
 * HTML safety: the output never contains `<` followed by `/` or `!`, and `<`/`>` inside strings, urls and names
 * are hex-escaped, so the text can sit in an HTML `<style>` element without ending it.
 * Everything is iterative (explicit stacks).
 */
import type { CssToken } from './tokenizer.js';
import type { BlockItem, ComponentValue, Declaration, Rule } from './parser.js';
import { flattenRope } from '../rope.js';
import { checkList, checkObject, checkText } from './check.js';

function hex(c: number): string {
  return '\\' + c.toString(16) + ' ';
}

function isDigitCode(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Escape one code unit of a name (identifier or hash) that is not a plain ident code point. */
function escapeNameChar(s: string, i: number, out: string[]): void {
  const c = s.charCodeAt(i);
  if (c === 0) out.push('\uFFFD');
  else if ((c >= 1 && c <= 0x1f) || c === 0x7f || c === 0x3c || c === 0x3e) out.push(hex(c));
  else if (c >= 0x80 || c === 0x2d || c === 0x5f || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
    out.push(s[i]!);
  } else out.push('\\' + s[i]!);
}

/**
 * Whether every code unit of `s` is an ident code point that is written as it is (`-`, `_`, ASCII letters and
 * digits, U+0080 and above): then `escapeNameChar` would copy each one.
 */
function isPlainName(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x61 ? c > 0x7a && c < 0x80 : !(c >= 0x41 ? c <= 0x5a || c === 0x5f : (c >= 0x30 && c <= 0x39) || c === 0x2d)) return false;
  }
  return true;
}

/** Serialize an identifier so that it tokenizes back as one ident sequence with this value. */
export function serializeIdent(s: string): string {
  checkText(s, 'serializeIdent', 'the identifier');
  if (s.length === 0) return '';
  const first = s.charCodeAt(0);
  // Most identifiers need no escape: returned as they are (no leading digit, "-" + digit, or lone "-").
  if (!isDigitCode(first) && (first !== 0x2d || (s.length > 1 && !isDigitCode(s.charCodeAt(1)))) && isPlainName(s)) return s;
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (i === 0 && isDigitCode(c)) out.push(hex(c));
    else if (i === 1 && first === 0x2d && isDigitCode(c)) out.push(hex(c));
    else if (i === 0 && c === 0x2d && s.length === 1) out.push('\\-');
    else escapeNameChar(s, i, out);
  }
  return out.join('');
}

/** Serialize the value of a hash token: id hashes as identifiers, unrestricted ones only escape non-name chars. */
function serializeHashValue(value: string, id: boolean): string {
  if (id) return serializeIdent(value);
  if (isPlainName(value)) return value;
  const out: string[] = [];
  for (let i = 0; i < value.length; i++) escapeNameChar(value, i, out);
  return out.join('');
}

/** A dimension's unit: an identifier whose leading "e" must not read as an exponent. */
function serializeUnit(unit: string): string {
  const s = serializeIdent(unit);
  const c0 = unit.charCodeAt(0);
  if (c0 === 0x65 || c0 === 0x45) {
    const c1 = unit.charCodeAt(1);
    if (isDigitCode(c1) || ((c1 === 0x2d || c1 === 0x2b) && isDigitCode(unit.charCodeAt(2)))) {
      return hex(c0) + s.slice(1);
    }
  }
  return s;
}

/** Serialize a string token's value in double quotes. */
export function serializeString(s: string): string {
  checkText(s, 'serializeString', 'the string');
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | null = null;
    if (c === 0) rep = '\uFFFD';
    else if ((c >= 1 && c <= 0x1f) || c === 0x7f || c === 0x3c || c === 0x3e) rep = hex(c);
    else if (c === 0x22 || c === 0x5c) rep = '\\' + s[i]!;
    if (rep !== null) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

/** Serialize a url token's value inside `url(...)`. */
function serializeUrlValue(s: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | null = null;
    if (c === 0) rep = '\uFFFD';
    else if (c <= 0x20 || c === 0x7f || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x27 || c === 0x28 || c === 0x29 || c === 0x5c) {
      rep = hex(c);
    }
    if (rep !== null) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start);
}

/** The text of one token on its own. */
export function tokenText(t: CssToken): string {
  switch (t.type) {
    case 'ident':
      return serializeIdent(t.value);
    case 'function':
      return serializeIdent(t.value) + '(';
    case 'at-keyword':
      return '@' + serializeIdent(t.value);
    case 'hash':
      return '#' + serializeHashValue(t.value, t.id);
    case 'string':
      return serializeString(t.value);
    case 'bad-string':
      return '"\n'; // re-tokenizes as a bad-string followed by whitespace (as the original always was)
    case 'url':
      return 'url(' + serializeUrlValue(t.value) + ')';
    case 'bad-url':
      return 'url(x x)';
    case 'delim':
      return t.value === '\\' ? '\\\n' : t.value;
    case 'number':
      return t.repr;
    case 'percentage':
      return t.repr + '%';
    case 'dimension':
      return t.repr + serializeUnit(t.unit);
    case 'whitespace':
      return ' ';
    case 'CDO':
      return '<!--';
    case 'CDC':
      return '-->';
    case 'colon':
      return ':';
    case 'semicolon':
      return ';';
    case 'comma':
      return ',';
    case '[':
    case ']':
    case '(':
    case ')':
    case '{':
    case '}':
      return t.type;
    default:
      throw new TypeError(`CSS serialization: not a token: ${typeof t === 'object' && t !== null ? JSON.stringify((t as { type?: unknown }).type) : String(t)}`);
  }
}

// Row and column classes of the spec's comment-insertion table.
const enum K {
  Other,
  Ident,
  Function,
  Url,
  BadUrl,
  Minus,
  Number,
  Percentage,
  Dimension,
  CDC,
  OpenParen,
  Star,
  AtKeyword,
  Hash,
  HashDelim,
  At,
  Dot,
  Plus,
  Slash,
  Lt,
}

function kind(t: CssToken): K {
  switch (t.type) {
    case 'ident':
      return K.Ident;
    case 'function':
      return K.Function;
    case 'url':
      return K.Url;
    case 'bad-url':
      return K.BadUrl;
    case 'number':
      return K.Number;
    case 'percentage':
      return K.Percentage;
    case 'dimension':
      return K.Dimension;
    case 'CDC':
      return K.CDC;
    case '(':
      return K.OpenParen;
    case 'at-keyword':
      return K.AtKeyword;
    case 'hash':
      return K.Hash;
    case 'delim':
      switch (t.value) {
        case '-':
          return K.Minus;
        case '*':
          return K.Star;
        case '#':
          return K.HashDelim;
        case '@':
          return K.At;
        case '.':
          return K.Dot;
        case '+':
          return K.Plus;
        case '/':
          return K.Slash;
        case '<':
          return K.Lt;
      }
      return K.Other;
    default:
      return K.Other;
  }
}

function signed(t: CssToken, signs: string): boolean {
  return (t.type === 'number' || t.type === 'percentage' || t.type === 'dimension') && signs.includes(t.repr[0]!);
}

/** Whether a comment must separate `a` and `b` (the spec's table, with two safe refinements for signs). */
export function needsComment(a: CssToken, b: CssToken): boolean {
  const ka = kind(a);
  // (Most tokens, `:`, `;`, braces, whitespace, commas, need nothing after them whatever follows.)
  if (ka === K.Other) return false;
  const kb = kind(b);
  const identLike = kb === K.Ident || kb === K.Function || kb === K.Url || kb === K.BadUrl;
  const numeric = kb === K.Number || kb === K.Percentage || kb === K.Dimension;
  switch (ka) {
    case K.Ident:
      // An ident "--" before ">" would re-tokenize as a CDC.
      if (a.type === 'ident' && a.value === '--' && b.type === 'delim' && b.value === '>') return true;
      if (numeric && signed(b, '+')) return false; // "U+0025": ident code points never include "+"
      return identLike || kb === K.Minus || numeric || kb === K.CDC || kb === K.OpenParen;
    case K.AtKeyword:
    case K.Hash:
      if (numeric && signed(b, '+')) return false;
      return identLike || kb === K.Minus || numeric || kb === K.CDC;
    case K.Dimension:
      return identLike || kb === K.Minus || numeric || kb === K.CDC;
    case K.HashDelim:
    case K.Minus:
      // CDC added to the spec's row: "--" starts an ident sequence since ident-like "--" was allowed.
      return identLike || kb === K.Minus || numeric || kb === K.CDC;
    case K.Number:
      if (numeric && signed(b, '+-')) return false; // a sign cannot continue a number
      return (
        identLike || numeric || kb === K.CDC || (b.type === 'delim' && b.value === '%') // CDC: "1-->" is a dimension
      );
    case K.At:
      return identLike || kb === K.Minus || kb === K.CDC;
    case K.Dot:
    case K.Plus:
      return numeric;
    case K.Slash:
      return kb === K.Star;
    case K.Lt:
      // HTML safety, not CSS: never write "</" or "<!" (a `<` delim is never followed by "!--" anyway).
      return kb === K.Slash || (b.type === 'delim' && b.value === '!');
    default:
      return false;
  }
}

/** Where tokens are written: a token list, or a `TokenWriter` serializing them as they come. */
export interface TokenSink {
  push(t: CssToken): unknown;
}

/** Characters a serialization gathers in a rope before flattening it (see rope.ts). */
const CHUNK_CHARS = 16384;

/**
 * Serializes tokens as they are pushed, with no token list in between: a token is written when the next one
 * arrives (the empty comment between two tokens depends on both; a trailing `\` delim, known only at the end,
 * needs no newline after it).
 */
export class TokenWriter implements TokenSink {
  private out = '';
  private chunk = '';
  private last: CssToken | null = null;
  push(t: CssToken): number {
    const last = this.last;
    if (last !== null) {
      this.chunk += needsComment(last, t) ? tokenText(last) + '/**/' : tokenText(last);
      if (this.chunk.length >= CHUNK_CHARS) {
        this.out += flattenRope(this.chunk);
        this.chunk = '';
      }
    }
    this.last = t;
    return 0;
  }
  finish(): string {
    const last = this.last;
    if (last !== null) this.chunk += last.type === 'delim' && last.value === '\\' ? '\\' : tokenText(last);
    return this.out + this.chunk;
  }
}

/** Serialize a token list so that it re-tokenizes to the same tokens. */
export function serializeTokens(tokens: readonly CssToken[]): string {
  checkList(tokens, 'serializeTokens', 'the tokens');
  const w = new TokenWriter();
  for (let i = 0; i < tokens.length; i++) w.push(tokens[i]!);
  return w.finish();
}

/** Tokens the serializers write (shared objects: tokens are never changed). */
export const T_WS: CssToken = { type: 'whitespace' };
const T_COLON: CssToken = { type: 'colon' };
export const T_SEMI: CssToken = { type: 'semicolon' };
export const T_LBRACE: CssToken = { type: '{' };
export const T_RBRACE: CssToken = { type: '}' };
const T_RPAREN: CssToken = { type: ')' };
const T_BANG: CssToken = { type: 'delim', value: '!' };
const T_IMPORTANT: CssToken = { type: 'ident', value: 'important' };
const OPEN: Record<string, CssToken> = { '{': T_LBRACE, '[': { type: '[' }, '(': { type: '(' } };
const CLOSE: Record<string, CssToken> = { '{': T_RBRACE, '[': { type: ']' }, '(': T_RPAREN };

/** Flatten component values back to tokens (iteratively), appending to `out`. */
export function flattenComponentValues(values: readonly ComponentValue[]): CssToken[];
export function flattenComponentValues<S extends TokenSink>(values: readonly ComponentValue[], out: S): S;
export function flattenComponentValues(values: readonly ComponentValue[], out: TokenSink = []): TokenSink {
  checkList(values, 'flattenComponentValues', 'the component values');
  // Most values hold no block or function: they are their own tokens.
  if (isFlat(values)) {
    for (let i = 0; i < values.length; i++) out.push(values[i] as CssToken);
    return out;
  }
  const stack: { list: readonly ComponentValue[]; i: number; close: CssToken | null }[] = [{ list: values, i: 0, close: null }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.list.length) {
      stack.pop();
      if (top.close !== null) out.push(top.close);
      continue;
    }
    const v = top.list[top.i++]!;
    if (v.type === 'block') {
      out.push(OPEN[v.open]!);
      stack.push({ list: v.value, i: 0, close: CLOSE[v.open]! });
    } else if (v.type === 'func') {
      out.push({ type: 'function', value: v.name });
      stack.push({ list: v.value, i: 0, close: T_RPAREN });
    } else out.push(v);
  }
  return out;
}

/** Whether no value in the list is a simple block or a function (so each one is a token). */
export function isFlat(values: readonly ComponentValue[]): boolean {
  for (let i = 0; i < values.length; i++) {
    const type = values[i]!.type;
    if (type === 'block' || type === 'func') return false;
  }
  return true;
}

export function serializeComponentValues(values: readonly ComponentValue[]): string {
  checkList(values, 'serializeComponentValues', 'the component values');
  return flattenComponentValues(values, new TokenWriter()).finish();
}

/** Tokens of one declaration (without the trailing semicolon). */
export function declarationTokens(d: Declaration): CssToken[];
export function declarationTokens<S extends TokenSink>(d: Declaration, out: S): S;
export function declarationTokens(d: Declaration, out: TokenSink = []): TokenSink {
  checkObject(d, 'declarationTokens', 'the declaration');
  out.push({ type: 'ident', value: d.name });
  out.push(T_COLON);
  flattenComponentValues(d.value, out);
  if (d.important) {
    out.push(T_BANG);
    out.push(T_IMPORTANT);
  }
  return out;
}

/** Serialize declarations as `a:b;c:d` (no trailing semicolon). */
export function serializeDeclarations(decls: readonly Declaration[]): string {
  checkList(decls, 'serializeDeclarations', 'the declarations');
  const out = new TokenWriter();
  for (let i = 0; i < decls.length; i++) {
    if (i > 0) out.push(T_SEMI);
    declarationTokens(decls[i]!, out);
  }
  return out.finish();
}

/** Tokens of a list of rules/declarations (a stylesheet or a block's contents), iteratively. */
export function blockItemTokens(items: readonly BlockItem[]): CssToken[];
export function blockItemTokens<S extends TokenSink>(items: readonly BlockItem[], out: S): S;
export function blockItemTokens(items: readonly BlockItem[], out: TokenSink = []): TokenSink {
  checkList(items, 'blockItemTokens', 'the rules and declarations');
  const stack: { list: readonly BlockItem[]; i: number }[] = [{ list: items, i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.list.length) {
      stack.pop();
      if (stack.length > 0) out.push(T_RBRACE);
      continue;
    }
    const item = top.list[top.i++]!;
    if (item.type === 'declaration') {
      declarationTokens(item, out);
      out.push(T_SEMI);
      continue;
    }
    if (item.type === 'at-rule') {
      out.push({ type: 'at-keyword', value: item.name });
      if (item.prelude.length > 0 && item.prelude[0]!.type !== 'whitespace') out.push(T_WS);
      flattenComponentValues(item.prelude, out);
      if (item.children === null) {
        out.push(T_SEMI);
        continue;
      }
    } else {
      flattenComponentValues(item.prelude, out);
    }
    out.push(T_LBRACE);
    stack.push({ list: item.children ?? [], i: 0 });
  }
  return out;
}

/** Serialize rules (a stylesheet). */
export function serializeRules(rules: readonly (Rule | Declaration)[]): string {
  checkList(rules, 'serializeRules', 'the rules');
  return blockItemTokens(rules, new TokenWriter()).finish();
}
