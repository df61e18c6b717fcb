/**
 * CSS tokenizer (CSS Syntax Module Level 3, section 4 "Tokenization").
 *
 * Works on UTF-16 code units after the spec's preprocessing; every non-ASCII code unit (including both halves
 * of a surrogate pair) counts as a "non-ASCII ident code point", as browsers do today (the newer, narrower
 * non-ASCII ranges of the editor's draft are not shipped anywhere yet).
 * Comments produce no tokens. No regular expressions in the per-character loops.
 */

export type CssToken =
  | { type: 'ident'; value: string }
  | { type: 'function'; value: string }
  | { type: 'at-keyword'; value: string }
  | { type: 'hash'; value: string; id: boolean }
  | { type: 'string'; value: string }
  | { type: 'bad-string' }
  | { type: 'url'; value: string }
  | { type: 'bad-url' }
  | { type: 'delim'; value: string }
  | { type: 'number'; value: number; repr: string; integer: boolean }
  | { type: 'percentage'; value: number; repr: string; integer: boolean }
  | { type: 'dimension'; value: number; repr: string; integer: boolean; unit: string }
  | { type: 'whitespace' }
  | { type: 'CDO' }
  | { type: 'CDC' }
  | { type: 'colon' }
  | { type: 'semicolon' }
  | { type: 'comma' }
  | { type: '[' }
  | { type: ']' }
  | { type: '(' }
  | { type: ')' }
  | { type: '{' }
  | { type: '}' };

export type CssTokenType = CssToken['type'];

import { checkText } from './check.js';

const EOF = -1;
const LF = 0x0a;
const REPLACEMENT = '\uFFFD';

// Shared singletons for value-less tokens (tokens are treated as immutable).
const WS: CssToken = { type: 'whitespace' };
const T_CDO: CssToken = { type: 'CDO' };
const T_CDC: CssToken = { type: 'CDC' };
const T_COLON: CssToken = { type: 'colon' };
const T_SEMI: CssToken = { type: 'semicolon' };
const T_COMMA: CssToken = { type: 'comma' };
const T_LBRACKET: CssToken = { type: '[' };
const T_RBRACKET: CssToken = { type: ']' };
const T_LPAREN: CssToken = { type: '(' };
const T_RPAREN: CssToken = { type: ')' };
const T_LBRACE: CssToken = { type: '{' };
const T_RBRACE: CssToken = { type: '}' };
const T_BAD_STRING: CssToken = { type: 'bad-string' };
const T_BAD_URL: CssToken = { type: 'bad-url' };
/** One shared delim token for each ASCII code point (made on first use): `.`, `>`, `-`, `!`... recur in every sheet. */
const DELIMS: (CssToken | undefined)[] = new Array(0x80);

function delim(c: number): CssToken {
  if (c >= 0x80) return { type: 'delim', value: String.fromCharCode(c) };
  return (DELIMS[c] ??= { type: 'delim', value: String.fromCharCode(c) });
}

/** What `preprocess` looks at: CR, FF, U+0000 and surrogate code units (a lone one becomes U+FFFD). */
const NEEDS_PREPROCESSING = /[\r\f\0\ud800-\udfff]/;

/** 3.3 Preprocessing the input stream: CR, CRLF and FF become LF; NUL and lone surrogates become U+FFFD. */
export function preprocess(input: string): string {
  checkText(input, 'preprocess');
  return preprocessText(input);
}

/** preprocess, for text already checked. */
function preprocessText(input: string): string {
  // Most style attributes and sheets have nothing to replace: one regular expression scan says so.
  if (!NEEDS_PREPROCESSING.test(input)) return input;
  let out = '';
  let start = 0;
  const n = input.length;
  for (let i = 0; i < n; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x0d || c === 0x0c || c === 0) {
      out += input.slice(start, i);
      if (c === 0) out += REPLACEMENT;
      else {
        out += '\n';
        if (c === 0x0d && i + 1 < n && input.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < n) {
        const d = input.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          continue;
        }
      }
      out += input.slice(start, i) + REPLACEMENT;
      start = i + 1;
    }
  }
  return start === 0 ? input : out + input.slice(start);
}

// 4.2 Definitions.
export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
export function isIdentStart(c: number): boolean {
  return isLetter(c) || c >= 0x80 || c === 0x5f;
}
export function isIdentChar(c: number): boolean {
  return isIdentStart(c) || isDigit(c) || c === 0x2d;
}
function isNonPrintable(c: number): boolean {
  return (c >= 0 && c <= 8) || c === 0x0b || (c >= 0x0e && c <= 0x1f) || c === 0x7f;
}
function isWhitespace(c: number): boolean {
  return c === LF || c === 0x09 || c === 0x20;
}
/** "check if two code points are a valid escape" (a backslash before EOF is not one). */
function validEscape(a: number, b: number): boolean {
  return a === 0x5c && b !== LF && b !== EOF;
}
/** "check if three code points would start an ident sequence". */
function startsIdent(a: number, b: number, c: number): boolean {
  if (a === 0x2d) return isIdentStart(b) || b === 0x2d || validEscape(b, c);
  if (isIdentStart(a)) return true;
  return validEscape(a, b);
}
/** "check if three code points would start a number". */
function startsNumber(a: number, b: number, c: number): boolean {
  if (a === 0x2b || a === 0x2d) return isDigit(b) || (b === 0x2e && isDigit(c));
  if (a === 0x2e) return isDigit(b);
  return isDigit(a);
}

export class CssTokenizer {
  private readonly s: string;
  private pos = 0;
  /** Ident and function tokens made so far, by a hash of their text (see consumeIdentLike). */
  private seen: (CssToken | undefined)[] | null = null;
  /** Where the number consumeNumber last read starts. */
  private numberStart = 0;

  constructor(input: string) {
    checkText(input, 'CssTokenizer');
    this.s = preprocessText(input);
  }

  private at(i: number): number {
    return i < this.s.length ? this.s.charCodeAt(i) : EOF;
  }

  /** All tokens, without the final EOF. */
  tokenizeAll(): CssToken[] {
    const out: CssToken[] = [];
    for (let t = this.next(); t !== null; t = this.next()) out.push(t);
    return out;
  }

  /** 4.3.1 Consume a token (null at EOF). */
  next(): CssToken | null {
    this.consumeComments();
    const s = this.s;
    if (this.pos >= s.length) return null;
    const c = s.charCodeAt(this.pos);
    const p = this.pos;
    switch (c) {
      case LF:
      case 0x09:
      case 0x20:
        // whitespace: consume as much as possible
        this.pos++;
        while (isWhitespace(this.at(this.pos))) this.pos++;
        return WS;
      case 0x22: // "
      case 0x27: // '
        this.pos++;
        return this.consumeString(c);
      case 0x23: // #
        if (isIdentChar(this.at(p + 1)) || validEscape(this.at(p + 1), this.at(p + 2))) {
          this.pos++;
          const id = startsIdent(this.at(this.pos), this.at(this.pos + 1), this.at(this.pos + 2));
          return { type: 'hash', value: this.consumeIdentSequence(), id };
        }
        this.pos++;
        return delim(0x23);
      case 0x28:
        this.pos++;
        return T_LPAREN;
      case 0x29:
        this.pos++;
        return T_RPAREN;
      case 0x2b: // +
        if (startsNumber(c, this.at(p + 1), this.at(p + 2))) return this.consumeNumeric();
        this.pos++;
        return delim(0x2b);
      case 0x2c:
        this.pos++;
        return T_COMMA;
      case 0x2d: // -
        if (startsNumber(c, this.at(p + 1), this.at(p + 2))) return this.consumeNumeric();
        if (this.at(p + 1) === 0x2d && this.at(p + 2) === 0x3e) {
          this.pos += 3;
          return T_CDC;
        }
        if (startsIdent(c, this.at(p + 1), this.at(p + 2))) return this.consumeIdentLike();
        this.pos++;
        return delim(0x2d);
      case 0x2e: // .
        if (startsNumber(c, this.at(p + 1), this.at(p + 2))) return this.consumeNumeric();
        this.pos++;
        return delim(0x2e);
      case 0x3a:
        this.pos++;
        return T_COLON;
      case 0x3b:
        this.pos++;
        return T_SEMI;
      case 0x3c: // <
        if (this.at(p + 1) === 0x21 && this.at(p + 2) === 0x2d && this.at(p + 3) === 0x2d) {
          this.pos += 4;
          return T_CDO;
        }
        this.pos++;
        return delim(0x3c);
      case 0x40: // @
        this.pos++;
        if (startsIdent(this.at(this.pos), this.at(this.pos + 1), this.at(this.pos + 2))) {
          return { type: 'at-keyword', value: this.consumeIdentSequence() };
        }
        return delim(0x40);
      case 0x5b:
        this.pos++;
        return T_LBRACKET;
      case 0x5c: // \
        if (validEscape(c, this.at(p + 1))) return this.consumeIdentLike();
        this.pos++; // parse error
        return delim(0x5c);
      case 0x5d:
        this.pos++;
        return T_RBRACKET;
      case 0x7b:
        this.pos++;
        return T_LBRACE;
      case 0x7d:
        this.pos++;
        return T_RBRACE;
      default:
        if (isDigit(c)) return this.consumeNumeric();
        if (isIdentStart(c)) return this.consumeIdentLike();
        this.pos++;
        return delim(c);
    }
  }

  /** 4.3.2 Consume comments. */
  private consumeComments(): void {
    const s = this.s;
    while (this.pos + 1 < s.length && s.charCodeAt(this.pos) === 0x2f && s.charCodeAt(this.pos + 1) === 0x2a) {
      const end = s.indexOf('*/', this.pos + 2);
      this.pos = end < 0 ? s.length : end + 2; // unterminated comment: parse error, consume to EOF
    }
  }

  /** 4.3.3 Consume a numeric token. */
  private consumeNumeric(): CssToken {
    const integer = this.consumeNumber();
    const repr = this.s.slice(this.numberStart, this.pos);
    // 4.3.13 Convert a string to a number: the repr is exactly the grammar Number() accepts.
    const value = Number(repr);
    if (startsIdent(this.at(this.pos), this.at(this.pos + 1), this.at(this.pos + 2))) {
      return { type: 'dimension', value, repr, integer, unit: this.consumeIdentSequence() };
    }
    if (this.at(this.pos) === 0x25) {
      this.pos++;
      return { type: 'percentage', value, repr, integer };
    }
    return { type: 'number', value, repr, integer };
  }

  /** 4.3.12 Consume a number: its text starts at `numberStart`; returns whether it is an integer. */
  private consumeNumber(): boolean {
    this.numberStart = this.pos;
    let integer = true;
    let c = this.at(this.pos);
    if (c === 0x2b || c === 0x2d) this.pos++;
    while (isDigit(this.at(this.pos))) this.pos++;
    if (this.at(this.pos) === 0x2e && isDigit(this.at(this.pos + 1))) {
      integer = false;
      this.pos += 2;
      while (isDigit(this.at(this.pos))) this.pos++;
    }
    c = this.at(this.pos);
    if (c === 0x45 || c === 0x65) {
      const d = this.at(this.pos + 1);
      const skip = isDigit(d) ? 1 : (d === 0x2b || d === 0x2d) && isDigit(this.at(this.pos + 2)) ? 2 : 0;
      if (skip > 0) {
        integer = false;
        this.pos += 1 + skip;
        while (isDigit(this.at(this.pos))) this.pos++;
      }
    }
    return integer;
  }

  /**
   * 4.3.4 Consume an ident-like token. In a big input, an ident or function token written without escapes is
   * looked up among the ones this tokenizer already made with the same text (property names and keywords recur all
   * through a sheet): tokens are immutable, so one object serves them all.
   */
  private consumeIdentLike(): CssToken {
    const s = this.s;
    const start = this.pos;
    let end = start;
    while (end < s.length && isIdentChar(s.charCodeAt(end))) end++;
    const stop = end < s.length ? s.charCodeAt(end) : EOF;
    const len = end - start;
    if (stop !== 0x5c && len > 0 && !(stop === 0x28 && len === 3)) {
      // No escape, and not "url(": the token's text is s[start, end), plus "(" for a function.
      const fn = stop === 0x28;
      this.pos = fn ? end + 1 : end;
      // The table pays where the parsed sheet outlives the engine's young-generation collections: a big sheet,
      // where every object not made is one the collector does not copy. For small ones, a lookup costs more than
      // an allocation.
      if (s.length < 65536) return { type: fn ? 'function' : 'ident', value: s.slice(start, end) };
      const slot = (len * 7 + s.charCodeAt(start) * 3 + s.charCodeAt(end - 1) + s.charCodeAt(start + (len >> 1)) + (fn ? 64 : 0)) & 127;
      const cache = (this.seen ??= new Array<CssToken | undefined>(128));
      const hit = cache[slot];
      if (hit !== undefined && hit.type === (fn ? 'function' : 'ident')) {
        const value = (hit as { value: string }).value;
        if (value.length === len && s.startsWith(value, start)) return hit;
      }
      const token: CssToken = { type: fn ? 'function' : 'ident', value: s.slice(start, end) };
      cache[slot] = token;
      return token;
    }
    const name = this.consumeIdentSequence();
    if (this.at(this.pos) === 0x28) {
      this.pos++;
      if (name.length === 3 && name.toLowerCase() === 'url') {
        // While the next two input code points are whitespace, consume the next input code point.
        while (isWhitespace(this.at(this.pos)) && isWhitespace(this.at(this.pos + 1))) this.pos++;
        const a = this.at(this.pos);
        const b = isWhitespace(a) ? this.at(this.pos + 1) : a;
        if (b === 0x22 || b === 0x27) return { type: 'function', value: name };
        return this.consumeUrl();
      }
      return { type: 'function', value: name };
    }
    return { type: 'ident', value: name };
  }

  /** 4.3.5 Consume a string token. */
  private consumeString(ending: number): CssToken {
    const s = this.s;
    let value = '';
    let start = this.pos;
    for (;;) {
      const c = this.at(this.pos);
      if (c === ending || c === EOF) {
        value += s.slice(start, this.pos);
        if (c !== EOF) this.pos++; // EOF: parse error, return the string anyway
        return { type: 'string', value };
      }
      if (c === LF) {
        // parse error: reconsume the newline, bad-string
        return T_BAD_STRING;
      }
      if (c === 0x5c) {
        value += s.slice(start, this.pos);
        const d = this.at(this.pos + 1);
        if (d === EOF) this.pos++;
        else if (d === LF) this.pos += 2; // escaped newline: line continuation
        else {
          this.pos++;
          value += this.consumeEscape();
        }
        start = this.pos;
        continue;
      }
      this.pos++;
    }
  }

  /** 4.3.6 Consume a url token (after "url("). */
  private consumeUrl(): CssToken {
    const s = this.s;
    let value = '';
    while (isWhitespace(this.at(this.pos))) this.pos++;
    let start = this.pos;
    for (;;) {
      const c = this.at(this.pos);
      if (c === 0x29 || c === EOF) {
        value += s.slice(start, this.pos);
        if (c !== EOF) this.pos++;
        return { type: 'url', value };
      }
      if (isWhitespace(c)) {
        value += s.slice(start, this.pos);
        while (isWhitespace(this.at(this.pos))) this.pos++;
        const d = this.at(this.pos);
        if (d === 0x29 || d === EOF) {
          if (d !== EOF) this.pos++;
          return { type: 'url', value };
        }
        this.consumeBadUrlRemnants();
        return T_BAD_URL;
      }
      if (c === 0x22 || c === 0x27 || c === 0x28 || isNonPrintable(c)) {
        this.consumeBadUrlRemnants();
        return T_BAD_URL;
      }
      if (c === 0x5c) {
        if (validEscape(c, this.at(this.pos + 1))) {
          value += s.slice(start, this.pos);
          this.pos++;
          value += this.consumeEscape();
          start = this.pos;
          continue;
        }
        this.consumeBadUrlRemnants();
        return T_BAD_URL;
      }
      this.pos++;
    }
  }

  /** 4.3.14 Consume the remnants of a bad url. */
  private consumeBadUrlRemnants(): void {
    for (;;) {
      const c = this.at(this.pos);
      if (c === EOF) return;
      if (c === 0x29) {
        this.pos++;
        return;
      }
      if (validEscape(c, this.at(this.pos + 1))) {
        this.pos++;
        this.consumeEscape(); // so that "\)" does not end the url
        continue;
      }
      this.pos++;
    }
  }

  /** 4.3.7 Consume an escaped code point (the backslash is already consumed). */
  private consumeEscape(): string {
    const c = this.at(this.pos);
    if (c === EOF) return REPLACEMENT; // parse error
    if (isHexDigit(c)) {
      let n = 0;
      let k = 0;
      while (k < 6 && isHexDigit(this.at(this.pos))) {
        n = n * 16 + parseInt(this.s[this.pos]!, 16);
        this.pos++;
        k++;
      }
      if (isWhitespace(this.at(this.pos))) this.pos++;
      if (n === 0 || (n >= 0xd800 && n <= 0xdfff) || n > 0x10ffff) return REPLACEMENT;
      return String.fromCodePoint(n);
    }
    this.pos++;
    // A surrogate pair escaped as "\" + pair: keep the whole code point.
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = this.at(this.pos);
      if (d >= 0xdc00 && d <= 0xdfff) {
        this.pos++;
        return String.fromCharCode(c, d);
      }
    }
    return String.fromCharCode(c);
  }

  /** 4.3.11 Consume an ident sequence. */
  private consumeIdentSequence(): string {
    const s = this.s;
    let result = '';
    let start = this.pos;
    for (;;) {
      const c = this.at(this.pos);
      if (isIdentChar(c)) {
        this.pos++;
        continue;
      }
      if (validEscape(c, this.at(this.pos + 1))) {
        result += s.slice(start, this.pos);
        this.pos++;
        result += this.consumeEscape();
        start = this.pos;
        continue;
      }
      return result + s.slice(start, this.pos);
    }
  }
}

/** Tokenize a whole string (no EOF token in the result). */
export function tokenize(input: string): CssToken[] {
  checkText(input, 'tokenize');
  return new CssTokenizer(input).tokenizeAll();
}
