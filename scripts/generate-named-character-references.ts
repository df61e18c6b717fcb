/**
 * Generates `src/tokenizer/named-character-references.ts`: the WHATWG named character references
 * table (HTML Standard, "13.5 Named character references"), in the compact form the tokenizer's
 * named character reference state searches.
 *
 * Run: npx tsx scripts/generate-named-character-references.ts
 *
 * Source: the `entities` dev dependency, whose packed trie (`htmlDecodeTree`) carries the whole
 * WHATWG table, including the legacy references that may appear without a semicolon. The trie is
 * walked through its public `determineBranch` helper; nothing of its layout is copied.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BinTrieFlags, determineBranch, htmlDecodeTree } from 'entities/decode';

const tree = htmlDecodeTree;
const NAME_CHARS: number[] = [];
for (let c = 0x30; c <= 0x39; c++) NAME_CHARS.push(c);
for (let c = 0x41; c <= 0x5a; c++) NAME_CHARS.push(c);
for (let c = 0x61; c <= 0x7a; c++) NAME_CHARS.push(c);
NAME_CHARS.push(0x3b); // ;

/** Depth-first walk of the trie (explicit stack: no recursion). */
const entries: [string, string][] = [];
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

// Names, front-coded: each entry is one character giving the length of the prefix shared with the
// previous name (as the code 0x30 + length), the rest of the name, then a separator that also gives
// the value's length in code units: ',' for one, '.' for two (names never contain either).
let names = '';
let values = '';
let previous = '';
for (const [n, v] of entries) {
  let shared = 0;
  while (shared < previous.length && shared < n.length && previous[shared] === n[shared]) shared++;
  names += String.fromCharCode(0x30 + shared) + n.slice(shared) + (v.length === 1 ? ',' : '.');
  values += v;
  previous = n;
}

function escapeForSource(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x27 && c !== 0x5c) out += s[i];
    else out += c < 0x100 ? '\\x' + c.toString(16).padStart(2, '0') : '\\u' + c.toString(16).padStart(4, '0');
  }
  return out;
}

const source = `// GENERATED FILE, do not edit. Regenerate with: npx tsx scripts/generate-named-character-references.ts
// Source: the WHATWG named character references table (HTML Standard, "13.5 Named character references"),
// read from the \`entities\` dev dependency. ${entries.length} names, ${legacy} of them legacy (no semicolon).

/**
 * All names, sorted by UTF-16 code unit and front-coded: each entry is a character whose code minus
 * 0x30 is the length of the prefix shared with the previous name, then the rest of the name, then ','
 * when its value is one code unit long or '.' when it is two. Names keep their trailing ';' if any.
 */
export const NAMES =
  '${escapeForSource(names)}';

/** The values, in the same order, concatenated. */
export const VALUES =
  '${escapeForSource(values)}';
`;

const out = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'tokenizer', 'named-character-references.ts');
writeFileSync(out, source);
console.log(`wrote ${out}: ${entries.length} names (${legacy} legacy), ${source.length} bytes`);
