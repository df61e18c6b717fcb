/**
 * Tag and attribute names as shared strings.
 *
 * The tag name state and the attribute name state read a name as a range of the input. Real markup repeats
 * a few dozen names endlessly, so the tokenizer keeps the names it has read in a small direct-mapped cache
 * keyed by a hash of the range: a name seen before costs a hash and a compare instead of a new string, and
 * every element of one name holds the same string (whose hash V8 has already computed, which makes the tree
 * builder's lookups by name cheaper too). A new name, or one whose slot another name took, is sliced and
 * takes the slot. Names are ASCII-lower-cased, as both states do.
 *
 * Each kept name also keeps its HTML tag id (tree-builder/html-elements.ts), found once when the name takes its
 * slot: the tokenizer hands it to the tree builder with the tag token, which then needs no lookup by name.
 */
import { UNKNOWN, htmlTagId, htmlTagName } from '../tree-builder/html-elements.js';
import { MASK, MAX_LENGTH } from './limits.js';

const names: (string | undefined)[] = new Array<string | undefined>(MASK + 1).fill(undefined);
const hashes = new Int32Array(MASK + 1);
/** The HTML tag id of each kept name (UNKNOWN, 0, for a name that is not an HTML tag name). */
const tagIds = new Uint8Array(MASK + 1);

/** The HTML tag id of the name the last lookup found or the last `rememberName` kept; -1 after a miss. */
let lastTagId = -1;

/** Slot and hash of the last lookup that missed, for `rememberName` (slot -1: nothing to remember). */
let missSlot = -1;
let missHash = 0;

/**
 * The name kept for the ASCII-lower-cased range [start, end) of `s`, or null; after a null, the caller makes
 * the name itself and hands it to `rememberName`.
 */
export function lookupName(s: string, start: number, end: number): string | null {
  return lookupHashedName(s, start, end, hashOfRange(s, start, end));
}

/**
 * The names' hash: `(Math.imul(h, 31) + c) | 0` over the ASCII-lower-cased code units of [start, end), from 0 (the
 * tokenizer's name states compute it while they scan; its duplicate attribute check hashes kept names with it).
 */
export function hashOfRange(s: string, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    h = (Math.imul(h, 31) + c) | 0;
  }
  return h;
}

/**
 * `lookupName` for a caller that hashed the range while scanning it: `h` is `(Math.imul(h, 31) + c) | 0` over
 * the range's ASCII-lower-cased code units, from 0 (the attribute name state hashes U+0000 as the U+FFFD the name
 * gets; such a range never matches anyway, see below).
 */
export function lookupHashedName(s: string, start: number, end: number, h: number): string | null {
  const len = end - start;
  missSlot = -1;
  lastTagId = -1;
  if (len === 0 || len > MAX_LENGTH) return null;
  h = (Math.imul(h, 31) + len) | 0;
  h ^= h >>> 11;
  const slot = h & MASK;
  const cand = names[slot];
  if (cand !== undefined && hashes[slot] === h && cand.length === len) {
    let j = 0;
    for (; j < len; j++) {
      let c = s.charCodeAt(start + j);
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      if (c !== cand.charCodeAt(j)) break;
    }
    // A U+0000 never matches (a kept name has U+FFFD there), so such names are always made afresh.
    if (j === len) {
      lastTagId = tagIds[slot]!;
      return cand;
    }
  }
  missSlot = slot;
  missHash = h;
  return null;
}

/**
 * Keeps `name`, made for the range of the last lookup that returned null, for later lookups; returns the string to
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
  hashes[missSlot] = missHash;
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
