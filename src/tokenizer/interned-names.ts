/**
 * Tag and attribute names as shared strings.
 *
 * The tag name state and the attribute name state read a name as a range of the input. Real markup repeats
 * a few dozen names endlessly, so the tokenizer keeps the names it has read in a small direct-mapped cache
 * keyed by the range's code units, which the states pack into three words while they scan (see
 * lookupPackedName): a name seen before costs three comparisons of words instead of a new string (or a second
 * pass over its characters to check it), and every element of one name holds the same string (whose hash V8 has
 * already computed, which makes the tree builder's lookups by name cheaper too). A new name, or one whose slot
 * another name took, is sliced and takes the slot. Names are ASCII-lower-cased, as both states do.
 *
 * Each kept name also keeps its HTML tag id (tree-builder/html-elements.ts), found once when the name takes its
 * slot: the tokenizer hands it to the tree builder with the tag token, which then needs no lookup by name.
 */
import { UNKNOWN, htmlTagId, htmlTagName } from '../tree-builder/html-elements.js';
import { MASK, MAX_LENGTH } from './limits.js';

const names: (string | undefined)[] = new Array<string | undefined>(MASK + 1).fill(undefined);
/** Each kept name's code units packed as the scans pack them (see lookupPackedName): three words a slot. */
const words = new Int32Array(3 * (MASK + 1));
/** The HTML tag id of each kept name (UNKNOWN, 0, for a name that is not an HTML tag name). */
const tagIds = new Uint8Array(MASK + 1);

/** The HTML tag id of the name the last lookup found or the last `rememberName` kept; -1 after a miss. */
let lastTagId = -1;

/** The slot of the last lookup that missed, for `rememberName` (-1: nothing to remember). */
let missSlot = -1;

/**
 * The name kept for the ASCII-lower-cased range [start, end) of `s`, or undefined; after that, the caller makes
 * the name itself and hands it to `rememberName`. (The tokenizer's scans pack the code units as they read them and
 * call lookupPackedName.)
 */
export function lookupName(s: string, start: number, end: number): string | undefined {
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let wide = 0;
  for (let i = start; i < end; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    // (A U+0000 is read as the U+FFFD its name gets, as the tokenizer's scans do.)
    if (c === 0) c = 0xfffd;
    w2 = (w2 << 8) | (w1 >>> 24);
    w1 = (w1 << 8) | (w0 >>> 24);
    w0 = (w0 << 8) | c;
    wide |= c;
  }
  return lookupPackedName(end - start, w0, w1, w2, wide);
}

/**
 * A name's hash for the tokenizer's duplicate attribute check: `(Math.imul(h, 31) + c) | 0` over its code units,
 * from 0 (the names it hashes are already lower-cased).
 */
export function hashOfName(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h;
}

/**
 * The kept name of `len` (at least 1) code units, ASCII-lower-cased, with U+0000 read as U+FFFD, that a scan packed
 * while reading them: each code unit shifted in at the low end of the 96 bits w2:w1:w0, 8 bits each
 * (`w0 = (w0 << 8) | c`, and the top byte of each word into the next), and `wide`, all of them OR-ed. A name of at
 * most MAX_LENGTH code units, all of them below U+0100, is all there, and none of them is 0 (U+0000 reads as U+FFFD),
 * so its three words are the name: a kept name is found by comparing them, not its characters. Other names (longer,
 * or with a code unit past U+00FF) are not kept. Undefined when the name is not kept; the caller then makes it and
 * hands it to `rememberName`, which keeps it in the slot this lookup emptied (and gave the name's words) for it.
 */
export function lookupPackedName(len: number, w0: number, w1: number, w2: number, wide: number): string | undefined {
  missSlot = lastTagId = -1;
  if (len > MAX_LENGTH || wide > 0xff) return undefined;
  const slot = (Math.imul(w0 + Math.imul(w1, 0x2f) + Math.imul(w2, 0x3f1) + len, 0x9e3779b1) >>> 16) & MASK;
  const at = 3 * slot;
  const cand = names[slot];
  if (cand !== undefined && words[at] === w0 && words[at + 1] === w1 && words[at + 2] === w2) {
    lastTagId = tagIds[slot]!;
    return cand;
  }
  names[slot] = undefined;
  words[at] = w0;
  words[at + 1] = w1;
  words[at + 2] = w2;
  missSlot = slot;
  return undefined;
}

/**
 * Keeps `name`, made for the range of the last lookup that returned undefined, for later lookups; returns the string to
 * use for it. An HTML tag name is the library's own literal (`htmlTagName`): the string the tree builder's, reparse
 * safety's and the serializer's Maps are keyed by and their comparisons name, which they then find by identity
 * instead of comparing characters (V8 compares a slice with them character by character, however often it is
 * found). Other names stay slices: making V8 internalize each new name (as a property key) cost more than it saved
 * where a document has thousands of distinct ones (bench/README.md, session 40).
 */
export function rememberName(name: string): string {
  if (missSlot < 0) return name;
  const id = htmlTagId(name);
  if (id !== UNKNOWN) name = htmlTagName(id);
  names[missSlot] = name;
  tagIds[missSlot] = lastTagId = id;
  missSlot = -1;
  return name;
}

/**
 * The HTML tag id (UNKNOWN for other names) of the name just returned by `lookupHashedName` or kept by
 * `rememberName`, or -1 when the name is not kept (too long, or empty): the caller then looks it up by name.
 */
export function lastNameTagId(): number {
  return lastTagId;
}
