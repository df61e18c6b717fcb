/**
 * The list of active formatting elements (WHATWG HTML, "13.2.4.3 The list of active formatting elements").
 *
 * Indexes keep adversarial input linear:
 * - per marker section (the entries after one marker, up to the next) and per tag id, a linked list of the
 *   section's live entries: "is there an `a` after the last marker?" is O(1), and the Noah's Ark clause
 *   compares attributes only with same-named entries of the section; once a section has more than
 *   SIGNATURE_INDEX_THRESHOLD entries of one name, they are sub-bucketed by signature (name + attributes)
 *   so the clause stays O(1) amortized;
 * - the stack of open elements keeps, per position, the entry made for the element there (see
 *   `StackOfOpenElements.attachEntry`): "is this element in the list?" and "is this entry's element in the stack
 *   of open elements?" are O(1) field reads, with no per-element hash table.
 * Every element gets at most one entry, ever (clones get their own), so an entry stands for its element.
 * Removing an entry only flags it (`removed`); flagged entries are skipped by every reader and swept out
 * once they make up half of the array, so removal far from the end of a long list costs O(1) amortized.
 */
import { type Element, workList } from '../dom.js';
import * as T from './html-elements.js';

/**
 * Live entries of one marker section with the same tag name (or, within one, the same signature), oldest first.
 * @internal
 */
class Bucket {
  head: FormattingEntry | null = null;
  tail: FormattingEntry | null = null;
  count = 0;
}

/**
 * Per marker section and tag id: the entries, and (once there are many) their sub-buckets by signature.
 * @internal
 */
class NameBucket extends Bucket {
  bySignature: Map<string, Bucket> | null = null;
  constructor(readonly id: number) {
    super();
  }
}

/**
 * The name bucket of tag id `id` in a section, if any. A section holds at most one bucket per formatting element
 * name (fourteen of them), so a scan costs O(1); a short list is cheaper than an array indexed by tag id.
 */
function bucketFor(section: NameBucket[], id: number): NameBucket | undefined {
  for (let i = 0; i < section.length; i++) {
    const nb = section[i]!;
    if (nb.id === id) return nb;
  }
  return undefined;
}

/** @internal (see scripts/internal-names.ts) */
export class FormattingEntry {
  /** null for a marker. */
  element: Element | null;
  id: number;
  removed = false;
  /** The element is in the stack of open elements (kept by the stack, once the entry is attached to it). */
  onStack = false;
  nameBucket: NameBucket | null = null;
  prevName: FormattingEntry | null = null;
  nextName: FormattingEntry | null = null;
  /** Signature, computed only when needed (see `sameAttributes`). */
  sig: string | null = null;
  sigBucket: Bucket | null = null;
  prevSig: FormattingEntry | null = null;
  nextSig: FormattingEntry | null = null;
  constructor(element: Element | null, id: number) {
    this.element = element;
    this.id = id;
  }
}

/** Every marker in the list is this one entry: markers carry no state, and are never flagged removed. */
const MARKER = new FormattingEntry(null, T.UNKNOWN);

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

function signatureOf(e: FormattingEntry): string {
  if (e.sig === null) e.sig = signature(e.element!);
  return e.sig;
}

/** Same attributes (as the Noah's Ark clause compares them); entries have the same tag name already. */
function sameAttributes(x: FormattingEntry, y: FormattingEntry): boolean {
  const a = x.element!.attributes;
  const b = y.element!.attributes;
  if (a.length !== b.length) return false;
  if (a.length > 8) return signatureOf(x) === signatureOf(y);
  outer: for (let i = 0; i < a.length; i++) {
    const p = a[i]!;
    for (let j = 0; j < b.length; j++) {
      const q = b[j]!;
      if (q.localName === p.localName && q.namespaceURI === p.namespaceURI) {
        if (q.value !== p.value) return false;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

/** Name buckets with more entries than this get sub-buckets by signature (keeps Noah's Ark O(1) amortized). */
const SIGNATURE_INDEX_THRESHOLD = 16;

/** `sections` before the first marker (copied: see `workList`). */
const NO_SECTIONS: (NameBucket[] | null)[] = [null];

/** @internal (see scripts/internal-names.ts) */
export class ActiveFormattingElements {
  /** The list, in order; may contain entries flagged `removed`, which readers skip. */
  entries: FormattingEntry[] = workList();
  private removedCount = 0;
  /** Name buckets per marker section (see `bucketFor`); the last is the section after the last marker. */
  private readonly sections: (NameBucket[] | null)[] = NO_SECTIONS.slice();

  /** "Insert a marker at the end of the list of active formatting elements." */
  pushMarker(): void {
    this.entries.push(MARKER);
    this.sections.push(null); // created on first use: most markers (table cells) never get entries
  }

  /**
   * A new entry for `el`, indexed in the last section. The buckets keep list order: by default the entry goes at
   * their end; with `after` given, after that entry of its name bucket (null: first) and after `afterSig` in its
   * signature bucket (when there are signature buckets).
   */
  private newEntry(
    el: Element,
    id: number,
    after: FormattingEntry | null | undefined = undefined,
    afterSig: FormattingEntry | null = null,
  ): FormattingEntry {
    const e = new FormattingEntry(el, id);
    const last = this.sections.length - 1;
    const section = this.sections[last]!;
    let nb = section === null ? undefined : bucketFor(section, id);
    if (nb === undefined) {
      nb = new NameBucket(id);
      // Most sections (table cells) hold one name: a one-slot list, where `push` on [] would make 17 slots.
      if (section === null) this.sections[last] = [nb];
      else section.push(nb);
    }
    e.nameBucket = nb;
    const prev = after === undefined ? nb.tail : after;
    const next = prev === null ? nb.head : prev.nextName;
    e.prevName = prev;
    e.nextName = next;
    if (prev !== null) prev.nextName = e;
    else nb.head = e;
    if (next !== null) next.prevName = e;
    else nb.tail = e;
    nb.count++;
    if (nb.bySignature !== null) this.addToSignatureBucket(nb.bySignature, e, after === undefined ? undefined : afterSig);
    return e;
  }

  /** Adds `e` to its signature bucket: at the end, or after `after` (null: first). */
  private addToSignatureBucket(map: Map<string, Bucket>, e: FormattingEntry, after: FormattingEntry | null | undefined = undefined): void {
    const sig = signatureOf(e);
    let b = map.get(sig);
    if (b === undefined) {
      b = new Bucket();
      map.set(sig, b);
    }
    e.sigBucket = b;
    const prev = after === undefined ? b.tail : after;
    const next = prev === null ? b.head : prev.nextSig;
    e.prevSig = prev;
    e.nextSig = next;
    if (prev !== null) prev.nextSig = e;
    else b.head = e;
    if (next !== null) next.prevSig = e;
    else b.tail = e;
    b.count++;
  }

  /** Takes an entry out of the indexes and flags it removed. */
  private unindex(e: FormattingEntry): void {
    if (e === MARKER) {
      // Markers leave the list only through "clear ... up to the last marker" (which pops them): their section ends.
      if (this.sections.length > 1) this.sections.pop();
      return;
    }
    e.removed = true;
    const nb = e.nameBucket!;
    if (e.prevName !== null) e.prevName.nextName = e.nextName;
    else nb.head = e.nextName;
    if (e.nextName !== null) e.nextName.prevName = e.prevName;
    else nb.tail = e.prevName;
    nb.count--;
    e.prevName = e.nextName = null;
    const sb = e.sigBucket;
    if (sb !== null) {
      if (e.prevSig !== null) e.prevSig.nextSig = e.nextSig;
      else sb.head = e.nextSig;
      if (e.nextSig !== null) e.nextSig.prevSig = e.prevSig;
      else sb.tail = e.prevSig;
      sb.count--;
      e.prevSig = e.nextSig = null;
      e.sigBucket = null;
    }
  }

  /**
   * "Push onto the list of active formatting elements", with the Noah's Ark clause: when three earlier
   * entries after the last marker have the same tag name, namespace and attributes, the earliest goes.
   * Returns the new entry (to attach to the element's position in the stack of open elements).
   */
  push(el: Element, id: number): FormattingEntry {
    const e = this.newEntry(el, id);
    const nb = e.nameBucket!;
    if (nb.count > 3) {
      if (nb.bySignature === null && nb.count > SIGNATURE_INDEX_THRESHOLD) {
        nb.bySignature = new Map();
        for (let x = nb.head; x !== null; x = x.nextName) this.addToSignatureBucket(nb.bySignature, x);
      }
      if (nb.bySignature !== null) {
        const sb = e.sigBucket!;
        if (sb.count > 3) this.remove(sb.head!);
      } else {
        let matches = 0;
        let earliest: FormattingEntry | null = null;
        for (let x = e.prevName; x !== null; x = x.prevName) {
          if (sameAttributes(x, e)) {
            matches++;
            earliest = x;
          }
        }
        if (matches >= 3) this.remove(earliest!);
      }
    }
    this.entries.push(e);
    return e;
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

  /**
   * `replace` when the entry's position `i` is known. The new entry (a clone: same name and attributes) takes the
   * old one's place in the indexes, which stay in list order.
   */
  replaceAt(i: number, e: FormattingEntry, el: Element): FormattingEntry {
    const after = e.prevName;
    const afterSig = e.prevSig;
    this.unindex(e);
    const n = this.newEntry(el, e.id, after, afterSig);
    this.entries[i] = n;
    return n;
  }

  /**
   * Inserts a new entry for `el` at list position `pos`. Its place in the indexes (list order, which the Noah's Ark
   * clause relies on) comes from a scan back to the last marker; the splice is linear anyway.
   */
  insertAt(pos: number, el: Element, id: number): FormattingEntry {
    const entries = this.entries;
    let after: FormattingEntry | null = null;
    let afterSig: FormattingEntry | null = null;
    let sig: string | null = null;
    for (let i = pos - 1; i >= 0; i--) {
      const x = entries[i]!;
      if (x.removed || x.id !== id) {
        if (x.element === null && !x.removed) break;
        continue;
      }
      if (after === null) after = x;
      const signatures = x.nameBucket!.bySignature !== null;
      if (!signatures) break;
      if (sig === null) sig = signature(el);
      if (signatureOf(x) === sig) {
        afterSig = x;
        break;
      }
    }
    const n = this.newEntry(el, id, after, afterSig);
    entries.splice(pos, 0, n);
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
    const section = this.sections[this.sections.length - 1]!;
    const nb = section === null ? undefined : bucketFor(section, id);
    if (nb === undefined || nb.count === 0) return null;
    const entries = this.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.removed) continue;
      if (e.element === null) return null;
      if (e.id === id) return e;
    }
    return null;
  }

  indexOfEntry(e: FormattingEntry): number {
    return this.entries.lastIndexOf(e);
  }
}
