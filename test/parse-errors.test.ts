/**
 * Parse error codes: the names `parseErrorReporter` gives each `ParseErrorCode` are the members' names in
 * kebab-case; it places offsets on lines and columns (LF, CR LF and lone CR each end a line) and reports the
 * input stream errors in input order.
 */
import { describe, expect, it } from 'vitest';
import { type ParseError, ParseErrorCode, parseErrorReporter } from '../src/errors.js';

describe('parseErrorReporter', () => {
  it('names every code after its member, in kebab-case', () => {
    const members = Object.keys(ParseErrorCode).filter((k) => Number.isNaN(Number(k)));
    expect(members.length).toBeGreaterThan(90);
    // The codes are 0 to n - 1, each once (the reporter's names are indexed by code).
    const codes = members.map((m) => ParseErrorCode[m as keyof typeof ParseErrorCode] as number).sort((a, b) => a - b);
    expect(codes).toEqual(members.map((_, i) => i));
    for (const member of members) {
      const errors: ParseError[] = [];
      parseErrorReporter((e) => errors.push(e)).error(ParseErrorCode[member as keyof typeof ParseErrorCode], 0, '');
      const kebab = member.replace(/\B(?=[A-Z])|(?<=[a-z])(?=[0-9])/g, '-').replace('_', '.').toLowerCase();
      expect(errors[0]!.code).toBe(kebab);
      expect(errors[0]!.code).toMatch(/^[a-z]+(-[a-z0-9.]+)*$/);
    }
  });

  it('gives 1-based lines and columns, counting LF, CR LF and a lone CR as one line break each', () => {
    const errors: ParseError[] = [];
    const report = parseErrorReporter((e) => errors.push(e));
    const input = 'ab\ncd\r\nef\rgh';
    for (const offset of [11, 0, 4, 8, 10]) report.error(ParseErrorCode.EofInTag, offset, input);
    expect(errors.map((e) => [e.line, e.column, e.offset])).toEqual([[4, 2, 11], [1, 1, 0], [2, 2, 4], [3, 2, 8], [4, 1, 10]]);
    report.error(ParseErrorCode.EofInTag, 1, 'x\ny');
    expect(errors.at(-1)).toEqual({ code: 'eof-in-tag', line: 1, column: 2, offset: 1 });
  });

  it('reports the input stream errors up to each error first, and the rest at the end', () => {
    const errors: ParseError[] = [];
    const report = parseErrorReporter((e) => errors.push(e));
    // U+0001 at 0, a lone surrogate at 2, U+FFFF at 4, a noncharacter pair (U+1FFFF) at 6, U+0080 at 9.
    const input = '\u0001a\uD800b\uFFFFc\uD83F\uDFFFd\u0080';
    report.error(ParseErrorCode.EofInTag, 2, input);
    report.error(ParseErrorCode.UnexpectedNullCharacter, 1, input);
    report.error(ParseErrorCode.NestedComment, 7, input);
    report.end(input);
    expect(errors.map((e) => [e.code, e.offset])).toEqual([
      ['control-character-in-input-stream', 0],
      ['surrogate-in-input-stream', 2],
      ['eof-in-tag', 2],
      ['unexpected-null-character', 1],
      ['noncharacter-in-input-stream', 4],
      ['noncharacter-in-input-stream', 6],
      ['nested-comment', 7],
      ['control-character-in-input-stream', 9],
    ]);
    // After the end, the same input is read afresh.
    errors.length = 0;
    report.end(input);
    expect(errors.length).toBe(5);
  });
});
