/**
 * The list of active formatting elements (WHATWG HTML, "13.2.4.3 The list of active formatting elements").
 *
 * Entries carry an insertion sequence number. Markers are only ever appended, so "after the last marker"
 * is "sequence number greater than the last marker's". Two indexes keep adversarial input linear:
 * - per tag id, the live entries in sequence order ("is there an `a` after the last marker?" in O(1));
 * - per (tag name, attributes) signature, the live entries in sequence order, for the Noah's Ark clause,
 *   which then never rescans the list.
 * Removing an entry only flags it (`removed`); flagged entries are skipped by every reader and swept out
 * once they make up half of the array, so removal far from the end of a long list costs O(1) amortized.
 */
import type { Element } from '../dom.js';
import * as T from './html-elements.js';

export class FormattingEntry {
  /** null for a marker. */
  element: Element | null;
  id: number;
  sig: string;
  seq: number;
  removed = false;
  constructor(element: Element | null, id: number, sig: string, seq: number) {
    this.element = element;
    this.id = id;
    this.sig = sig;
    this.seq = seq;
  }
}

function signature(el: Element): string {
  const attrs = el.attributes;
  if (attrs.length === 0) return el.localName;
  const parts: string[] = [];
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    const n = a.namespaceURI === null ? a.localName : a.namespaceURI + ' ' + a.localName;
    parts.push(n.length + ':' + n + a.value.length + ':' + a.value);
  }
  if (parts.length > 1) parts.sort();
  return el.localName + '\u0000' + parts.join('');
}

/**
 * Entries in sequence order. Removed entries stay in place until they reach the end or make up half of
 * the array (then it is compacted), so removal is O(1) amortized wherever the entry is.
 */
class SeqList {
  items: FormattingEntry[] = [];
  private dead = 0;

  push(e: FormattingEntry): void {
    this.items.push(e);
  }

  /** Call after flagging a member `removed`. */
  removed(): void {
    const items = this.items;
    while (items.length > 0 && items[items.length - 1]!.removed) items.pop();
    if (++this.dead > 16 && this.dead * 2 > items.length) {
      let j = 0;
      for (let i = 0; i < items.length; i++) if (!items[i]!.removed) items[j++] = items[i]!;
      items.length = j;
      this.dead = 0;
    }
  }

  /** The live member with the highest sequence number, or null. */
  last(): FormattingEntry | null {
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) if (!items[i]!.removed) return items[i]!;
    return null;
  }
}

export class ActiveFormattingElements {
  /** The list, in order; may contain entries flagged `removed`, which readers skip. */
  entries: FormattingEntry[] = [];
  private removedCount = 0;
  private seq = 0;
  private markerSeqs: number[] = [];
  private readonly byId: SeqList[] = [];
  private readonly bySig = new Map<string, SeqList>();
  /** The live entry of each element in the list ("is in the list of active formatting elements" in O(1)). */
  private readonly entryOf = new Map<Element, FormattingEntry>();

  constructor() {
    for (let i = 0; i < T.TAG_ID_COUNT; i++) this.byId.push(new SeqList());
  }

  private lastMarkerSeq(): number {
    const m = this.markerSeqs;
    return m.length === 0 ? -1 : m[m.length - 1]!;
  }

  /** "Insert a marker at the end of the list of active formatting elements." */
  pushMarker(): void {
    const s = this.seq++;
    this.entries.push(new FormattingEntry(null, T.UNKNOWN, '', s));
    this.markerSeqs.push(s);
  }

  private index(e: FormattingEntry): void {
    this.entryOf.set(e.element!, e);
    this.byId[e.id]!.push(e);
    let b = this.bySig.get(e.sig);
    if (b === undefined) {
      b = new SeqList();
      this.bySig.set(e.sig, b);
    }
    b.push(e);
  }

  /** Takes a member out of the indexes and flags it removed. */
  private unindex(e: FormattingEntry): void {
    e.removed = true;
    if (e.element === null) {
      const m = this.markerSeqs;
      const i = m.lastIndexOf(e.seq);
      if (i >= 0) m.splice(i, 1);
      return;
    }
    if (this.entryOf.get(e.element) === e) this.entryOf.delete(e.element);
    this.byId[e.id]!.removed();
    const b = this.bySig.get(e.sig);
    if (b !== undefined) {
      b.removed();
      if (b.items.length === 0) this.bySig.delete(e.sig);
    }
  }

  /** "Push onto the list of active formatting elements", with the Noah's Ark clause. */
  push(el: Element, id: number): void {
    const sig = signature(el);
    const bucket = this.bySig.get(sig);
    if (bucket !== undefined && bucket.items.length >= 3) {
      // Live entries after the last marker with the same name and attributes, latest first.
      const after = this.lastMarkerSeq();
      const items = bucket.items;
      let count = 0;
      let earliest: FormattingEntry | null = null;
      for (let i = items.length - 1; i >= 0; i--) {
        const b = items[i]!;
        if (b.seq <= after) break;
        if (b.removed) continue;
        count++;
        earliest = b;
      }
      if (count >= 3) this.remove(earliest!);
    }
    const e = new FormattingEntry(el, id, sig, this.seq++);
    this.entries.push(e);
    this.index(e);
  }

  /** Removes an entry from the list (flags it; see the class comment). */
  remove(e: FormattingEntry): void {
    if (e.removed) return;
    this.unindex(e);
    const entries = this.entries;
    if (entries[entries.length - 1] === e) {
      entries.pop();
      while (entries.length > 0 && entries[entries.length - 1]!.removed) {
        entries.pop();
        this.removedCount--;
      }
      return;
    }
    if (++this.removedCount > 32 && this.removedCount * 2 > entries.length) this.sweep();
  }

  private sweep(): void {
    let j = 0;
    const entries = this.entries;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (!e.removed) entries[j++] = e;
    }
    entries.length = j;
    this.removedCount = 0;
  }

  /** Replaces the element of entry `e` with `el` (adoption agency step "replace the entry"). */
  replace(e: FormattingEntry, el: Element): FormattingEntry {
    return this.replaceAt(this.entries.lastIndexOf(e), e, el);
  }

  /** `replace` when the entry's position `i` is known. */
  replaceAt(i: number, e: FormattingEntry, el: Element): FormattingEntry {
    this.unindex(e);
    const n = new FormattingEntry(el, e.id, signature(el), this.seq++);
    this.entries[i] = n;
    this.index(n);
    return n;
  }

  /** Inserts a new entry for `el` at list position `pos`. */
  insertAt(pos: number, el: Element, id: number): FormattingEntry {
    const n = new FormattingEntry(el, id, signature(el), this.seq++);
    this.entries.splice(pos, 0, n);
    this.index(n);
    return n;
  }

  /** "Clear the list of active formatting elements up to the last marker." */
  clearToLastMarker(): void {
    const entries = this.entries;
    while (entries.length > 0) {
      const e = entries.pop()!;
      if (e.removed) {
        this.removedCount--;
        continue;
      }
      this.unindex(e);
      if (e.element === null) return;
    }
  }

  /**
   * The last entry, after the last marker, whose element has tag id `id` (HTML elements), or null.
   * O(1) when there is none; otherwise a scan from the end that stops at the match.
   */
  lastAfterMarkerWithId(id: number): FormattingEntry | null {
    const latest = this.byId[id]!.last();
    if (latest === null || latest.seq <= this.lastMarkerSeq()) return null;
    const entries = this.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.removed) continue;
      if (e.element === null) return null;
      if (e.id === id) return e;
    }
    return null;
  }

  /** The entry for element `el`, or null. */
  entryFor(el: Element): FormattingEntry | null {
    const e = this.entryOf.get(el);
    return e === undefined ? null : e;
  }

  indexOfEntry(e: FormattingEntry): number {
    return this.entries.lastIndexOf(e);
  }
}
