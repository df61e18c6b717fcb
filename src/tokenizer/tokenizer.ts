/**
 * The HTML tokenizer: HTML Standard, 13.2.5 "Tokenization" (today's standard, including the
 * processing instruction states of 2026), with 13.2.3.5 "Preprocessing the input stream".
 *
 * One loop switches on `state`; every state is a `case` labelled with its section number and name.
 * States that see long runs (data, RCDATA, RAWTEXT, script data, PLAINTEXT, tag and attribute
 * names and values, comments, DOCTYPE fields) scan ahead with `charCodeAt` and take slices of the
 * input instead of consuming one character per iteration; the result is the same token stream,
 * errors and positions as the one-character-at-a-time algorithm.
 *
 * Tokens are calls on a `TokenSink` (no token objects). The sink may change `state` during any
 * call; the loop reads `this.state` afresh at every step.
 */
import { Attr, exactCopy, isAsciiAlpha, workList } from '../dom.js';
import { hashOfName, lastNameTagId, lookupPackedName, rememberName } from './interned-names.js';
import { PARTS_JOIN, SHORT_RUN, SHORT_TAG } from './limits.js';
import type { ParseErrorSink } from '../errors.js';
import * as E from '../parse-error-codes.js';
import {
  C1_REPLACEMENTS,
  matchedLength,
  matchNamedCharacterReference,
  namedCharacterReferenceValue,
} from './character-references.js';
import type { TokenSink } from './token-sink.js';

// The states and the character codes: modules of constants only, which a minifying bundler inlines.
import {
  DATA_STATE, RCDATA_STATE, RAWTEXT_STATE, SCRIPT_DATA_STATE, PLAINTEXT_STATE, TAG_OPEN_STATE, END_TAG_OPEN_STATE,
  TAG_NAME_STATE, RCDATA_LESS_THAN_SIGN_STATE, RAWTEXT_LESS_THAN_SIGN_STATE, SCRIPT_DATA_LESS_THAN_SIGN_STATE,
  SCRIPT_DATA_ESCAPE_START_STATE, SCRIPT_DATA_ESCAPE_START_DASH_STATE, SCRIPT_DATA_ESCAPED_STATE,
  SCRIPT_DATA_ESCAPED_DASH_STATE, SCRIPT_DATA_ESCAPED_DASH_DASH_STATE, SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE,
  SCRIPT_DATA_DOUBLE_ESCAPE_START_STATE, SCRIPT_DATA_DOUBLE_ESCAPED_STATE, SCRIPT_DATA_DOUBLE_ESCAPED_DASH_STATE,
  SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE, SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE,
  SCRIPT_DATA_DOUBLE_ESCAPE_END_STATE, BEFORE_ATTRIBUTE_NAME_STATE, AFTER_ATTRIBUTE_NAME_STATE,
  BEFORE_ATTRIBUTE_VALUE_STATE, ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE, ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE,
  ATTRIBUTE_VALUE_UNQUOTED_STATE, AFTER_ATTRIBUTE_VALUE_QUOTED_STATE, SELF_CLOSING_START_TAG_STATE,
  BOGUS_COMMENT_STATE, MARKUP_DECLARATION_OPEN_STATE, COMMENT_START_STATE, COMMENT_START_DASH_STATE, COMMENT_STATE,
  COMMENT_LESS_THAN_SIGN_STATE, COMMENT_LESS_THAN_SIGN_BANG_STATE, COMMENT_LESS_THAN_SIGN_BANG_DASH_STATE,
  COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH_STATE, COMMENT_END_DASH_STATE, COMMENT_END_STATE, COMMENT_END_BANG_STATE,
  DOCTYPE_STATE, BEFORE_DOCTYPE_NAME_STATE, DOCTYPE_NAME_STATE, AFTER_DOCTYPE_NAME_STATE,
  AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE, BEFORE_DOCTYPE_PUBLIC_IDENTIFIER_STATE,
  DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE, DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED_STATE,
  AFTER_DOCTYPE_PUBLIC_IDENTIFIER_STATE, BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS_STATE,
  AFTER_DOCTYPE_SYSTEM_KEYWORD_STATE, BEFORE_DOCTYPE_SYSTEM_IDENTIFIER_STATE,
  DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE, DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED_STATE,
  AFTER_DOCTYPE_SYSTEM_IDENTIFIER_STATE, BOGUS_DOCTYPE_STATE, CDATA_SECTION_STATE, CDATA_SECTION_BRACKET_STATE,
  CDATA_SECTION_END_STATE, PROCESSING_INSTRUCTION_OPEN_STATE, PROCESSING_INSTRUCTION_TARGET_STATE,
  AFTER_PROCESSING_INSTRUCTION_TARGET_STATE, PROCESSING_INSTRUCTION_DATA_STATE,
  PROCESSING_INSTRUCTION_QUESTIONABLE_STATE,
} from './states.js';
import {
  NUL, TAB, LF, FF, CR, SPACE, BANG, DQUOTE, NUMBER_SIGN, AMPERSAND, APOSTROPHE, HYPHEN, SOLIDUS, SEMICOLON, LT,
  EQUALS, GT, QUESTION, LBRACKET, RBRACKET, UNDERSCORE, GRAVE,
} from './char-codes.js';
export * from './states.js';

const REPLACEMENT = '\uFFFD';

/**
 * Appends `s` to the parts of a pending text or attribute value. Past PARTS_JOIN parts (a million character
 * references), the parts are joined into one entry of `chunks`, so that the parts array stays small and its
 * strings die young: a million-entry array lives in old space, where every young string stored into it costs
 * a write barrier and keeps it alive through young-generation collections.
 */
function pushPart(parts: string[], chunks: string[], s: string): void {
  if (parts.push(s) >= PARTS_JOIN) {
    chunks.push(parts.join(''));
    parts.length = 0;
  }
}

/** `chunks`, then `parts`, then `tail`, as one string; empties `parts` and `chunks`. */
function joinParts(parts: string[], chunks: string[], tail: string): string {
  if (tail.length !== 0) parts.push(tail);
  let joined = parts.length === 1 ? parts[0]! : parts.join('');
  parts.length = 0;
  if (chunks.length !== 0) {
    joined = chunks.join('') + joined;
    chunks.length = 0;
  }
  return joined;
}

/** Tab, LF, FF, space: the whitespace of the tokenizer states (CR never reaches them). */
function isSpace(c: number): boolean {
  // Most characters tested are not spaces: one comparison sends everything above U+0020 away.
  return c <= SPACE && (c === SPACE || c === LF || c === TAB || c === FF);
}
function isAsciiUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}
function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isAsciiAlphanumeric(c: number): boolean {
  return isAsciiDigit(c) || isAsciiAlpha(c);
}
function isAsciiHexDigit(c: number): boolean {
  return isAsciiDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** The offset of the first `ch` in `s` at or after `from`, or the length of `s` when there is none. */
function indexOrEnd(s: string, ch: string, from: number): number {
  const i = s.indexOf(ch, from);
  return i < 0 ? s.length : i;
}

/**
 * The tag or attribute name read from the range [start, end) of `s`: the kept copy from the name cache, else the
 * range itself, lower-cased and with U+0000 replaced (for an HTML tag name, the library's literal of it: see
 * rememberName), which the cache then keeps. `w0`..`wide` are the range's code units as the caller's scan packed
 * them (see lookupPackedName).
 */
function nameOfRange(s: string, start: number, end: number, w0: number, w1: number, w2: number, wide: number): string {
  return lookupPackedName(end - start, w0, w1, w2, wide) ?? rememberName(lowerAndReplaceNulls(s.slice(start, end)));
}

/**
 * ASCII-lowercases `s` and replaces U+0000 with U+FFFD (the rule of tag, attribute and DOCTYPE
 * names); `s` itself when it has neither.
 */
function lowerAndReplaceNulls(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isAsciiUpper(c)) {
      out += s.slice(from, i) + String.fromCharCode(c | 0x20);
      from = i + 1;
    } else if (c === NUL) {
      out += s.slice(from, i) + REPLACEMENT;
      from = i + 1;
    }
  }
  return out + s.slice(from);
}

function replaceNulls(s: string): string {
  return s.indexOf('\0') < 0 ? s : s.replace(/\0/g, REPLACEMENT);
}

/** @internal (see scripts/internal-names.ts) */
export class Tokenizer {
  /** The current tokenizer state. A sink may set it (e.g. to RCDATA after `<textarea>`) during a call. */
  state: number = DATA_STATE;
  /** Tag name of the last start tag emitted ('' before the first): the "appropriate end tag token" test. */
  lastStartTagName = '';
  /**
   * Normalized offset where the token being emitted began (-1: the end of the input); `tokenStart` maps it
   * to the input as given only when someone asks (error reporting), not for every token.
   */
  private tokenStartAt = 0;

  /** Offset, in the input as given, where the token being emitted began. */
  get tokenStart(): number {
    return this.tokenStartAt < 0 ? this.original.length : this.originalOffset(this.tokenStartAt);
  }

  private readonly sink: TokenSink;
  private readonly onError: ParseErrorSink | null;

  // ---- Input (13.2.3.5): `input` is the preprocessed (newline-normalized) input.
  private input = '';
  private original = '';
  /**
   * Normalized offsets of the LFs that replaced a CR LF pair (each one drops a code unit). Sorted. Found only when
   * an offset is first asked (an error, `tokenStart`): until then `crlfCursor` is -1.
   */
  private crlf: number[] = workList();
  private crlfCursor = -1;

  // ---- Pending character tokens: the strings in `textParts`, then the input range [runStart, runEnd).
  // Runs of the input are kept as a range and sliced once; only a character that is not the input as
  // is (a character reference's value, U+FFFD) or a range that does not continue the run goes to
  // `textParts`, which is joined once at emit time (so a million references stay linear, with no
  // chain of `+=` intermediates). The array is reused across tokens.
  private readonly textParts: string[] = workList();
  /** A text with very many parts is joined PARTS_JOIN parts at a time into these (see `pushPart`). */
  private readonly textChunks: string[] = workList();
  private runStart = -1;
  private runEnd = -1;
  /** Normalized offset of the first pending character, or -1 when none is pending. */
  private textBegin = -1;

  // ---- The token being built.
  /** Normalized offset of the `<` (or `&`...) that began the current token. */
  private tokenBegin = 0;
  private isEndTag = false;
  private tagName = '';
  /** The tag name's HTML tag id when the name cache knows it, else -1 (see interned-names.ts). */
  private tagId = -1;
  private selfClosing = false;
  /**
   * The current tag's attributes are `attributes[0..attributeCount)`: one scratch array reused for every
   * tag; a start tag hands the tree builder an exact-size copy (an array grown by push would keep 16 or
   * more spare slots in every element of the finished tree).
   */
  private readonly attributes: Attr[] = workList();
  private attributeCount = 0;
  /**
   * The names of `attributes[0..attributeCount)`, once there are more than SHORT_TAG: an open-addressing table
   * of (index + 1, name hash) pairs, at most half full. Its probes read no string unless two hashes are equal.
   */
  private nameTable: Int32Array | null = null;
  /** Probe steps past the first that the table may still take for this tag (see `isDuplicateName`). */
  private probeBudget = 0;
  /** The names, when the table took too many probe steps (names chosen to collide): a Set (V8 seeds its hash). */
  private attributeNames: Set<string> | null = null;
  /** The attribute whose value is being read, or null when its name was a duplicate. */
  private attribute: Attr | null = null;
  // The attribute value being read, built like the pending text: the strings in `valueParts`, then the
  // input range [valueStart, valueEnd). A value without references or U+0000 is one slice of the input.
  private readonly valueParts: string[] = workList();
  /** A value with very many parts is joined PARTS_JOIN parts at a time into these (see `pushPart`). */
  private readonly valueChunks: string[] = workList();
  private valueStart = -1;
  private valueEnd = -1;
  // The comment being read. Every comment state appends exactly the characters it consumed, except
  // that U+0000 becomes U+FFFD and the closing `-`, `--` or `--!` (pending in the end states) is not
  // appended yet; so the data is always the input range [commentStart, end) with U+0000 replaced,
  // where `end` is known when the comment is emitted (see `emitComment`).
  private commentStart = 0;
  /** Whether the comment's data contains a U+0000 (rare: then it is replaced at emit time). */
  private commentHasNul = false;
  private doctypeName: string | null = null;
  private publicId: string | null = null;
  private systemId: string | null = null;
  private forceQuirks = false;
  /** The temporary buffer: here, the processing instruction target read so far. */
  private temporaryBuffer = '';
  private piData = '';
  /** Return state of the RCDATA/RAWTEXT/script data "less-than sign" and "end tag" states. */
  private textState = DATA_STATE;
  // The data state's stops, found with indexOf (native, much faster than a charCodeAt loop on long text) and
  // remembered: the next `<` and `&` at or after the offset they were searched from (input length when there is
  // none). A remembered position stays right until the data state passes it.
  private nextLt = -1;
  private nextAmp = -1;

  constructor(sink: TokenSink, onError: ParseErrorSink | null = null) {
    this.sink = sink;
    this.onError = onError ?? null;
  }

  // ======================================================================================
  // Errors and positions
  // ======================================================================================

  /**
   * Reports a parse error at `offset` (in the input as given). The sink finds the input stream errors
   * (13.2.3.5) itself, and reports those up to `offset` first.
   */
  error(code: number, offset: number): void {
    if (this.onError !== null) this.onError.error(code, offset, this.original);
  }

  /** Parse error at normalized offset `p`. */
  private err(code: number, p: number): void {
    if (this.onError !== null) this.error(code, this.originalOffset(p));
  }

  /** Offset in the input as given of normalized offset `p`. */
  private originalOffset(p: number): number {
    // Lone CRs become LFs one for one: only CR LF pairs make the lengths differ.
    if (this.input.length === this.original.length) return p;
    const crlf = this.crlf;
    let i = this.crlfCursor;
    if (i < 0) {
      // Emptied, not replaced: a tokenizer can be run again (reparse safety's checks reuse one).
      crlf.length = i = 0;
      const original = this.original;
      for (let at = original.indexOf('\r\n'); at >= 0; at = original.indexOf('\r\n', at + 2)) crlf.push(at - crlf.length);
    }
    // Number of CR LF pairs whose LF lies before p; the cursor makes in-order queries O(1).
    if ((i > 0 && crlf[i - 1]! >= p) || (i + 8 < crlf.length && crlf[i + 8]! < p)) {
      // Far from the cursor: binary search for the first pair at or after p.
      let lo = 0;
      let hi = crlf.length;
      while (lo < hi) {
        const m = (lo + hi) >>> 1;
        if (crlf[m]! < p) lo = m + 1;
        else hi = m;
      }
      i = lo;
    } else {
      while (i < crlf.length && crlf[i]! < p) i++;
    }
    this.crlfCursor = i;
    return p + i;
  }

  // ======================================================================================
  // 13.2.3.5 Preprocessing the input stream
  // ======================================================================================

  private preprocess(original: string): void {
    this.nextLt = this.nextAmp = -1;
    this.original = original;
    this.crlfCursor = -1;
    // Normalize newlines: CR LF -> LF, lone CR -> LF; with no CR, the input as it is. The runs between CRs (found
    // with indexOf) are joined into one flat string, which the tokenizer reads a code unit at a time: a rope built
    // with `+=`, once flattened, is still read through its head at every charCodeAt (more instructions a character
    // than the join), and split('\r\n') searches for the pair more slowly than indexOf for a CR.
    this.input = original;
    let i = original.indexOf('\r');
    if (i >= 0) {
      // (Stores at the list's end, not `push`, which V8 left a builtin call here.)
      const runs: string[] = workList();
      let k = 0;
      let from = 0;
      for (; i >= 0; i = original.indexOf('\r', from)) {
        runs[k++] = original.slice(from, i);
        if (original.charCodeAt(i + 1) !== LF) runs[k++] = '\n';
        from = i + 1;
      }
      runs[k] = original.slice(from);
      this.input = runs.join('');
    }
  }

  // ======================================================================================
  // Emitting tokens
  // ======================================================================================

  /** Appends the input range [from, to) to the pending character tokens. */
  private emitRange(from: number, to: number): void {
    if (to <= from) return;
    if (this.textBegin < 0) this.textBegin = from;
    if (this.runEnd === from) {
      this.runEnd = to;
      return;
    }
    if (this.runEnd > this.runStart) this.textParts.push(this.input.slice(this.runStart, this.runEnd));
    this.runStart = from;
    this.runEnd = to;
  }

  /** Appends `s` (not taken from the input as is) to the pending character tokens; it stands at offset `at`. */
  private emitString(s: string, at: number): void {
    if (this.textBegin < 0) this.textBegin = at;
    const parts = this.textParts;
    if (this.runEnd > this.runStart) {
      parts.push(this.input.slice(this.runStart, this.runEnd));
      this.runStart = this.runEnd = -1;
    }
    pushPart(parts, this.textChunks, s);
  }

  private flushText(): void {
    if (this.textBegin < 0) return;
    const parts = this.textParts;
    let data: string;
    if (parts.length === 0 && this.textChunks.length === 0) {
      // The common case: one run of the input.
      data = this.input.slice(this.runStart, this.runEnd);
    } else {
      data = joinParts(parts, this.textChunks, this.runEnd > this.runStart ? this.input.slice(this.runStart, this.runEnd) : '');
    }
    this.runStart = this.runEnd = -1;
    this.tokenStartAt = this.textBegin;
    this.textBegin = -1;
    this.sink.characters(data);
  }

  private emitNullCharacter(p: number): void {
    this.flushText();
    this.tokenStartAt = p;
    this.sink.nullCharacter();
  }

  private beginTag(isEnd: boolean, begin: number): void {
    this.isEndTag = isEnd;
    this.tokenBegin = begin;
    this.tagName = '';
    this.tagId = -1;
    this.selfClosing = false;
    this.attributeCount = 0;
    this.nameTable = null;
    this.attributeNames = null;
    this.attribute = null;
  }

  /** Emits the current tag token (switching to the data state first, as every caller does). */
  private emitTag(p: number): void {
    this.flushText();
    this.state = DATA_STATE;
    this.tokenStartAt = this.tokenBegin;
    // (Compared with true: a field's boolean is otherwise tested as any value would be.)
    if (this.isEndTag === true) {
      if (this.attributeCount > 0) this.err(E.EndTagWithAttributes, p);
      if (this.selfClosing) this.err(E.EndTagWithTrailingSolidus, p);
      this.sink.endTag(this.tagName, this.tagId);
    } else {
      this.lastStartTagName = this.tagName;
      const n = this.attributeCount;
      this.sink.startTag(this.tagName, exactCopy(this.attributes, n), this.selfClosing, this.tagId);
    }
  }

  /**
   * Starts a new attribute named `name`. Leaving the attribute name state checks the name against the
   * token's other attributes: a duplicate is a duplicate-attribute parse error and is dropped.
   */
  private startAttribute(name: string, p: number): void {
    const attrs = this.attributes;
    const count = this.attributeCount;
    let duplicate = false;
    if (count < SHORT_TAG) {
      for (let i = 0; i < count; i++) {
        if (attrs[i]!.localName === name) {
          duplicate = true;
          break;
        }
      }
    } else {
      duplicate = this.isDuplicateName(name, count);
    }
    if (duplicate) {
      this.err(E.DuplicateAttribute, p);
      this.attribute = null;
    } else {
      const attr = new Attr(name, '');
      attrs[count] = attr;
      this.attributeCount = count + 1;
      this.attribute = attr;
    }
    // Setting `length` is a runtime call: only when there is something to drop (after an EOF in a value).
    if (this.valueParts.length !== 0) this.valueParts.length = 0;
    if (this.valueChunks.length !== 0) this.valueChunks.length = 0;
    this.valueStart = this.valueEnd = -1;
  }

  /**
   * Whether `name` is among the names of `attributes[0..count)` (count >= SHORT_TAG,
   * or any earlier index while a new table takes the names so far); if not, it is added as attribute `count`.
   * Linear in the number of attributes whatever the names: each name adds a few probe steps to the tag's budget,
   * and a tag that spends them all (names made to share hashes or slots) moves its names to a Set.
   */
  private isDuplicateName(name: string, count: number): boolean {
    const attrs = this.attributes;
    let set = this.attributeNames;
    if (set === null) {
      const table = this.nameTable;
      if (table === null || count * 4 >= table.length) {
        // A new table, twice the size (at most half full): the names so far go in first.
        this.nameTable = new Int32Array(table === null ? 128 : table.length * 2);
        if (table === null) this.probeBudget = 64;
        for (let k = 0; k < count; k++) this.isDuplicateName(attrs[k]!.localName, k);
        return this.isDuplicateName(name, count);
      }
      const h = hashOfName(name);
      let budget = this.probeBudget + 4;
      // The hash's bits spread (names often differ in their last characters only, which a polynomial keeps close).
      let i = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
      for (i ^= i >>> 16; budget-- > 0; i++) {
        const slot = 2 * (i & ((table.length >> 1) - 1));
        const at = table[slot]!;
        if (at === 0) {
          table[slot] = count + 1;
          table[slot + 1] = h;
        } else if (table[slot + 1] !== h || attrs[at - 1]!.localName !== name) continue;
        this.probeBudget = budget;
        return at !== 0;
      }
      set = this.attributeNames = new Set();
      for (let k = 0; k < count; k++) set.add(attrs[k]!.localName);
    }
    // Adding a name already there leaves the size as it was.
    return set.size === set.add(name).size;
  }

  /** Appends the input range [from, to) to the attribute value. */
  private appendValueRange(from: number, to: number): void {
    if (to <= from) return;
    if (this.valueEnd === from) {
      this.valueEnd = to;
      return;
    }
    if (this.valueEnd > this.valueStart) this.valueParts.push(this.input.slice(this.valueStart, this.valueEnd));
    this.valueStart = from;
    this.valueEnd = to;
  }

  /** Appends `s` (not taken from the input as is) to the attribute value. */
  private appendValueString(s: string): void {
    const parts = this.valueParts;
    if (this.valueEnd > this.valueStart) {
      parts.push(this.input.slice(this.valueStart, this.valueEnd));
      this.valueStart = this.valueEnd = -1;
    }
    pushPart(parts, this.valueChunks, s);
  }

  private finishAttributeValue(): void {
    const parts = this.valueParts;
    const chunks = this.valueChunks;
    const attr = this.attribute;
    if (attr !== null) {
      const tail = this.valueEnd > this.valueStart ? this.input.slice(this.valueStart, this.valueEnd) : '';
      // The common case is one range of the input (or none).
      attr.value = parts.length === 0 && chunks.length === 0 ? tail : joinParts(parts, chunks, tail);
    } else {
      // A dropped duplicate: nothing to build.
      if (parts.length !== 0) parts.length = 0;
      if (chunks.length !== 0) chunks.length = 0;
    }
    this.valueStart = this.valueEnd = -1;
  }

  /** Starts a comment token (begun at normalized offset `begin`) whose data starts at `dataStart`. */
  private beginComment(begin: number, dataStart: number): void {
    this.tokenBegin = begin;
    this.commentStart = dataStart;
    this.commentHasNul = false;
  }

  /**
   * Emits the comment token whose data ends at normalized offset `dataEnd`: `p` in the comment and bogus
   * comment states, minus the closing characters the end states hold back (1 in the comment end dash
   * state, 2 in the comment end state, 3 in the comment end bang state).
   */
  private emitComment(dataEnd: number): void {
    this.flushText();
    this.tokenStartAt = this.tokenBegin;
    const start = this.commentStart;
    const data = dataEnd > start ? this.input.slice(start, dataEnd) : '';
    this.sink.comment(this.commentHasNul ? replaceNulls(data) : data);
  }

  private beginDoctype(begin: number): void {
    this.tokenBegin = begin;
    this.doctypeName = null;
    this.publicId = null;
    this.systemId = null;
    this.forceQuirks = false;
  }

  private emitDoctype(): void {
    this.flushText();
    this.tokenStartAt = this.tokenBegin;
    this.sink.doctype(this.doctypeName, this.publicId, this.systemId, this.forceQuirks);
  }

  private emitProcessingInstruction(): void {
    this.flushText();
    this.tokenStartAt = this.tokenBegin;
    const data = this.piData;
    this.piData = '';
    this.sink.processingInstruction(this.temporaryBuffer, data);
  }

  private emitEndOfFile(): void {
    this.flushText();
    this.tokenStartAt = -1;
    this.sink.endOfFile();
    if (this.onError !== null) this.onError.end(this.original);
  }

  // ======================================================================================
  // 13.2.5.77 to 13.2.5.84 Character reference states
  // ======================================================================================

  /**
   * Runs the character reference states for the `&` at `amp` (13.2.5.77 Character reference state
   * onwards) and returns the offset where the return state resumes. In an attribute value
   * (`inAttribute`) the result is appended to the attribute's value; otherwise it is emitted as
   * character tokens.
   */
  private characterReference(amp: number, inAttribute: boolean): number {
    const s = this.input;
    const n = s.length;
    let p = amp + 1;
    const c = p < n ? s.charCodeAt(p) : -1;
    if (isAsciiAlphanumeric(c)) {
      // 13.2.5.78 Named character reference state
      const index = matchNamedCharacterReference(s, p, n);
      if (index >= 0) {
        const end = p + matchedLength;
        const endsWithSemicolon = s.charCodeAt(end - 1) === SEMICOLON;
        if (!endsWithSemicolon && inAttribute && end < n) {
          const next = s.charCodeAt(end);
          if (next === EQUALS || isAsciiAlphanumeric(next)) {
            // For historical reasons: flush the code points consumed as they are.
            this.appendValueRange(amp, end);
            return end;
          }
        }
        if (!endsWithSemicolon) this.err(E.MissingSemicolonAfterCharacterReference, end);
        const value = namedCharacterReferenceValue(index);
        if (inAttribute) this.appendValueString(value);
        else this.emitString(value, amp);
        return end;
      }
      // No match: flush the `&`, then 13.2.5.79 Ambiguous ampersand state.
      let q = p;
      while (q < n && isAsciiAlphanumeric(s.charCodeAt(q))) q++;
      if (inAttribute) this.appendValueRange(amp, q);
      else this.emitRange(amp, q);
      if (q < n && s.charCodeAt(q) === SEMICOLON) this.err(E.UnknownNamedCharacterReference, q);
      return q;
    }
    if (c !== NUMBER_SIGN) {
      // Anything else: flush the `&` and reconsume in the return state.
      if (inAttribute) this.appendValueRange(amp, p);
      else this.emitRange(amp, p);
      return p;
    }
    // 13.2.5.80 Numeric character reference state
    p++;
    let hex = false;
    const x = p < n ? s.charCodeAt(p) : -1;
    if (x === 0x78 || x === 0x58) {
      hex = true;
      p++; // 13.2.5.81 Hexadecimal character reference start state
    }
    const digitsStart = p;
    let code = 0;
    if (hex) {
      // 13.2.5.82 Hexadecimal character reference state
      for (; p < n; p++) {
        const d = s.charCodeAt(p);
        if (!isAsciiHexDigit(d)) break;
        if (code <= 0x10ffff) code = code * 16 + (d <= 0x39 ? d - 0x30 : (d | 0x20) - 0x57);
      }
    } else {
      // 13.2.5.83 Decimal character reference state
      for (; p < n; p++) {
        const d = s.charCodeAt(p);
        if (!isAsciiDigit(d)) break;
        if (code <= 0x10ffff) code = code * 10 + (d - 0x30);
      }
    }
    if (p === digitsStart) {
      this.err(E.AbsenceOfDigitsInNumericCharacterReference, p);
      if (inAttribute) this.appendValueRange(amp, p);
      else this.emitRange(amp, p);
      return p;
    }
    if (p < n && s.charCodeAt(p) === SEMICOLON) p++;
    else this.err(E.MissingSemicolonAfterCharacterReference, p);
    // 13.2.5.84 Numeric character reference end state
    let value: string;
    if (code === 0) {
      this.err(E.NullCharacterReference, p);
      value = REPLACEMENT;
    } else if (code > 0x10ffff) {
      this.err(E.CharacterReferenceOutsideUnicodeRange, p);
      value = REPLACEMENT;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      this.err(E.SurrogateCharacterReference, p);
      value = REPLACEMENT;
    } else {
      if ((code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe) {
        this.err(E.NoncharacterCharacterReference, p);
      } else if (code === CR || ((code < 0x20 || (code >= 0x7f && code <= 0x9f)) && code !== TAB && code !== LF && code !== FF)) {
        this.err(E.ControlCharacterReference, p);
        if (code >= 0x80) {
          const r = C1_REPLACEMENTS[code - 0x80]!;
          if (r !== 0) code = r;
        }
      }
      // fromCharCode is the cheaper builtin; fromCodePoint only for the astral planes.
      value = code < 0x10000 ? String.fromCharCode(code) : String.fromCodePoint(code);
    }
    if (inAttribute) this.appendValueString(value);
    else this.emitString(value, amp);
    return p;
  }

  // ======================================================================================
  // The tokenizer loop
  // ======================================================================================

  /** Tokenizes `input` completely, ending with `sink.endOfFile()`. */
  run(input: string): void {
    this.preprocess(input);
    const s = this.input;
    const n = s.length;
    // Every value `p` takes is one TurboFan knows to be a 32-bit integer (`| 0` on what the calls return): a call's
    // result merged into it made it a tagged value, untagged and checked again at every character of the states'
    // loops (2% of sanitize()'s instructions, session 44).
    let p = 0;
    let c = 0;

    for (;;) {
      switch (this.state) {
        // 13.2.5.1 Data state
        case DATA_STATE: {
          const start = p;
          // Most runs of text between tags are short: they are scanned here. Past SHORT_RUN characters, indexOf
          // finds the next < and &, and its answers are remembered for the runs after this one; then U+0000 in the
          // run up to the nearer. (Only there: in a string of two-byte characters, as a page with one character past
          // U+00FF is, V8's indexOf finds U+0000 by testing each character, to the end of the input if there is none.
          // Searched in a slice, not with a loop here, which makes V8 compile this function to slower code.)
          const lim = p + SHORT_RUN < n ? p + SHORT_RUN : n;
          while (p < lim) {
            c = s.charCodeAt(p);
            // Letters, and everything else above `<`, take one comparison.
            if (c <= LT && (c === LT || c === AMPERSAND || c === NUL)) break;
            p++;
          }
          if (p === lim && p < n) {
            let lt = this.nextLt;
            if (lt < p) lt = this.nextLt = indexOrEnd(s, '<', p);
            let amp = this.nextAmp;
            if (amp < p) amp = this.nextAmp = indexOrEnd(s, '&', p);
            const end = lt < amp ? lt : amp;
            const nul = s.slice(p, end).indexOf('\0');
            p = (nul < 0 ? end : p + nul) | 0;
            if (p < n) c = s.charCodeAt(p);
          }
          this.emitRange(start, p);
          if (p >= n) {
            this.emitEndOfFile();
            return;
          }
          if (c === LT) {
            this.tokenBegin = p;
            p++;
            this.state = TAG_OPEN_STATE;
          } else if (c === AMPERSAND) {
            p = this.characterReference(p, false) | 0;
          } else {
            this.err(E.UnexpectedNullCharacter, p);
            this.emitNullCharacter(p);
            p++;
          }
          break;
        }

        // 13.2.5.2 RCDATA state
        case RCDATA_STATE: {
          const start = p;
          while (p < n) {
            c = s.charCodeAt(p);
            if (c === LT || c === AMPERSAND || c === NUL) break;
            p++;
          }
          this.emitRange(start, p);
          if (p >= n) {
            this.emitEndOfFile();
            return;
          }
          if (c === LT) {
            p++;
            this.textState = RCDATA_STATE;
            this.state = RCDATA_LESS_THAN_SIGN_STATE;
          } else if (c === AMPERSAND) {
            p = this.characterReference(p, false) | 0;
          } else {
            this.err(E.UnexpectedNullCharacter, p);
            this.emitString(REPLACEMENT, p);
            p++;
          }
          break;
        }

        // 13.2.5.3 RAWTEXT state, 13.2.5.4 Script data state
        case RAWTEXT_STATE:
        case SCRIPT_DATA_STATE: {
          const start = p;
          while (p < n) {
            c = s.charCodeAt(p);
            if (c === LT || c === NUL) break;
            p++;
          }
          this.emitRange(start, p);
          if (p >= n) {
            this.emitEndOfFile();
            return;
          }
          if (c === LT) {
            p++;
            if (this.state === RAWTEXT_STATE) {
              this.textState = RAWTEXT_STATE;
              this.state = RAWTEXT_LESS_THAN_SIGN_STATE;
            } else {
              this.textState = SCRIPT_DATA_STATE;
              this.state = SCRIPT_DATA_LESS_THAN_SIGN_STATE;
            }
          } else {
            this.err(E.UnexpectedNullCharacter, p);
            this.emitString(REPLACEMENT, p);
            p++;
          }
          break;
        }

        // 13.2.5.5 PLAINTEXT state
        case PLAINTEXT_STATE: {
          const start = p;
          while (p < n && s.charCodeAt(p) !== NUL) p++;
          this.emitRange(start, p);
          if (p >= n) {
            this.emitEndOfFile();
            return;
          }
          this.err(E.UnexpectedNullCharacter, p);
          this.emitString(REPLACEMENT, p);
          p++;
          break;
        }

        // 13.2.5.6 Tag open state (p is after the `<`, which is at tokenBegin)
        case TAG_OPEN_STATE: {
          if (p >= n) {
            this.err(E.EofBeforeTagName, p);
            this.emitRange(p - 1, p);
            this.emitEndOfFile();
            return;
          }
          c = s.charCodeAt(p);
          if (isAsciiAlpha(c)) {
            this.beginTag(false, p - 1);
            this.state = TAG_NAME_STATE;
          } else if (c === BANG) {
            p++;
            this.state = MARKUP_DECLARATION_OPEN_STATE;
          } else if (c === SOLIDUS) {
            p++;
            this.state = END_TAG_OPEN_STATE;
          } else if (c === QUESTION) {
            p++;
            this.temporaryBuffer = '';
            this.state = PROCESSING_INSTRUCTION_OPEN_STATE;
          } else {
            this.err(E.InvalidFirstCharacterOfTagName, p);
            this.emitRange(p - 1, p);
            this.state = DATA_STATE;
          }
          break;
        }

        // 13.2.5.7 End tag open state (p is after `</`)
        case END_TAG_OPEN_STATE: {
          if (p >= n) {
            this.err(E.EofBeforeTagName, p);
            this.emitRange(p - 2, p);
            this.emitEndOfFile();
            return;
          }
          c = s.charCodeAt(p);
          if (isAsciiAlpha(c)) {
            this.beginTag(true, p - 2);
            this.state = TAG_NAME_STATE;
          } else if (c === GT) {
            this.err(E.MissingEndTagName, p);
            p++;
            this.state = DATA_STATE;
          } else {
            this.err(E.InvalidFirstCharacterOfTagName, p);
            this.beginComment(p - 2, p);
            this.state = BOGUS_COMMENT_STATE;
          }
          break;
        }

        // 13.2.5.8 Tag name state
        case TAG_NAME_STATE: {
          const start = p;
          // The lower-cased name packed for the name cache (see lookupPackedName), in this one pass.
          let w0 = 0;
          let w1 = 0;
          let w2 = 0;
          let wide = 0;
          while (p < n) {
            c = s.charCodeAt(p);
            // Lower-case letters, and the rest above the grave accent, are neither a stop nor to be fixed: one
            // comparison.
            if (c <= GRAVE) {
              if (c === GT || c === SOLIDUS || isSpace(c)) break;
              if (c === NUL) {
                this.err(E.UnexpectedNullCharacter, p);
                // Packed as the U+FFFD the name gets (it does not break the loop).
                c = 0xfffd;
              } else if (isAsciiUpper(c)) c |= 0x20;
            }
            w2 = (w2 << 8) | (w1 >>> 24);
            w1 = (w1 << 8) | (w0 >>> 24);
            w0 = (w0 << 8) | c;
            wide |= c;
            p++;
          }
          // The state runs once per tag (it scans the whole name), so this sets the name.
          this.tagName = nameOfRange(s, start, p, w0, w1, w2, wide);
          this.tagId = lastNameTagId();
          if (p >= n) {
            this.err(E.EofInTag, p);
            this.emitEndOfFile();
            return;
          }
          p++;
          if (c === GT) this.emitTag(p - 1);
          else if (c === SOLIDUS) this.state = SELF_CLOSING_START_TAG_STATE;
          else this.state = BEFORE_ATTRIBUTE_NAME_STATE;
          break;
        }

        // 13.2.5.32 Before attribute name state
        case BEFORE_ATTRIBUTE_NAME_STATE: {
          while (p < n && isSpace(s.charCodeAt(p))) p++;
          c = p < n ? s.charCodeAt(p) : -1;
          if (c === SOLIDUS || c === GT || c === -1) {
            this.state = AFTER_ATTRIBUTE_NAME_STATE;
          } else {
            p = this.attributeName(p) | 0;
          }
          break;
        }

        // 13.2.5.34 After attribute name state
        case AFTER_ATTRIBUTE_NAME_STATE: {
          while (p < n && isSpace(s.charCodeAt(p))) p++;
          if (p >= n) {
            this.err(E.EofInTag, p);
            this.emitEndOfFile();
            return;
          }
          c = s.charCodeAt(p);
          if (c === SOLIDUS) {
            p++;
            this.state = SELF_CLOSING_START_TAG_STATE;
          } else if (c === EQUALS) {
            p++;
            this.state = BEFORE_ATTRIBUTE_VALUE_STATE;
          } else if (c === GT) {
            p++;
            this.emitTag(p - 1);
          } else {
            p = this.attributeName(p) | 0;
          }
          break;
        }

        // 13.2.5.35 Before attribute value state
        case BEFORE_ATTRIBUTE_VALUE_STATE: {
          while (p < n && isSpace(s.charCodeAt(p))) p++;
          c = p < n ? s.charCodeAt(p) : -1;
          if (c === DQUOTE) {
            p++;
            this.state = ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE;
          } else if (c === APOSTROPHE) {
            p++;
            this.state = ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE;
          } else if (c === GT) {
            this.err(E.MissingAttributeValue, p);
            p++;
            this.finishAttributeValue();
            this.emitTag(p - 1);
          } else {
            this.state = ATTRIBUTE_VALUE_UNQUOTED_STATE;
          }
          break;
        }

        // 13.2.5.36 Attribute value (double-quoted) state, 13.2.5.37 (single-quoted)
        case ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE:
        case ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE: {
          const quote = this.state === ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE ? DQUOTE : APOSTROPHE;
          const start = p;
          while (p < n) {
            c = s.charCodeAt(p);
            // The three stops are at or below the apostrophe: everything above takes one comparison.
            if (c <= APOSTROPHE && (c === quote || c === AMPERSAND || c === NUL)) break;
            p++;
          }
          this.appendValueRange(start, p);
          if (p >= n) {
            this.err(E.EofInTag, p);
            this.emitEndOfFile();
            return;
          }
          if (c === quote) {
            p++;
            this.finishAttributeValue();
            this.state = AFTER_ATTRIBUTE_VALUE_QUOTED_STATE;
          } else if (c === AMPERSAND) {
            p = this.characterReference(p, true) | 0;
          } else {
            this.err(E.UnexpectedNullCharacter, p);
            this.appendValueString(REPLACEMENT);
            p++;
          }
          break;
        }

        // 13.2.5.38 Attribute value (unquoted) state
        case ATTRIBUTE_VALUE_UNQUOTED_STATE: {
          const start = p;
          while (p < n) {
            c = s.charCodeAt(p);
            // Letters (and everything else above `>` but the grave accent) take two comparisons.
            if (c <= GT || c === GRAVE) {
              if (c === GT || c === AMPERSAND || c === NUL || isSpace(c)) break;
              if (c === DQUOTE || c === APOSTROPHE || c === LT || c === EQUALS || c === GRAVE) {
                this.err(E.UnexpectedCharacterInUnquotedAttributeValue, p);
              }
            }
            p++;
          }
          this.appendValueRange(start, p);
          if (p >= n) {
            this.err(E.EofInTag, p);
            this.emitEndOfFile();
            return;
          }
          if (c === AMPERSAND) {
            p = this.characterReference(p, true) | 0;
          } else if (c === NUL) {
            this.err(E.UnexpectedNullCharacter, p);
            this.appendValueString(REPLACEMENT);
            p++;
          } else {
            p++;
            this.finishAttributeValue();
            if (c === GT) this.emitTag(p - 1);
            else this.state = BEFORE_ATTRIBUTE_NAME_STATE;
          }
          break;
        }

        // 13.2.5.39 After attribute value (quoted) state
        case AFTER_ATTRIBUTE_VALUE_QUOTED_STATE: {
          if (p >= n) {
            this.err(E.EofInTag, p);
            this.emitEndOfFile();
            return;
          }
          c = s.charCodeAt(p);
          if (isSpace(c)) {
            p++;
            this.state = BEFORE_ATTRIBUTE_NAME_STATE;
          } else if (c === SOLIDUS) {
            p++;
            this.state = SELF_CLOSING_START_TAG_STATE;
          } else if (c === GT) {
            p++;
            this.emitTag(p - 1);
          } else {
            this.err(E.MissingWhitespaceBetweenAttributes, p);
            this.state = BEFORE_ATTRIBUTE_NAME_STATE;
          }
          break;
        }

        // 13.2.5.40 Self-closing start tag state
        case SELF_CLOSING_START_TAG_STATE: {
          if (p >= n) {
            this.err(E.EofInTag, p);
            this.emitEndOfFile();
            return;
          }
          if (s.charCodeAt(p) === GT) {
            p++;
            this.selfClosing = true;
            this.emitTag(p - 1);
          } else {
            this.err(E.UnexpectedSolidusInTag, p);
            this.state = BEFORE_ATTRIBUTE_NAME_STATE;
          }
          break;
        }

        default:
          // The rarer states (comments, DOCTYPE, CDATA, processing instructions, and the script data and
          // RCDATA/RAWTEXT less-than states) run in `coldState`, which keeps this loop small enough to compile well.
          p = this.coldState(p) | 0;
          if (p < 0) return;
          break;
      }
    }
  }

  /**
   * One step of the tokenizer in one of the states `run` leaves to it: returns the new position, or -1 once
   * the end-of-file token has been emitted.
   */
  private coldState(p: number): number {
    const s = this.input;
    const n = s.length;
    let c = 0;
    switch (this.state) {
      // 13.2.5.9 RCDATA less-than sign state, 13.2.5.12 RAWTEXT less-than sign state
      // (and, through `endTagInText`, 13.2.5.10/11 and 13.2.5.13/14: end tag open and end tag name)
      case RCDATA_LESS_THAN_SIGN_STATE:
      case RAWTEXT_LESS_THAN_SIGN_STATE: {
        // p is after the `<`.
        if (p < n && s.charCodeAt(p) === SOLIDUS) {
          p = this.endTagInText(p - 1, this.textState);
        } else {
          this.emitRange(p - 1, p);
          this.state = this.textState;
        }
        break;
      }

      // 13.2.5.15 Script data less-than sign state
      case SCRIPT_DATA_LESS_THAN_SIGN_STATE: {
        c = p < n ? s.charCodeAt(p) : -1;
        if (c === SOLIDUS) {
          // 13.2.5.16 Script data end tag open state, 13.2.5.17 Script data end tag name state
          p = this.endTagInText(p - 1, SCRIPT_DATA_STATE);
        } else if (c === BANG) {
          p++;
          this.emitRange(p - 2, p);
          this.state = SCRIPT_DATA_ESCAPE_START_STATE;
        } else {
          this.emitRange(p - 1, p);
          this.state = SCRIPT_DATA_STATE;
        }
        break;
      }

      // 13.2.5.18 Script data escape start state
      case SCRIPT_DATA_ESCAPE_START_STATE: {
        if (p < n && s.charCodeAt(p) === HYPHEN) {
          this.emitRange(p, p + 1);
          p++;
          this.state = SCRIPT_DATA_ESCAPE_START_DASH_STATE;
        } else {
          this.state = SCRIPT_DATA_STATE;
        }
        break;
      }

      // 13.2.5.19 Script data escape start dash state
      case SCRIPT_DATA_ESCAPE_START_DASH_STATE: {
        if (p < n && s.charCodeAt(p) === HYPHEN) {
          this.emitRange(p, p + 1);
          p++;
          this.state = SCRIPT_DATA_ESCAPED_DASH_DASH_STATE;
        } else {
          this.state = SCRIPT_DATA_STATE;
        }
        break;
      }

      // 13.2.5.20 Script data escaped state
      case SCRIPT_DATA_ESCAPED_STATE: {
        const start = p;
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === HYPHEN || c === LT || c === NUL) break;
          p++;
        }
        this.emitRange(start, p);
        if (p >= n) {
          this.err(E.EofInScriptHtmlCommentLikeText, p);
          this.emitEndOfFile();
          return -1;
        }
        if (c === HYPHEN) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_ESCAPED_DASH_STATE;
        } else if (c === LT) {
          this.state = SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE;
        } else {
          this.err(E.UnexpectedNullCharacter, p);
          this.emitString(REPLACEMENT, p);
        }
        p++;
        break;
      }

      // 13.2.5.21 Script data escaped dash state, 13.2.5.22 Script data escaped dash dash state
      case SCRIPT_DATA_ESCAPED_DASH_STATE:
      case SCRIPT_DATA_ESCAPED_DASH_DASH_STATE: {
        if (p >= n) {
          this.err(E.EofInScriptHtmlCommentLikeText, p);
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (c === HYPHEN) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_ESCAPED_DASH_DASH_STATE;
        } else if (c === LT) {
          this.state = SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE;
        } else if (c === GT && this.state === SCRIPT_DATA_ESCAPED_DASH_DASH_STATE) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_STATE;
        } else if (c === NUL) {
          this.err(E.UnexpectedNullCharacter, p);
          this.emitString(REPLACEMENT, p);
          this.state = SCRIPT_DATA_ESCAPED_STATE;
        } else {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_ESCAPED_STATE;
        }
        p++;
        break;
      }

      // 13.2.5.23 Script data escaped less-than sign state (p is after the `<`)
      case SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE: {
        c = p < n ? s.charCodeAt(p) : -1;
        if (c === SOLIDUS) {
          // 13.2.5.24 Script data escaped end tag open state, 13.2.5.25 ... end tag name state
          p = this.endTagInText(p - 1, SCRIPT_DATA_ESCAPED_STATE);
        } else if (isAsciiAlpha(c)) {
          this.emitRange(p - 1, p);
          this.state = SCRIPT_DATA_DOUBLE_ESCAPE_START_STATE;
        } else {
          this.emitRange(p - 1, p);
          this.state = SCRIPT_DATA_ESCAPED_STATE;
        }
        break;
      }

      // 13.2.5.26 Script data double escape start state,
      // 13.2.5.31 Script data double escape end state (the same scan, with opposite outcomes)
      case SCRIPT_DATA_DOUBLE_ESCAPE_START_STATE:
      case SCRIPT_DATA_DOUBLE_ESCAPE_END_STATE: {
        const start = p;
        while (p < n && isAsciiAlpha(s.charCodeAt(p))) p++;
        this.emitRange(start, p);
        const starting = this.state === SCRIPT_DATA_DOUBLE_ESCAPE_START_STATE;
        c = p < n ? s.charCodeAt(p) : -1;
        if (c === SOLIDUS || c === GT || isSpace(c)) {
          const isScript = p - start === 6 && isScriptName(s, start);
          this.emitRange(p, p + 1);
          p++;
          if (starting) this.state = isScript ? SCRIPT_DATA_DOUBLE_ESCAPED_STATE : SCRIPT_DATA_ESCAPED_STATE;
          else this.state = isScript ? SCRIPT_DATA_ESCAPED_STATE : SCRIPT_DATA_DOUBLE_ESCAPED_STATE;
        } else {
          this.state = starting ? SCRIPT_DATA_ESCAPED_STATE : SCRIPT_DATA_DOUBLE_ESCAPED_STATE;
        }
        break;
      }

      // 13.2.5.27 Script data double escaped state
      case SCRIPT_DATA_DOUBLE_ESCAPED_STATE: {
        const start = p;
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === HYPHEN || c === LT || c === NUL) break;
          p++;
        }
        this.emitRange(start, p);
        if (p >= n) {
          this.err(E.EofInScriptHtmlCommentLikeText, p);
          this.emitEndOfFile();
          return -1;
        }
        if (c === HYPHEN) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_DOUBLE_ESCAPED_DASH_STATE;
        } else if (c === LT) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE;
        } else {
          this.err(E.UnexpectedNullCharacter, p);
          this.emitString(REPLACEMENT, p);
        }
        p++;
        break;
      }

      // 13.2.5.28 Script data double escaped dash state, 13.2.5.29 ... dash dash state
      case SCRIPT_DATA_DOUBLE_ESCAPED_DASH_STATE:
      case SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE: {
        if (p >= n) {
          this.err(E.EofInScriptHtmlCommentLikeText, p);
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (c === HYPHEN) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE;
        } else if (c === LT) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE;
        } else if (c === GT && this.state === SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE) {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_STATE;
        } else if (c === NUL) {
          this.err(E.UnexpectedNullCharacter, p);
          this.emitString(REPLACEMENT, p);
          this.state = SCRIPT_DATA_DOUBLE_ESCAPED_STATE;
        } else {
          this.emitRange(p, p + 1);
          this.state = SCRIPT_DATA_DOUBLE_ESCAPED_STATE;
        }
        p++;
        break;
      }

      // 13.2.5.30 Script data double escaped less-than sign state
      case SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE: {
        if (p < n && s.charCodeAt(p) === SOLIDUS) {
          this.emitRange(p, p + 1);
          p++;
          this.state = SCRIPT_DATA_DOUBLE_ESCAPE_END_STATE;
        } else {
          this.state = SCRIPT_DATA_DOUBLE_ESCAPED_STATE;
        }
        break;
      }

      // 13.2.5.41 Bogus comment state
      case BOGUS_COMMENT_STATE: {
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === GT || c === NUL) break;
          p++;
        }
        if (p >= n) {
          this.emitComment(p);
          this.emitEndOfFile();
          return -1;
        }
        p++;
        if (c === GT) {
          this.state = DATA_STATE;
          this.emitComment(p - 1);
        } else {
          this.err(E.UnexpectedNullCharacter, p - 1);
          this.commentHasNul = true;
        }
        break;
      }

      // 13.2.5.42 Markup declaration open state (p is after `<!`)
      case MARKUP_DECLARATION_OPEN_STATE: {
        c = p < n ? s.charCodeAt(p) : -1;
        if (c === HYPHEN && p + 1 < n && s.charCodeAt(p + 1) === HYPHEN) {
          p += 2;
          this.beginComment(p - 4, p);
          this.state = COMMENT_START_STATE;
        } else if ((c | 0x20) === 0x64 && matchesCaseInsensitive(s, p, 'doctype')) {
          p += 7;
          this.state = DOCTYPE_STATE;
        } else if (c === LBRACKET && s.startsWith('[CDATA[', p)) {
          p += 7;
          // The answer depends on the tree builder having seen every token before this one: flush pending text
          // (e.g. a character that reconstructs an HTML formatting element at the root of a foreign fragment).
          this.flushText();
          if (this.sink.cdataAllowed()) {
            this.state = CDATA_SECTION_STATE;
          } else {
            this.err(E.CdataInHtmlContent, p - 1);
            this.beginComment(p - 9, p - 7); // the data begins with '[CDATA['
            this.state = BOGUS_COMMENT_STATE;
          }
        } else {
          this.err(E.IncorrectlyOpenedComment, p);
          this.beginComment(p - 2, p);
          this.state = BOGUS_COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.43 Comment start state
      case COMMENT_START_STATE: {
        c = p < n ? s.charCodeAt(p) : -1;
        if (c === HYPHEN) {
          p++;
          this.state = COMMENT_START_DASH_STATE;
        } else if (c === GT) {
          this.err(E.AbruptClosingOfEmptyComment, p);
          p++;
          this.state = DATA_STATE;
          this.emitComment(this.commentStart);
        } else {
          this.state = COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.44 Comment start dash state
      case COMMENT_START_DASH_STATE: {
        if (p >= n) {
          this.err(E.EofInComment, p);
          this.emitComment(this.commentStart);
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (c === HYPHEN) {
          p++;
          this.state = COMMENT_END_STATE;
        } else if (c === GT) {
          this.err(E.AbruptClosingOfEmptyComment, p);
          p++;
          this.state = DATA_STATE;
          this.emitComment(this.commentStart);
        } else {
          // Append a `-` (the one consumed): the data range already covers it.
          this.state = COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.45 Comment state
      case COMMENT_STATE: {
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === LT || c === HYPHEN || c === NUL) break;
          p++;
        }
        if (p >= n) {
          this.err(E.EofInComment, p);
          this.emitComment(p);
          this.emitEndOfFile();
          return -1;
        }
        p++;
        // The characters scanned, and a `<` or U+FFFD appended here, are in the data range already.
        if (c === LT) {
          this.state = COMMENT_LESS_THAN_SIGN_STATE;
        } else if (c === HYPHEN) {
          this.state = COMMENT_END_DASH_STATE;
        } else {
          this.err(E.UnexpectedNullCharacter, p - 1);
          this.commentHasNul = true;
        }
        break;
      }

      // 13.2.5.46 Comment less-than sign state
      case COMMENT_LESS_THAN_SIGN_STATE: {
        c = p < n ? s.charCodeAt(p) : -1;
        // The `!` or `<` appended here is in the data range already.
        if (c === BANG) {
          p++;
          this.state = COMMENT_LESS_THAN_SIGN_BANG_STATE;
        } else if (c === LT) {
          p++;
        } else {
          this.state = COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.47 Comment less-than sign bang state
      case COMMENT_LESS_THAN_SIGN_BANG_STATE: {
        if (p < n && s.charCodeAt(p) === HYPHEN) {
          p++;
          this.state = COMMENT_LESS_THAN_SIGN_BANG_DASH_STATE;
        } else {
          this.state = COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.48 Comment less-than sign bang dash state
      case COMMENT_LESS_THAN_SIGN_BANG_DASH_STATE: {
        if (p < n && s.charCodeAt(p) === HYPHEN) {
          p++;
          this.state = COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH_STATE;
        } else {
          this.state = COMMENT_END_DASH_STATE;
        }
        break;
      }

      // 13.2.5.49 Comment less-than sign bang dash dash state
      case COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH_STATE: {
        if (p < n && s.charCodeAt(p) !== GT) this.err(E.NestedComment, p);
        this.state = COMMENT_END_STATE;
        break;
      }

      // 13.2.5.50 Comment end dash state
      case COMMENT_END_DASH_STATE: {
        if (p >= n) {
          this.err(E.EofInComment, p);
          this.emitComment(p - 1);
          this.emitEndOfFile();
          return -1;
        }
        if (s.charCodeAt(p) === HYPHEN) {
          p++;
          this.state = COMMENT_END_STATE;
        } else {
          // Append the held-back `-`: the data range already covers it.
          this.state = COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.51 Comment end state
      case COMMENT_END_STATE: {
        if (p >= n) {
          this.err(E.EofInComment, p);
          this.emitComment(p - 2);
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (c === GT) {
          p++;
          this.state = DATA_STATE;
          this.emitComment(p - 3);
        } else if (c === BANG) {
          p++;
          this.state = COMMENT_END_BANG_STATE;
        } else if (c === HYPHEN) {
          // Append a `-`: the first of the three dashes joins the data range; two stay held back.
          p++;
        } else {
          // Append the held-back `--`: the data range already covers them.
          this.state = COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.52 Comment end bang state
      case COMMENT_END_BANG_STATE: {
        if (p >= n) {
          this.err(E.EofInComment, p);
          this.emitComment(p - 3);
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        // Appending the held-back `--!` (on `-` or anything else) needs nothing: the range covers it.
        if (c === HYPHEN) {
          p++;
          this.state = COMMENT_END_DASH_STATE;
        } else if (c === GT) {
          this.err(E.IncorrectlyClosedComment, p);
          p++;
          this.state = DATA_STATE;
          this.emitComment(p - 4);
        } else {
          this.state = COMMENT_STATE;
        }
        break;
      }

      // 13.2.5.53 DOCTYPE state (p is after `<!DOCTYPE`)
      case DOCTYPE_STATE: {
        this.beginDoctype(p - 9);
        if (p >= n) {
          this.err(E.EofInDoctype, p);
          this.forceQuirks = true;
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (isSpace(c)) p++;
        else if (c !== GT) this.err(E.MissingWhitespaceBeforeDoctypeName, p);
        this.state = BEFORE_DOCTYPE_NAME_STATE;
        break;
      }

      // 13.2.5.54 Before DOCTYPE name state, 13.2.5.55 DOCTYPE name state
      case BEFORE_DOCTYPE_NAME_STATE:
      case DOCTYPE_NAME_STATE: {
        if (this.state === BEFORE_DOCTYPE_NAME_STATE) {
          while (p < n && isSpace(s.charCodeAt(p))) p++;
          if (p >= n) {
            this.err(E.EofInDoctype, p);
            this.forceQuirks = true;
            this.emitDoctype();
            this.emitEndOfFile();
            return -1;
          }
          if (s.charCodeAt(p) === GT) {
            this.err(E.MissingDoctypeName, p);
            p++;
            this.forceQuirks = true;
            this.state = DATA_STATE;
            this.emitDoctype();
            break;
          }
          this.doctypeName = '';
          this.state = DOCTYPE_NAME_STATE;
        }
        const start = p;
        let fix = false;
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === GT || isSpace(c)) break;
          if (c === NUL) {
            this.err(E.UnexpectedNullCharacter, p);
            fix = true;
          } else if (isAsciiUpper(c)) fix = true;
          p++;
        }
        const name = s.slice(start, p);
        this.doctypeName += fix ? lowerAndReplaceNulls(name) : name;
        if (p >= n) {
          this.err(E.EofInDoctype, p);
          this.forceQuirks = true;
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        p++;
        if (c === GT) {
          this.state = DATA_STATE;
          this.emitDoctype();
        } else {
          this.state = AFTER_DOCTYPE_NAME_STATE;
        }
        break;
      }

      // 13.2.5.56 After DOCTYPE name state
      case AFTER_DOCTYPE_NAME_STATE: {
        while (p < n && isSpace(s.charCodeAt(p))) p++;
        if (p >= n) {
          this.err(E.EofInDoctype, p);
          this.forceQuirks = true;
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (c === GT) {
          p++;
          this.state = DATA_STATE;
          this.emitDoctype();
        } else if (matchesCaseInsensitive(s, p, 'public')) {
          p += 6;
          this.state = AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE;
        } else if (matchesCaseInsensitive(s, p, 'system')) {
          p += 6;
          this.state = AFTER_DOCTYPE_SYSTEM_KEYWORD_STATE;
        } else {
          this.err(E.InvalidCharacterSequenceAfterDoctypeName, p);
          this.forceQuirks = true;
          this.state = BOGUS_DOCTYPE_STATE;
        }
        break;
      }

      // 13.2.5.57 After DOCTYPE public keyword state, 13.2.5.58 Before DOCTYPE public identifier state,
      // 13.2.5.63 After DOCTYPE system keyword state, 13.2.5.64 Before DOCTYPE system identifier state
      case AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE:
      case BEFORE_DOCTYPE_PUBLIC_IDENTIFIER_STATE:
      case AFTER_DOCTYPE_SYSTEM_KEYWORD_STATE:
      case BEFORE_DOCTYPE_SYSTEM_IDENTIFIER_STATE: {
        const state = this.state;
        const isPublic = state === AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE || state === BEFORE_DOCTYPE_PUBLIC_IDENTIFIER_STATE;
        const afterKeyword = state === AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE || state === AFTER_DOCTYPE_SYSTEM_KEYWORD_STATE;
        if (afterKeyword && p < n && isSpace(s.charCodeAt(p))) {
          p++;
          this.state = isPublic ? BEFORE_DOCTYPE_PUBLIC_IDENTIFIER_STATE : BEFORE_DOCTYPE_SYSTEM_IDENTIFIER_STATE;
          break;
        }
        if (!afterKeyword) while (p < n && isSpace(s.charCodeAt(p))) p++;
        if (p >= n) {
          this.err(E.EofInDoctype, p);
          this.forceQuirks = true;
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (c === DQUOTE || c === APOSTROPHE) {
          if (afterKeyword) {
            this.err(isPublic ? E.MissingWhitespaceAfterDoctypePublicKeyword : E.MissingWhitespaceAfterDoctypeSystemKeyword, p);
          }
          p++;
          if (isPublic) {
            this.publicId = '';
            this.state = c === DQUOTE ? DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE : DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED_STATE;
          } else {
            this.systemId = '';
            this.state = c === DQUOTE ? DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE : DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED_STATE;
          }
        } else if (c === GT) {
          this.err(isPublic ? E.MissingDoctypePublicIdentifier : E.MissingDoctypeSystemIdentifier, p);
          p++;
          this.forceQuirks = true;
          this.state = DATA_STATE;
          this.emitDoctype();
        } else {
          this.err(isPublic ? E.MissingQuoteBeforeDoctypePublicIdentifier : E.MissingQuoteBeforeDoctypeSystemIdentifier, p);
          this.forceQuirks = true;
          this.state = BOGUS_DOCTYPE_STATE;
        }
        break;
      }

      // 13.2.5.59/60 DOCTYPE public identifier (double-/single-quoted) states,
      // 13.2.5.65/66 DOCTYPE system identifier (double-/single-quoted) states
      case DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE:
      case DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED_STATE:
      case DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE:
      case DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED_STATE: {
        const state = this.state;
        const isPublic = state === DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE || state === DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED_STATE;
        const quote =
          state === DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE || state === DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE
            ? DQUOTE
            : APOSTROPHE;
        const start = p;
        let hasNul = false;
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === quote || c === GT) break;
          if (c === NUL) {
            this.err(E.UnexpectedNullCharacter, p);
            hasNul = true;
          }
          p++;
        }
        const part = hasNul ? replaceNulls(s.slice(start, p)) : s.slice(start, p);
        if (isPublic) this.publicId += part;
        else this.systemId += part;
        if (p >= n) {
          this.err(E.EofInDoctype, p);
          this.forceQuirks = true;
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        if (c === quote) {
          p++;
          this.state = isPublic ? AFTER_DOCTYPE_PUBLIC_IDENTIFIER_STATE : AFTER_DOCTYPE_SYSTEM_IDENTIFIER_STATE;
        } else {
          this.err(isPublic ? E.AbruptDoctypePublicIdentifier : E.AbruptDoctypeSystemIdentifier, p);
          p++;
          this.forceQuirks = true;
          this.state = DATA_STATE;
          this.emitDoctype();
        }
        break;
      }

      // 13.2.5.61 After DOCTYPE public identifier state,
      // 13.2.5.62 Between DOCTYPE public and system identifiers state
      case AFTER_DOCTYPE_PUBLIC_IDENTIFIER_STATE:
      case BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS_STATE: {
        const after = this.state === AFTER_DOCTYPE_PUBLIC_IDENTIFIER_STATE;
        if (after && p < n && isSpace(s.charCodeAt(p))) {
          p++;
          this.state = BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS_STATE;
          break;
        }
        if (!after) while (p < n && isSpace(s.charCodeAt(p))) p++;
        if (p >= n) {
          this.err(E.EofInDoctype, p);
          this.forceQuirks = true;
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (c === GT) {
          p++;
          this.state = DATA_STATE;
          this.emitDoctype();
        } else if (c === DQUOTE || c === APOSTROPHE) {
          if (after) this.err(E.MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers, p);
          p++;
          this.systemId = '';
          this.state = c === DQUOTE ? DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE : DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED_STATE;
        } else {
          this.err(E.MissingQuoteBeforeDoctypeSystemIdentifier, p);
          this.forceQuirks = true;
          this.state = BOGUS_DOCTYPE_STATE;
        }
        break;
      }

      // 13.2.5.67 After DOCTYPE system identifier state
      case AFTER_DOCTYPE_SYSTEM_IDENTIFIER_STATE: {
        while (p < n && isSpace(s.charCodeAt(p))) p++;
        if (p >= n) {
          this.err(E.EofInDoctype, p);
          this.forceQuirks = true;
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        if (s.charCodeAt(p) === GT) {
          p++;
          this.state = DATA_STATE;
          this.emitDoctype();
        } else {
          this.err(E.UnexpectedCharacterAfterDoctypeSystemIdentifier, p);
          this.state = BOGUS_DOCTYPE_STATE;
        }
        break;
      }

      // 13.2.5.68 Bogus DOCTYPE state
      case BOGUS_DOCTYPE_STATE: {
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === GT) break;
          if (c === NUL) this.err(E.UnexpectedNullCharacter, p);
          p++;
        }
        if (p >= n) {
          this.emitDoctype();
          this.emitEndOfFile();
          return -1;
        }
        p++;
        this.state = DATA_STATE;
        this.emitDoctype();
        break;
      }

      // 13.2.5.69 CDATA section state
      case CDATA_SECTION_STATE: {
        const start = p;
        while (p < n) {
          c = s.charCodeAt(p);
          if (c === RBRACKET || c === NUL) break;
          p++;
        }
        this.emitRange(start, p);
        if (p >= n) {
          this.err(E.EofInCdata, p);
          this.emitEndOfFile();
          return -1;
        }
        if (c === NUL) this.emitNullCharacter(p);
        else this.state = CDATA_SECTION_BRACKET_STATE;
        p++;
        break;
      }

      // 13.2.5.70 CDATA section bracket state (p is after a `]`)
      case CDATA_SECTION_BRACKET_STATE: {
        if (p < n && s.charCodeAt(p) === RBRACKET) {
          p++;
          this.state = CDATA_SECTION_END_STATE;
        } else {
          this.emitRange(p - 1, p);
          this.state = CDATA_SECTION_STATE;
        }
        break;
      }

      // 13.2.5.71 CDATA section end state (p is after `]]`)
      case CDATA_SECTION_END_STATE: {
        c = p < n ? s.charCodeAt(p) : -1;
        if (c === RBRACKET) {
          this.emitRange(p - 2, p - 1);
          p++;
        } else if (c === GT) {
          p++;
          this.state = DATA_STATE;
        } else {
          this.emitRange(p - 2, p);
          this.state = CDATA_SECTION_STATE;
        }
        break;
      }

      // 13.2.5.72 Processing instruction open state (p is after `<?`)
      case PROCESSING_INSTRUCTION_OPEN_STATE: {
        if (p >= n) {
          this.err(E.EofInProcessingInstruction, p);
          this.emitEndOfFile();
          return -1;
        }
        c = s.charCodeAt(p);
        if (isAsciiAlpha(c) || c === UNDERSCORE) {
          this.state = PROCESSING_INSTRUCTION_TARGET_STATE;
        } else {
          this.err(E.InvalidFirstCharacterOfProcessingInstructionTarget, p);
          this.convertTemporaryBufferToComment();
        }
        break;
      }

      // 13.2.5.73 Processing instruction target state
      case PROCESSING_INSTRUCTION_TARGET_STATE: {
        const start = p;
        while (p < n) {
          c = s.charCodeAt(p);
          if (!(isAsciiAlphanumeric(c) || c === HYPHEN || c === UNDERSCORE)) break;
          p++;
        }
        this.temporaryBuffer += s.slice(start, p);
        if (p >= n) {
          this.err(E.EofInProcessingInstruction, p);
          this.emitEndOfFile();
          return -1;
        }
        if (isSpace(c) || c === QUESTION || c === GT) {
          if (isDisallowedProcessingInstructionTarget(this.temporaryBuffer)) {
            this.err(E.DisallowedProcessingInstructionTarget, p);
            this.convertTemporaryBufferToComment();
          } else {
            this.piData = '';
            this.state = AFTER_PROCESSING_INSTRUCTION_TARGET_STATE;
          }
        } else {
          this.err(E.InvalidProcessingInstructionTarget, p);
          this.convertTemporaryBufferToComment();
        }
        break;
      }

      // 13.2.5.74 After processing instruction target state
      case AFTER_PROCESSING_INSTRUCTION_TARGET_STATE: {
        while (p < n && isSpace(s.charCodeAt(p))) p++;
        this.state = PROCESSING_INSTRUCTION_DATA_STATE;
        break;
      }

      // 13.2.5.75 Processing instruction data state, 13.2.5.76 Processing instruction questionable state.
      // The data runs to the next `>`; a `?` right before that `>` is dropped (the questionable state),
      // every other `?` is data. U+0000 becomes U+FFFD with an unexpected-null-character error, as in
      // every other state that accumulates token data (comments, attribute values, DOCTYPE identifiers);
      // Chromium 156 does the same (found by the browser differential test).
      case PROCESSING_INSTRUCTION_DATA_STATE:
      case PROCESSING_INSTRUCTION_QUESTIONABLE_STATE: {
        const gt = s.indexOf('>', p);
        if (gt < 0) {
          this.err(E.EofInProcessingInstruction, n);
          this.emitEndOfFile();
          return -1;
        }
        const end = gt > p && s.charCodeAt(gt - 1) === QUESTION ? gt - 1 : gt;
        let data = s.slice(p, end);
        if (data.indexOf('\0') >= 0) {
          for (let z = data.indexOf('\0'); z >= 0; z = data.indexOf('\0', z + 1)) this.err(E.UnexpectedNullCharacter, p + z);
          data = data.replace(/\0/g, '\uFFFD');
        }
        this.piData = data;
        p = gt + 1;
        this.state = DATA_STATE;
        this.emitProcessingInstruction();
        break;
      }

      default:
        throw new Error(`htmlsift tokenizer: unknown state ${this.state}`);
    }
    return p;
  }

  /**
   * 13.2.5.10/11 RCDATA end tag open/name states, 13.2.5.13/14 RAWTEXT end tag open/name states,
   * 13.2.5.16/17 script data end tag open/name states and 13.2.5.24/25 script data escaped end tag
   * open/name states, which differ only in their return state. `lt` is the offset of the `<` (a `/`
   * follows it). When the letters after `</` name an appropriate end tag and are followed by
   * whitespace, `/` or `>`, the end tag token begins; otherwise `</` and the letters are character
   * tokens and `returnState` resumes. Returns the offset to continue at.
   */
  private endTagInText(lt: number, returnState: number): number {
    const s = this.input;
    const n = s.length;
    const start = lt + 2;
    let q = start;
    while (q < n && isAsciiAlpha(s.charCodeAt(q))) q++;
    if (q > start && q < n) {
      const c = s.charCodeAt(q);
      if ((isSpace(c) || c === SOLIDUS || c === GT) && this.isAppropriateEndTag(start, q)) {
        this.beginTag(true, lt);
        this.tagName = this.lastStartTagName;
        if (c === GT) {
          this.emitTag(q);
        } else {
          this.state = c === SOLIDUS ? SELF_CLOSING_START_TAG_STATE : BEFORE_ATTRIBUTE_NAME_STATE;
        }
        return q + 1;
      }
    }
    this.emitRange(lt, q);
    this.state = returnState;
    return q;
  }

  /** Whether the ASCII letters in [from, to) are, lower-cased, the last start tag's name. */
  private isAppropriateEndTag(from: number, to: number): boolean {
    const name = this.lastStartTagName;
    if (name.length !== to - from) return false;
    const s = this.input;
    for (let i = 0; i < name.length; i++) {
      if ((s.charCodeAt(from + i) | 0x20) !== name.charCodeAt(i)) return false;
    }
    return true;
  }

  /**
   * 13.2.5.33 Attribute name state, from `start`, where a new attribute begins (before the end of the input): a `=`
   * there is the before attribute name state's error and the name's first character. Returns the offset after the
   * name and sets the next state.
   */
  private attributeName(start: number): number {
    const s = this.input;
    const n = s.length;
    let p = start;
    let c = 0;
    // The lower-cased name packed for the name cache (see lookupPackedName), in this one pass.
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    let wide = 0;
    if (s.charCodeAt(p) === EQUALS) {
      this.err(E.UnexpectedEqualsSignBeforeAttributeName, p);
      w0 = wide = EQUALS;
      p++;
    }
    while (p < n) {
      c = s.charCodeAt(p);
      // Lower-case letters, and the rest above the grave accent, are neither a stop, an error nor to be fixed.
      if (c <= GRAVE) {
        if (isSpace(c) || c === SOLIDUS || c === GT || c === EQUALS) break;
        if (c === NUL) {
          this.err(E.UnexpectedNullCharacter, p);
          // Packed as the U+FFFD the name gets.
          c = 0xfffd;
        } else if (isAsciiUpper(c)) {
          c |= 0x20;
        } else if (c === DQUOTE || c === APOSTROPHE || c === LT) {
          this.err(E.UnexpectedCharacterInAttributeName, p);
        }
      }
      w2 = (w2 << 8) | (w1 >>> 24);
      w1 = (w1 << 8) | (w0 >>> 24);
      w0 = (w0 << 8) | c;
      wide |= c;
      p++;
    }
    this.startAttribute(nameOfRange(s, start, p, w0, w1, w2, wide), p);
    if (p < n && c === EQUALS) {
      this.state = BEFORE_ATTRIBUTE_VALUE_STATE;
      return p + 1;
    }
    // Whitespace, `/`, `>` or EOF: reconsume in the after attribute name state.
    this.state = AFTER_ATTRIBUTE_NAME_STATE;
    return p;
  }

  /**
   * "Convert the temporary buffer to a comment" (processing instruction states): a comment token whose
   * data is `?` followed by the temporary buffer; then reconsume in the bogus comment state.
   */
  private convertTemporaryBufferToComment(): void {
    // `?` and the target are the input from the `?` on (tokenBegin is the `<`).
    this.beginComment(this.tokenBegin, this.tokenBegin + 1);
    this.state = BOGUS_COMMENT_STATE;
  }
}

/** ASCII case-insensitive match of `lower` (lower-case letters) at `at` in `s`. */
function matchesCaseInsensitive(s: string, at: number, lower: string): boolean {
  if (at + lower.length > s.length) return false;
  for (let i = 0; i < lower.length; i++) {
    const c = s.charCodeAt(at + i);
    const l = lower.charCodeAt(i);
    if (c !== l && !(isAsciiUpper(c) && (c | 0x20) === l)) return false;
  }
  return true;
}

function isScriptName(s: string, at: number): boolean {
  return matchesCaseInsensitive(s, at, 'script');
}

/** A processing instruction target that is an ASCII case-insensitive match for "xml" or "xml-stylesheet". */
function isDisallowedProcessingInstructionTarget(target: string): boolean {
  const len = target.length;
  if (len !== 3 && len !== 14) return false;
  return matchesCaseInsensitive(target, 0, len === 3 ? 'xml' : 'xml-stylesheet');
}
