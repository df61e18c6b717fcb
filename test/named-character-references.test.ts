/**
 * The named character references table: the committed generated module is current, and every name of the
 * WHATWG table (read from the `entities` dev dependency by the generator) decodes to its value with the longest
 * match, as the tokenizer's named character reference state uses it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { OUTPUT_PATH, entries, generateNamedCharacterReferencesSource } from '../scripts/generate-named-character-references.js';
import { matchNamedCharacterReference, matchedLength, namedCharacterReferenceValue } from '../src/tokenizer/character-references.js';
import { repoRoot } from './support/shared.js';

describe('named character references table', () => {
  test('the committed named-character-references.ts is current (regenerate: npx tsx scripts/generate-named-character-references.ts)', () => {
    expect(readFileSync(join(repoRoot, OUTPUT_PATH), 'utf8')).toBe(generateNamedCharacterReferencesSource());
  });

  test('all 2231 names decode to their values', () => {
    expect(entries.length).toBe(2231);
    const wrong: string[] = [];
    for (const [name, value] of entries) {
      // '!' cannot continue a name, so the longest match is the name itself.
      const input = 'x' + name + '!';
      const i = matchNamedCharacterReference(input, 1, input.length);
      if (i < 0 || matchedLength !== name.length || namedCharacterReferenceValue(i) !== value) wrong.push(name);
    }
    expect(wrong).toEqual([]);
  });

  test('longest match and prefixes', () => {
    const at = (s: string): [number, string] => {
      const i = matchNamedCharacterReference(s, 0, s.length);
      return i < 0 ? [0, ''] : [matchedLength, namedCharacterReferenceValue(i)];
    };
    expect(at('notin;')).toEqual([6, '\u2209']);
    expect(at('notit;')).toEqual([3, '\u00ac']);
    expect(at('amp')).toEqual([3, '&']);
    expect(at('ampx')).toEqual([3, '&']);
    expect(at('am')).toEqual([0, '']);
    expect(at('nGt;')).toEqual([4, '\u226b\u20d2']);
    expect(at('Afr;')).toEqual([4, '\u{1d504}']);
    expect(at('zwnj;')).toEqual([5, '\u200c']);
    expect(at('AElig')).toEqual([5, '\u00c6']);
    expect(at('\u00e9')).toEqual([0, '']);
  });
});
