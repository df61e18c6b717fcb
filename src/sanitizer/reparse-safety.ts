/**
 * Reparse safety: the output guarantee of the sanitizer.
 *
 * Mutation XSS is a parse differential: the string a sanitizer emits parses into something other than the
 * tree it checked. This module makes a tree *serializable*: after `enforceReparseSafety(root, context)`, the
 * HTML fragment serialization of `root` (with the serializer's `roundTrip` option; in a raw-text context, as the
 * context element writes its children, which is what `sanitize()` does), parsed again in the same context,
 * gives exactly `root` again — with scripting on or off, in a quirks or a no-quirks document.
 *
 * It walks the tree once, top-down and without recursion, carrying for each element the part of the tree
 * builder's state that the element's start tag would meet on reparse (insertion mode, namespace and
 * integration points, which elements are "in scope", the list of active formatting elements up to the last
 * marker, the form element pointer). Each child is checked against the tree-construction rule its start tag
 * would hit (WHATWG HTML 13.2.6 "Tree construction"); a child that the parser would move, close, ignore,
 * rename or re-namespace is repaired deterministically:
 *
 * - unwrap: an element whose tag would be ignored or would close an ancestor (a table part outside a table,
 *   `<p>` in `<p>`, `<a>` in `<a>`, `<form>` in `<form>`, an HTML element in SVG, ...) is replaced by its
 *   children, which are then checked in the same place — exactly what the parser itself keeps of them;
 * - drop: a node that no markup can put where it is (content misplaced inside table structure, markup
 *   inside raw text elements, `noscript`, whose parse depends on the scripting flag) is removed;
 * - normalize: adjacent text nodes are merged, empty ones removed, U+0000 becomes U+FFFD, comment and
 *   processing-instruction data that would end early is rewritten, duplicate or unserializable attributes
 *   are removed; CR (and CRLF) becomes LF where the input stream preprocessor would turn it into one (comments,
 *   processing instructions, text written literally in raw-text elements and raw-text contexts);
 * - wrap: rows and cells placed directly in a table or table section get the tbody / tr / colgroup that "in
 *   table" and "in table body" would imply, so that they are kept;
 * - structure: a document (and an `html` context) gets the html / head / body elements the parser always
 *   creates, with misplaced content moved into the body; the document mode is the one its DOCTYPE selects.
 *
 * The rules must hold for every conforming parser and for Chromium where it departs from the standard, so where
 * they differ the repair is the one that is safe with both (`dialog` and the li/dd loop, `table` in a quirks p).
 * A `selectedcontent` inside a select is dropped: the parser refills it from the options on every parse.
 * Elements nested deeper than browsers build (512 below the fragment root, 513 in a document) are unwrapped.
 * A `form` start tag in a `form` context is ignored (the fragment algorithm's form element pointer).
 * In raw-text contexts (style, script, xmp, iframe, noembed, noframes, plaintext) the serialization is the one
 * `sanitize()` makes: the text written as the context element writes it (literally); in a noscript context, whose
 * reading depends on the scripting flag, text with `&`, `<`, `>` or U+00A0 cannot be kept.
 *
 * The byte-level properties the serializer handles (a leading newline in `pre`/`textarea`/`listing`, CR in
 * text and attribute values) are the serializer's `roundTrip` option.
 */
import {
  type Attr,
  type ChildNode,
  type Comment,
  type Document,
  type DocumentMode,
  type DocumentType,
  type Element,
  type ParentNode,
  type ProcessingInstruction,
  type Text,
  COMMENT_NODE,
  DOCUMENT_NODE,
  DOCUMENT_TYPE_NODE,
  ELEMENT_NODE,
  HTML_NS,
  MATHML_NS,
  PROCESSING_INSTRUCTION_NODE,
  SVG_NS,
  TEXT_NODE,
  Attr as AttrClass,
  Element as ElementClass,
  Text as TextClass,
  asciiLowercase,
  leadingWhitespace,
  isParentLike,
  malformedTree,
} from '../dom.js';
// The tree builder's name tables first: see the import order in sanitize.ts.
import * as T from '../tree-builder/html-elements.js';
import {
  BREAKOUT_START_TAG,
  adjustForeignAttributes,
  adjustMathMLAttributes,
  adjustSvgAttributes,
  adjustSvgTagName,
  fontBreaksOut,
} from '../tree-builder/foreign-content.js';
import { SERIALIZES_AS_VOID_NAMES, serializedAttributeName } from '../serializer.js';
import { elementTagId, fragmentTokenizerState } from '../tree-builder/tree-builder.js';
import {
  DATA_STATE,
  RAWTEXT_STATE,
  RCDATA_STATE,
  SCRIPT_DATA_STATE,
  Tokenizer,
} from '../tokenizer/tokenizer.js';
import type { TokenSink } from '../tokenizer/token-sink.js';
import { documentModeFromDoctype } from '../tree-builder/quirks-mode.js';
// Kinds of child list and frame flags: a module of constants only, which a minifying bundler inlines.
import {
  MAX_FRAGMENT_DEPTH, MAX_DOCUMENT_DEPTH, BODY, TABLE, TABLE_BODY, ROW, COLUMN_GROUP, RAW_TEXT, FOREIGN, DOCUMENT,
  HTML_ELEMENT, HEAD, DROP_ALL, P_IN_BUTTON_SCOPE, NOBR_IN_SCOPE, BUTTON_IN_SCOPE, SELECT_IN_SCOPE, RUBY_IN_SCOPE,
  LI_REACHABLE, DD_DT_REACHABLE, A_IN_FORMATTING_LIST, FORM_POINTER, TEMPLATE_OPEN, SELECT_CONTEXT, SELECT_ANCESTOR,
  INHERITED, SCOPE_FLAGS,
} from './reparse-constants.js';

export { MAX_FRAGMENT_DEPTH } from './reparse-constants.js';

/** The HTML elements that serialize as void (serializesAsVoid), by tag id. */
const SERIALIZES_AS_VOID = T.tagIdTable(SERIALIZES_AS_VOID_NAMES.map(T.htmlTagId));

/** Where the tree will be parsed again: a fragment context element, or a whole document. */
export type ReparseContext = { kind: 'document' } | { kind: 'fragment'; name: string; namespace: string };

/** What a repair did, for the removal report. */
export interface Repair {
  action: 'unwrap' | 'drop' | 'rename' | 'normalize' | 'drop-attribute' | 'wrap';
  /** The node repaired (for `drop-attribute`, the element). */
  node: ChildNode;
  /** The attribute, for `drop-attribute`. */
  attribute?: Attr;
  /** A stable kebab-case reason, e.g. `p-in-p`, `table-part-outside-table`, `html-in-svg`. */
  reason: string;
}

/**
 * Called for each repair as the walk makes it. The tree is then half repaired: read the repair's node and
 * attribute, not the lists around them (a list being walked can hold stale entries until the walk leaves it).
 */
export type RepairListener = (repair: Repair) => void;


/** Start tags that "close a p element" when one is in button scope ("in body"). `table` only in no-quirks
 * documents, but the guarantee must hold in both, so it counts. */
const CLOSES_P = T.tagIdTable([
  T.ADDRESS, T.ARTICLE, T.ASIDE, T.BLOCKQUOTE, T.CENTER, T.DETAILS, T.DIALOG, T.DIR, T.DIV, T.DL, T.FIELDSET,
  T.FIGCAPTION, T.FIGURE, T.FOOTER, T.HEADER, T.HGROUP, T.MAIN, T.MENU, T.NAV, T.OL, T.P, T.SEARCH, T.SECTION,
  T.SUMMARY, T.UL, T.H1, T.H2, T.H3, T.H4, T.H5, T.H6, T.PRE, T.LISTING, T.FORM, T.LI, T.DD, T.DT, T.PLAINTEXT,
  T.TABLE, T.HR, T.XMP,
]);

/** Start tags "in body" ignores outright (or merges into existing elements). */
const IGNORED_IN_BODY = T.tagIdTable([
  T.CAPTION, T.COL, T.COLGROUP, T.FRAME, T.HEAD, T.TBODY, T.TD, T.TFOOT, T.TH, T.THEAD, T.TR, T.HTML, T.BODY,
  T.FRAMESET, T.IMAGE,
]);

/** Markers of the list of active formatting elements. */
const MARKER = T.tagIdTable([T.APPLET, T.OBJECT, T.MARQUEE, T.TEMPLATE, T.TD, T.TH, T.CAPTION]);

/** Elements allowed in head by "in head" (others close the head). */
const IN_HEAD = T.tagIdTable([T.BASE, T.BASEFONT, T.BGSOUND, T.LINK, T.META, T.TITLE, T.STYLE, T.SCRIPT, T.TEMPLATE]);

/**
 * The tokenizer state an element's contents are read in, for raw text elements (RAWTEXT, script data); -2 for
 * RCDATA (the serializer escapes the text, so any text is fine); -1 for the others.
 */
function rawTextState(id: number): number {
  const state = fragmentTokenizerState(id, false);
  return state === RCDATA_STATE ? -2 : state === RAWTEXT_STATE || state === SCRIPT_DATA_STATE ? state : -1;
}

/**
 * One child list being walked, with the tree builder's state its start tags would meet (made by `frame`, kept in
 * `freeFrames` between uses).
 * @internal
 */
class Frame {
  /** The node whose child list this is (for templates: the template element). */
  parent!: ParentNode;
  list!: ChildNode[];
  /**
   * The walk's position: `list[index]` is the node being checked, `list[index..]` the ones after it. The nodes
   * kept so far are `list[0..out)`; `list[out..index)` is a gap of stale slots left by removals and merges, so
   * that they do not shift the rest of the list (one `splice` per removed node made a long child list quadratic:
   * 32,000 unwrapped spans in one paragraph took 8 s). The list is cut to `out` when the frame ends.
   */
  index!: number;
  out!: number;
  kind!: number;
  flags!: number;
  /** Tag id of the current node (the parent element) for "generate implied end tags" and similar checks. */
  parentId!: number;
  /** For FOREIGN frames: the namespace of the parent; for RAW_TEXT: the tokenizer state. */
  ns!: string;
  rawState!: number;
  rawEndTag!: string;
  /**
   * The fragment root in a noscript context: the serializer escapes the text or not depending on the scripting
   * flag, and the reader takes it as raw text or as markup depending on its own; so the characters the
   * serializer escapes (and markup) cannot be in it.
   */
  escapedRaw!: boolean;
}

/** Whether a tag or attribute name would end at `c` (whitespace, `/`, `>`, NUL) or change (upper case) on reparse. */
function breaksName(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20 || c === 0x2f || c === 0x3e || c === 0 || (c >= 0x41 && c <= 0x5a);
}

/** Can the tokenizer produce this lower-case tag name? (first char ASCII alpha, then no whitespace, `/`, `>`, NUL, upper case) */
function isTokenizableName(name: string): boolean {
  const c0 = name.charCodeAt(0);
  if (!(c0 >= 0x61 && c0 <= 0x7a)) return false;
  for (let i = 1; i < name.length; i++) if (breaksName(name.charCodeAt(i))) return false;
  return true;
}

/** Can the tokenizer produce this lower-case attribute name? (no whitespace, `/`, `>`, NUL, upper case; `=` only first) */
function isTokenizableAttributeName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (breaksName(c) || (c === 0x3d && i > 0)) return false;
  }
  return true;
}

/**
 * A sink that records whether a string tokenizes to exactly one expected token.
 * @internal
 */
class SingleTokenCheck implements TokenSink {
  kind = '';
  count = 0;
  a = '';
  b = '';
  startTag(): void {
    this.count += 2;
  }
  endTag(): void {
    this.count += 2;
  }
  characters(data: string): void {
    if (this.kind === 'text') this.a += data;
    else this.count += 2;
    if (this.kind === 'text') this.count = Math.max(this.count, 1);
  }
  nullCharacter(): void {
    this.count += 2;
  }
  comment(data: string): void {
    this.kind === 'comment' ? ((this.a = data), this.count++) : (this.count += 2);
  }
  processingInstruction(target: string, data: string): void {
    if (this.kind === 'pi') {
      this.a = target;
      this.b = data;
      this.count++;
    } else this.count += 2;
  }
  doctype(..._: Parameters<TokenSink['doctype']>): void {
    this.count += 2;
  }
  endOfFile(): void {}
  cdataAllowed(): boolean {
    return false;
  }
}

const check = new SingleTokenCheck();
const checkTokenizer = new Tokenizer(check, null);

function commentRoundTrips(data: string): boolean {
  check.kind = 'comment';
  check.count = 0;
  check.a = '';
  checkTokenizer.state = DATA_STATE;
  checkTokenizer.lastStartTagName = '';
  checkTokenizer.run('<!--' + data + '-->');
  return check.count === 1 && check.a === data;
}

function processingInstructionRoundTrips(target: string, data: string): boolean {
  check.kind = 'pi';
  check.count = 0;
  checkTokenizer.state = DATA_STATE;
  checkTokenizer.lastStartTagName = '';
  checkTokenizer.run('<?' + target + ' ' + data + '?>');
  return check.count === 1 && check.a === target && check.b === data;
}

/** The markup the serializer writes for a DOCTYPE in round-trip mode. */
function doctypeMarkup(dt: DocumentType): string {
  const quote = (v: string): string => (v.indexOf('"') < 0 ? '"' + v + '"' : "'" + v + "'");
  if (dt.publicId !== '') {
    return '<!DOCTYPE ' + dt.name + ' PUBLIC ' + quote(dt.publicId) + (dt.systemId !== '' ? ' ' + quote(dt.systemId) : '') + '>';
  }
  if (dt.systemId !== '') return '<!DOCTYPE ' + dt.name + ' SYSTEM ' + quote(dt.systemId) + '>';
  return '<!DOCTYPE ' + dt.name + '>';
}

/**
 * The check for a DOCTYPE (only documents have them, so a bundle that only sanitizes fragments does not carry it).
 * Its `kind` stays empty: every other token counts 2.
 * @internal
 */
class DoctypeCheck extends SingleTokenCheck {
  quirks = false;
  override doctype(name: string | null, publicId: string | null, systemId: string | null, forceQuirks: boolean): void {
    this.a = name ?? '';
    this.b = (publicId ?? '') + '\u0000' + (systemId ?? '');
    this.quirks = forceQuirks;
    this.count++;
  }
}

let doctypeCheck: DoctypeCheck | null = null;
let doctypeTokenizer: Tokenizer | null = null;

/** The document mode the DOCTYPE selects when it is read back, or null when it would not come back identical. */
function doctypeRoundTrips(dt: DocumentType): DocumentMode | null {
  if (doctypeCheck === null) {
    doctypeCheck = new DoctypeCheck();
    doctypeTokenizer = new Tokenizer(doctypeCheck, null);
  }
  const c = doctypeCheck;
  c.count = 0;
  doctypeTokenizer!.state = DATA_STATE;
  doctypeTokenizer!.run(doctypeMarkup(dt));
  if (c.count !== 1 || c.a !== dt.name || c.b !== dt.publicId + '\u0000' + dt.systemId) return null;
  return documentModeFromDoctype(c.a, dt.publicId, dt.systemId, c.quirks);
}

/** Does `text`, written raw inside `<name>` in tokenizer `state`, come back as exactly that text? */
function rawTextRoundTrips(text: string, state: number, name: string): boolean {
  if (text.indexOf('<') < 0) return true;
  check.kind = 'text';
  check.count = 0;
  check.a = '';
  checkTokenizer.state = state;
  checkTokenizer.lastStartTagName = name;
  checkTokenizer.run(text + '</' + name + '>');
  // The text, then the end tag: anything else (an earlier end tag) shows up as a second token.
  return check.a === text && check.count === 3;
}

/** What only documents need: their html/head/body structure and the DOCTYPE check (with the quirks-mode tables). */
interface DocumentRules {
  structure(root: ParentNode, report: Reporter): void;
  doctypeMode(dt: DocumentType): DocumentMode | null;
}

const DOCUMENT_RULES: DocumentRules = { structure: documentStructure, doctypeMode: doctypeRoundTrips };

/** Repairs `root` in place so that its serialization reparses to it. Returns the number of repairs made. */
export function enforceReparseSafety(root: ParentNode, context: ReparseContext, onRepair?: RepairListener): number {
  checkArguments(root, context, onRepair);
  // (What the listener throws goes out as it is: only the walk's own reads of the tree are the tree's fault.)
  let listening = false;
  const listener: RepairListener | undefined =
    onRepair === undefined
      ? undefined
      : (repair) => {
          listening = true;
          onRepair(repair);
          listening = false;
        };
  try {
    return enforce(root, context, listener, DOCUMENT_RULES);
  } catch (e) {
    throw listening ? e : malformedTree('enforceReparseSafety', e);
  }
}

/** `enforceReparseSafety`'s arguments, checked before any repair: a TypeError naming the wrong one. */
function checkArguments(root: unknown, context: unknown, onRepair: unknown): void {
  const fail = (what: string): never => {
    throw new TypeError('enforceReparseSafety: ' + what);
  };
  if (!isParentLike(root)) fail('root must be a Document, DocumentFragment or Element');
  const c = context as { kind?: unknown; name?: unknown; namespace?: unknown } | null;
  if (typeof c !== 'object' || c === null || (c.kind !== 'document' && c.kind !== 'fragment')) {
    fail("context must be { kind: 'document' } or { kind: 'fragment', name, namespace }");
  }
  if (c!.kind === 'fragment') {
    if (typeof c!.name !== 'string' || c!.name === '') fail('context.name must be the context element\'s local name');
    if (c!.namespace !== HTML_NS && c!.namespace !== SVG_NS && c!.namespace !== MATHML_NS) {
      fail('context.namespace must be the HTML, SVG or MathML namespace URI');
    }
  }
  if (onRepair !== undefined && typeof onRepair !== 'function') fail('onRepair must be a function');
}

/**
 * `enforceReparseSafety` for a fragment: `root` is not a Document and `context` is a fragment context. It does not
 * reference the document rules, so a bundle that only sanitizes fragments does not carry them.
 */
export function enforceFragmentReparseSafety(
  root: ParentNode,
  context: ReparseContext,
  onRepair?: RepairListener,
  filter?: ListFilter,
): number {
  if (filter === undefined) return enforce(root, context, onRepair, null);
  const outer = listFilter;
  listFilter = filter;
  try {
    return enforce(root, context, onRepair, null);
  } finally {
    listFilter = outer;
  }
}

/**
 * A filter run on each child list just before the walk reads it (the Sanitizer API's "sanitize core", one list
 * at a time: ChildListFilter in sanitizer-api/sanitize.ts): the walk then sees each list as the filter's own walk
 * would have left it, and the tree is walked once instead of twice. It may remove nodes of the list, or replace
 * them with their children; it must not touch anything outside the list and the attributes of the elements it
 * keeps. The lists
 * are: the root's, each kept element's (or its template contents') when the walk enters it, and an unwrapped
 * element's children (and template contents) before they take its place. Only fragments outside an `html` context
 * take one (a document's and an `html` context's structure steps come before the walk and move nodes between
 * lists); a wrapper the walk makes gets no filtering of its own, its children come from a filtered list.
 * A walk with a filter is of a tree the parser has just made (`sanitize()`'s own), which the filter only prunes:
 * the tokenizer and tree builder replace or drop every U+0000, so its texts hold none and the walk does not look
 * for one; and every attribute is one the parser wrote (a name it can read back, adjusted as it adjusts, none
 * twice, no U+0000 in the value), so the walk does not check attributes (`fixAttributes`). Tested in
 * reparse-safety.test.ts: "a tree the parser has just made needs none of these repairs".
 */
export interface ListFilter {
  filter(parent: ParentNode): void;
}

/** The filter of the walk in progress (enforceFragmentReparseSafety's), or null. */
let listFilter: ListFilter | null = null;

function enforce(root: ParentNode, context: ReparseContext, onRepair: RepairListener | undefined, documents: DocumentRules | null): number {
  let repairs = 0;
  const report = (action: Repair['action'], node: ChildNode, reason: string, attribute?: Attr): void => {
    repairs++;
    if (onRepair) onRepair(attribute ? { action, node, reason, attribute } : { action, node, reason });
  };

  if (context.kind === 'document' || root.nodeType === DOCUMENT_NODE) {
    if (documents === null) throw new TypeError('reparse safety: a document needs enforceReparseSafety');
    documents.structure(root, report);
  } else if (context.namespace === HTML_NS && asciiLowercase(context.name) === 'html') {
    if (listFilter !== null) throw new TypeError('reparse safety: no list filter in an html context');
    htmlElementStructure(root, root.childNodes, report);
  }
  if (listFilter !== null) listFilter.filter(listParent(root));
  const stack: Frame[] = [rootFrame(root, context)];
  // The last wrapper made (see ListFilter).
  let wrapper: Element | null = null;
  const maxDepth = context.kind === 'document' || root.nodeType === DOCUMENT_NODE ? MAX_DOCUMENT_DEPTH : MAX_FRAGMENT_DEPTH;

  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.index >= f.list.length) {
      if (f.out < f.list.length) f.list.length = f.out;
      stack.pop();
      // Free, the frame keeps nothing of the tree alive (it is set afresh before any use).
      (f as { parent: unknown }).parent = (f as { list: unknown }).list = null;
      freeFrames.push(f);
      continue;
    }
    const node = f.list[f.index]!;

    // --- text -------------------------------------------------------------------------------------
    if (node.nodeType === TEXT_NODE) {
      const text = node as Text;
      // (None in a tree the parser has just made: see ListFilter.)
      if (listFilter === null && text.data.indexOf('\0') >= 0) {
        text.data = text.data.replace(/\0/g, '\uFFFD');
        report('normalize', text, 'null-character');
      }
      if (literalText(f) && text.data.indexOf('\r') >= 0) {
        // Written literally inside a raw-text element: the input stream preprocessor would make CR (and CRLF) LF.
        text.data = text.data.replace(/\r\n?/g, '\n');
        report('normalize', text, 'carriage-return-in-raw-text');
      }
      if (text.data.length === 0) {
        removeAt(f, node);
        report('drop', text, 'empty-text');
        continue;
      }
      const prev = f.out > 0 ? f.list[f.out - 1]! : null;
      if (prev !== null && prev.nodeType === TEXT_NODE) {
        // Adjacent text nodes come back as one: merge them, if the merged text is still allowed here (the
        // previous one was checked alone), else drop this one.
        const merged = (prev as Text).data + text.data;
        removeAt(f, node);
        if (textAllowed(f, merged)) {
          (prev as Text).data = merged;
          report('normalize', text, 'adjacent-text');
        } else {
          report('drop', text, f.kind === RAW_TEXT ? 'raw-text-would-end-early' : 'text-misplaced');
        }
        continue;
      }
      if (!textAllowed(f, text.data)) {
        removeAt(f, node);
        if ((f.kind === TABLE || f.kind === TABLE_BODY || f.kind === ROW) && fosterText(stack, text)) {
          report('normalize', text, 'text-foster-parented');
          continue;
        }
        report('drop', text, f.kind === RAW_TEXT ? 'raw-text-would-end-early' : 'text-misplaced');
        continue;
      }
      keep(f);
      continue;
    }

    // --- comments and processing instructions --------------------------------------------------------
    if (node.nodeType === COMMENT_NODE || node.nodeType === PROCESSING_INSTRUCTION_NODE) {
      if (f.kind === RAW_TEXT || f.kind === DROP_ALL) {
        removeAt(f, node);
        report('drop', node, 'markup-in-raw-text');
        continue;
      }
      if (node.nodeType === COMMENT_NODE) {
        const c = node as Comment;
        const data = normalizeNewlinesAndNul(c.data);
        if (data !== c.data) {
          c.data = data;
          report('normalize', c, 'comment-newline-or-null');
        }
        if (!commentRoundTrips(c.data)) {
          c.data = safeCommentData(c.data);
          report('normalize', c, 'comment-would-end-early');
        }
      } else {
        const pi = node as ProcessingInstruction;
        const data = normalizeNewlinesAndNul(pi.data);
        if (data !== pi.data) {
          pi.data = data;
          report('normalize', pi, 'processing-instruction-newline-or-null');
        }
        if (!processingInstructionRoundTrips(pi.target, pi.data)) {
          const data = safePIData(pi.data);
          if (processingInstructionRoundTrips(pi.target, data)) {
            pi.data = data;
            report('normalize', pi, 'processing-instruction-data');
          } else {
            removeAt(f, node);
            report('drop', pi, 'processing-instruction-target');
            continue;
          }
        }
      }
      keep(f);
      continue;
    }

    if (node.nodeType === DOCUMENT_TYPE_NODE) {
      if (f.kind !== DOCUMENT || !onlyCommentsBefore(f)) {
        removeAt(f, node);
        report('drop', node, 'doctype-misplaced');
        continue;
      }
      // (A DOCUMENT frame is only made with the document rules.)
      const mode = documents!.doctypeMode(node as DocumentType);
      if (mode === null) {
        removeAt(f, node);
        report('drop', node, 'doctype-would-change');
        continue;
      }
      if (f.parent.nodeType === DOCUMENT_NODE) (f.parent as Document).mode = mode;
      keep(f);
      continue;
    }

    if (node.nodeType !== ELEMENT_NODE) {
      removeAt(f, node);
      report('drop', node, 'unknown-node');
      continue;
    }

    // --- elements ----------------------------------------------------------------------------------
    const el = node as Element;
    if (el.prefix !== null) {
      el.prefix = null;
      report('normalize', el, 'element-prefix');
    }
    // The tag id, looked up once for the checks and the child frame (but see fixAttributes below).
    let id = elementTagId(el);
    // Chromium (and WebKit) stop nesting at 512 elements on the stack of open elements below the html element:
    // a deeper start tag is inserted next to the current node instead of into it. Checked with Chromium 156:
    // 512 nested divs in a fragment parse as written, the 513th becomes a sibling; in a document the html element
    // counts too. Deeper elements are unwrapped (their content stays, one level up).
    const verdict = stack.length > maxDepth ? 'deeper-than-browsers-nest' : checkElement(f, el, id);
    if (verdict !== null) {
      if (verdict === 'rename:closes-p') {
        // Keep the content: the paragraph this start tag would close becomes a div, which nothing here closes.
        report('rename', paragraphInButtonScope(stack), 'p-would-be-closed');
        continue;
      }
      if (verdict.startsWith('wrap:')) {
        report('wrap', (wrapper = wrapAt(f, verdict.slice(5))), 'implied-' + verdict.slice(5));
        continue;
      }
      if (verdict.startsWith('drop:')) {
        removeAt(f, el);
        report('drop', el, verdict.slice(5));
      } else {
        unwrapAt(f, el);
        report('unwrap', el, verdict);
      }
      continue;
    }
    // (Nothing to fix in a tree the parser has just made: see ListFilter.)
    if (listFilter === null) {
      fixAttributes(el, report);
      // An annotation-xml's id depends on its `encoding` attribute, which fixAttributes may have dropped (one with a
      // prefix but no namespace): its children are read as the attributes it is written with say.
      id = elementTagId(el);
    }
    keep(f);
    // The children come from a filtered list in a wrapper the walk made.
    if (SERIALIZES_AS_VOID[id]) {
      if (el.childNodes.length > 0) {
        for (const c of el.childNodes.splice(0)) {
          c.parentNode = null;
          report('drop', c, 'child-of-void-element');
        }
      }
      continue;
    }
    if (listFilter !== null && el !== wrapper) listFilter.filter(listParent(el));
    if (el.content !== null && el.childNodes.length > 0) {
      // Children of a template element itself (not its contents) cannot be written as markup.
      for (const c of el.childNodes.splice(0)) {
        c.parentNode = null;
        report('drop', c, 'template-child-outside-contents');
      }
    }
    stack.push(childFrame(f, el, id));
  }
  return repairs;
}

/**
 * Renames the `p` element that is in button scope for the top frame to `div`, clearing the flag in the frames
 * that saw it. Returns that element.
 */
function paragraphInButtonScope(stack: Frame[]): Element {
  for (let i = stack.length - 1; i >= 0; i--) {
    const f = stack[i]!;
    f.flags &= ~P_IN_BUTTON_SCOPE;
    if (f.parentId === T.P && f.parent.nodeType === ELEMENT_NODE) {
      const p = f.parent as Element;
      p.localName = 'div';
      f.parentId = T.DIV;
      return p;
    }
  }
  throw new Error('reparse safety: no p in button scope');
}

/** "initial" insertion mode: a DOCTYPE counts only before anything but comments (and processing instructions). */
function onlyCommentsBefore(f: Frame): boolean {
  for (let i = 0; i < f.out; i++) {
    const t = f.list[i]!.nodeType;
    if (t !== COMMENT_NODE && t !== PROCESSING_INSTRUCTION_NODE) return false;
  }
  return true;
}

type Reporter = (action: Repair['action'], node: ChildNode, reason: string, attribute?: Attr) => void;

function setParent(nodes: ChildNode[], parent: ParentNode): void {
  for (const n of nodes) n.parentNode = parent;
}

function isHtmlNamed(n: ChildNode, name: string): boolean {
  return n.nodeType === ELEMENT_NODE && (n as Element).namespaceURI === HTML_NS && (n as Element).localName === name;
}

/**
 * A document always reparses with an `html` element holding a `head` and a `body` ("before html", "before head",
 * "after head" and the end of file create them). Without an `html` element, the element and text children of the
 * document are moved into a new one; then `htmlElementStructure`. The document mode becomes the one its DOCTYPE
 * (or its absence: quirks) selects; the DOCTYPE itself is checked in the walk.
 */
function documentStructure(root: ParentNode, report: Reporter): void {
  const kids = root.childNodes;
  let html: Element | null = null;
  for (const k of kids) {
    if (isHtmlNamed(k, 'html')) {
      html = k as Element;
      break;
    }
  }
  if (html === null) {
    html = new ElementClass('html', HTML_NS, []);
    const moved: ChildNode[] = [];
    let at = -1;
    let w = 0; // the nodes that stay are compacted to kids[0..w) (a splice per moved node was quadratic)
    for (const k of kids) {
      if (k.nodeType === ELEMENT_NODE || k.nodeType === TEXT_NODE) {
        if (at < 0) at = w;
        moved.push(k);
      } else kids[w++] = k;
    }
    kids.length = w;
    html.childNodes = moved;
    setParent(moved, html);
    kids.splice(at < 0 ? kids.length : at, 0, html);
    html.parentNode = root;
    report('normalize', html, 'implied-html-element');
  }
  // No DOCTYPE: quirks ("initial", anything else). The DOCTYPE the walk keeps, if any, sets the mode again.
  if (root.nodeType === DOCUMENT_NODE) (root as Document).mode = 'quirks';
  htmlElementStructure(html, html.childNodes, report);
}

/**
 * The children of an `html` element (or of the fragment root in an `html` context): comments, then a `head`, then
 * comments and whitespace, then a `body`, then comments ("before head", "after head", "after body", "after after
 * body"). Anything else goes into the body (before or after its children, by position), as "after head" and
 * "after body" would put it; a missing head or body is created.
 */
function htmlElementStructure(owner: ParentNode, kids: ChildNode[], report: Reporter): void {
  let head: Element | null = null;
  let body: Element | null = null;
  const before: ChildNode[] = [];
  const after: ChildNode[] = [];
  // The nodes that stay are compacted to kids[0..w) (a splice per moved node was quadratic).
  let w = 0;
  for (const k of kids) {
    const t = k.nodeType;
    if (t === COMMENT_NODE || t === PROCESSING_INSTRUCTION_NODE) {
      // stays
    } else if (head === null && body === null && isHtmlNamed(k, 'head')) {
      head = k as Element;
    } else if (body === null && isHtmlNamed(k, 'body')) {
      body = k as Element;
    } else if (t === TEXT_NODE && leadingWhitespace((k as Text).data) === (k as Text).data.length) {
      if (head === null || body !== null) {
        // Whitespace before the head is ignored ("before html", "before head"); after the body it would go into
        // the body. Dropped rather than moved, so that a second pass sees the same tree.
        k.parentNode = null;
        report('drop', k, 'whitespace-outside-head-and-body');
        continue;
      }
    } else {
      (body === null ? before : after).push(k);
      report('normalize', k, 'moved-into-body');
      continue;
    }
    kids[w++] = k;
  }
  kids.length = w;
  if (head === null) {
    head = new ElementClass('head', HTML_NS, []);
    head.parentNode = owner;
    let at = 0;
    while (at < kids.length && kids[at]!.nodeType !== ELEMENT_NODE) at++;
    kids.splice(at, 0, head);
    report('normalize', head, 'implied-head-element');
  }
  if (body === null) {
    body = new ElementClass('body', HTML_NS, []);
    body.parentNode = owner;
    // After the head and the whitespace kept after it (which would otherwise go into the body).
    let at = kids.indexOf(head) + 1;
    for (let i = at; i < kids.length; i++) if (kids[i]!.nodeType === TEXT_NODE) at = i + 1;
    kids.splice(at, 0, body);
    report('normalize', body, 'implied-body-element');
  }
  if (before.length > 0 || after.length > 0) {
    // A new list (`unshift(...before)` spread the nodes as arguments: 200,000 of them overflowed the stack).
    body.childNodes = before.concat(body.childNodes, after);
    setParent(body.childNodes, body);
  }
}

/**
 * Wraps the element at the frame's index in a new HTML element `name` (the one the parser would imply), together
 * with the siblings after it up to the next element that this frame accepts as it is or that needs another
 * wrapper: the rows of a tbody, the cells of a tr, the cols of a colgroup, and what lies between them (which the
 * wrapper's own checks keep or drop, as they would here). Taking in the whole run, not just the element, keeps the
 * repair idempotent: a policy that unwraps tbody elements meets the same rows on a second pass and wraps them the
 * same way. The wrapper is then checked in the element's place. Returns the wrapper.
 */
function wrapAt(f: Frame, name: string): Element {
  const wrapper = new ElementClass(name, HTML_NS, []);
  let end = f.index + 1;
  for (; end < f.list.length; end++) {
    const n = f.list[end]!;
    if (n.nodeType !== ELEMENT_NODE) continue;
    const v = checkElement(f, n as Element, elementTagId(n as Element));
    if (v === null || (v.startsWith('wrap:') && v !== 'wrap:' + name)) break;
  }
  // The run leaves the list; the wrapper takes the run's last slot and is checked next.
  const run = f.list.slice(f.index, end);
  f.list[end - 1] = wrapper;
  f.index = end - 1;
  wrapper.childNodes = run;
  setParent(run, wrapper);
  wrapper.parentNode = listParent(f.parent);
  return wrapper;
}

/**
 * Foster parenting ("13.2.6.1 ... foster parenting", "in table text"): text that is not whitespace-only cannot
 * stay inside table structure; the parser would insert it before the table, so that is where it goes (merged
 * into a Text node already there). Returns false when there is no table element to foster before (template
 * contents in a table mode), in which case the caller drops the text.
 */
function fosterText(stack: Frame[], text: Text): boolean {
  for (let i = stack.length - 1; i > 0; i--) {
    const f = stack[i]!;
    if (f.kind !== TABLE || f.parent.nodeType !== ELEMENT_NODE) continue;
    const table = f.parent as Element;
    if (table.localName !== 'table' || table.namespaceURI !== HTML_NS) return false;
    const below = stack[i - 1]!;
    // The table is the last node `below` kept.
    const at = below.out - 1;
    if (at < 0 || below.list[at] !== table) return false;
    const before = at > 0 ? below.list[at - 1]! : null;
    if (before !== null && before.nodeType === TEXT_NODE) {
      (before as Text).data += text.data;
    } else {
      widen(below, 1);
      below.list[at + 1] = table;
      below.list[at] = text;
      below.out++;
      text.parentNode = listParent(below.parent);
    }
    return true;
  }
  return false;
}

/** The node whose child list a frame for `parent` walks: its template contents, if it has some. */
function listParent(parent: ParentNode): ParentNode {
  return parent.nodeType === ELEMENT_NODE && (parent as Element).content !== null ? (parent as Element).content! : parent;
}

/** The node at the frame's index stays: it joins the kept nodes. */
function keep(f: Frame): void {
  const out = f.out;
  const index = f.index;
  // (Nothing moves until a node has left the list: most lists lose none.)
  if (out !== index) f.list[out] = f.list[index]!;
  f.out = out + 1;
  f.index = index + 1;
}

/** The node at the frame's index leaves the tree (its slot joins the gap). */
function removeAt(f: Frame, node: ChildNode): void {
  f.index++;
  node.parentNode = null;
}

/** Replaces the element at the frame's index with its children (and template contents), which are checked next. */
function unwrapAt(f: Frame, el: Element): void {
  if (listFilter !== null) {
    if (el.content !== null) listFilter.filter(el.content);
    listFilter.filter(el);
  }
  const kids = el.content !== null ? el.content.childNodes.concat(el.childNodes) : el.childNodes;
  const parent = listParent(f.parent);
  // The children take the element's slot and the end of the gap before it.
  widen(f, kids.length - 1);
  f.index -= kids.length - 1;
  for (let i = 0; i < kids.length; i++) (f.list[f.index + i] = kids[i]!).parentNode = parent;
  el.childNodes.length = 0;
  if (el.content !== null) el.content.childNodes.length = 0;
  el.parentNode = null;
}

/**
 * Makes the gap before the frame's index at least `n` slots wide, by moving the rest of the list. It widens it by
 * half the list more than asked, so that a run of insertions (unwraps of elements with several children, fostered
 * texts) moves the list a bounded number of times per node inserted (a splice per insertion was quadratic).
 */
function widen(f: Frame, n: number): void {
  const list = f.list;
  const end = list.length;
  if (f.index - f.out >= n) return;
  const add = n + (end >> 1);
  for (let i = 0; i < add; i++) list.push(list[0]!);
  list.copyWithin(f.index + add, f.index, end);
  f.index += add;
}

/** Characters the serializer escapes in text ("escaping a string"). */
const ESCAPED_CHARACTER = /[&<>\u00a0]/;

/** Whether the text children of the frame are serialized literally (so a CR would come back as LF). */
function literalText(f: Frame): boolean {
  // (escapedRaw: the serializer may write CR as `&#13;`, which raw text reads literally.)
  return f.kind === RAW_TEXT && (f.escapedRaw || f.rawState >= 0);
}

/** The input stream preprocessor turns CR and CRLF into LF; the tokenizer turns NUL into U+FFFD in comments. */
function normalizeNewlinesAndNul(s: string): string {
  let d = s;
  if (d.indexOf('\r') >= 0) d = d.replace(/\r\n?/g, '\n');
  if (d.indexOf('\0') >= 0) d = d.replace(/\0/g, '\uFFFD');
  return d;
}

function textAllowed(f: Frame, data: string): boolean {
  switch (f.kind) {
    case TABLE:
    case TABLE_BODY:
    case ROW:
    case COLUMN_GROUP:
    case HTML_ELEMENT:
    case HEAD:
    case DOCUMENT:
      return f.kind !== DOCUMENT && leadingWhitespace(data) === data.length;
    case RAW_TEXT:
      if (f.escapedRaw) return !ESCAPED_CHARACTER.test(data);
      if (f.rawState < 0) return true;
      return f.rawEndTag === '' || rawTextRoundTrips(data, f.rawState, f.rawEndTag);
    case DROP_ALL:
      return false;
    default:
      return true;
  }
}

/** Comment data that tokenizes back to itself: break up `--` runs and a leading `>`/`->`. */
function safeCommentData(data: string): string {
  let d = data.replace(/--/g, '- -');
  if (d.startsWith('>') || d.startsWith('-')) d = ' ' + d;
  if (d.endsWith('-') || d.endsWith('<!')) d += ' ';
  if (!commentRoundTrips(d)) d = d.replace(/[<>!-]/g, ' ');
  return d;
}

function safePIData(data: string): string {
  const d = data.replace(/>/g, '');
  return d.slice(leadingWhitespace(d));
}

/**
 * Frames whose walk has ended, for `frame` to reuse: one frame per element with children was 12% of what
 * `sanitize()` allocates. They point to no node (see the frame's end in `enforce`), and there are at most as many as
 * the deepest walk had frames: a walk never nests more than MAX_DOCUMENT_DEPTH elements (about 60 KB of frames).
 */
const freeFrames: Frame[] = [];

function frame(parent: ParentNode, list: ChildNode[], kind: number, flags: number, parentId: number, ns = HTML_NS): Frame {
  const f = freeFrames.pop() ?? new Frame();
  f.parent = parent;
  f.list = list;
  f.index = f.out = 0;
  f.kind = kind;
  f.flags = flags;
  f.parentId = parentId;
  f.ns = ns;
  f.rawState = -1;
  f.rawEndTag = '';
  f.escapedRaw = false;
  return f;
}

function rootFrame(root: ParentNode, context: ReparseContext): Frame {
  const list = listParent(root).childNodes;
  if (context.kind === 'document' || root.nodeType === DOCUMENT_NODE) return frame(root, list, DOCUMENT, 0, T.UNKNOWN);
  const name = context.name;
  if (context.namespace === SVG_NS || context.namespace === MATHML_NS) {
    // As parseFragment makes the context element: SVG names get the parser's case adjustment.
    const id = context.namespace === SVG_NS ? T.svgTagId(adjustSvgTagName(name)) : T.mathmlTagId(name);
    if (T.HTML_INTEGRATION_POINT[id] || T.MATHML_TEXT_INTEGRATION_POINT[id]) return frame(root, list, BODY, 0, id);
    return frame(root, list, FOREIGN, 0, id, context.namespace);
  }
  const id = T.htmlTagId(asciiLowercase(name)); // (parseFragment lower-cases HTML context names)
  const table = tableKind(id);
  if (table !== BODY) return frame(root, list, table, 0, id);
  switch (id) {
    case T.TEMPLATE:
      // The context element is not on the stack of open elements: no template is open for the form element
      // pointer ("in body", the "form" start tag and end tag), so a form inside a form is ignored as in a body.
      return templateFrame(root, list, 0, false);
    case T.HTML:
      return frame(root, list, HTML_ELEMENT, 0, id);
    case T.FRAMESET:
      return frame(root, list, DROP_ALL, 0, id);
    case T.TEXTAREA:
    case T.TITLE:
    case T.STYLE:
    case T.XMP:
    case T.IFRAME:
    case T.NOEMBED:
    case T.NOFRAMES:
    case T.SCRIPT:
    case T.NOSCRIPT:
    case T.PLAINTEXT: {
      // In the fragment case no end tag is appropriate: any text stays text. `sanitize()` writes the text as the
      // context element would (literally, for raw text and script data; escaped for RCDATA, which decodes it).
      const f = frame(root, list, RAW_TEXT, 0, id);
      const state = fragmentTokenizerState(id, true);
      f.rawState = state === RCDATA_STATE ? -2 : state;
      // noscript: written literally with scripting on, escaped with it off, and read as raw text or as markup
      // depending on the reader's scripting flag; only text that reads the same all four ways can stay.
      f.escapedRaw = id === T.NOSCRIPT;
      // Fragment parsing needs no more, but the markup is also commonly written between the context's own tags
      // (`<style>` + output + `</style>`): the text must not contain the context's end tag either, or it would
      // end the element there and what follows would be parsed as markup.
      if (f.rawState === RAWTEXT_STATE || f.rawState === SCRIPT_DATA_STATE) f.rawEndTag = context.name;
      return f;
    }
    case T.SELECT:
      return frame(root, list, BODY, SELECT_CONTEXT | SELECT_ANCESTOR, id);
    case T.FORM:
      // The fragment parsing algorithm sets the form element pointer to the context element when it is a form
      // (its nearest form ancestor, including itself): every form start tag is then ignored.
      return frame(root, list, BODY, FORM_POINTER, id);
    default:
      return frame(root, list, BODY, 0, id);
  }
}

/** The kind of frame for the children of a table, table section, row or column group; BODY for other elements. */
function tableKind(id: number): number {
  return id === T.TABLE ? TABLE : id === T.TBODY || id === T.THEAD || id === T.TFOOT ? TABLE_BODY : id === T.TR ? ROW : id === T.COLGROUP ? COLUMN_GROUP : BODY;
}

/** "in template": the first element of the contents decides the insertion mode for the rest. */
function templateFrame(parent: ParentNode, list: ChildNode[], flags: number, onStack = true): Frame {
  let kind = BODY;
  for (const n of list) {
    if (n.nodeType !== ELEMENT_NODE) continue;
    const el = n as Element;
    if (el.namespaceURI === HTML_NS) {
      switch (T.htmlTagId(el.localName)) {
        case T.CAPTION:
        case T.COLGROUP:
        case T.TBODY:
        case T.TFOOT:
        case T.THEAD:
          kind = TABLE;
          break;
        case T.COL:
          kind = COLUMN_GROUP;
          break;
        case T.TR:
          kind = TABLE_BODY;
          break;
        case T.TD:
        case T.TH:
          kind = ROW;
          break;
      }
    }
    break;
  }
  const f = frame(parent, list, kind, (flags & ~(SCOPE_FLAGS | A_IN_FORMATTING_LIST | FORM_POINTER | LI_REACHABLE | DD_DT_REACHABLE)) | (onStack ? TEMPLATE_OPEN : 0), T.TEMPLATE);
  return f;
}

/**
 * Checks the start tag of `el` against the rules it meets as a child in frame `f`.
 * Returns null when it would be inserted right there, else the repair: a reason (unwrap) or `drop:reason`.
 */
function checkElement(f: Frame, el: Element, id: number): string | null {
  const ns = el.namespaceURI;
  const name = el.localName;

  if (f.kind === RAW_TEXT || f.kind === DROP_ALL) return 'drop:markup-in-raw-text';

  // Names the tokenizer cannot produce as written.
  if (ns !== HTML_NS && ns !== SVG_NS && ns !== MATHML_NS) return 'unknown-namespace';
  // (The tokenizer lower-cases tag names; the parser adjusts the case of SVG ones.)
  const lower = ns === SVG_NS ? asciiLowercase(name) : name;
  // (An HTML element with a tag id has one of the HTML tag names, which the tokenizer produces.)
  if ((ns !== HTML_NS || id === T.UNKNOWN) && (!isTokenizableName(lower) || (ns === SVG_NS && adjustSvgTagName(lower) !== name))) {
    return 'unserializable-name';
  }

  if (f.kind === FOREIGN) {
    // Foreign content: children are foreign elements of the parent's namespace, unless they break out.
    if (ns === HTML_NS) return 'html-in-foreign-content';
    const htmlId = T.htmlTagId(lower);
    if (BREAKOUT_START_TAG[htmlId] || (lower === 'font' && fontBreaksOut(el.attributes))) return 'foreign-element-breaks-out';
    if (ns === MATHML_NS && name === 'svg' && f.parentId === T.MATH_ANNOTATION_XML) {
      // "Any other start tag" in foreign content: an `svg` start tag in annotation-xml makes an SVG element.
      return 'namespace-changes-on-reparse';
    }
    if (ns !== f.ns) {
      // <svg> inside annotation-xml is SVG; every other start tag takes the parent's namespace.
      const svgInAnnotation = ns === SVG_NS && name === 'svg' && f.ns === MATHML_NS && f.parentId === T.MATH_ANNOTATION_XML;
      if (!svgInAnnotation) return 'namespace-mismatch';
    }
    return null;
  }

  // HTML content (body-like, table-like, document-level frames).
  if (ns !== HTML_NS) {
    if (f.kind !== BODY) return f.kind === HEAD || f.kind === HTML_ELEMENT || f.kind === DOCUMENT ? 'drop:misplaced-in-document' : 'drop:misplaced-in-table';
    if (T.MATHML_TEXT_INTEGRATION_POINT[f.parentId] && ns === MATHML_NS && (name === 'mglyph' || name === 'malignmark')) return null;
    if (ns === SVG_NS && name === 'svg') return null;
    if (ns === MATHML_NS && name === 'math') return null;
    return 'foreign-element-outside-foreign-content';
  }
  if (T.MATHML_TEXT_INTEGRATION_POINT[f.parentId] && (name === 'mglyph' || name === 'malignmark')) return 'html-mglyph-in-mathml-text';

  switch (f.kind) {
    case DOCUMENT:
      // Only one html element: after it, "after after body" sends start tags into the body.
      if (id !== T.HTML) return 'drop:misplaced-in-document';
      for (let i = 0; i < f.out; i++) if (f.list[i]!.nodeType === ELEMENT_NODE) return 'drop:second-html-element';
      return null;
    case HTML_ELEMENT:
      return id === T.HEAD || id === T.BODY ? null : 'drop:misplaced-in-document';
    case HEAD:
      return IN_HEAD[id] ? null : 'drop:misplaced-in-head';
    case TABLE:
      switch (id) {
        case T.CAPTION: case T.COLGROUP: case T.TBODY: case T.THEAD: case T.TFOOT: case T.SCRIPT: case T.STYLE: case T.TEMPLATE:
          return null;
        // "in table": a tr, td or th start tag inserts a tbody first, a col start tag a colgroup. Keep the rows:
        // wrap them in the element the parser would imply.
        case T.TR: case T.TD: case T.TH:
          return 'wrap:tbody';
        case T.COL:
          return 'wrap:colgroup';
        case T.INPUT:
          return isHiddenInput(el) ? null : 'drop:misplaced-in-table';
        default:
          return 'drop:misplaced-in-table';
      }
    case TABLE_BODY:
      switch (id) {
        case T.TR: case T.SCRIPT: case T.STYLE: case T.TEMPLATE:
          return null;
        // "in table body": a td or th start tag inserts a tr first.
        case T.TD: case T.TH:
          return 'wrap:tr';
        case T.INPUT:
          return isHiddenInput(el) ? null : 'drop:misplaced-in-table';
        default:
          return 'drop:misplaced-in-table';
      }
    case ROW:
      switch (id) {
        case T.TD: case T.TH: case T.SCRIPT: case T.STYLE: case T.TEMPLATE:
          return null;
        case T.INPUT:
          return isHiddenInput(el) ? null : 'drop:misplaced-in-table';
        default:
          return 'drop:misplaced-in-table';
      }
    case COLUMN_GROUP:
      return id === T.COL || id === T.TEMPLATE ? null : 'drop:misplaced-in-column-group';
  }

  // "in body" (f.kind === BODY)
  const flags = f.flags;
  if (IGNORED_IN_BODY[id]) return id === T.IMAGE ? 'image-becomes-img' : 'table-part-or-document-element-outside-context';
  if (id === T.NOSCRIPT) return 'drop:noscript-depends-on-scripting';
  // "Maybe clone an option into selectedcontent" (the option element, run when the parser pops an option): the
  // parser replaces the children of a selectedcontent in a select with a clone of an option's children, so the
  // ones the tree has would not come back. Its content is a copy of an option's anyway: drop it.
  if (id === T.SELECTEDCONTENT && flags & SELECT_ANCESTOR) return 'drop:selectedcontent-refilled-by-parser';
  if (id === T.PLAINTEXT) return 'plaintext-swallows-what-follows';
  if (CLOSES_P[id] && flags & P_IN_BUTTON_SCOPE) return 'rename:closes-p';
  if (id === T.SVG || id === T.MATH) return 'html-element-named-like-foreign-root';
  if (T.isHeading(id) && T.isHeading(f.parentId)) return 'heading-in-heading';
  switch (id) {
    case T.LI:
      if (flags & LI_REACHABLE) return 'li-closes-li';
      break;
    case T.DD:
    case T.DT:
      if (flags & DD_DT_REACHABLE) return 'dd-dt-closes-dd-dt';
      break;
    case T.A:
      if (flags & A_IN_FORMATTING_LIST) return 'a-in-a';
      break;
    case T.NOBR:
      if (flags & NOBR_IN_SCOPE) return 'nobr-in-nobr';
      break;
    case T.BUTTON:
      if (flags & BUTTON_IN_SCOPE) return 'button-in-button';
      break;
    case T.FORM:
      if (flags & FORM_POINTER) return 'form-in-form';
      break;
    case T.SELECT:
      if (flags & (SELECT_IN_SCOPE | SELECT_CONTEXT)) return 'select-in-select';
      break;
    case T.INPUT:
      if (flags & SELECT_IN_SCOPE) return 'input-closes-select';
      break;
    case T.OPTION:
      if (flags & SELECT_IN_SCOPE) {
        if (T.IMPLIED_END_TAG[f.parentId] && f.parentId !== T.OPTGROUP) return 'option-implies-end-tag';
      } else if (f.parentId === T.OPTION) return 'option-in-option';
      break;
    case T.OPTGROUP:
      if (flags & SELECT_IN_SCOPE) {
        if (T.IMPLIED_END_TAG[f.parentId]) return 'optgroup-implies-end-tag';
      } else if (f.parentId === T.OPTION) return 'optgroup-in-option';
      break;
    case T.HR:
      if (flags & SELECT_IN_SCOPE && T.IMPLIED_END_TAG[f.parentId]) return 'hr-implies-end-tag';
      break;
    case T.RB:
    case T.RTC:
      if (flags & RUBY_IN_SCOPE && T.IMPLIED_END_TAG[f.parentId]) return 'ruby-implies-end-tag';
      break;
    case T.RP:
    case T.RT:
      if (flags & RUBY_IN_SCOPE && T.IMPLIED_END_TAG[f.parentId] && f.parentId !== T.RTC) return 'ruby-implies-end-tag';
      break;
  }
  return null;
}

function isHiddenInput(el: Element): boolean {
  if (el.childNodes.length > 0) return false;
  for (const a of el.attributes) {
    if (a.namespaceURI === null && a.localName === 'type') return asciiLowercase(a.value) === 'hidden';
  }
  return false;
}

/** The frame for the children of `el` (already accepted in frame `f`; not one that serializes as void). */
function childFrame(f: Frame, el: Element, id: number): Frame {
  const ns = el.namespaceURI;
  if (ns !== HTML_NS) {
    if (T.HTML_INTEGRATION_POINT[id] || T.MATHML_TEXT_INTEGRATION_POINT[id]) {
      // Scope boundaries and special: start tags inside see a fresh scope.
      return frame(el, el.childNodes, BODY, f.flags & (INHERITED | A_IN_FORMATTING_LIST), id);
    }
    return frame(el, el.childNodes, FOREIGN, f.flags & (INHERITED | A_IN_FORMATTING_LIST), id, ns);
  }
  if (id === T.TEMPLATE) return templateFrame(el, el.content!.childNodes, f.flags);

  const raw = rawTextState(id);
  if (raw !== -1) {
    const fr = frame(el, el.childNodes, RAW_TEXT, 0, id);
    fr.rawState = raw;
    fr.rawEndTag = el.localName;
    return fr;
  }

  switch (f.kind) {
    case DOCUMENT:
      return frame(el, el.childNodes, HTML_ELEMENT, 0, id);
    case HTML_ELEMENT:
      return frame(el, el.childNodes, id === T.HEAD ? HEAD : BODY, 0, id);
  }
  const table = tableKind(id);
  if (table !== BODY) return frame(el, el.childNodes, table, f.flags & INHERITED, id);

  // Body-like: derive the stack-of-open-elements flags for the children.
  // (SELECT_CONTEXT stays: "in body" ignores every select start tag of a fragment whose context is a select.)
  let flags = f.flags;
  if (T.SCOPE_BOUNDARY[id]) flags &= ~SCOPE_FLAGS;
  if (MARKER[id]) flags &= ~A_IN_FORMATTING_LIST;
  // The "li" / "dd" / "dt" start tag loop stops at a special element other than address, div and p. `dialog` and
  // `search` do not stop it here: Chromium 156 does not count them as special (`<li><search><li>` closes the outer
  // li there; checked for every special container), our tree builder does; not stopping is safe with both.
  if (T.SPECIAL[id] && id !== T.ADDRESS && id !== T.DIV && id !== T.P && id !== T.DIALOG && id !== T.SEARCH) {
    flags &= ~(LI_REACHABLE | DD_DT_REACHABLE);
  }
  switch (id) {
    case T.P:
      flags |= P_IN_BUTTON_SCOPE;
      break;
    case T.BUTTON:
      flags = (flags & ~P_IN_BUTTON_SCOPE) | BUTTON_IN_SCOPE;
      break;
    case T.NOBR:
      flags |= NOBR_IN_SCOPE;
      break;
    case T.SELECT:
      flags |= SELECT_IN_SCOPE | SELECT_ANCESTOR;
      break;
    case T.RUBY:
      flags |= RUBY_IN_SCOPE;
      break;
    case T.LI:
      flags |= LI_REACHABLE;
      break;
    case T.DD:
    case T.DT:
      flags |= DD_DT_REACHABLE;
      break;
    case T.A:
      flags |= A_IN_FORMATTING_LIST;
      break;
    case T.FORM:
      if (!(flags & TEMPLATE_OPEN)) flags |= FORM_POINTER;
      break;
  }
  return frame(el, el.childNodes, BODY, flags, id);
}

/** Removes attributes that cannot be written so as to come back identical; normalizes NUL in values. */
function fixAttributes(el: Element, report: (action: Repair['action'], node: ChildNode, reason: string, attribute?: Attr) => void): void {
  const attrs = el.attributes;
  if (attrs.length === 0) return;
  const html = el.namespaceURI === HTML_NS;
  let seen: Set<string> | null = null;
  // Kept attributes are compacted to attrs[0..w) (one splice per dropped attribute was quadratic).
  const n = attrs.length;
  let w = 0;
  for (let i = 0; i < n; i++) {
    const a = attrs[i]!;
    let reason: string | null = null;
    const lower = asciiLowercase(serializedAttributeName(a));
    if (html) {
      if (a.namespaceURI !== null || a.prefix !== null) reason = 'namespaced-attribute-on-html-element';
      else if (!isTokenizableAttributeName(a.localName)) reason = 'unserializable-attribute-name';
    } else {
      if (!isTokenizableAttributeName(lower)) reason = 'unserializable-attribute-name';
      else {
        const probe = [new AttrClass(lower, '')];
        if (el.namespaceURI === SVG_NS) adjustSvgAttributes(probe);
        else adjustMathMLAttributes(probe);
        adjustForeignAttributes(probe);
        const p = probe[0]!;
        if (p.localName !== a.localName || p.namespaceURI !== a.namespaceURI || p.prefix !== a.prefix) {
          reason = 'attribute-name-changes-on-reparse';
        }
      }
    }
    if (reason === null && n > 1) {
      if (seen === null) seen = new Set();
      if (seen.has(lower)) reason = 'duplicate-attribute';
      else seen.add(lower);
    }
    if (reason !== null) {
      report('drop-attribute', el, reason, a);
      continue;
    }
    if (a.value.indexOf('\0') >= 0) {
      a.value = a.value.replace(/\0/g, '\uFFFD');
      report('normalize', el, 'null-character-in-attribute', a);
    }
    if (w !== i) attrs[w] = a;
    w++;
  }
  if (w !== n) attrs.length = w;
}

// Re-exported for tests that build trees.
export { TextClass as _Text };
