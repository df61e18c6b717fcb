/**
 * Lookup tables for the character reference states (HTML Standard, 13.2.5.77–13.2.5.84):
 * the longest-match search of the named character reference state over the generated
 * named character references table, and the numeric character reference end state's
 * C1 replacement table.
 */
import { ALPHANUMERIC_STYLES, CASE_PAIR_OFFSETS, NAMES, TERMINATORS, VALUES } from './named-character-references.js';

/** The names, sorted by UTF-16 code unit (a name sorts before every longer name it is a prefix of). */
let names: string[] = [];
/** The replacement text of each name. */
let values: string[] = [];
/** For each ASCII code of a first character: the index range [start, end) of the names starting with it. */
const firstStart = new Int32Array(128);
const firstEnd = new Int32Array(128);

/**
 * Decodes the table (see named-character-references.ts) on the first named reference, not at load: about a
 * millisecond that a program which never meets one does not pay.
 *
 * The entries come in the order of their values; they are searched in the order of their names. Sorting the
 * (ASCII) names alone is fast, so the values are found again through a map.
 */
function decodeTable(): void {
  const valueOf = new Map<string, string>();
  let at = 0;
  /** Reads a number of VALUES at `at`: digits ']'..'}' (base 33), then a final digit '('..'[' (base 52). */
  const readNumber = (): number => {
    let n = 0;
    let c = VALUES.charCodeAt(at++);
    for (; c >= 0x5d; c = VALUES.charCodeAt(at++)) n = n * 33 + c - 0x5d;
    return n * 52 + c - 0x28;
  };
  let first = 0;
  for (let i = 0; i < NAMES.length; ) {
    let j = i;
    // Names are ASCII letters and digits; the terminators are punctuation below '0'.
    while (NAMES.charCodeAt(j) >= 0x30) j++;
    const name = NAMES.slice(i, j);
    const flags = TERMINATORS.indexOf(NAMES[j]!);
    first += readNumber();
    let value = String.fromCodePoint(first);
    if (VALUES.charCodeAt(at) === 0x21 /* ! */) {
      at++;
      value += String.fromCodePoint(readNumber());
    }
    valueOf.set(name + ';', value);
    // 1: also a legacy name, valid without the semicolon.
    if (flags & 1) valueOf.set(name, value);
    // 2 × (1 + k): the all-lowercase name is this one's case pair, its value this one's + CASE_PAIR_OFFSETS[k].
    if (flags > 1) {
      const lower = name.toLowerCase();
      const lowerValue = String.fromCodePoint(first + CASE_PAIR_OFFSETS[(flags >> 1) - 1]!);
      valueOf.set(lower + ';', lowerValue);
      if (flags & 1) valueOf.set(lower, lowerValue);
    }
    i = j + 1;
  }
  // The mathematical alphanumeric letters the table leaves out (A–Z then a–z are consecutive in each style).
  for (const [suffix, first] of ALPHANUMERIC_STYLES) {
    for (let i = 0; i < 52; i++) {
      const name = String.fromCharCode(i < 26 ? 0x41 + i : 0x47 + i) + suffix + ';';
      if (!valueOf.has(name)) valueOf.set(name, String.fromCodePoint(first + i));
    }
  }
  const sorted = [...valueOf.keys()].sort();
  values = sorted.map((n) => valueOf.get(n)!);
  for (let i = sorted.length - 1; i >= 0; i--) {
    const c = sorted[i]!.charCodeAt(0);
    if (firstEnd[c] === 0) firstEnd[c] = i + 1;
    firstStart[c] = i;
  }
  names = sorted;
}

/** Length (in code units of the input) of the last match found by `matchNamedCharacterReference`. */
export let matchedLength = 0;

/**
 * Named character reference state (13.2.5.78), the matching step: finds the longest name of the
 * table that the input starts with at `start` (the character after `&`), without reading past `end`.
 * Returns the index of the name (its value is `namedCharacterReferenceValue(index)`) and sets
 * `matchedLength`, or returns -1 when no name matches.
 *
 * The search narrows a range of the sorted names one input character at a time (two binary
 * searches per character), so it allocates nothing.
 */
export function matchNamedCharacterReference(input: string, start: number, end: number): number {
  if (names.length === 0) decodeTable();
  const first = input.charCodeAt(start);
  if (first >= 128) return -1;
  let lo = firstStart[first]!;
  let hi = firstEnd[first]!;
  if (lo === hi) return -1;
  let best = -1;
  let bestLength = 0;
  for (let depth = 1; ; depth++) {
    // Names in [lo, hi) all share the first `depth` characters with the input.
    if (names[lo]!.length === depth) {
      best = lo;
      bestLength = depth;
      lo++;
      if (lo === hi) break;
    }
    const at = start + depth;
    if (at >= end) break;
    const c = input.charCodeAt(at);
    // Lower bound: first name in [lo, hi) whose character at `depth` is >= c.
    let a = lo;
    let b = hi;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (names[m]!.charCodeAt(depth) < c) a = m + 1;
      else b = m;
    }
    if (a === hi || names[a]!.charCodeAt(depth) !== c) break;
    lo = a;
    // Upper bound: first name in [lo, hi) whose character at `depth` is > c.
    b = hi;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (names[m]!.charCodeAt(depth) <= c) a = m + 1;
      else b = m;
    }
    hi = a;
  }
  matchedLength = bestLength;
  return best;
}

export function namedCharacterReferenceValue(index: number): string {
  return values[index]!;
}

/**
 * Numeric character reference end state (13.2.5.84): the replacements for references to C1 controls,
 * indexed by code - 0x80 (0: no replacement).
 */
export const C1_REPLACEMENTS = new Uint16Array([
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
]);
