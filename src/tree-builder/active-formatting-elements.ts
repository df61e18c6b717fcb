/**
 * The list of active formatting elements (WHATWG HTML, "13.2.4.3 The list of active formatting elements").
 *
 * Entries carry an insertion sequence number. Markers are only ever appended, so "after the last marker"
 * is "sequence number greater than the last marker's". Two indexes keep adversarial input linear:
 * - per tag id, the live entries in sequence order ("is there an `a` after the last marker?" in O(1));
 * - per (tag name, attributes) signature, the live entries in sequence order, for the Noah's Ark clause,
 *   which then never rescans the list.
 */
import type { Element } from '../dom.js';
import * as T from './html-elements.js';

export class FormattingEntry {
  /** null for a marker. */
  element: Element | null;
  id: number;
  sig: string;
  seq: number;
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

function removeFrom(list: FormattingEntry[], e: FormattingEntry): void {
  const i = list.lastIndexOf(e);
  if (i >= 0) list.splice(i, 1);
}

export class ActiveFormattingElements {
  entries: FormattingEntry[] = [];
  private seq = 0;
  private markerSeqs: number[] = [];
  private readonly byId: FormattingEntry[][] = [];
  private readonly bySig = new Map<string, FormattingEntry[]>();

  constructor() {
    for (let i = 0; i < T.TAG_ID_COUNT; i++) this.byId.push([]);
  }

  get length(): number {
    return this.entries.length;
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
    this.byId[e.id]!.push(e);
    const b = this.bySig.get(e.sig);
    if (b === undefined) this.bySig.set(e.sig, [e]);
    else b.push(e);
  }

  private unindex(e: FormattingEntry): void {
    if (e.element === null) {
      const m = this.markerSeqs;
      const i = m.lastIndexOf(e.seq);
      if (i >= 0) m.splice(i, 1);
      return;
    }
    removeFrom(this.byId[e.id]!, e);
    const b = this.bySig.get(e.sig);
    if (b !== undefined) {
      removeFrom(b, e);
      if (b.length === 0) this.bySig.delete(e.sig);
    }
  }

  /** "Push onto the list of active formatting elements", with the Noah's Ark clause. */
  push(el: Element, id: number): void {
    const sig = signature(el);
    const bucket = this.bySig.get(sig);
    if (bucket !== undefined && bucket.length >= 3) {
      const after = this.lastMarkerSeq();
      const n = bucket.length;
      // Entries after the last marker with the same name and attributes, in sequence order.
      if (bucket[n - 3]!.seq > after) {
        let first = n - 3;
        while (first > 0 && bucket[first - 1]!.seq > after) first--;
        this.remove(bucket[first]!);
      }
    }
    const e = new FormattingEntry(el, id, sig, this.seq++);
    this.entries.push(e);
    this.index(e);
  }

  /** Removes an entry from the list. */
  remove(e: FormattingEntry): void {
    const i = this.entries.lastIndexOf(e);
    if (i >= 0) this.entries.splice(i, 1);
    this.unindex(e);
  }

  /** Replaces the element of entry `e` with `el` (adoption agency step "replace the entry"). */
  replace(e: FormattingEntry, el: Element): FormattingEntry {
    const i = this.entries.lastIndexOf(e);
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
      this.unindex(e);
      if (e.element === null) return;
    }
  }

  /**
   * The last entry, after the last marker, whose element has tag id `id` (HTML elements), or null.
   * O(1) when there is none; otherwise a scan from the end that stops at the match.
   */
  lastAfterMarkerWithId(id: number): FormattingEntry | null {
    const list = this.byId[id]!;
    if (list.length === 0 || list[list.length - 1]!.seq <= this.lastMarkerSeq()) return null;
    const entries = this.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.element === null) return null;
      if (e.id === id) return e;
    }
    return null;
  }

  /** The entry for element `el`, or null. */
  entryFor(el: Element): FormattingEntry | null {
    const entries = this.entries;
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.element === el) return entries[i]!;
    return null;
  }

  indexOfEntry(e: FormattingEntry): number {
    return this.entries.lastIndexOf(e);
  }
}
