/**
 * The list of active formatting elements (WHATWG HTML, "13.2.4.3 The list of active formatting elements").
 *
 * Entries carry an insertion sequence number. Markers are only ever appended, so "after the last marker"
 * is "sequence number greater than the last marker's". Indexes keep adversarial input linear:
 * - per tag id, the entries in sequence order ("is there an `a` after the last marker?" in O(1));
 * - per marker section (the entries between two markers) and per (tag name, attributes) signature, a
 *   linked list of the section's live entries, so the Noah's Ark clause counts and removes in O(1);
 * - per element, its live entry ("is this element in the list?" in O(1)).
 * Removing an entry only flags it (`removed`); flagged entries are skipped by every reader and swept out
 * once they make up half of the array, so removal far from the end of a long list costs O(1) amortized.
 */
import type { Element } from '../dom.js';
import * as T from './html-elements.js';

/** The live entries of one marker section that share a signature, oldest first. */
class SignatureBucket {
  head: FormattingEntry | null = null;
  tail: FormattingEntry | null = null;
  count = 0;
}

export class FormattingEntry {
  /** null for a marker. */
  element: Element | null;
  id: number;
  seq: number;
  removed = false;
  bucket: SignatureBucket | null = null;
  prevSame: FormattingEntry | null = null;
  nextSame: FormattingEntry | null = null;
  constructor(element: Element | null, id: number, seq: number) {
    this.element = element;
    this.id = id;
    this.seq = seq;
  }
}

/** Tag name plus attributes (names, namespaces, values; order-insensitive), as compared by the Noah's Ark clause. */
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

  /** The live member with the highest sequence number, or null (trailing removed members are popped eagerly). */
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
  private readonly markerSeqs: number[] = [];
  private readonly byId: SeqList[] = [];
  /** One signature map per marker section; the last is the section after the last marker. */
  private readonly sections: Map<string, SignatureBucket>[] = [new Map()];
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
    this.entries.push(new FormattingEntry(null, T.UNKNOWN, s));
    this.markerSeqs.push(s);
    this.sections.push(new Map());
  }

  private newEntry(el: Element, id: number): FormattingEntry {
    const e = new FormattingEntry(el, id, this.seq++);
    this.entryOf.set(el, e);
    this.byId[id]!.push(e);
    const section = this.sections[this.sections.length - 1]!;
    const sig = signature(el);
    let b = section.get(sig);
    if (b === undefined) {
      b = new SignatureBucket();
      section.set(sig, b);
    }
    e.bucket = b;
    e.prevSame = b.tail;
    if (b.tail !== null) b.tail.nextSame = e;
    else b.head = e;
    b.tail = e;
    b.count++;
    return e;
  }

  /** Takes an entry out of the indexes and flags it removed. */
  private unindex(e: FormattingEntry): void {
    e.removed = true;
    if (e.element === null) {
      const m = this.markerSeqs;
      const i = m.lastIndexOf(e.seq);
      if (i >= 0) m.splice(i, 1);
      if (this.sections.length > 1) this.sections.pop();
      return;
    }
    if (this.entryOf.get(e.element) === e) this.entryOf.delete(e.element);
    this.byId[e.id]!.removed();
    const b = e.bucket!;
    if (e.prevSame !== null) e.prevSame.nextSame = e.nextSame;
    else b.head = e.nextSame;
    if (e.nextSame !== null) e.nextSame.prevSame = e.prevSame;
    else b.tail = e.prevSame;
    b.count--;
    e.prevSame = e.nextSame = null;
  }

  /** "Push onto the list of active formatting elements", with the Noah's Ark clause. */
  push(el: Element, id: number): void {
    const e = this.newEntry(el, id);
    const b = e.bucket!;
    // Three earlier entries after the last marker with the same name and attributes: drop the earliest.
    if (b.count > 3) this.remove(b.head!);
    this.entries.push(e);
  }

  /** Removes an entry from the list (flags it; see the module comment). */
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

  /** Replaces the element of entry `e` with `el` (reconstruction; adoption agency "replace the entry"). */
  replace(e: FormattingEntry, el: Element): FormattingEntry {
    return this.replaceAt(this.entries.lastIndexOf(e), e, el);
  }

  /** `replace` when the entry's position `i` is known. */
  replaceAt(i: number, e: FormattingEntry, el: Element): FormattingEntry {
    this.unindex(e);
    const n = this.newEntry(el, e.id);
    this.entries[i] = n;
    return n;
  }

  /** Inserts a new entry for `el` at list position `pos`. */
  insertAt(pos: number, el: Element, id: number): FormattingEntry {
    const n = this.newEntry(el, id);
    this.entries.splice(pos, 0, n);
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
