/**
 * Behaviour (not time) of the tokenizer on the large adversarial inputs of `npm run bench:scaling` that
 * used to be super-linear: a 2 MB comment built of short pieces, and a million character references in
 * text and in an attribute value. Each must give exactly the tokens and errors of the standard.
 * The timing side is measured by the scaling benchmark, never here.
 */
import { describe, expect, it } from 'vitest';
import type { Attr } from '../src/dom.js';
import { type ParseError, parseErrorReporter } from '../src/errors.js';
import type { TokenSink } from '../src/tokenizer/token-sink.js';
import { Tokenizer } from '../src/tokenizer/tokenizer.js';

/** Records tokens compactly; text is kept as its list of `characters` calls. */
class RecordingSink implements TokenSink {
  tokens: unknown[][] = [];
  characterCalls: string[] = [];
  startTag(name: string, attributes: Attr[], selfClosing: boolean): void {
    this.tokens.push(['startTag', name, attributes.map((a) => [a.name, a.value]), selfClosing]);
  }
  endTag(name: string): void {
    this.tokens.push(['endTag', name]);
  }
  characters(data: string): void {
    this.characterCalls.push(data);
    this.tokens.push(['characters', data.length]);
  }
  nullCharacter(): void {
    this.tokens.push(['nullCharacter']);
  }
  comment(data: string): void {
    this.tokens.push(['comment', data]);
  }
  processingInstruction(target: string, data: string): void {
    this.tokens.push(['processingInstruction', target, data]);
  }
  doctype(name: string | null, publicId: string | null, systemId: string | null, forceQuirks: boolean): void {
    this.tokens.push(['doctype', name, publicId, systemId, forceQuirks]);
  }
  endOfFile(): void {
    this.tokens.push(['endOfFile']);
  }
  cdataAllowed(): boolean {
    return false;
  }
}

function tokenize(input: string): { sink: RecordingSink; errors: ParseError[] } {
  const sink = new RecordingSink();
  const errors: ParseError[] = [];
  new Tokenizer(sink, parseErrorReporter((e) => errors.push(e))).run(input);
  return { sink, errors };
}

function countCodes(errors: ParseError[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of errors) counts[e.code] = (counts[e.code] ?? 0) + 1;
  return counts;
}

describe('tokenizer on large adversarial inputs', () => {
  it('a 2 MB comment of `-a-!` repeats is one comment with the exact data', () => {
    const data = '-a-!'.repeat(512 * 1024);
    const { sink, errors } = tokenize('<!--' + data + '-->x');
    expect(sink.tokens).toEqual([['comment', data], ['characters', 1], ['endOfFile']]);
    expect(errors).toEqual([]);
  });

  it('a 2 MB comment through every comment state keeps every character, U+0000 replaced', () => {
    // `--!x` (end bang), `<!--y` (nested comment), U+0000, `---z` (end state appending a dash), `<<!-w`.
    const unit = '-a-!--!x<!--y\0---z<<!-w';
    const k = Math.ceil((2 << 20) / unit.length);
    const { sink, errors } = tokenize('<!--' + unit.repeat(k) + '--!>');
    expect(sink.tokens).toEqual([['comment', unit.replace('\0', '\uFFFD').repeat(k)], ['endOfFile']]);
    expect(countCodes(errors)).toEqual({ 'nested-comment': k, 'unexpected-null-character': k, 'incorrectly-closed-comment': 1 });
  });

  it('comments cut by the end of input drop only the held-back dashes and bang', () => {
    const body = '-a-!'.repeat(100_000);
    for (const [tail, kept] of [['', ''], ['-', ''], ['--', ''], ['--!', ''], ['<!-', '<!'], ['---', '-']] as const) {
      const { sink, errors } = tokenize('<!--' + body + tail);
      expect(sink.tokens).toEqual([['comment', body + kept], ['endOfFile']]);
      expect(errors.map((e) => e.code)).toEqual(['eof-in-comment']);
    }
  });

  it('a 2 MB bogus comment is one comment with U+0000 replaced', () => {
    const unit = 'a-\0<!';
    const k = Math.ceil((2 << 20) / unit.length);
    const { sink, errors } = tokenize('<!' + unit.repeat(k) + '>x');
    expect(sink.tokens).toEqual([['comment', 'a-\uFFFD<!'.repeat(k)], ['characters', 1], ['endOfFile']]);
    expect(countCodes(errors)).toEqual({ 'incorrectly-opened-comment': 1, 'unexpected-null-character': k });
  });

  const REFS = '&amp;&lt&#65;&#x42;&notit;&NotEqualTilde;'; // six references
  const COUNT = 1_000_002; // a million references, a whole number of REFS

  it('a million character references in text decode exactly, as one run of text', () => {
    const k = COUNT / 6;
    const { sink, errors } = tokenize('<p>' + REFS.repeat(k) + '</p>');
    const expected = '&<AB\u00acit;\u2242\u0338'.repeat(k);
    expect(sink.characterCalls).toHaveLength(1);
    expect(sink.characterCalls[0] === expected).toBe(true);
    expect(sink.tokens).toEqual([['startTag', 'p', [], false], ['characters', expected.length], ['endTag', 'p'], ['endOfFile']]);
    // `&lt` and `&not` (before `it;`) lack their semicolon.
    expect(countCodes(errors)).toEqual({ 'missing-semicolon-after-character-reference': 2 * k });
  });

  it('a million character references in an attribute value decode exactly', () => {
    const k = COUNT / 6;
    const { sink, errors } = tokenize('<p title="' + REFS.repeat(k) + '" id=' + '&#x26;x'.repeat(1000) + '>');
    // In an attribute, `&not` followed by an alphanumeric stays as written (for historical reasons).
    const title = '&<AB&notit;\u2242\u0338'.repeat(k);
    expect(sink.tokens).toHaveLength(2);
    const [name, attrs, selfClosing] = sink.tokens[0]!.slice(1) as [string, [string, string][], boolean];
    expect([name, selfClosing, attrs.map((a) => a[0])]).toEqual(['p', false, ['title', 'id']]);
    expect(attrs[0]![1] === title).toBe(true);
    expect(attrs[1]![1]).toBe('&x'.repeat(1000));
    expect(countCodes(errors)).toEqual({ 'missing-semicolon-after-character-reference': k });
  });

  it('a 2 MB attribute value with U+0000 and unmatched `&` keeps every character', () => {
    const unit = 'ab&c=\0&zz;&';
    const k = Math.ceil((2 << 20) / unit.length);
    const { sink, errors } = tokenize("<p a='" + unit.repeat(k) + "'>");
    expect(sink.tokens).toEqual([['startTag', 'p', [['a', 'ab&c=\uFFFD&zz;&'.repeat(k)]], false], ['endOfFile']]);
    expect(countCodes(errors)).toEqual({ 'unexpected-null-character': k, 'unknown-named-character-reference': k });
  });

  // The data state scans the first 24 code units of a run (SHORT_RUN) one by one, then finds the run's stops (`<`,
  // `&`, U+0000) with indexOf and remembers each kind's next one for the runs after. Stops at many distances from a
  // run's start (around multiples of STEP), and stops of one kind remembered across many of another kind, must all
  // be found where they are.
  const STEP = 8192;
  const RUN_START = 24;
  /** The tokens of a run of `a`s with stops: text merged, `&amp;` decoded, as the standard gives them. */
  function expectedTokens(pieces: string[]): unknown[][] {
    const out: unknown[][] = [];
    let text = '';
    const flush = (): void => {
      if (text !== '') out.push(['text', text]);
      text = '';
    };
    for (const piece of pieces) {
      if (piece === '&amp;') text += '&';
      else if (piece === '<i>') (flush(), out.push(['startTag', 'i']));
      else if (piece === '</i>') (flush(), out.push(['endTag', 'i']));
      else if (piece === '\0') (flush(), out.push(['nullCharacter']));
      else text += piece;
    }
    flush();
    out.push(['endOfFile']);
    return out;
  }
  /** The tokenizer's tokens for the same comparison: consecutive `characters` calls joined. */
  function actualTokens(input: string): { tokens: unknown[][]; nulls: number } {
    const { sink, errors } = tokenize(input);
    const tokens: unknown[][] = [];
    let t = 0;
    for (const token of sink.tokens) {
      if (token[0] === 'characters') {
        const data = sink.characterCalls[t++]!;
        const last = tokens[tokens.length - 1];
        if (last !== undefined && last[0] === 'text') last[1] += data;
        else tokens.push(['text', data]);
      } else tokens.push(token[0] === 'startTag' || token[0] === 'endTag' ? [token[0], token[1]] : token);
    }
    return { tokens, nulls: errors.filter((e) => e.code === 'unexpected-null-character').length };
  }

  it('finds the stops of a long text run at many distances from its start', () => {
    let cases = 0;
    for (const stop of ['<i>', '&amp;', '\0']) {
      for (const w of [1, 2, 3]) {
        for (let d = -2; d <= 2; d++) {
          // One stop `w` × STEP + `d` code units into the run's indexOf part, then more text and a second stop.
          const at = RUN_START + w * STEP + d;
          const pieces = ['a'.repeat(at), stop, 'b'.repeat(STEP + 5), stop === '<i>' ? '</i>' : stop, 'c'];
          const { tokens, nulls } = actualTokens(pieces.join(''));
          expect(tokens).toEqual(expectedTokens(pieces));
          expect(nulls).toBe(stop === '\0' ? 2 : 0);
          cases++;
        }
      }
    }
    expect(cases).toBe(45);
  });

  it('remembers the next stop of each kind across the stops of the others', () => {
    // A `<` and a U+0000 far away, with an `&` every 1,000 code units before them: each kind is found from where the
    // run is when it is needed, and none is skipped or found twice.
    const pieces: string[] = [];
    for (let i = 0; i < 40; i++) pieces.push('x'.repeat(1000), '&amp;');
    pieces.push('y'.repeat(3 * STEP - 7), '\0', 'z'.repeat(STEP), '<i>', 'w'.repeat(2 * STEP + 1), '&amp;', '</i>');
    for (let i = 0; i < 30; i++) pieces.push('v'.repeat(2000 + i), i % 3 === 0 ? '\0' : i % 3 === 1 ? '&amp;' : '<i>');
    const { tokens, nulls } = actualTokens(pieces.join(''));
    expect(tokens).toEqual(expectedTokens(pieces));
    expect(nulls).toBe(11);
  });

  it('finds U+0000 in long runs of a string of two-byte characters, and none past the last', () => {
    // One character past U+00FF makes the whole input a string of two-byte characters, where the data state looks
    // for U+0000 only in the run up to the next `<` or `&` (see the data state).
    const pieces: string[] = ['\u0100'];
    for (let i = 0; i < 12; i++) {
      pieces.push('\u03be'.repeat(RUN_START + i * 37), i % 4 === 0 ? '\0' : i % 4 === 1 ? '&amp;' : i % 4 === 2 ? '<i>' : '</i>');
      if (i % 3 === 0) pieces.push('y'.repeat(RUN_START + 1), '\0', '\0');
    }
    pieces.push('z'.repeat(STEP));
    const { tokens, nulls } = actualTokens(pieces.join(''));
    expect(tokens).toEqual(expectedTokens(pieces));
    expect(nulls).toBe(3 + 4 * 2);
  });
});
