/**
 * The stack of open elements (WHATWG HTML, "13.2.4.2 The stack of open elements").
 *
 * Besides the elements it keeps, per position, the tag id (see html-elements.ts) and the data that make
 * the "has an element in ... scope" checks O(1):
 * - `topOf[id]`: the highest position holding an element with that id (-1 if none), with `prevSame[i]`
 *   linking each position to the next lower one with the same id;
 * - for each kind of scope, `xxxBound[i]`: the highest position <= i holding a boundary of that scope.
 * An element with id X is in scope exactly when `topOf[X] >= bound[top]`. The per-position numbers (tag id,
 * `prevSame`, the five bounds) are fields of one typed array, a record of 8 per position (see `records`). Pushes
 * and pops update all this in O(1); edits in the middle (adoption agency, removing a form element) rebuild it
 * above the edit.
 *
 * It also keeps, per position, the entry of the list of active formatting elements made for the element there
 * (`attachEntry`), and flags that entry `onStack` while the element is on the stack.
 */
import { type Element, exactCopy, workList } from '../dom.js';
import type { FormattingEntry } from './active-formatting-elements.js';
import * as T from './html-elements.js';
import { BUTTON_BOUND, ID, LIST_BOUND, PREV_SAME, RECORD, SCOPE_BOUND, SPECIAL_BOUND, TABLE_BOUND } from './stack-records.js';

/**
 * The records of the last stack that was released (`release`), for the next one: most parses then allocate none.
 * (A typed array this size is made outside the JS heap: a new one per parse cost small fragments 3–5%.) Only
 * modest ones are kept.
 */
let spareRecords: Int32Array | null = null;
const SPARE_MAX = 1024 * RECORD;
const NO_RECORDS = new Int32Array(0);

/** `topOf` with no element on the stack (copied: an allocation here could be pretenured, see `workList`). */
const NO_ELEMENTS: number[] = new Array<number>(T.TAG_ID_COUNT).fill(-1);
/**
 * The `topOf` of the last stack released empty (every entry -1 then, see release), when it held static ids only (as
 * `spareRecords`).
 */
let spareTopOf: number[] | null = null;
/** A released stack's `topOf`: frozen, so that a stack used after its release throws instead of writing to a spare. */
const RELEASED_TOP_OF: number[] = Object.freeze([]) as unknown as number[];

/** What the stack tells of the `option` elements it pops. */
export interface OptionPopListener {
  optionPopped(option: Element): void;
}

/** @internal (see scripts/internal-names.ts) */
export class StackOfOpenElements {
  items: Element[] = workList();
  /** Index of the current node; -1 when empty. */
  top = -1;
  /** The current node (null when the stack is empty). */
  current: Element | null = null;
  currentId = T.UNKNOWN;

  /** Indexed by tag id; ids past `T.TAG_ID_COUNT` are tag names the tree builder interned while parsing. */
  private topOf: number[] = spareTopOf ?? NO_ELEMENTS.slice();
  /**
   * Per position, a record of RECORD numbers: the tag id, `prevSame` and the bounds of the special, default, list
   * item, button and table scopes. One typed array, doubled when full: a JS array of numbers costs more per slot
   * once it grows past the largest regular object (each larger copy is a large object, which only a full garbage
   * collection frees), so deep trees parsed slower per element the deeper they were.
   */
  private records: Int32Array = spareRecords ?? new Int32Array(64 * RECORD);

  /**
   * Told of every HTML `option` element taken off the stack (the tree builder: selectedcontent cloning). An
   * object, not a closure: V8's young-generation collector kept a closure stored in an object's field alive after
   * the parse, and with it (through the closure's `this`) the parser and the whole tree. Every parsed tree then
   * survived the next scavenges and was copied and promoted; the collector took a third of the parse time.
   */
  optionListener: OptionPopListener | null = null;
  /** Per position, the list-of-active-formatting-elements entry made for the element there, or null. */
  private entryAt: (FormattingEntry | null)[] = workList();

  constructor() {
    spareRecords = null;
    spareTopOf = null;
  }

  /** The tag id of the element at `index`. */
  idAt(index: number): number {
    return this.records[index * RECORD + ID]!;
  }

  /**
   * The parse is over: the records and `topOf` go back to be reused by the next stack (see `spareRecords`). The
   * stack must not be used again (if it were, it would start new records, and throw at its first push).
   */
  release(): void {
    if (this.records.length <= SPARE_MAX) spareRecords = this.records;
    this.records = NO_RECORDS;
    // Every entry is -1 again once the stack is empty (each pop, and unlinkFrom, puts back what the element's link
    // found there, and a stack starts with every entry -1), so the index is given back as it is, and only then
    // (resetting its 124 entries was 2.4% of sanitizing a comment-sized input; test/robustness.test.ts checks the
    // rule on generated markup).
    const topOf = this.topOf;
    if (topOf.length === T.TAG_ID_COUNT && this.top < 0) spareTopOf = topOf;
    this.topOf = RELEASED_TOP_OF;
  }

  /** Makes room for one more position. */
  private grow(): void {
    const records = new Int32Array(Math.max(64 * RECORD, this.records.length * 2));
    records.set(this.records);
    this.records = records;
  }

  push(el: Element, id: number): void {
    const i = ++this.top;
    if ((i + 1) * RECORD > this.records.length) this.grow();
    this.items[i] = el;
    this.entryAt[i] = null;
    this.link(i, id);
    this.current = el;
    this.currentId = id;
  }

  /** Fills in the record of position `i`, whose element has tag id `id`, from the records below it. */
  private link(i: number, id: number): void {
    // (Int32 from here on: link is compiled on its own, and without the `| 0` each store below converted a tagged
    // number, ready for a heap number.)
    i |= 0;
    id |= 0;
    const r = this.records;
    const at = i * RECORD;
    const t = this.topOf[id];
    r[at + ID] = id;
    r[at + PREV_SAME] = t === undefined ? -1 : t;
    this.topOf[id] = i;
    const below = at - RECORD;
    // Which of the bounds the element is, from one table (ids past it, names interned while parsing, are none).
    const bounds = id < T.TAG_ID_COUNT ? T.STACK_BOUNDS[id]! : 0;
    r[at + SPECIAL_BOUND] = bounds & 1 ? i : below < 0 ? -1 : r[below + SPECIAL_BOUND]!;
    r[at + SCOPE_BOUND] = bounds & 2 ? i : below < 0 ? -1 : r[below + SCOPE_BOUND]!;
    r[at + LIST_BOUND] = bounds & 4 ? i : below < 0 ? -1 : r[below + LIST_BOUND]!;
    r[at + BUTTON_BOUND] = bounds & 8 ? i : below < 0 ? -1 : r[below + BUTTON_BOUND]!;
    r[at + TABLE_BOUND] = bounds & 16 ? i : below < 0 ? -1 : r[below + TABLE_BOUND]!;
  }

  /** Records `e` as the entry made for the element at `index` (which has just been put there); flags it on the stack. */
  attachEntry(index: number, e: FormattingEntry): void {
    this.entryAt[index] = e;
    e.onStack = true;
  }

  /** The entry of the list of active formatting elements for the element at `index`, or null when it has none in the list. */
  liveEntryAt(index: number): FormattingEntry | null {
    const e = this.entryAt[index]!;
    return e !== null && !e.removed ? e : null;
  }

  /** The element at `index` leaves the stack: its entry, if any, no longer has its element on the stack. */
  private detachEntry(index: number): void {
    const e = this.entryAt[index]!;
    if (e !== null) e.onStack = false;
  }

  pop(): Element {
    const i = this.top;
    const el = this.items[i]!;
    const id = this.idAt(i);
    this.topOf[id] = this.previousIndexOfSameId(i);
    this.detachEntry(i);
    // Slots above `top` keep stale references until overwritten (cheaper than shrinking the arrays);
    // `items.length` is therefore not the stack height: `top` is.
    this.top = i - 1;
    if (i > 0) {
      this.current = this.items[i - 1]!;
      this.currentId = this.idAt(i - 1);
    } else {
      this.current = null;
      this.currentId = T.UNKNOWN;
    }
    if (id === T.OPTION && this.optionListener !== null) this.optionListener.optionPopped(el);
    // A closed element's child list is mostly final. Arrays grown by push keep 16 or more spare slots (lists of
    // up to three children are made at their length: see appendChildNode); a longer small list is copied to an
    // exact-size one (the old one is young garbage, nearly free), which shrinks the finished tree, and with it
    // the garbage collector's copying.
    const kids = el.childNodes;
    const n = kids.length;
    if (n > 3 && n < 16) el.childNodes = exactCopy(kids, n);
    return el;
  }

  /** Pops until the element at `index` has been popped. */
  popTo(index: number): void {
    while (this.top >= index) this.pop();
  }

  /** Pops until an element with tag id `id` has been popped (it must be on the stack). */
  popUntilId(id: number): void {
    const i = this.lastIndexOfId(id);
    if (i >= 0) this.popTo(i);
  }

  /** Pops until one of h1..h6 has been popped. */
  popUntilHeading(): void {
    for (;;) {
      const id = this.currentId;
      this.pop();
      if (T.isHeading(id) || this.top < 0) return;
    }
  }

  private unlinkFrom(from: number): void {
    for (let i = this.top; i >= from; i--) {
      this.topOf[this.idAt(i)] = this.previousIndexOfSameId(i);
    }
  }

  private relinkAfterEdit(from: number): void {
    for (let i = from; i <= this.top; i++) this.link(i, this.idAt(i));
    if (this.top >= 0) {
      this.current = this.items[this.top]!;
      this.currentId = this.idAt(this.top);
    } else {
      this.current = null;
      this.currentId = T.UNKNOWN;
    }
  }

  /**
   * Removes the element at `index` from the stack. An option taken off the stack this way (the adoption agency
   * algorithm's inner loop) leaves it as a popped one does: the option hook runs, as Chromium runs it, before the
   * algorithm moves anything.
   */
  removeAt(index: number): void {
    const el = this.items[index]!;
    const id = this.idAt(index);
    this.unlinkFrom(index);
    this.detachEntry(index);
    this.items.splice(index, 1);
    // (The records above move down with their ids; relinkAfterEdit recomputes the rest.)
    this.records.copyWithin(index * RECORD, (index + 1) * RECORD, (this.top + 1) * RECORD);
    this.entryAt.splice(index, 1);
    this.top--;
    this.relinkAfterEdit(index);
    if (id === T.OPTION && this.optionListener !== null) this.optionListener.optionPopped(el);
  }

  /** Inserts `el` at `index` (the element there and above move up). */
  insertAt(index: number, el: Element, id: number): void {
    this.unlinkFrom(index);
    if ((this.top + 2) * RECORD > this.records.length) this.grow();
    this.items.splice(index, 0, el);
    this.records.copyWithin((index + 1) * RECORD, index * RECORD, (this.top + 1) * RECORD);
    this.records[index * RECORD + ID] = id;
    this.entryAt.splice(index, 0, null);
    this.top++;
    this.relinkAfterEdit(index);
  }

  /** Replaces the element at `index`. */
  replaceAt(index: number, el: Element, id: number): void {
    this.unlinkFrom(index);
    this.detachEntry(index);
    this.items[index] = el;
    this.records[index * RECORD + ID] = id;
    this.entryAt[index] = null;
    this.relinkAfterEdit(index);
  }

  /** Position of `el` on the stack, searching from the top; -1 if absent. */
  indexOf(el: Element): number {
    return this.top < 0 ? -1 : this.items.lastIndexOf(el, this.top);
  }

  /** Highest position of an element with this tag id, or -1 (O(1)). */
  lastIndexOfId(id: number): number {
    const i = this.topOf[id];
    return i === undefined ? -1 : i;
  }

  /** The next lower position holding an element with the same tag id as position `i`, or -1 (O(1)). */
  previousIndexOfSameId(i: number): number {
    return this.records[i * RECORD + PREV_SAME]!;
  }

  hasId(id: number): boolean {
    return this.lastIndexOfId(id) >= 0;
  }

  /** Highest position holding an element of the special category, or -1 (O(1)). */
  lastSpecialIndex(): number {
    return this.top < 0 ? -1 : this.records[this.top * RECORD + SPECIAL_BOUND]!;
  }

  /** "Has an element in scope" for a tag id. */
  hasInScope(id: number): boolean {
    const i = this.lastIndexOfId(id);
    return i >= 0 && i >= this.records[this.top * RECORD + SCOPE_BOUND]!;
  }

  hasInListItemScope(id: number): boolean {
    const i = this.lastIndexOfId(id);
    return i >= 0 && i >= this.records[this.top * RECORD + LIST_BOUND]!;
  }

  hasInButtonScope(id: number): boolean {
    const i = this.lastIndexOfId(id);
    return i >= 0 && i >= this.records[this.top * RECORD + BUTTON_BOUND]!;
  }

  hasInTableScope(id: number): boolean {
    const i = this.lastIndexOfId(id);
    return i >= 0 && i >= this.records[this.top * RECORD + TABLE_BOUND]!;
  }

  /** "Has an element in scope" for a specific element at position `index`. */
  isIndexInScope(index: number): boolean {
    return index >= 0 && index >= this.records[this.top * RECORD + SCOPE_BOUND]!;
  }

  hasHeadingInScope(): boolean {
    const b = this.records[this.top * RECORD + SCOPE_BOUND]!;
    for (let id = T.H1; id <= T.H6; id++) {
      const i = this.topOf[id]!;
      if (i >= 0 && i >= b) return true; // h1..h6 are static ids: always present in topOf
    }
    return false;
  }

  /** Clears the stack back to a table / table body / table row context (13.2.6.4.9 etc.). */
  clearBackTo(id1: number, id2: number, id3: number): void {
    for (;;) {
      const id = this.currentId;
      if (id === id1 || id === id2 || id === id3 || id === T.TEMPLATE || id === T.HTML) return;
      this.pop();
    }
  }
}
