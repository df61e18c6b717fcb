/**
 * Parse errors, as the HTML standard names them ("parse errors" section of the parsing chapter).
 *
 * Parse errors never stop parsing: the standard defines the recovery for each. They are reported
 * to the caller's `onError` callback, if any, and cost nothing when no callback is given.
 *
 * Inside the parser an error is a code (`parse-error-codes.ts`) and an offset (a `ParseErrorSink` call); the code's name
 * and the line and column are made only on the public `onError` path (`parseErrorReporter`), so a bundle
 * that never reports errors (e.g. `sanitize`) carries neither the names nor the line computation.
 */

import * as ParseErrorCode from './parse-error-codes.js';

export { ParseErrorCode };

export interface ParseError {
  /** The standard's error code, e.g. `eof-in-tag`, `unexpected-null-character`. */
  code: string;
  /** 1-based line of the input position the error refers to. */
  line: number;
  /** 1-based column (in UTF-16 code units) of that position. */
  column: number;
  /** 0-based offset (in UTF-16 code units) of that position in the input string as given. */
  offset: number;
}

export type ParseErrorHandler = (error: ParseError) => void;

/** Where the tokenizer (and through it the tree builder) reports parse errors. */
export interface ParseErrorSink {
  /** A parse error at `offset` in `input` (the input as given, before newline normalization). */
  error(code: number, offset: number, input: string): void;
  /** The end of `input`: no error will follow (for this run). */
  end(input: string): void;
}

/** The codes' names, by code (a test checks them against the constants' names). */
const CODE_NAMES = (
  'abrupt-closing-of-empty-comment abrupt-doctype-public-identifier abrupt-doctype-system-identifier ' +
  'absence-of-digits-in-numeric-character-reference cdata-in-html-content ' +
  'character-reference-outside-unicode-range control-character-in-input-stream ' +
  'control-character-reference disallowed-processing-instruction-target duplicate-attribute ' +
  'end-tag-with-attributes end-tag-with-trailing-solidus eof-before-tag-name eof-in-cdata ' +
  'eof-in-comment eof-in-doctype eof-in-processing-instruction eof-in-script-html-comment-like-text ' +
  'eof-in-tag incorrectly-closed-comment incorrectly-opened-comment ' +
  'invalid-character-sequence-after-doctype-name ' +
  'invalid-first-character-of-processing-instruction-target invalid-first-character-of-tag-name ' +
  'invalid-processing-instruction-target missing-attribute-value missing-doctype-name ' +
  'missing-doctype-public-identifier missing-doctype-system-identifier missing-end-tag-name ' +
  'missing-quote-before-doctype-public-identifier missing-quote-before-doctype-system-identifier ' +
  'missing-semicolon-after-character-reference missing-whitespace-after-doctype-public-keyword ' +
  'missing-whitespace-after-doctype-system-keyword missing-whitespace-before-doctype-name ' +
  'missing-whitespace-between-attributes ' +
  'missing-whitespace-between-doctype-public-and-system-identifiers nested-comment ' +
  'noncharacter-character-reference noncharacter-in-input-stream null-character-reference ' +
  'surrogate-character-reference surrogate-in-input-stream ' +
  'unexpected-character-after-doctype-system-identifier unexpected-character-in-attribute-name ' +
  'unexpected-character-in-unquoted-attribute-value unexpected-equals-sign-before-attribute-name ' +
  'unexpected-null-character unexpected-solidus-in-tag unknown-named-character-reference ' +
  'adoption-agency-1.2 adoption-agency-1.3 adoption-agency-4.4 end-tag-too-early eof-in-template ' +
  'eof-in-text expected-doctype-but-got-chars expected-doctype-but-got-end-tag ' +
  'expected-doctype-but-got-eof expected-doctype-but-got-start-tag ' +
  'non-void-html-element-start-tag-with-trailing-solidus unexpected-cell-in-table-body ' +
  'unexpected-char-after-after-frameset unexpected-char-after-frameset unexpected-char-in-frameset ' +
  'unexpected-character-in-table unexpected-doctype unexpected-end-tag unexpected-end-tag-before-html ' +
  'unexpected-end-tag-p unexpected-end-tag-treated-as unexpected-form-in-table ' +
  'unexpected-hidden-input-in-table unexpected-html-element-in-foreign-content ' +
  'unexpected-input-in-select unexpected-select-in-select unexpected-start-tag ' +
  'unexpected-start-tag-ignored unexpected-start-tag-implies-end-tag ' +
  'unexpected-start-tag-out-of-my-head unexpected-start-tag-treated-as unexpected-token ' +
  'unexpected-token-after-after-body unexpected-token-after-after-frameset unexpected-token-after-body ' +
  'unexpected-token-after-frameset unexpected-token-in-column-group unexpected-token-in-frameset ' +
  'unexpected-token-in-head-noscript unexpected-token-in-table unknown-doctype'
).split(' ');

/**
 * A sink that reports each error to `onError`, with its code's name and its line and column, in input order
 * with the input stream errors (13.2.3.5 "Preprocessing the input stream": controls, noncharacters and lone
 * surrogates), which it finds itself: those up to an error's offset are reported before it, the others at the end.
 */
export function parseErrorReporter(onError: ParseErrorHandler): ParseErrorSink {
  // `input` has been read up to `scanned`: the line starts found so far (a binary search places any offset, in or
  // out of order) and the input stream errors before `scanned`, already reported.
  let input = '';
  let starts = [0];
  let scanned = 0;
  const begin = (s: string): void => {
    input = s;
    starts = [0];
    scanned = 0;
  };
  const report = (code: number, offset: number): void => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >>> 1;
      if (starts[m]! <= offset) lo = m;
      else hi = m - 1;
    }
    onError({ code: CODE_NAMES[code]!, line: lo + 1, column: offset - starts[lo]! + 1, offset });
  };
  /** Reads `input` up to `end`, reporting its input stream errors. */
  const scan = (end: number): void => {
    const s = input;
    let i = scanned;
    for (; i < end; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x20 && c < 0x7f) continue;
      if (c < 0x20) {
        // LF, CR LF and a lone CR end a line; the other controls but NUL, TAB and FF are errors.
        if (c === 0x0a || (c === 0x0d && s.charCodeAt(i + 1) !== 0x0a)) starts.push(i + 1);
        else if (c !== 0x00 && c !== 0x09 && c !== 0x0c && c !== 0x0d) report(ParseErrorCode.ControlCharacterInInputStream, i);
      } else if (c <= 0x9f) {
        report(ParseErrorCode.ControlCharacterInInputStream, i);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const d = s.charCodeAt(i + 1);
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          if ((cp & 0xfffe) === 0xfffe) report(ParseErrorCode.NoncharacterInInputStream, i);
          i++;
        } else {
          report(ParseErrorCode.SurrogateInInputStream, i);
        }
      } else if ((c >= 0xfdd0 && c <= 0xfdef) || c === 0xfffe || c === 0xffff) {
        report(ParseErrorCode.NoncharacterInInputStream, i);
      }
    }
    // (Past `end` when it split a surrogate pair.)
    scanned = i;
  };
  return {
    error(code, offset, s) {
      if (s !== input) begin(s);
      if (offset >= scanned) scan(Math.min(offset + 1, s.length));
      report(code, offset);
    },
    end(s) {
      if (s !== input) begin(s);
      scan(s.length);
      // Ready for another run, of the same string or not.
      begin('');
    },
  };
}
