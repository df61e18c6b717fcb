/**
 * The duplicate-attribute check for a start tag with many attributes (the tokenizer scans the list while it
 * is short).
 *
 * An open-addressing hash table of indexes into the tag's attribute list, in one Int32Array: each slot is
 * (hash, index + 1), 0 meaning empty. A JS `Set` of the names would do, but with 100,000 attributes on one
 * tag its tables no longer fit in the CPU caches and live in old space, so every insertion costs several
 * cache misses and a write barrier; here an insertion touches one slot of a typed array, and the names are
 * only read when the hashes are equal.
 *
 * The hash is not seeded, so a page could pick names that collide: a probe sequence longer than
 * `MAX_PROBES` hands the check over to a `Set` for the rest of the tag, which keeps the worst case linear.
 */
import type { Attr } from '../dom.js';

const MAX_PROBES = 32;

export class AttributeNameTable {
  /** Pairs (hash, index + 1); the length is twice a power of two. */
  private slots: Int32Array;
  private mask: number;
  private size = 0;
  /** After too many collisions: every name, and the table is no longer used. */
  private fallback: Set<string> | null = null;

  /** A table holding the names of `attrs[0..count)`, which have no duplicates. */
  constructor(attrs: readonly Attr[], count: number) {
    let cap = 64;
    while (cap < count * 4) cap *= 2;
    this.slots = new Int32Array(cap * 2);
    this.mask = cap - 1;
    for (let i = 0; i < count; i++) this.addName(attrs, attrs[i]!.localName, i);
  }

  /**
   * Whether `name` is among the names added so far (the attributes `attrs[0..index)`); if not, it is added,
   * as the name of `attrs[index]`, which the caller stores next.
   */
  addName(attrs: readonly Attr[], name: string, index: number): boolean {
    const fallback = this.fallback;
    if (fallback !== null) {
      const before = fallback.size;
      return fallback.add(name).size === before;
    }
    let h = name.length;
    for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    const slots = this.slots;
    const mask = this.mask;
    let slot = h & mask;
    for (let probes = 0; ; probes++) {
      const at = slot * 2;
      const stored = slots[at + 1]!;
      if (stored === 0) break;
      if (slots[at] === h && attrs[stored - 1]!.localName === name) return true;
      if (probes === MAX_PROBES) {
        this.toFallback(attrs, index);
        return this.addName(attrs, name, index);
      }
      slot = (slot + 1) & mask;
    }
    const at = slot * 2;
    slots[at] = h;
    slots[at + 1] = index + 1;
    if (++this.size * 2 > mask + 1) this.grow();
    return false;
  }

  private grow(): void {
    const old = this.slots;
    const cap = (this.mask + 1) * 2;
    const slots = new Int32Array(cap * 2);
    const mask = cap - 1;
    for (let at = 0; at < old.length; at += 2) {
      const stored = old[at + 1]!;
      if (stored === 0) continue;
      const h = old[at]!;
      let slot = h & mask;
      while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
      slots[slot * 2] = h;
      slots[slot * 2 + 1] = stored;
    }
    this.slots = slots;
    this.mask = mask;
  }

  private toFallback(attrs: readonly Attr[], count: number): void {
    const set = new Set<string>();
    for (let i = 0; i < count; i++) set.add(attrs[i]!.localName);
    this.fallback = set;
    this.slots = new Int32Array(0);
  }
}
