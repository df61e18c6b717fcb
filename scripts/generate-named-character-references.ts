/**
 * Generates `src/tokenizer/named-character-references.ts`: the WHATWG named character references
 * table (HTML Standard, "13.5 Named character references"), in a compact form that the tokenizer's
 * character reference module decodes once.
 *
 * Run: npx tsx scripts/generate-named-character-references.ts
 * `test/named-character-references.test.ts` regenerates in memory and fails when the committed module is stale.
 *
 * Source: the `entities` dev dependency, whose packed trie (`htmlDecodeTree`) carries the whole
 * WHATWG table, including the legacy references that may appear without a semicolon. The trie is
 * walked through its public `determineBranch` helper; nothing of its layout is copied.
 *
 * The table ships in the browser bundle, so the encoding is chosen for its gzipped size (it is still the biggest
 * input of the sanitize bundle):
 *  - entries are ordered by value, which makes the values a list of small increments (written as ASCII digits:
 *    minified \u escapes are what gzip cannot shrink) and puts a character's aliases side by side; the tokenizer's
 *    module sorts the names when it decodes them;
 *  - a legacy name (no semicolon) is a flag on its semicolon twin, which always has the same value;
 *  - the mathematical alphanumeric letters (Afr; … zscr;) are computed, except those Unicode encodes elsewhere;
 *  - the all-lowercase form of a name, when its value is the name's plus one of a few offsets (Agrave, agrave:
 *    + 0x20; Amacr, amacr: + 1; AMP, amp: + 0; Leftarrow, leftarrow: − 0x40; IOcy, iocy: + 0x50), is a flag too.
 * Every rule is checked against the data here, and the test decodes all 2231 names.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BinTrieFlags, determineBranch, htmlDecodeTree } from 'entities/decode';

const tree = htmlDecodeTree;
const NAME_CHARS: number[] = [];
for (let c = 0x30; c <= 0x39; c++) NAME_CHARS.push(c);
for (let c = 0x41; c <= 0x5a; c++) NAME_CHARS.push(c);
for (let c = 0x61; c <= 0x7a; c++) NAME_CHARS.push(c);
NAME_CHARS.push(0x3b); // ;

/** Depth-first walk of the trie (explicit stack: no recursion). */
/** Every name of the table (legacy ones without their semicolon) with its value, as read from `entities`. */
export const entries: [string, string][] = [];
const stack: [number, string][] = [[0, '']];
while (stack.length > 0) {
  const [index, name] = stack.pop()!;
  const node = tree[index]!;
  const valueLength = (node & BinTrieFlags.VALUE_LENGTH) >> 14;
  if (valueLength !== 0 && name !== '') {
    let value: string;
    if (valueLength === 1) value = String.fromCharCode(node & ~BinTrieFlags.VALUE_LENGTH & 0xffff);
    else if (valueLength === 2) value = String.fromCharCode(tree[index + 1]!);
    else value = String.fromCharCode(tree[index + 1]!, tree[index + 2]!);
    entries.push([name, value]);
  }
  // A node reached by ';' ends a name; entities' trie has no children below it.
  if (name.endsWith(';')) continue;
  for (const c of NAME_CHARS) {
    const next = determineBranch(tree, node, index + Math.max(1, valueLength), c);
    if (next >= 0) stack.push([next, name + String.fromCharCode(c)]);
  }
}

// Code-unit order (what `<` on JS strings gives): a name sorts before every longer name it prefixes.
entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

const legacy = entries.filter(([n]) => !n.endsWith(';')).length;
if (entries.length !== 2231 || legacy !== 106) {
  throw new Error(`unexpected table size: ${entries.length} names, ${legacy} without semicolon (want 2231 / 106)`);
}
for (const [, v] of entries) {
  if (v.length < 1 || v.length > 2) throw new Error('a value longer than two code units: the packed format needs a change');
}

// Entries with a semicolon, ordered by value (code points), then name; each legacy name (no semicolon) is
// the same name as one of them, with the same value (checked), so it is a flag on that entry.
const withSemicolon = entries.filter(([n]) => n.endsWith(';'));
const legacyNames = new Set(entries.filter(([n]) => !n.endsWith(';')).map(([n]) => n));
const valueOf = new Map(entries);
for (const n of legacyNames) {
  if (valueOf.get(n + ';') !== valueOf.get(n)) throw new Error(`legacy name ${n} has no same-valued ${n};: the packed format needs a change`);
}
const codePoints = (v: string): number[] => Array.from(v, (c) => c.codePointAt(0)!);

// The mathematical alphanumeric names (Afr; … zfr;, Aopf; … zopf;, Ascr; … zscr;) are left out where their value
// is the Mathematical Alphanumeric Symbols block's letter: for the i-th letter of A–Z a–z, the style's first
// letter (that of A) plus i. The decoder computes them; the letters Unicode encodes elsewhere (Cfr; is U+212D) stay.
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const alphanumericStyles: [string, number][] = ['fr', 'opf', 'scr'].map((suffix) => [suffix, codePoints(valueOf.get('A' + suffix + ';')!)[0]!]);
const computed = new Set<string>();
for (const [suffix, first] of alphanumericStyles) {
  for (let i = 0; i < LETTERS.length; i++) {
    const name = LETTERS[i] + suffix;
    const v = valueOf.get(name + ';');
    if (v === undefined || legacyNames.has(name)) throw new Error(`${name}; is missing or legacy: the packed format needs a change`);
    if (v === String.fromCodePoint(first + i)) computed.add(name);
  }
}

// Case pairs: where a name with capitals and its all-lowercase form both have one-code-point values, the lowercase
// one's being the capital one's plus one of CASE_OFFSETS, and both are legacy or neither is, the lowercase name is
// left out and its partner carries a flag.
const CASE_OFFSETS = [0x20, 1, 0, -0x40, 0x50];
const pairOf = new Map<string, number>(); // name (no semicolon) → index in CASE_OFFSETS
const paired = new Set<string>(); // the names left out
for (const [n, v] of [...withSemicolon].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
  const name = n.slice(0, -1);
  const lower = name.toLowerCase();
  if (lower === name || computed.has(name) || paired.has(lower) || computed.has(lower)) continue;
  const lv = valueOf.get(lower + ';');
  if (lv === undefined || legacyNames.has(name) !== legacyNames.has(lower)) continue;
  const cps = codePoints(v);
  const lcps = codePoints(lv);
  if (cps.length !== 1 || lcps.length !== 1) continue;
  const k = CASE_OFFSETS.indexOf(lcps[0]! - cps[0]!);
  if (k < 0) continue;
  pairOf.set(name, k);
  paired.add(lower);
}

// The rest, ordered by value (code points), then by name length, then by name.
const byValue = withSemicolon
  .filter(([n]) => !computed.has(n.slice(0, -1)) && !paired.has(n.slice(0, -1)))
  .map(([n, v]) => ({ name: n.slice(0, -1), cps: codePoints(v) }))
  .sort((a, b) => {
    for (let i = 0; i < Math.max(a.cps.length, b.cps.length); i++) {
      const d = (a.cps[i] ?? -1) - (b.cps[i] ?? -1);
      if (d !== 0) return d;
    }
    // (Shorter names first: gzip finds the longer aliases after them.)
    return a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  });
for (const e of byValue) if (e.cps.length > 2) throw new Error('a value of more than two code points: the packed format needs a change');

// Numbers are written most significant digit first: continuation digits ']'..'}' (base 33), then one final
// digit '('..'[' (base 52). Neither range holds '!', a quote or a backslash.
/** Name terminators, by flags: none of them is a name character, a digit of VALUES, a quote or a backslash. */
const TERMINATORS = '()*+,-./#$%&';
const FINAL_BASE = 52;
const CONT_BASE = 33;
function digits(x: number): string {
  let out = String.fromCharCode(0x28 + (x % FINAL_BASE));
  for (x = Math.floor(x / FINAL_BASE); x > 0; x = Math.floor(x / CONT_BASE)) out = String.fromCharCode(0x5d + (x % CONT_BASE)) + out;
  return out;
}

let names = '';
let values = '';
let previous = 0;
for (const e of byValue) {
  // The terminator: '(' + 1 if the name is also legacy, + 2 × (1 + the index of its case pair's offset).
  const k = pairOf.get(e.name);
  names += e.name + TERMINATORS[(legacyNames.has(e.name) ? 1 : 0) + (k === undefined ? 0 : 2 + 2 * k)];
  values += digits(e.cps[0]! - previous);
  previous = e.cps[0]!;
  if (e.cps.length === 2) values += '!' + digits(e.cps[1]!);
}

/** The generated module's text. */
export function generateNamedCharacterReferencesSource(): string {
  return `// GENERATED FILE, do not edit. Regenerate with: npx tsx scripts/generate-named-character-references.ts
// Source: the WHATWG named character references table (HTML Standard, "13.5 Named character references"),
// read from the \`entities\` dev dependency. ${entries.length} names, ${legacy} of them legacy (no semicolon).

/**
 * The mathematical alphanumeric styles whose letters the decoder computes: [suffix, code point of the style's A].
 * Letter i of A–Z a–z, with the suffix and a semicolon, is the first code point + i unless NAMES has that name.
 */
export const ALPHANUMERIC_STYLES: readonly (readonly [string, number])[] = [${alphanumericStyles.map(([s, f]) => `['${s}', 0x${f.toString(16)}]`).join(', ')}];

/** The offsets of case pairs (see NAMES). */
export const CASE_PAIR_OFFSETS: readonly number[] = [${CASE_OFFSETS.map((o) => (o < 0 ? '-0x' : '0x') + Math.abs(o).toString(16)).join(', ')}];

/** The name terminators, by their flags (see NAMES). */
export const TERMINATORS = '${TERMINATORS}';

/**
 * The other ${byValue.length} names that end with a semicolon, without it, in the order of their values (then length, name),
 * each followed by the terminator TERMINATORS[flags]: flags is 1 when the name is also a legacy reference (valid
 * without the semicolon, with the same value), plus 2 × (1 + k) when its all-lowercase form is also a name, whose
 * value is this one's + CASE_PAIR_OFFSETS[k] (the lowercase name is then legacy too if this one is).
 */
export const NAMES =
  '${names}';

/**
 * The values, in the same order: for each, its first code point as the increase over the previous value's
 * first code point, then, for a value of two code points, '!' and the second one. A number is written with
 * digits ']'..'}' (base 33, most significant first) ending in one digit '('..'[' (base 52).
 */
export const VALUES =
  '${values}';
`;
}

export const OUTPUT_PATH = 'src/tokenizer/named-character-references.ts';

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const source = generateNamedCharacterReferencesSource();
  writeFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', OUTPUT_PATH), source);
  console.log(`wrote ${OUTPUT_PATH}: ${entries.length} names (${legacy} legacy), ${source.length} bytes`);
}
