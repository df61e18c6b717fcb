/**
 * Our parser with Chromium 156's known departures from the standard reproduced, for the parse differential
 * (known-deviations.ts describes each one and why it is a Chromium deviation).
 *
 * A difference between our tree and Chromium's is explained when our parser, with these departures switched on,
 * builds exactly Chromium's tree. Each departure is reproduced where it happens, on the token that triggers it and
 * in the parser state it depends on, not by loosely rewriting the input:
 *  - most are a token sink between our tokenizer and our tree builder that changes what the tree builder sees (drops
 *    a token, turns one into another, switches an insertion mode first, takes an entry off the list of active
 *    formatting elements afterwards) under the exact condition Chromium departs on;
 *  - a few that cannot be reproduced on our side instead make Chromium follow the standard: they edit Chromium's
 *    input at the exact source span of the token involved (the span comes from our tokenizer, which splits the
 *    input into the same tokens), e.g. the `search` tags are renamed to another special element for Chromium;
 *  - three rewrite our input before parsing (tokenizer-level departures; their offsets are mapped back for the
 *    Chromium-side edits).
 *
 * Every departure that actually changed something is reported in `fired`, so that the differential can attribute
 * a match to the deviations it needed. The departures compose: all of them are on at once.
 *
 * This reaches into the tree builder's private state (insertion mode, stacks, selectedcontent bookkeeping). Those
 * names are checked when a parse starts (`internals`), so a refactoring of the tree builder fails here loudly.
 */
import {
  Attr,
  Document,
  DocumentFragment,
  Element,
  ELEMENT_NODE,
  HTML_NS,
  MATHML_NS,
  SVG_NS,
  Text,
  Comment,
  ProcessingInstruction,
  TEXT_NODE,
  asciiLowercase,
  type ChildNode,
  type ParentNode,
} from '../../src/dom.js';
import { matchNamedCharacterReference, matchedLength } from '../../src/tokenizer/character-references.js';
import type { TokenSink } from '../../src/tokenizer/token-sink.js';
import { CDATA_SECTION_STATE, DATA_STATE, Tokenizer } from '../../src/tokenizer/tokenizer.js';
import {
  AFTER_AFTER_BODY,
  AFTER_BODY,
  AFTER_HEAD,
  BEFORE_HEAD,
  BEFORE_HTML,
  INITIAL,
  IN_BODY,
  IN_CAPTION,
  IN_CELL,
  IN_COLUMN_GROUP,
  IN_HEAD,
  IN_HEAD_NOSCRIPT,
  IN_ROW,
  IN_TABLE,
  IN_TABLE_BODY,
  IN_TABLE_TEXT,
  IN_TEMPLATE,
  TreeBuilder,
} from '../../src/tree-builder/tree-builder.js';
import { documentModeFromDoctype } from '../../src/tree-builder/quirks-mode.js';
import * as T from '../../src/tree-builder/html-elements.js';
import { adjustSvgTagName, isHtmlEncoding } from '../../src/tree-builder/foreign-content.js';
import { dumpTree } from '../support/dump.js';

export interface SimCase {
  kind: 'document' | 'fragment';
  input: string;
  context: { name: string; namespace?: string } | null;
  scripting: boolean;
}

export interface SimOutcome {
  dump: string;
  mode: string | null;
  /** The input to give Chromium (the original one unless a Chromium-side edit fired). */
  chromiumInput: string;
  /** Element names renamed in Chromium's input: [stand-in, original]; map them back in Chromium's dump. */
  chromiumRenames: [string, string][];
  /** Ids of the deviations that changed something. */
  fired: string[];
}

// Deviation ids (known-deviations.ts documents each).
export const HEAD_IN_HEAD_NOSCRIPT = 'chromium-head-in-head-noscript';
export const IS_ATTRIBUTE = 'chromium-is-attribute-formatting-element';
export const NUL_AFTER_LT = 'chromium-nul-after-less-than';
export const RCDATA_FRAGMENT_NUL = 'chromium-rcdata-fragment-drops-nul';
export const NUL_OUTSIDE_BODY = 'chromium-drops-nul-outside-body';
export const SEARCH_NOT_SPECIAL = 'chromium-search-not-special';
export const TEMPLATE_HEAD_ROW = 'chromium-template-head-row-anything-else';
export const FORM_IN_TABLE_IN_TEMPLATE = 'chromium-form-in-table-in-template';
export const FORM_END_FALLS_THROUGH = 'chromium-form-end-tag-falls-through';
export const FOREIGN_END_TAG_CASE = 'chromium-foreign-end-tag-case-adjusted';
export const EVERY_SELECTEDCONTENT = 'chromium-clones-into-every-selectedcontent';
export const CDATA_NUL = 'chromium-cdata-nul-replaced';
export const FOREIGN_CONTEXT_END_TAG = 'chromium-foreign-context-end-tag-at-root';
export const FAST_PATH = 'chromium-fast-path-parser';
export const CR_NEWLINE = 'chromium-cr-in-tag-whitespace-skips-newline';
export const IMPLIED_BODY_FRAMESET_OK = 'chromium-implied-body-resets-frameset-ok';
export const AFTER_BODY_WHITESPACE = 'chromium-after-body-whitespace-not-reconstructed';
export const TABLE_TEXT_TEMPLATE = 'chromium-table-text-template-current-node';
export const FFFD_FRAMESET_OK = 'chromium-fffd-keeps-frameset-ok';
export const COLGROUP_EOF_TABLE_TEXT = 'chromium-colgroup-fragment-eof-table-text';
export const TABLE_TEXT_AFTER_OPTION_POP = 'chromium-table-text-inserted-after-option-pop';
export const COLUMN_GROUP_POPS_ANY = 'chromium-column-group-pops-current-node';
export const MOVED_SELECTEDCONTENT_EMPTIED_FIRST = 'chromium-moved-selectedcontent-emptied-first';

export const SIMULATED: readonly string[] = [
  HEAD_IN_HEAD_NOSCRIPT,
  IS_ATTRIBUTE,
  NUL_AFTER_LT,
  RCDATA_FRAGMENT_NUL,
  NUL_OUTSIDE_BODY,
  SEARCH_NOT_SPECIAL,
  TEMPLATE_HEAD_ROW,
  FORM_IN_TABLE_IN_TEMPLATE,
  FORM_END_FALLS_THROUGH,
  FOREIGN_END_TAG_CASE,
  EVERY_SELECTEDCONTENT,
  CDATA_NUL,
  FOREIGN_CONTEXT_END_TAG,
  FAST_PATH,
  CR_NEWLINE,
  IMPLIED_BODY_FRAMESET_OK,
  AFTER_BODY_WHITESPACE,
  TABLE_TEXT_TEMPLATE,
  FFFD_FRAMESET_OK,
  COLGROUP_EOF_TABLE_TEXT,
  TABLE_TEXT_AFTER_OPTION_POP,
  COLUMN_GROUP_POPS_ANY,
  MOVED_SELECTEDCONTENT_EMPTIED_FIRST,
];

// ---------------------------------------------------------------------------------------------------------------
// The tree builder's private state this module reads and changes.

interface StackView {
  items: Element[];
  idAt(index: number): number;
  top: number;
  current: Element | null;
  optionListener: { optionPopped(option: Element): void } | null;
  lastIndexOfId(id: number): number;
  previousIndexOfSameId(i: number): number;
  popTo(index: number): void;
  hasId(id: number): boolean;
  liveEntryAt(index: number): unknown;
}

interface AfeView {
  pushMarker(): void;
  clearToLastMarker(): void;
  remove(e: unknown): void;
}

interface Internals {
  mode: number;
  originalMode: number;
  templateModes: number[];
  open: StackView;
  afe: AfeView;
  framesetOk: boolean;
  skipNextNewline: boolean;
  pendingTableText: string;
  pendingTableTextDirty: boolean;
  fosterParenting: boolean;
  locParent: ParentNode;
  locBefore: ChildNode | null;
  findInsertionLocation(overrideTarget: Element | null): void;
  reconstructActiveFormattingElements(): void;
  formElement: Element | null;
  contextElement: Element | null;
  /** Made on first write: null until an option is selected. */
  selectedOptionMap: Map<Element, Element> | null;
  noteSelectedContent(el: Element): void;
  noteOptionInserted(option: Element): void;
  connectedInsertion(): boolean;
  reselectAfterRemoval(select: Element): void;
  selectedContentMoved(root: Element): void;
  /** The tree-move count `optionSelect`'s cached ancestor select was found at (-1: none cached). */
  selectAboveMoves: number;
}

function internals(b: TreeBuilder): Internals {
  const i = b as unknown as Internals;
  const ok =
    typeof i.mode === 'number' && typeof i.originalMode === 'number' && Array.isArray(i.templateModes) &&
    typeof i.framesetOk === 'boolean' && typeof i.skipNextNewline === 'boolean' &&
    typeof i.pendingTableText === 'string' && typeof i.pendingTableTextDirty === 'boolean' &&
    typeof i.fosterParenting === 'boolean' && typeof i.findInsertionLocation === 'function' &&
    typeof i.reconstructActiveFormattingElements === 'function' && 'locParent' in i && 'locBefore' in i && 'selectedOptionMap' in i && (i.selectedOptionMap === null || i.selectedOptionMap instanceof Map) && Array.isArray(i.open?.items) &&
    typeof i.open.top === 'number' && typeof i.open.lastIndexOfId === 'function' && typeof i.open.popTo === 'function' && 'optionListener' in i.open && typeof i.open.liveEntryAt === 'function' && typeof i.open.idAt === 'function' &&
    typeof i.afe?.pushMarker === 'function' && typeof i.afe.clearToLastMarker === 'function' &&
    typeof i.afe.remove === 'function' &&
    typeof i.noteSelectedContent === 'function' && typeof i.noteOptionInserted === 'function' &&
    typeof i.connectedInsertion === 'function' && typeof i.reselectAfterRemoval === 'function' &&
    typeof i.selectedContentMoved === 'function' && typeof i.selectAboveMoves === 'number' && 'formElement' in i &&
    'contextElement' in i;
  if (!ok) throw new Error('chromium-sim.ts: the tree builder\'s internals changed; update `internals` and its users');
  return i;
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

const FORMATTING_NAMES = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);
const HEAD_ROW_NAMES = new Set(['base', 'basefont', 'bgsound', 'noframes', 'title']);
const IMPLIED_END_TAGS = new Set(['dd', 'dt', 'li', 'optgroup', 'option', 'p', 'rb', 'rp', 'rt', 'rtc']);
/**
 * Start tags "in head" or "after head" handle themselves (any other one takes "anything else" in both: an implied
 * body). noscript is an "in head" one; "after head" sends it back there.
 */
const AFTER_HEAD_START_TAGS = new Set(['html', 'body', 'frameset', 'base', 'basefont', 'bgsound', 'link', 'meta', 'noframes', 'noscript', 'script', 'style', 'template', 'title', 'head']);
/**
 * The insertion modes in which an end tag form is processed by the "in body" rules, where Chromium's form case falls
 * through (FORM_END_FALLS_THROUGH): "in body", "in caption" and "in cell" (which process it that way), and "after
 * body" and "after after body" (which switch to "in body" and reprocess it: `<form><table></form></table><form>
 * </html></form>?`, seed 2026114101, puts "?" outside both forms in Chromium).
 */
function endTagInBody(mode: number): boolean {
  return mode === IN_BODY || mode === IN_CAPTION || mode === IN_CELL || mode === AFTER_BODY || mode === AFTER_AFTER_BODY;
}

/** Insertion modes where a U+0000 character token has an effect in the standard ("anything else" rows). */
const NUL_EFFECT_MODES = new Set([INITIAL, BEFORE_HTML, BEFORE_HEAD, IN_HEAD, IN_HEAD_NOSCRIPT, AFTER_HEAD, IN_COLUMN_GROUP, AFTER_BODY, AFTER_AFTER_BODY]);
const TABLE_MODES = new Set([IN_TABLE, IN_TABLE_BODY, IN_ROW]);
/**
 * Candidates for renaming `search` for Chromium: special elements with the same start and end tag rules, and not
 * address, div or p, which the "li" and "dd"/"dt" start tags' loops pass where they stop at search (an `address`
 * stand-in let `<dd><search><dd>` close the first dd: found by the parse differential, seed 2026114401), nor center,
 * which breaks out of foreign content where search does not.
 */
const SEARCH_STAND_INS = ['section', 'article', 'aside', 'nav', 'hgroup', 'figcaption', 'figure', 'main'];

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isHtml(el: Element, name: string): boolean {
  return el.namespaceURI === HTML_NS && el.localName === name;
}

function isMathmlTextIntegrationPoint(el: Element): boolean {
  return el.namespaceURI === MATHML_NS && ['mi', 'mo', 'mn', 'ms', 'mtext'].includes(el.localName);
}

function isHtmlIntegrationPoint(el: Element): boolean {
  if (el.namespaceURI === SVG_NS) return ['foreignObject', 'desc', 'title'].includes(el.localName);
  return el.namespaceURI === MATHML_NS && el.localName === 'annotation-xml' && isHtmlEncoding(el.attributes);
}

/**
 * The end (exclusive) of the tag token that starts with "<" at `start`, following the tokenizer's tag states
 * (quotes only count in attribute values). With `quoted`, the source spans of its quoted attribute values (without
 * the quotes) are added to it.
 */
export function tagEnd(s: string, start: number, quoted?: [number, number][]): number {
  const n = s.length;
  let i = start + 1;
  if (s.charCodeAt(i) === 0x2f) i++;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isWhitespace(c) || c === 0x2f || c === 0x3e) break;
    i++;
  }
  // States: 0 before attribute name, 1 attribute name, 2 after attribute name, 3 before value, 4 double-quoted,
  // 5 single-quoted, 6 unquoted, 7 after quoted value, 8 self-closing start tag.
  let st = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    switch (st) {
      case 0:
        if (isWhitespace(c)) i++;
        else if (c === 0x2f) (st = 8), i++;
        else if (c === 0x3e) return i + 1;
        else (st = 1), i++;
        break;
      case 1:
        if (isWhitespace(c)) (st = 2), i++;
        else if (c === 0x2f) (st = 8), i++;
        else if (c === 0x3e) return i + 1;
        else if (c === 0x3d) (st = 3), i++;
        else i++;
        break;
      case 2:
        if (isWhitespace(c)) i++;
        else if (c === 0x2f) (st = 8), i++;
        else if (c === 0x3d) (st = 3), i++;
        else if (c === 0x3e) return i + 1;
        else (st = 1), i++;
        break;
      case 3:
        if (isWhitespace(c)) i++;
        else if (c === 0x22 || c === 0x27) {
          st = c === 0x22 ? 4 : 5;
          i++;
          quoted?.push([i, n]);
        }
        else if (c === 0x3e) return i + 1;
        else st = 6;
        break;
      case 4:
      case 5:
        if (c === (st === 4 ? 0x22 : 0x27)) {
          st = 7;
          if (quoted !== undefined) quoted[quoted.length - 1]![1] = i;
        }
        i++;
        break;
      case 6:
        if (isWhitespace(c)) (st = 0), i++;
        else if (c === 0x3e) return i + 1;
        else i++;
        break;
      case 7:
        if (isWhitespace(c)) (st = 0), i++;
        else if (c === 0x2f) (st = 8), i++;
        else if (c === 0x3e) return i + 1;
        else st = 0;
        break;
      case 8:
        if (c === 0x3e) return i + 1;
        st = 0;
        break;
    }
  }
  return n;
}

/**
 * FAST_PATH: the named character references of the attribute value input[from, to) that the standard keeps as
 * written "for historical reasons" (no ";" after the longest name matched, and an ASCII alphanumeric or "=" next)
 * and Chromium's fast path decodes anyway (its lookahead for a ";" within about 20 characters found one); each
 * edit inserts the ";".
 */
function namedReferencesDecodedAnyway(input: string, from: number, to: number): Edit[] {
  const edits: Edit[] = [];
  for (let amp = input.indexOf('&', from); amp >= 0 && amp < to; amp = input.indexOf('&', amp + 1)) {
    if (matchNamedCharacterReference(input, amp + 1, to) < 0) continue;
    const end = amp + 1 + matchedLength;
    if (input.charCodeAt(end - 1) === 0x3b || end >= to) continue;
    const next = input.charCodeAt(end);
    if (next === 0x3d || isAsciiAlphanumeric(next)) edits.push({ start: end, end, text: ';' });
  }
  return edits;
}

function isAsciiAlphanumeric(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

/**
 * What a first pass records: the source spans of data-state text, and where each tag token (and start tag), each
 * DOCTYPE and each processing instruction starts.
 */
interface Trace {
  text: [number, number][];
  tags: number[];
  startTags: number[];
  doctypes: number[];
  instructions: number[];
}

/**
 * CR_NEWLINE: the LFs Chromium's tokenizer drops in the tag starting at `start`. A whitespace character ends the tag
 * name, an attribute name, an unquoted value, or follows a quoted value, or a "/" enters the self-closing start tag
 * state; when the next character (read through Chromium's input preprocessor, which turns a CR into LF and
 * remembers to skip an LF right after it) is a CR, the rest of that whitespace is skipped raw (without the
 * preprocessor), so the "skip the next LF" flag survives past the first character after the whitespace: an LF right
 * after that character is dropped. (The "/" case, found by seed 2026113304 and probed: `<E/\rx\n<>`, `<E x/\ry\n<>`
 * and `<E//\ry\n<>` lose the LF, `<E/ \ry\n<>` and `<E/\r/y\n<>` do not.)
 */
function crDroppedNewlines(s: string, start: number): number[] {
  const out: number[] = [];
  const n = s.length;
  const ws = (i: number): boolean => i < n && isWhitespace(s.charCodeAt(i));
  const check = (i: number): void => crSkippedWhitespace(s, i, out);
  let i = start + 1;
  if (s.charCodeAt(i) === 0x2f) i++;
  while (i < n && !ws(i) && s.charCodeAt(i) !== 0x2f && s.charCodeAt(i) !== 0x3e) i++;
  // (An over-approximation for end tags: Chromium keeps the LF after the whitespace that ends the name of an end tag
  // whose element is open, `<p>a</p \r\r>\nx`, and drops it for one that closes nothing, `a</p\r\r>\nx`; probed.
  // Where Chromium keeps the LF, our parser agrees with it and this is never asked.)
  if (ws(i)) check(i);
  // States as in tagEnd: 0 before attribute name, 1 attribute name, 2 after attribute name, 3 before value,
  // 4/5 quoted value, 6 unquoted value, 7 after quoted value, 8 self-closing.
  let st = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    const space = isWhitespace(c);
    switch (st) {
      case 0:
      case 2:
        if (space) i++;
        else if (c === 0x2f) (check(i), (st = 8), i++);
        else if (c === 0x3e) return out;
        else if (c === 0x3d && st === 2) (st = 3), i++;
        else (st = 1), i++;
        break;
      case 1:
        if (space) (check(i), (st = 2), i++);
        else if (c === 0x2f) (check(i), (st = 8), i++);
        else if (c === 0x3e) return out;
        else if (c === 0x3d) (st = 3), i++;
        else i++;
        break;
      case 3:
        if (space) i++;
        else if (c === 0x22) (st = 4), i++;
        else if (c === 0x27) (st = 5), i++;
        else if (c === 0x3e) return out;
        else st = 6;
        break;
      case 4:
      case 5:
        if (c === (st === 4 ? 0x22 : 0x27)) st = 7;
        i++;
        break;
      case 6:
        if (space) (check(i), (st = 0), i++);
        else if (c === 0x3e) return out;
        else i++;
        break;
      case 7:
        if (space) (check(i), (st = 0), i++);
        else if (c === 0x2f) (check(i), (st = 8), i++);
        else if (c === 0x3e) return out;
        else st = 0;
        break;
      case 8:
        if (c === 0x3e) return out;
        st = 0;
        break;
    }
  }
  return out;
}

/**
 * CR_NEWLINE, the step both kinds of token share: after the whitespace character at `i` that ends a state (a CR LF
 * pair counts as one), a CR makes Chromium skip the rest of the whitespace raw, and the LF right after the first
 * character past it, if there is one, is dropped: its index goes into `out`.
 */
function crSkippedWhitespace(s: string, i: number, out: number[]): void {
  const n = s.length;
  let j = i + 1;
  if (s.charCodeAt(i) === 0x0d && s.charCodeAt(j) === 0x0a) j++;
  if (s.charCodeAt(j) !== 0x0d) return;
  let k = j;
  while (k < n && isWhitespace(s.charCodeAt(k))) k++;
  if (k < n && s.charCodeAt(k + 1) === 0x0a) out.push(k + 1);
}

/**
 * CR_NEWLINE in a DOCTYPE starting at `start` (its `<`): the same LFs dropped after the whitespace that ends the
 * DOCTYPE state (before the name), follows the PUBLIC keyword, the public identifier or the SYSTEM keyword, or ends
 * the system identifier as a CR itself, and after the name where a ">" is the next character (probed:
 * `<!DOCTYPE \rx\ny>` is named "xy", `<!DOCTYPE html PUBLIC \r"\nx">` has the public identifier "x",
 * `<p><!DOCTYPE h \r>\nx` has the text "x", `<!DOCTYPE html \rP\nUBLIC "x">` no public identifier). The scan reads
 * the DOCTYPE as Chromium does, without the LFs it drops. (Found by this differential test, seed 2026114801, and a
 * sweep of whitespace around every state.)
 */
function crDroppedNewlinesInDoctype(s: string, start: number): number[] {
  const out: number[] = [];
  const n = s.length;
  // The next index at or after `i` that Chromium reads (past the LFs it drops).
  const next = (i: number): number => (out.length > 0 && out[out.length - 1] === i ? i + 1 : i);
  const ws = (i: number): boolean => i < n && isWhitespace(s.charCodeAt(i));
  const skip = (i: number): number => {
    for (i = next(i); ws(i); i = next(i + 1));
    return i;
  };
  /** Whitespace that ends a state at `i`: the drop, then the index after the whitespace; or -1 when there is none. */
  const afterWhitespace = (i: number): number => {
    if (!ws(i)) return -1;
    crSkippedWhitespace(s, i, out);
    return skip(i + 1);
  };
  /** A quoted identifier starting at `i`, if any: the index after its closing quote, or -1 (the DOCTYPE ends). */
  const identifier = (i: number): number => {
    const q = s.charCodeAt(i);
    if (q !== 0x22 && q !== 0x27) return -1;
    for (i = next(i + 1); i < n; i = next(i + 1)) {
      const c = s.charCodeAt(i);
      if (c === q) return i + 1;
      if (c === 0x3e) return -1;
    }
    return -1;
  };
  // (ASCII case-insensitive, as the tokenizer matches: toUpperCase would read "ſYSTEM" as SYSTEM.)
  const keyword = (i: number, word: string): boolean => s.slice(i, i + 6).replace(/[a-z]/g, (c) => c.toUpperCase()) === word;
  // DOCTYPE state, then the name.
  let i = afterWhitespace(start + 9);
  if (i < 0) i = start + 9;
  while (i < n && !ws(i) && s.charCodeAt(i) !== 0x3e) i = next(i + 1);
  // After the name, only where a ">" follows the whitespace: a keyword is read ahead raw, so its LF stays.
  if (ws(i)) {
    const before = out.length;
    crSkippedWhitespace(s, i, out);
    if (out.length > before && s.charCodeAt(out[before]! - 1) !== 0x3e) out.length = before;
  }
  i = skip(i);
  let system = false;
  if (keyword(i, 'SYSTEM')) system = true;
  else if (!keyword(i, 'PUBLIC')) return out;
  // After the keyword: whitespace, then the identifier (or the identifier at once).
  i += 6;
  let at = afterWhitespace(i);
  i = identifier(at < 0 ? i : at);
  if (i < 0) return out;
  if (!system) {
    // After the public identifier: whitespace, then the system identifier (or the identifier at once).
    at = afterWhitespace(i);
    i = identifier(at < 0 ? i : at);
    if (i < 0) return out;
  }
  // After the system identifier, another rule (as after a processing instruction's target): the whitespace that ends
  // it is itself a CR (probed: `"a"\r>\nw` and `"a"\r \r>\nw` lose the LF, `"a" \r>\nw` keeps it).
  const lf = crEndingWhitespace(s, i);
  if (lf >= 0) out.push(lf);
  return out;
}

/**
 * CR_NEWLINE where the whitespace at `i` that ends a state is itself a CR (or a CR LF pair): Chromium skips the rest of
 * the whitespace and drops an LF right after the next character. Returns the LF's index, or -1.
 */
function crEndingWhitespace(s: string, i: number): number {
  const n = s.length;
  if (s.charCodeAt(i) !== 0x0d) return -1;
  let k = i + 1;
  while (k < n && isWhitespace(s.charCodeAt(k))) k++;
  return k < n && s.charCodeAt(k + 1) === 0x0a ? k + 1 : -1;
}

/**
 * CR_NEWLINE in a processing instruction starting at `start` (its `<`): when the whitespace that ends the target is
 * a CR (or a CR LF pair), Chromium skips the rest of the whitespace and drops an LF right after the next character
 * (probed: `<?x\ry\nz?>` has the data "yz", `<?x\r>\nz` is followed by the text "z"; `<?x \r\ry\nz?>` and
 * `<?x\n\ry\nz?>` keep it). Returns the LF's index, or -1.
 */
function crDroppedNewlineInInstruction(s: string, start: number): number {
  const n = s.length;
  let i = start + 2;
  while (i < n && (isAsciiAlphanumeric(s.charCodeAt(i)) || s.charCodeAt(i) === 0x2d || s.charCodeAt(i) === 0x5f)) i++;
  return crEndingWhitespace(s, i);
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(input: string, edits: Edit[]): string {
  if (edits.length === 0) return input;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue; // overlapping edits: keep the first
    out += input.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + input.slice(at);
}

// ---------------------------------------------------------------------------------------------------------------
// Input rewrites on our side (tokenizer-level departures in text)

/**
 * Fragment with a textarea or title context (the tokenizer stays in RCDATA): Chromium passes U+0000 through in the
 * RCDATA state and the "in body" insertion mode then drops it; a U+0000 met in another tokenizer state (right after
 * "<", "</" or "</" and letters, which are then re-emitted as text) was already turned into U+FFFD. The offsets of
 * the U+0000s the RCDATA state itself meets.
 */
function rcdataNuls(input: string): number[] {
  const out: number[] = [];
  for (let i = input.indexOf('\u0000'); i >= 0; i = input.indexOf('\u0000', i + 1)) {
    let j = i - 1;
    while (j >= 0 && isAsciiAlpha(input.charCodeAt(j))) j--;
    const afterMarkup =
      input.charCodeAt(i - 1) === 0x3c ||
      (input.charCodeAt(j) === 0x2f && input.charCodeAt(j - 1) === 0x3c);
    if (!afterMarkup) out.push(i);
  }
  return out;
}

/**
 * Maps an offset in the result of applying each list of `rounds` in turn (each sorted, in the coordinates of the
 * input it was applied to) back to the original input. An offset inside inserted text maps to the edit's start.
 */
function offsetMap(rounds: Edit[][]): (pos: number) => number {
  return (pos) => {
    for (let r = rounds.length - 1; r >= 0; r--) pos = backOneRound(rounds[r]!, pos);
    return pos;
  };
}

function backOneRound(edits: Edit[], pos: number): number {
  let delta = 0;
  for (const e of edits) {
    const newStart = e.start + delta;
    if (pos < newStart) break;
    if (pos < newStart + e.text.length) return e.start;
    delta += e.text.length - (e.end - e.start);
  }
  return pos - delta;
}

// ---------------------------------------------------------------------------------------------------------------
// The parse

function contextElementFor(ctx: { name: string; namespace?: string }): Element {
  const ns = ctx.namespace ?? HTML_NS;
  if (ns === HTML_NS) return new Element(asciiLowercase(ctx.name), HTML_NS, []);
  if (ns === SVG_NS) return new Element(adjustSvgTagName(ctx.name), SVG_NS, []);
  return new Element(ctx.name, MATHML_NS, []);
}

/**
 * Parses like parseDocument/parseFragment, with Chromium's departures reproduced. `textSpans`, when given, receives
 * the source spans of the character tokens emitted in the data state (for a second pass that rewrites text).
 */
function run(
  c: SimCase,
  input: string,
  on: (id: string) => boolean,
  fired: Set<string>,
  edits: Edit[],
  renames: [string, string][],
  trace?: Trace,
  dropMarker: string | null = null,
): { dump: string; mode: string | null } {
  const document = new Document();
  const builder = new TreeBuilder(document, { scripting: c.scripting, reportErrors: false, documentMode: documentModeFromDoctype });
  const b = internals(builder);
  const sink = new ChromiumSink(builder, b, input, fired, edits, renames, trace, on, dropMarker);
  const tokenizer = new Tokenizer(sink, null);
  builder.tokenizer = tokenizer;
  sink.tokenizer = tokenizer;
  // The selectedcontent departures share the tree builder's selectedcontent hooks, replaced together.
  if (on(EVERY_SELECTEDCONTENT) || on(MOVED_SELECTEDCONTENT_EMPTIED_FIRST)) installEverySelectedContent(b, fired, on);
  let root: Element | null = null;
  if (c.kind === 'fragment') root = builder.initFragment(contextElementFor(c.context!));
  sink.textState = tokenizer.state;
  tokenizer.run(input);
  if (root === null) return { dump: dumpTree(document), mode: document.mode };
  const fragment = new DocumentFragment();
  const kids = root.childNodes;
  for (let i = 0; i < kids.length; i++) kids[i]!.parentNode = fragment;
  fragment.childNodes = kids;
  root.childNodes = [];
  return { dump: dumpTree(fragment), mode: null };
}

/** Parses with every simulated departure on, except those listed in `without`. */
export function parseSimulated(c: SimCase, without: readonly string[] = []): SimOutcome {
  const off = new Set(without);
  const on = (id: string): boolean => !off.has(id);
  const fired = new Set<string>();
  let input = c.input;
  /** The rewrites of our input, in the coordinates of the input each one was applied to. */
  const ourEdits: Edit[][] = [];
  /** A character the sink deletes from all text (RCDATA_FRAGMENT_NUL). */
  let dropMarker: string | null = null;
  // Rewrites of our input first.
  const ctx = c.context;
  if (on(RCDATA_FRAGMENT_NUL) && c.kind === 'fragment' && ctx !== null && (ctx.namespace ?? HTML_NS) === HTML_NS && (ctx.name === 'textarea' || ctx.name === 'title')) {
    // Each such U+0000 becomes a private-use character the input does not contain, which the sink then deletes
    // from the text: unlike deleting it here, that keeps "&\0#65" apart (U+0000 ends a character reference).
    const marker = [...'\uE000\uE001\uE002\uE003'].find((m) => !input.includes(m));
    const nuls = marker === undefined ? [] : rcdataNuls(input);
    if (nuls.length > 0) {
      fired.add(RCDATA_FRAGMENT_NUL);
      input = applyEdits(input, nuls.map((i) => ({ start: i, end: i + 1, text: marker! })));
      dropMarker = marker!;
    }
  }
  const hexRefs = on(FAST_PATH) && /&#[xX];/.test(input);
  const namedRefs = on(FAST_PATH) && /&[A-Za-z]/.test(input);
  const crs = on(CR_NEWLINE) && input.includes('\r');
  if (hexRefs || namedRefs || crs) {
    // A first pass finds the data-state text and the tags, for the tokenizer-level rewrites below.
    const trace: Trace = { text: [], tags: [], startTags: [], doctypes: [], instructions: [] };
    run(c, input, on, new Set(), [], [], trace, dropMarker);
    const edits: Edit[] = [];
    if (hexRefs || namedRefs) {
      // The quoted attribute values of start tags.
      const values: [number, number][] = [];
      for (const at of trace.startTags) tagEnd(input, at, values);
      // FAST_PATH: "&#x;" in data-state text and in quoted attribute values of start tags becomes "&#xFFFD;".
      if (hexRefs) {
        for (const [from, to] of [...trace.text, ...values]) {
          const text = input.slice(from, to);
          for (const m of text.matchAll(/&#[xX];/g)) edits.push({ start: from + m.index, end: from + m.index + 4, text: '&#xFFFD;' });
        }
      }
      // FAST_PATH: in a quoted attribute value, a named reference without ";" is decoded even when an ASCII
      // alphanumeric or "=" follows it: a ";" after the name makes our tokenizer do the same.
      if (namedRefs) for (const [from, to] of values) edits.push(...namedReferencesDecodedAnyway(input, from, to));
      if (edits.length > 0) fired.add(FAST_PATH);
    }
    if (crs) {
      const before = edits.length;
      for (const at of trace.tags) for (const lf of crDroppedNewlines(input, at)) edits.push({ start: lf, end: lf + 1, text: '' });
      for (const at of trace.doctypes) for (const lf of crDroppedNewlinesInDoctype(input, at)) edits.push({ start: lf, end: lf + 1, text: '' });
      for (const at of trace.instructions) {
        const lf = crDroppedNewlineInInstruction(input, at);
        if (lf >= 0) edits.push({ start: lf, end: lf + 1, text: '' });
      }
      if (edits.length > before) fired.add(CR_NEWLINE);
    }
    if (edits.length > 0) {
      edits.sort((a, b) => a.start - b.start);
      ourEdits.push(edits);
      input = applyEdits(input, edits);
    }
  }
  const edits: Edit[] = [];
  const renames: [string, string][] = [];
  const out = run(c, input, on, fired, edits, renames, undefined, dropMarker);
  let chromiumInput = c.input;
  if (edits.length > 0) {
    // Chromium-side edits are found in our (possibly rewritten) input and made on the original one.
    const back = offsetMap(ourEdits);
    chromiumInput = applyEdits(c.input, edits.map((e) => ({ start: back(e.start), end: back(e.end), text: e.text })));
  }
  return { dump: out.dump, mode: out.mode, chromiumInput, chromiumRenames: renames, fired: [...fired] };
}

/** The token sink between our tokenizer and tree builder. */
class ChromiumSink implements TokenSink {
  tokenizer!: Tokenizer;
  private searchStandIn: string | null | undefined = undefined;

  constructor(
    private readonly builder: TreeBuilder,
    private readonly b: Internals,
    private readonly input: string,
    private readonly fired: Set<string>,
    private readonly edits: Edit[],
    private readonly renames: [string, string][],
    private readonly trace: Trace | undefined,
    private readonly on: (id: string) => boolean,
    private readonly dropMarker: string | null,
  ) {}

  private pendingTextStart = -1;
  /** The tokenizer state the next character token is read in (set after each non-character token). */
  textState = DATA_STATE;

  // -- state helpers

  private adjustedCurrentNode(): Element | null {
    const b = this.b;
    if (b.contextElement !== null && b.open.top === 0) return b.contextElement;
    return b.open.current;
  }

  /** Whether the tree builder will process a token of this kind by the HTML insertion mode rules. */
  private htmlRules(kind: 'start' | 'end' | 'chars', name = ''): boolean {
    const node = this.adjustedCurrentNode();
    if (node === null || node.namespaceURI === HTML_NS) return true;
    if (kind === 'end') return false;
    if (isMathmlTextIntegrationPoint(node) && (kind === 'chars' || (name !== 'mglyph' && name !== 'malignmark'))) return true;
    if (kind === 'start' && name === 'svg' && node.namespaceURI === MATHML_NS && node.localName === 'annotation-xml') return true;
    return isHtmlIntegrationPoint(node);
  }

  private templateOnStack(): boolean {
    return this.b.open.hasId(T.TEMPLATE);
  }

  /** The insertion mode that will handle the token ("in table text" hands a non-character token back). */
  private effectiveMode(): number {
    return this.b.mode === IN_TABLE_TEXT ? this.b.originalMode : this.b.mode;
  }

  // -- TokenSink

  startTag(name: string, attributes: Attr[], selfClosing: boolean): void {
    this.closeTextSpan();
    this.trace?.tags.push(this.tokenizer.tokenStart);
    this.trace?.startTags.push(this.tokenizer.tokenStart);
    const b = this.b;
    const start = this.tokenizer.tokenStart;
    const html = this.htmlRules('start', name);
    if (this.on(HEAD_IN_HEAD_NOSCRIPT) && html && name === 'head' && b.mode === IN_HEAD_NOSCRIPT) {
      // Chromium: "anything else" in head noscript (pop the noscript, reprocess in head, where head is ignored).
      this.fired.add(HEAD_IN_HEAD_NOSCRIPT);
      this.builder.endTag('noscript');
    }
    if (this.on(TEMPLATE_HEAD_ROW) && html && HEAD_ROW_NAMES.has(name) && b.mode === IN_TEMPLATE) {
      // Chromium: "anything else" in template (the template insertion mode becomes "in body").
      this.fired.add(TEMPLATE_HEAD_ROW);
      b.templateModes[b.templateModes.length - 1] = IN_BODY;
      b.mode = IN_BODY;
    }
    if (this.on(FORM_IN_TABLE_IN_TEMPLATE) && html && name === 'form' && this.templateOnStack()) {
      const mode = this.effectiveMode();
      if (TABLE_MODES.has(mode) || mode === IN_COLUMN_GROUP) {
        // The standard ignores it here; Chromium inserts it. For Chromium it becomes an end tag that these modes
        // ignore after the same steps ("in column group" pops the colgroup first, pending table text is flushed).
        this.fired.add(FORM_IN_TABLE_IN_TEMPLATE);
        this.edits.push({ start, end: tagEnd(this.input, start), text: '</caption>' });
      }
    }
    if (this.on(SEARCH_NOT_SPECIAL) && name === 'search') this.renameSearch(start + 1);
    if (!AFTER_HEAD_START_TAGS.has(name)) this.impliedBody();
    if (html && name !== 'html' && name !== 'col' && name !== 'template') this.columnGroupPop();
    const deferred = this.deferTableText();
    this.builder.startTag(name, attributes, selfClosing);
    deferred?.();
    this.textState = this.tokenizer.state;
    if (this.on(IS_ATTRIBUTE) && FORMATTING_NAMES.has(name)) {
      const cur = b.open.current;
      if (cur !== null && isHtml(cur, name) && cur.getAttributeNodeNS(null, 'is') !== null) {
        const entry = b.open.liveEntryAt(b.open.top);
        if (entry !== null && entry !== undefined) {
          this.fired.add(IS_ATTRIBUTE);
          b.afe.remove(entry);
        }
      }
    }
  }

  endTag(name: string): void {
    this.closeTextSpan();
    this.trace?.tags.push(this.tokenizer.tokenStart);
    this.textState = DATA_STATE;
    const b = this.b;
    const start = this.tokenizer.tokenStart;
    if (this.on(SEARCH_NOT_SPECIAL) && name === 'search') this.renameSearch(start + 2);
    const ctx = b.contextElement;
    if (this.on(FOREIGN_CONTEXT_END_TAG) && ctx !== null && b.open.top === 0 && ctx.namespaceURI !== HTML_NS && name !== 'p' && name !== 'br') {
      // The standard ignores it (foreign "any other end tag" stops at the topmost element); Chromium processes it
      // in HTML content. For Chromium it becomes an end tag that HTML content ignores there too ("any other end
      // tag" reaches the html element, which is special), not nothing: deleted, it would let the text around it
      // join into other markup (`<</nobr>z` read as the start tag `<z...`).
      this.fired.add(FOREIGN_CONTEXT_END_TAG);
      this.edits.push({ start, end: tagEnd(this.input, start), text: '</x->' });
      this.builder.endTag(name);
      return;
    }
    const node = this.adjustedCurrentNode();
    if (this.on(FOREIGN_END_TAG_CASE) && node !== null && node.namespaceURI !== HTML_NS && name !== 'p' && name !== 'br') {
      if (this.foreignEndTag(name, node)) return;
    }
    if (name === 'br' || ((name === 'body' || name === 'html') && b.mode !== IN_HEAD_NOSCRIPT)) this.impliedBody();
    const formReachesHtml = name === 'form' && this.formEndTagReachesHtml();
    if (this.on(FORM_END_FALLS_THROUGH) && formReachesHtml && this.templateOnStack()) {
      if (endTagInBody(b.mode)) {
        // Chromium handles it like "any other end tag": a special element above the form (or no form at all)
        // means it is ignored. When the form comes first, both pop the same elements.
        const items = b.open.items;
        for (let i = b.open.top; i >= 0; i--) {
          if (isHtml(items[i]!, 'form')) break;
          if (T.SPECIAL[b.open.idAt(i)]) {
            this.fired.add(FORM_END_FALLS_THROUGH);
            return;
          }
        }
      }
    }
    if (this.htmlRules('end') && name !== 'col' && name !== 'template' && this.columnGroupPop() && name === 'colgroup') return;
    // FORM_END_FALLS_THROUGH, no template on the stack: the form element pointer steps, then "any other end tag".
    const form = formReachesHtml && this.on(FORM_END_FALLS_THROUGH) && !this.templateOnStack() &&
      endTagInBody(b.mode) ? b.formElement : null;
    const formIndex = form === null ? -1 : b.open.items.lastIndexOf(form, b.open.top);
    const deferred = this.deferTableText();
    this.builder.endTag(name);
    deferred?.();
    if (formIndex >= 0 && b.open.items.lastIndexOf(form!, b.open.top) < 0) this.anyOtherFormEndTag();
  }

  /**
   * Whether an end tag form is processed by the HTML insertion mode: directly, or after the foreign "any other end
   * tag" walk reached an HTML element without meeting a foreign element named form.
   */
  private formEndTagReachesHtml(): boolean {
    if (this.htmlRules('end')) return true;
    const open = this.b.open;
    for (let i = open.top; i > 0; i--) {
      const el = open.items[i]!;
      if (el.namespaceURI === HTML_NS) return true;
      if (asciiLowercase(el.localName) === 'form') return false;
    }
    return false;
  }

  /** "any other end tag" for form, as Chromium runs it after its form element pointer steps. */
  private anyOtherFormEndTag(): void {
    const open = this.b.open;
    const items = open.items;
    for (let i = open.top; i >= 0; i--) {
      const el = items[i]!;
      if (isHtml(el, 'form')) {
        this.fired.add(FORM_END_FALLS_THROUGH);
        // Generate implied end tags except for form, then pop up to that form.
        while (open.top > i && IMPLIED_END_TAGS.has(open.current!.localName) && open.current!.namespaceURI === HTML_NS) open.popTo(open.top);
        open.popTo(i);
        return;
      }
      if (T.SPECIAL[open.idAt(i)]) return;
    }
  }

  characters(data: string): void {
    const b = this.b;
    this.closeTextSpan();
    if (this.dropMarker !== null && data.includes(this.dropMarker)) {
      data = data.replaceAll(this.dropMarker, '');
      if (data === '') return;
    }
    if (this.trace !== undefined && this.textState === DATA_STATE) {
      // The span runs to the next token (closed there); only its "&#x;"s are looked at.
      this.pendingTextStart = this.tokenizer.tokenStart;
    }
    if (b.mode === INITIAL && this.on(FAST_PATH) && b.contextElement === null) {
      // Chromium's DOMParser fast path parses into a body after stripping the input's leading whitespace, so
      // whitespace that a character reference produces there is kept (the standard ignores it before the body).
      const input = this.input;
      let i = this.tokenizer.tokenStart;
      let literal = 0;
      while (i < input.length && isWhitespace(input.charCodeAt(i))) {
        i += input.charCodeAt(i) === 0x0d && input.charCodeAt(i + 1) === 0x0a ? 2 : 1;
        literal++;
      }
      if (input.charCodeAt(i) === 0x26 && literal < data.length && isWhitespace(data.charCodeAt(literal))) {
        this.fired.add(FAST_PATH);
        this.builder.startTag('body', [], false);
        data = data.slice(literal);
      }
    }
    if (this.on(AFTER_BODY_WHITESPACE) && (b.mode === AFTER_BODY || b.mode === AFTER_AFTER_BODY) && this.htmlRules('chars')) {
      let k = 0;
      while (k < data.length && isWhitespace(data.charCodeAt(k))) k++;
      if (k > 0) {
        // Chromium inserts leading whitespace after body without reconstructing the active formatting elements.
        this.fired.add(AFTER_BODY_WHITESPACE);
        b.afe.pushMarker();
        this.forwardText(data.slice(0, k));
        b.afe.clearToLastMarker();
        if (k < data.length) this.forwardText(data.slice(k));
        return;
      }
    }
    if ((b.mode === AFTER_HEAD || b.mode === IN_HEAD || b.mode === IN_HEAD_NOSCRIPT) && !b.framesetOk && this.on(IMPLIED_BODY_FRAMESET_OK)) {
      let k = 0;
      while (k < data.length && isWhitespace(data.charCodeAt(k))) k++;
      if (k < data.length) {
        if (k > 0) this.forwardText(data.slice(0, k));
        this.impliedBody();
        data = data.slice(k);
      }
    }
    if (b.mode === IN_COLUMN_GROUP && this.htmlRules('chars')) {
      let k = 0;
      while (k < data.length && isWhitespace(data.charCodeAt(k))) k++;
      if (k < data.length && this.on(COLUMN_GROUP_POPS_ANY)) {
        const cur0 = b.open.current;
        if (b.open.top > 0 && cur0 !== null && !isHtml(cur0, 'colgroup') && !isHtml(cur0, 'template')) {
          if (k > 0) this.forwardText(data.slice(0, k));
          this.columnGroupPop();
          data = data.slice(k);
        }
      }
    }
    const cur = b.open.current;
    if (this.on(TABLE_TEXT_TEMPLATE) && TABLE_MODES.has(b.mode) && cur !== null && isHtml(cur, 'template') && this.htmlRules('chars')) {
      // "in table" lists template among the current nodes whose text goes to "in table text"; Chromium does not,
      // so the text takes "anything else" (in body rules: the active formatting elements are reconstructed).
      this.fired.add(TABLE_TEXT_TEMPLATE);
      const mode = b.mode;
      b.mode = IN_BODY;
      this.forwardText(data);
      b.mode = mode;
      return;
    }
    this.forwardText(data);
  }

  /**
   * Forwards text. "in body" (and foreign content) set the frameset-ok flag to "not ok" for any character that is not
   * whitespace; Chromium 156 exempts U+FFFD (e.g. from "&#0;"), so text of whitespace and U+FFFD only leaves it.
   */
  private forwardText(data: string): void {
    const b = this.b;
    const ok = b.framesetOk;
    this.builder.characters(data);
    if (ok && !b.framesetOk && this.on(FFFD_FRAMESET_OK) && /^[\t\n\f\r \uFFFD]*$/.test(data)) {
      this.fired.add(FFFD_FRAMESET_OK);
      b.framesetOk = true;
    }
  }

  nullCharacter(): void {
    this.closeTextSpan();
    const b = this.b;
    const tz = this.tokenizer;
    const at = tz.tokenStart;
    if (this.on(NUL_AFTER_LT) && tz.state === DATA_STATE && at > 0 && this.input.charCodeAt(at - 1) === 0x3c) {
      // Chromium already replaced it in the tag open state: "<" then U+FFFD.
      this.fired.add(NUL_AFTER_LT);
      this.characters('\uFFFD');
      return;
    }
    if (this.on(CDATA_NUL) && tz.state === CDATA_SECTION_STATE) {
      this.fired.add(CDATA_NUL);
      this.characters('\uFFFD');
      return;
    }
    if (this.on(NUL_OUTSIDE_BODY) && this.htmlRules('chars')) {
      // Chromium's input preprocessor drops U+0000 in the data state in HTML content: no token at all. It matters
      // where "anything else" would act, and after pre/listing/textarea (the token after the start tag).
      if (NUL_EFFECT_MODES.has(b.mode) || b.skipNextNewline) this.fired.add(NUL_OUTSIDE_BODY);
      return;
    }
    this.builder.nullCharacter();
  }

  comment(data: string): void {
    this.closeTextSpan();
    this.textState = DATA_STATE;
    const deferred = this.deferTableText();
    this.builder.comment(data);
    deferred?.();
  }

  processingInstruction(target: string, data: string): void {
    this.closeTextSpan();
    this.trace?.instructions.push(this.tokenizer.tokenStart);
    this.textState = DATA_STATE;
    const deferred = this.deferTableText();
    this.builder.processingInstruction(target, data);
    deferred?.();
  }

  doctype(name: string | null, publicId: string | null, systemId: string | null, forceQuirks: boolean): void {
    this.closeTextSpan();
    this.trace?.doctypes.push(this.tokenizer.tokenStart);
    this.textState = DATA_STATE;
    const deferred = this.deferTableText();
    this.builder.doctype(name, publicId, systemId, forceQuirks);
    deferred?.();
  }

  endOfFile(): void {
    this.closeTextSpan();
    const b = this.b;
    const ctx = b.contextElement;
    // Where end of file ends "in column group" with only the root open: a colgroup fragment, or a template fragment
    // whose first template insertion mode a `<col>` made "in column group" (`<col><template><table>x`, seed 2026113309).
    const columnGroupRoot = ctx !== null && (isHtml(ctx, 'colgroup') || (isHtml(ctx, 'template') && b.templateModes[0] === IN_COLUMN_GROUP));
    if (this.on(COLGROUP_EOF_TABLE_TEXT) && columnGroupRoot && b.mode === IN_TABLE_TEXT && b.pendingTableText !== '') {
      // Chromium inserts the pending table text at end of file as text it never flushes: its end-of-file handling
      // returns early "in column group" with only the root open, which is where such a fragment ends up.
      this.fired.add(COLGROUP_EOF_TABLE_TEXT);
      if (b.pendingTableTextDirty) {
        // The reconstruction of the active formatting elements before that text does happen (foster parented).
        b.fosterParenting = true;
        b.reconstructActiveFormattingElements();
        b.fosterParenting = false;
      }
      b.pendingTableText = '';
      b.pendingTableTextDirty = false;
    }
    const deferred = this.deferTableText(true);
    this.builder.endOfFile();
    deferred?.();
  }

  cdataAllowed(): boolean {
    return this.builder.cdataAllowed();
  }

  private closeTextSpan(): void {
    if (this.pendingTextStart >= 0) {
      this.trace!.text.push([this.pendingTextStart, this.tokenizer.tokenStart]);
      this.pendingTextStart = -1;
    }
  }

  /**
   * A non-character token while "in table text": the pending table character tokens are inserted first. Chromium
   * does compute their place (and reconstruct the active formatting elements) first, but inserts the text only at
   * its next insertion or after the token (pending text), so an option popped by that token before is cloned into
   * its selectedcontent without it. Returns what completes the insertion, or null when nothing is deferred.
   */
  private deferTableText(eof = false): (() => void) | null {
    const b = this.b;
    if (!this.on(TABLE_TEXT_AFTER_OPTION_POP) || b.mode !== IN_TABLE_TEXT || b.pendingTableText === '' || !b.open.hasId(T.OPTION)) return null;
    // At end of file Chromium flushes its pending text before popping everything, except the pops of the templates
    // still open, which come first (options popped with them are cloned without the text; see below).
    if (eof && b.templateModes.length === 0) return null;
    const text = b.pendingTableText;
    const dirty = b.pendingTableTextDirty;
    b.pendingTableText = '';
    b.pendingTableTextDirty = false;
    if (dirty) {
      b.fosterParenting = true;
      b.reconstructActiveFormattingElements();
      b.findInsertionLocation(null);
      b.fosterParenting = false;
      b.framesetOk = false;
    } else {
      b.findInsertionLocation(null);
    }
    const parent = b.locParent;
    const before = b.locBefore;
    const options = b.open.lastIndexOfId(T.OPTION);
    // The pending text goes in before the next insertion of the tree builder, or after the token.
    const hooks = b as unknown as Record<string, unknown>;
    const names = ['insertAtLocation', 'insertCharacters', 'insertCommentOrPI'];
    for (const n of names) if (typeof hooks[n] !== 'function') throw new Error(`chromium-sim.ts: tree builder method ${n} is gone`);
    const open = b.open;
    const listener = open.optionListener;
    let done = false;
    const flush = (): void => {
      if (done) return;
      done = true;
      open.optionListener = listener;
      for (const n of names) delete hooks[n];
      if (open.lastIndexOfId(T.OPTION) < options) this.fired.add(TABLE_TEXT_AFTER_OPTION_POP);
      insertText(parent, before, text);
    };
    // At end of file, once the templates' pops are done, the text goes in before the pops that end the parse: an
    // option popped there (one outside the templates) is cloned with it.
    if (eof && listener !== null) {
      open.optionListener = {
        optionPopped(option: Element): void {
          if (b.templateModes.length === 0) flush();
          listener.optionPopped(option);
        },
      };
    }
    for (const n of names) {
      const original = (hooks[n] as (...args: unknown[]) => unknown).bind(b);
      hooks[n] = (...args: unknown[]): unknown => {
        flush();
        return original(...args);
      };
    }
    return flush;
  }

  /**
   * "in column group", anything else (and end tag colgroup): the standard ignores the token unless the current node
   * is a colgroup, which it pops (switching to "in table"). Chromium only checks that the current node is neither the
   * root nor a template, so in template contents it pops another element (e.g. a reconstructed b) and reprocesses
   * the token "in table". Returns true when it did that.
   */
  private columnGroupPop(): boolean {
    const b = this.b;
    const cur = b.open.current;
    if (!this.on(COLUMN_GROUP_POPS_ANY) || b.mode !== IN_COLUMN_GROUP || b.open.top === 0 || cur === null) return false;
    if (isHtml(cur, 'colgroup') || isHtml(cur, 'template')) return false;
    this.fired.add(COLUMN_GROUP_POPS_ANY);
    b.open.popTo(b.open.top);
    b.mode = IN_TABLE;
    return true;
  }

  /**
   * "after head", anything else: the standard inserts a body element and reprocesses the token "in body", leaving
   * the frameset-ok flag alone; Chromium sets it back to "ok" after inserting the body (which matters after a
   * template in head, which set it to "not ok"). Done here ahead of the token: the same body, then the flag.
   */
  private impliedBody(): void {
    const b = this.b;
    // The flag can only be "not ok" before the body after a template in head (then the mode is "in head").
    if (!this.on(IMPLIED_BODY_FRAMESET_OK) || b.framesetOk) return;
    if (b.mode !== AFTER_HEAD && b.mode !== IN_HEAD && b.mode !== IN_HEAD_NOSCRIPT) return;
    // "in head noscript" and "in head", anything else: pop the noscript, the head, then "after head" (the tokens
    // meant here take "anything else" in each).
    if (b.mode === IN_HEAD_NOSCRIPT) this.builder.endTag('noscript');
    if (b.mode === IN_HEAD) this.builder.endTag('head');
    this.builder.startTag('body', [], false);
    this.fired.add(IMPLIED_BODY_FRAMESET_OK);
    b.framesetOk = true;
  }

  /**
   * Foreign content, "any other end tag": the standard walks down the stack comparing the token's (lowercase) name
   * with each foreign element's name converted to lowercase, and processes the token in HTML content when it
   * reaches an HTML element. Chromium compares names exactly, after applying the SVG case adjustment to the token
   * only when the adjusted current node is an SVG element, and processes the adjusted name in HTML content. Returns
   * true when Chromium's outcome was reproduced here (the token must not be forwarded).
   */
  private foreignEndTag(name: string, node: Element): boolean {
    const open = this.b.open;
    const items = open.items;
    const adjusted = node.namespaceURI === SVG_NS ? adjustSvgTagName(name) : name;
    let chromium = -1;
    let standard = -1;
    for (let i = open.top; i >= 0; i--) {
      const el = items[i]!;
      if (el.namespaceURI === HTML_NS) break;
      if (standard < 0 && asciiLowercase(el.localName) === name) standard = i;
      if (el.localName === adjusted) {
        chromium = i;
        break;
      }
    }
    // Same element, or both reach HTML content with the same name.
    if (chromium === standard && (chromium >= 0 || adjusted === name)) return false;
    if (chromium >= 0) {
      // Chromium pops down to a deeper element than the standard.
      this.fired.add(FOREIGN_END_TAG_CASE);
      open.popTo(chromium);
      return true;
    }
    if (adjusted !== name) {
      // No HTML element has a name with upper-case letters: Chromium ignores it.
      this.fired.add(FOREIGN_END_TAG_CASE);
      return true;
    }
    // Chromium's "any other end tag" in body, from the current node: ignored at the first special element.
    for (let i = open.top; i >= 0; i--) {
      if (isHtml(items[i]!, name)) return false; // not reproduced (it would pop to that HTML element)
      if (T.SPECIAL[open.idAt(i)]) {
        this.fired.add(FOREIGN_END_TAG_CASE);
        return true;
      }
    }
    return false;
  }

  /** Renames a search tag (name at `at`) for Chromium to a special element the input does not use. */
  private renameSearch(at: number): void {
    if (this.searchStandIn === undefined) {
      const lower = this.input.toLowerCase();
      this.searchStandIn = SEARCH_STAND_INS.find((k) => !lower.includes(k)) ?? null;
      if (this.searchStandIn !== null) this.renames.push([this.searchStandIn, 'search']);
    }
    if (this.searchStandIn === null) return;
    this.fired.add(SEARCH_NOT_SPECIAL);
    this.edits.push({ start: at, end: at + 6, text: this.searchStandIn });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// selectedcontent: Chromium keeps every enabled selectedcontent of a select up to date (whatwg/html#12263), where
// the standard updates the first one only. The tree builder's three selectedcontent hooks are replaced on this
// builder instance by versions that update the whole list (the first one only when that departure is off). They
// also reproduce MOVED_SELECTEDCONTENT_EMPTIED_FIRST, in the update a move makes.

function installEverySelectedContent(b: Internals, fired: Set<string>, on: (id: string) => boolean): void {
  const every = on(EVERY_SELECTEDCONTENT);
  const all = new Map<Element, Element[]>();
  /** Every selectedcontent inserted in a connected tree, enabled or not (a move may enable it). */
  const tracked: Element[] = [];
  const open = b.open;
  // The builder caches the select above the parent of the options it inserts until its own moves count changes;
  // the clones made here take nodes out of the tree too, so each one drops that cache.
  const replace = (option: Element, sc: Element): void => {
    cloneChildrenInto(option, sc);
    b.selectAboveMoves = -1;
  };
  const empty = (sc: Element): void => {
    for (const n of sc.childNodes) n.parentNode = null;
    sc.childNodes = [];
    b.selectAboveMoves = -1;
  };

  b.noteSelectedContent = (el: Element): void => {
    if (b.connectedInsertion()) tracked.push(el);
    const i = open.lastIndexOfId(T.SELECT);
    const t = open.lastIndexOfId(T.TEMPLATE);
    if (i < 0 || i < t) return;
    if (open.lastIndexOfId(T.OPTION) > t || open.lastIndexOfId(T.SELECTEDCONTENT) > t || open.previousIndexOfSameId(i) > t) return;
    const select = open.items[i]!;
    if (select.getAttributeNodeNS(null, 'multiple') !== null) return;
    const list = all.get(select) ?? [];
    if (list.length > 0 && !every) return;
    if (list.length > 0) fired.add(EVERY_SELECTEDCONTENT);
    list.push(el);
    all.set(select, list);
    const selected = b.selectedOptionMap?.get(select);
    if (selected !== undefined && b.connectedInsertion()) replace(selected, el);
  };

  const updateAll = (select: Element, option: Element): void => {
    const list = all.get(select);
    if (list === undefined) return;
    if (list.length > 1) fired.add(EVERY_SELECTEDCONTENT);
    let detached = false;
    for (const sc of list) {
      if (!isAncestorOf(select, sc)) continue;
      const inside = isAncestorOf(sc, option);
      replace(option, sc);
      if (inside) detached = true;
    }
    if (detached) b.reselectAfterRemoval(select);
  };

  const original = b.noteOptionInserted.bind(b);
  b.noteOptionInserted = (option: Element): void => {
    // The original records the selectedness change; its selectedcontent update (the first one only) is redone.
    const select = nearestSelect(option);
    const before = select === null ? undefined : b.selectedOptionMap?.get(select);
    const saved = b.connectedInsertion;
    b.connectedInsertion = () => false;
    try {
      original(option);
    } finally {
      b.connectedInsertion = saved;
    }
    if (select === null || b.selectedOptionMap?.get(select) !== option || before === option) return;
    if (b.connectedInsertion()) updateAll(select, option);
  };

  b.selectedContentMoved = (root: Element): void => {
    if (tracked.length === 0 || !b.connectedInsertion()) return;
    const done: Element[] = [];
    for (const moved of tracked) {
      if (moved !== root && !isAncestorOf(root, moved)) continue;
      const select = enabledSelect(moved);
      if (select === null || done.includes(select)) continue;
      done.push(select);
      const list = all.get(select) ?? [];
      if (!list.includes(moved) && (every || list.length === 0)) list.push(moved);
      all.set(select, list);
      if (list.length > 1) fired.add(EVERY_SELECTEDCONTENT);
      let detached = false;
      let selected = b.selectedOptionMap?.get(select);
      for (const sc of list) {
        if (!isAncestorOf(select, sc)) continue;
        if (selected !== undefined && isAncestorOf(sc, selected) && on(MOVED_SELECTEDCONTENT_EMPTIED_FIRST)) {
          // Chromium empties the selectedcontent before it clones: the selected option inside goes, the select
          // selects again, and the option selected then (if any) is what gets cloned.
          fired.add(MOVED_SELECTEDCONTENT_EMPTIED_FIRST);
          empty(sc);
          b.reselectAfterRemoval(select);
          selected = b.selectedOptionMap?.get(select);
        }
        if (selected === undefined) {
          empty(sc);
        } else {
          if (isAncestorOf(sc, selected)) detached = true;
          replace(selected, sc);
        }
      }
      if (detached) b.reselectAfterRemoval(select);
    }
  };

  open.optionListener = {
    optionPopped(option: Element): void {
      if (all.size === 0) return;
      const select = nearestSelect(option);
      if (select === null || b.selectedOptionMap?.get(select) !== option) return;
      updateAll(select, option);
    },
  };
}

/** The select of an enabled selectedcontent (no option or selectedcontent ancestor, no second select), or null. */
function enabledSelect(sc: Element): Element | null {
  let select: Element | null = null;
  let steps = 0;
  for (let p = sc.parentNode; p !== null && p.nodeType === ELEMENT_NODE; p = p.parentNode) {
    if (++steps > 512) return null;
    const el = p as Element;
    if (el.namespaceURI !== HTML_NS) continue;
    if (el.localName === 'option' || el.localName === 'selectedcontent') return null;
    if (el.localName === 'select') {
      if (select !== null) return null;
      select = el;
    }
  }
  return select !== null && select.getAttributeNodeNS(null, 'multiple') === null ? select : null;
}

function isAncestorOf(a: Element, node: Element): boolean {
  let steps = 0;
  for (let p = node.parentNode; p !== null; p = p.parentNode) {
    if (p === a) return true;
    if (++steps > 512) return false;
  }
  return false;
}

/** The option's nearest ancestor select (datalist, hr and option ancestors, or two optgroups, mean none). */
function nearestSelect(option: Element): Element | null {
  let optgroups = 0;
  let steps = 0;
  for (let p = option.parentNode; p !== null && p.nodeType === ELEMENT_NODE; p = p.parentNode) {
    if (++steps > 512) return null;
    const el = p as Element;
    if (el.namespaceURI !== HTML_NS) continue;
    if (el.localName === 'select') return el;
    if (el.localName === 'datalist' || el.localName === 'hr' || el.localName === 'option') return null;
    if (el.localName === 'optgroup' && ++optgroups > 1) return null;
  }
  return null;
}

/** Replaces the children of `dst` with deep clones of the children of `src` (iterative). */
function cloneChildrenInto(src: Element, dst: Element): void {
  const copies = new DocumentFragment();
  const from: ParentNode[] = [src];
  const to: ParentNode[] = [copies];
  while (from.length > 0) {
    const s = from.pop()!;
    const d = to.pop()!;
    for (const child of s.childNodes) {
      let copy: ChildNode;
      if (child.nodeType === ELEMENT_NODE) {
        const e = child as Element;
        const ce = new Element(e.localName, e.namespaceURI, e.attributes.map((a) => new Attr(a.localName, a.value, a.namespaceURI, a.prefix)));
        ce.prefix = e.prefix;
        if (e.content !== null) {
          from.push(e.content);
          to.push(ce.content!);
        }
        from.push(e);
        to.push(ce);
        copy = ce;
      } else if (child.nodeType === TEXT_NODE) {
        copy = new Text((child as Text).data);
      } else if (child.nodeType === 8) {
        copy = new Comment((child as Comment).data);
      } else if (child.nodeType === 7) {
        copy = new ProcessingInstruction((child as ProcessingInstruction).target, (child as ProcessingInstruction).data);
      } else {
        continue;
      }
      copy.parentNode = d;
      d.childNodes.push(copy);
    }
  }
  for (const old of dst.childNodes) old.parentNode = null;
  dst.childNodes = copies.childNodes;
  for (const n of dst.childNodes) n.parentNode = dst;
}

/** Inserts text before `before` in `parent` (at the end when null), merged into a preceding text node. */
function insertText(parent: ParentNode, before: ChildNode | null, data: string): void {
  if (parent.nodeType === 9) return;
  const kids = parent.childNodes;
  const i = before === null ? kids.length : kids.lastIndexOf(before);
  if (i < 0) return;
  const prev = i > 0 ? kids[i - 1]! : null;
  if (prev !== null && prev.nodeType === TEXT_NODE) {
    (prev as Text).data += data;
    return;
  }
  const t = new Text(data);
  t.parentNode = parent;
  kids.splice(i, 0, t);
}
