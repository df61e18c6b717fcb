/**
 * Tree construction (WHATWG HTML, "13.2.6 Tree construction").
 *
 * The TreeBuilder is the tokenizer's TokenSink. The current token lives in fields of the builder (no token
 * objects); each insertion mode is a method that handles the current token, and "reprocess the token" is a
 * call back into the dispatcher after switching mode (bounded depth: a token is reprocessed a few times at
 * most; the end-of-file token, which "in template" reprocesses once per open template, loops in
 * `endOfFile` instead). Nothing recurses over the tree or over the token stream.
 *
 * Scale: scope checks, "any other end tag", the last table/template, reset-the-insertion-mode and the list
 * of active formatting elements use O(1) indexes (see stack-of-open-elements.ts and
 * active-formatting-elements.ts); tag names are interned to numeric tag ids (html-elements.ts).
 *
 * Tree-construction parse errors have no codes in the standard; this module reports stable kebab-case
 * codes in the style of html5lib (`unexpected-start-tag`, `unexpected-end-tag`, ...). Only tokenizer errors
 * carry the standard's codes.
 */
import {
  Attr,
  Comment,
  Document,
  DocumentFragment,
  DocumentType,
  Element,
  HTML_NS,
  MATHML_NS,
  ProcessingInstruction,
  SVG_NS,
  Text,
  TEXT_NODE,
  ELEMENT_NODE,
  asciiLowercase,
  isAsciiWhitespace,
  leadingWhitespace,
  workList,
  type ChildNode,
  type ParentNode,
} from '../dom.js';
import * as E from '../parse-error-codes.js';
import type { TokenSink } from '../tokenizer/token-sink.js';
import {
  type Tokenizer,
  DATA_STATE,
  PLAINTEXT_STATE,
  RAWTEXT_STATE,
  RCDATA_STATE,
  SCRIPT_DATA_STATE,
} from '../tokenizer/tokenizer.js';
import * as T from './html-elements.js';
import { StackOfOpenElements } from './stack-of-open-elements.js';
import { ActiveFormattingElements, type FormattingEntry } from './active-formatting-elements.js';
import {
  BREAKOUT_START_TAG,
  adjustForeignAttributes,
  adjustMathMLAttributes,
  adjustSvgAttributes,
  adjustSvgTagName,
  fontBreaksOut,
  isHtmlEncoding,
} from './foreign-content.js';
import type { documentModeFromDoctype } from './quirks-mode.js';

// Insertion modes and token kinds: a module of constants only, which a minifying bundler inlines.
import {
  INITIAL, BEFORE_HTML, BEFORE_HEAD, IN_HEAD, IN_HEAD_NOSCRIPT, AFTER_HEAD, IN_BODY, TEXT_MODE, IN_TABLE,
  IN_TABLE_TEXT, IN_CAPTION, IN_COLUMN_GROUP, IN_TABLE_BODY, IN_ROW, IN_CELL, IN_TEMPLATE, AFTER_BODY, IN_FRAMESET,
  AFTER_FRAMESET, AFTER_AFTER_BODY, AFTER_AFTER_FRAMESET, START_TAG, END_TAG, CHARACTERS, NULL_CHARACTER, COMMENT,
  PROCESSING_INSTRUCTION, DOCTYPE, EOF,
} from './modes.js';
export {
  INITIAL, BEFORE_HTML, BEFORE_HEAD, IN_HEAD, IN_HEAD_NOSCRIPT, AFTER_HEAD, IN_BODY, TEXT_MODE, IN_TABLE,
  IN_TABLE_TEXT, IN_CAPTION, IN_COLUMN_GROUP, IN_TABLE_BODY, IN_ROW, IN_CELL, IN_TEMPLATE, AFTER_BODY, IN_FRAMESET,
  AFTER_FRAMESET, AFTER_AFTER_BODY, AFTER_AFTER_FRAMESET,
} from './modes.js';

const NO_ATTRS: Attr[] = [];

/** The whitespace characters of `s`, in order (for modes that ignore everything else). */
function onlyWhitespace(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) if (isAsciiWhitespace(s.charCodeAt(i))) out += s[i];
  return out;
}

/**
 * Appends `node` to `parent`'s child list. Most elements end up with one to three children: each of the first
 * three gets a new list of exactly its length (an array literal, pretenurable), where `push` would grow the list
 * to 17 slots and the element's pop would then copy it back to its length (garbage twice over: corpus A/B, sanitize
 * +5%, parse +4%). Longer lists grow by `push` and are trimmed when their element is popped (see
 * StackOfOpenElements.pop).
 */
function appendChildNode(parent: ParentNode, node: ChildNode): void {
  const kids = parent.childNodes;
  const n = kids.length;
  if (n === 0) parent.childNodes = [node];
  else if (n === 1) parent.childNodes = [kids[0]!, node];
  else if (n === 2) parent.childNodes = [kids[0]!, kids[1]!, node];
  else kids.push(node);
}

function cloneAttributes(attrs: Attr[]): Attr[] {
  const out: Attr[] = new Array(attrs.length);
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    out[i] = new Attr(a.localName, a.value, a.namespaceURI, a.prefix);
  }
  return out;
}

function getAttr(attrs: Attr[], name: string): string | null {
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.localName === name && a.namespaceURI === null) return a.value;
  }
  return null;
}

/** The tag id of an element already in the tree (any namespace). */
export function elementTagId(el: Element): number {
  const ns = el.namespaceURI;
  if (ns === HTML_NS) return T.htmlTagId(el.localName);
  if (ns === MATHML_NS) {
    const id = T.mathmlTagId(el.localName);
    if (id === T.MATH_ANNOTATION_XML && isHtmlEncoding(el.attributes)) return T.MATH_ANNOTATION_XML_HIP;
    return id;
  }
  if (ns === SVG_NS) return T.svgTagId(el.localName);
  return T.UNKNOWN;
}

/**
 * The tokenizer state the HTML fragment parsing algorithm (13.4) sets for an HTML context element with tag id
 * `id`: RCDATA for title and textarea, RAWTEXT for style, xmp, iframe, noembed, noframes (and noscript with
 * scripting), script data for script, PLAINTEXT for plaintext, else data.
 */
export function fragmentTokenizerState(id: number, scripting: boolean): number {
  switch (id) {
    case T.TITLE:
    case T.TEXTAREA:
      return RCDATA_STATE;
    case T.STYLE:
    case T.XMP:
    case T.IFRAME:
    case T.NOEMBED:
    case T.NOFRAMES:
      return RAWTEXT_STATE;
    case T.SCRIPT:
      return SCRIPT_DATA_STATE;
    case T.NOSCRIPT:
      return scripting ? RAWTEXT_STATE : DATA_STATE;
    case T.PLAINTEXT:
      return PLAINTEXT_STATE;
    default:
      return DATA_STATE;
  }
}

export interface TreeBuilderOptions {
  scripting: boolean;
  reportErrors: boolean;
  /**
   * `documentModeFromDoctype` (quirks-mode.ts), for the document case: only the "initial" insertion mode reads it,
   * so a bundle that only parses fragments does not carry the quirks-mode tables.
   */
  documentMode?: typeof documentModeFromDoctype;
}

/** @internal (see scripts/internal-names.ts) */
export class TreeBuilder implements TokenSink {
  readonly document: Document;
  tokenizer!: Tokenizer;

  private mode = INITIAL;
  private originalMode = INITIAL;
  private readonly templateModes: number[] = workList();
  private readonly open = new StackOfOpenElements();
  private readonly afe = new ActiveFormattingElements();
  private headElement: Element | null = null;
  private formElement: Element | null = null;
  private framesetOk = true;
  private readonly scripting: boolean;
  private readonly reportErrors: boolean;
  private readonly documentMode: typeof documentModeFromDoctype | undefined;
  private fosterParenting = false;
  private reprocessEof = false;
  /** Drop a U+000A at the start of the next character run (after `<pre>`, `<listing>`, `<textarea>`). */
  private skipNextNewline = false;

  // Fragment case (13.4 "parsing HTML fragments").
  private contextElement: Element | null = null;
  private contextId = T.UNKNOWN;

  // The pending table character tokens (13.2.6.4.10).
  private pendingTableText = '';
  private pendingTableTextDirty = false;

  // selectedcontent support ("maybe clone an option into selectedcontent").
  // The maps below are made when first written (read before, they are null: nothing recorded): most parses meet no
  // select (or no unknown tag name), and making the three per parse was 2% of a CPU profile of sanitizing
  // comment-sized inputs.
  /** For each select element, its enabled selectedcontent: the first one the parser inserted inside it that is
   * not disabled (no option or selectedcontent element between it and the select). */
  private selectedContentMap: Map<Element, Element> | null = null;
  /** For each select element (without `multiple`), its selected option so far (the selectedness setting algorithm:
   * the last inserted option with a `selected` attribute, else the first one that is not disabled). */
  private selectedOptionMap: Map<Element, Element> | null = null;
  /**
   * What `optionSelect` last found above an inserted option's parent: from `selectAbove` up (an optgroup below it or
   * not), the nearest ancestor select, while `treeMoves` is what it was then. Options come in runs under one parent
   * or under sibling optgroups, deep inside a select: each run climbs the ancestors once, not each option.
   */
  private selectAbove: ParentNode | null = null;
  private selectAboveOptgroup = false;
  private selectAboveMoves = -1;
  private selectAboveResult: Element | null = null;
  /** The selectedcontent elements inserted in a connected tree, enabled or not (see `selectedContentMoved`). */
  private readonly connectedSelectedContents: Element[] = workList();

  /** The ids of the tag names without a static id, interned for this parse (see startTagId). */
  private dynamicIds: Map<string, number> | null = null;
  private nextDynamicId = T.TAG_ID_COUNT;

  // The current token.
  private tk = EOF;
  private tName = '';
  private tId = T.UNKNOWN;
  private tAttrs: Attr[] = NO_ATTRS;
  private tSelfClosing = false;
  private tAcknowledged = false;
  private tData = '';
  private tTarget = '';
  private tDoctypeName: string | null = null;
  private tPublicId: string | null = null;
  private tSystemId: string | null = null;
  private tForceQuirks = false;

  // The adjusted insertion location computed by `findInsertionLocation`.
  private locParent: ParentNode = null as unknown as ParentNode;
  private locBefore: ChildNode | null = null;

  constructor(document: Document, options: TreeBuilderOptions) {
    this.document = document;
    this.scripting = options.scripting;
    this.reportErrors = options.reportErrors;
    this.documentMode = options.documentMode;
    this.open.optionListener = this;
  }

  // ---------------------------------------------------------------------------------------------
  // Fragment case setup (13.4 "The HTML fragment parsing algorithm", steps after creating the parser).

  /** Prepares the builder to parse a fragment for `context`; returns the root `html` element. */
  initFragment(context: Element): Element {
    this.contextElement = context;
    this.contextId = elementTagId(context);
    const root = new Element('html', HTML_NS, []);
    this.document.childNodes.push(root);
    root.parentNode = this.document;
    this.open.push(root, T.HTML);
    if (this.contextId === T.TEMPLATE) this.templateModes.push(IN_TEMPLATE);
    // "Set the parser's form element pointer to the nearest node to the context element that is a form
    // element (going straight up the ancestor chain, and including the element itself)": a context element
    // given by name has no ancestors, so only a `form` context sets it.
    if (this.contextId === T.FORM && context.namespaceURI === HTML_NS) this.formElement = context;
    this.resetInsertionMode();
    // No start tag has been emitted: an end tag named like the context is not an appropriate end tag.
    if (context.namespaceURI === HTML_NS) this.tokenizer.state = fragmentTokenizerState(this.contextId, this.scripting);
    return root;
  }

  // ---------------------------------------------------------------------------------------------
  // TokenSink

  startTag(name: string, attributes: Attr[], selfClosing: boolean, tagId = -1): void {
    this.skipNextNewline = false; // only the very next token can be the ignored line feed
    this.tk = START_TAG;
    // `name` is already the string every element of this name shares (the tokenizer's name cache).
    this.tName = name;
    this.tId = tagId > T.UNKNOWN ? tagId : tagId === T.UNKNOWN ? this.dynamicStartTagId(name) : this.startTagId(name);
    this.tAttrs = attributes;
    this.tSelfClosing = selfClosing;
    this.tAcknowledged = false;
    this.dispatch();
    // (`=== true`: a parameter tested for truth is tested as any value would be.)
    if (selfClosing === true && !this.tAcknowledged) this.err(E.NonVoidHtmlElementStartTagWithTrailingSolidus);
  }

  endTag(name: string, tagId = -1): void {
    this.skipNextNewline = false; // only the very next token can be the ignored line feed
    this.tk = END_TAG;
    this.tName = name;
    this.tId = tagId > T.UNKNOWN ? tagId : tagId === T.UNKNOWN ? this.dynamicEndTagId(name) : this.endTagId(name);
    this.tAttrs = NO_ATTRS;
    this.dispatch();
  }

  characters(data: string): void {
    if (this.skipNextNewline) {
      this.skipNextNewline = false;
      if (data.charCodeAt(0) === 0x0a) {
        if (data.length === 1) return;
        data = data.slice(1);
      }
    }
    this.tk = CHARACTERS;
    this.tData = data;
    this.dispatch();
  }

  nullCharacter(): void {
    this.skipNextNewline = false;
    this.tk = NULL_CHARACTER;
    this.tData = '\u0000';
    this.dispatch();
  }

  comment(data: string): void {
    this.skipNextNewline = false; // only the very next token can be the ignored line feed
    this.tk = COMMENT;
    this.tData = data;
    this.dispatch();
  }

  processingInstruction(target: string, data: string): void {
    this.skipNextNewline = false; // only the very next token can be the ignored line feed
    this.tk = PROCESSING_INSTRUCTION;
    this.tTarget = target;
    this.tData = data;
    this.dispatch();
  }

  doctype(name: string | null, publicId: string | null, systemId: string | null, forceQuirks: boolean): void {
    this.skipNextNewline = false; // only the very next token can be the ignored line feed
    this.tk = DOCTYPE;
    this.tDoctypeName = name;
    this.tPublicId = publicId;
    this.tSystemId = systemId;
    this.tForceQuirks = forceQuirks;
    this.dispatch();
  }

  endOfFile(): void {
    this.tk = EOF;
    // "Reprocess the token" for end-of-file (in template) loops here instead of nesting calls.
    do {
      this.reprocessEof = false;
      this.dispatch();
    } while (this.reprocessEof);
    // 13.2.7 "The end": pop all the nodes off the stack of open elements.
    while (this.open.top >= 0) this.open.pop();
    this.open.release();
  }

  cdataAllowed(): boolean {
    const node = this.adjustedCurrentNode();
    return node !== null && node.namespaceURI !== HTML_NS;
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  /**
   * The tag id of a start tag's name as an HTML element. Names without a static id are interned for this
   * parse, so that "any other end tag" finds its element through the stack's per-id index (O(1)).
   */
  private startTagId(name: string): number {
    const id = T.htmlTagId(name);
    return id !== T.UNKNOWN ? id : this.dynamicStartTagId(name);
  }

  /** startTagId for a name known not to be an HTML tag name. */
  private dynamicStartTagId(name: string): number {
    const ids = (this.dynamicIds ??= new Map());
    const d = ids.get(name);
    if (d !== undefined) return d;
    const n = this.nextDynamicId++;
    ids.set(name, n);
    return n;
  }

  /** The tag id of an end tag's name: -1 when no element of that name was ever created. */
  private endTagId(name: string): number {
    const id = T.htmlTagId(name);
    return id !== T.UNKNOWN ? id : this.dynamicEndTagId(name);
  }

  /** endTagId for a name known not to be an HTML tag name. */
  private dynamicEndTagId(name: string): number {
    const d = this.dynamicIds?.get(name);
    return d === undefined ? -1 : d;
  }

  private err(code: number): void {
    if (this.reportErrors) this.tokenizer.error(code, this.tokenizer.tokenStart);
  }

  private get isFragment(): boolean {
    return this.contextElement !== null;
  }

  /** The adjusted current node (13.2.4.2). */
  private adjustedCurrentNode(): Element | null {
    if (this.contextElement !== null && this.open.top === 0) return this.contextElement;
    return this.open.current;
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.6 Tree construction dispatcher

  private dispatch(): void {
    const open = this.open;
    const context = open.top === 0 ? this.contextElement : null;
    const node = context !== null ? context : open.current;
    if (node === null || node.namespaceURI === HTML_NS) {
      this.process();
      return;
    }
    const id = context !== null ? this.contextId : open.currentId;
    const tk = this.tk;
    if (T.MATHML_TEXT_INTEGRATION_POINT[id]) {
      if (tk === START_TAG && this.tName !== 'mglyph' && this.tName !== 'malignmark') return this.process();
      if (tk === CHARACTERS || tk === NULL_CHARACTER) return this.process();
    }
    if ((id === T.MATH_ANNOTATION_XML || id === T.MATH_ANNOTATION_XML_HIP) && tk === START_TAG && this.tName === 'svg') {
      return this.process();
    }
    if (T.HTML_INTEGRATION_POINT[id] && (tk === START_TAG || tk === CHARACTERS || tk === NULL_CHARACTER)) {
      return this.process();
    }
    if (tk === EOF) return this.process();
    this.inForeignContent();
  }

  /** Processes the current token according to the current insertion mode. */
  private process(): void {
    switch (this.mode) {
      case INITIAL:
        return this.initialMode();
      case BEFORE_HTML:
        return this.beforeHtmlMode();
      case BEFORE_HEAD:
        return this.beforeHeadMode();
      case IN_HEAD:
        return this.inHeadMode();
      case IN_HEAD_NOSCRIPT:
        return this.inHeadNoscriptMode();
      case AFTER_HEAD:
        return this.afterHeadMode();
      case IN_BODY:
        return this.inBodyMode();
      case TEXT_MODE:
        return this.textMode();
      case IN_TABLE:
        return this.inTableMode();
      case IN_TABLE_TEXT:
        return this.inTableTextMode();
      case IN_CAPTION:
        return this.inCaptionMode();
      case IN_COLUMN_GROUP:
        return this.inColumnGroupMode();
      case IN_TABLE_BODY:
        return this.inTableBodyMode();
      case IN_ROW:
        return this.inRowMode();
      case IN_CELL:
        return this.inCellMode();
      case IN_TEMPLATE:
        return this.inTemplateMode();
      case AFTER_BODY:
        return this.afterBodyMode();
      case IN_FRAMESET:
        return this.inFramesetMode();
      case AFTER_FRAMESET:
        return this.afterFramesetMode();
      case AFTER_AFTER_BODY:
        return this.afterAfterBodyMode();
      case AFTER_AFTER_FRAMESET:
        return this.afterAfterFramesetMode();
    }
  }

  /** "Reprocess the token" in `mode`. */
  private reprocessIn(mode: number): void {
    this.mode = mode;
    this.dispatch();
  }

  /**
   * For modes that process whitespace using the in-body rules and reprocess anything else in body: handles
   * the leading whitespace of a character run; true when nothing else is left.
   */
  private leadingWhitespaceInBody(): boolean {
    const data = this.tData;
    const n = leadingWhitespace(data);
    if (n === data.length) {
      this.inBodyMode();
      return true;
    }
    if (n > 0) {
      this.tData = data.slice(0, n);
      this.inBodyMode();
      this.tData = data.slice(n);
    }
    return false;
  }

  /**
   * Splits off the leading whitespace of a character run, inserting it when `insert` (ignoring it otherwise);
   * true when nothing else is left.
   */
  private splitLeadingWhitespace(insert: boolean): boolean {
    const data = this.tData;
    const n = leadingWhitespace(data);
    if (n === 0) return false;
    if (insert) this.insertCharacters(n === data.length ? data : data.slice(0, n));
    if (n === data.length) return true;
    this.tData = data.slice(n);
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.6.1 Creating and inserting nodes

  /** "Appropriate place for inserting a node", with foster parenting; sets locParent/locBefore. */
  private findInsertionLocation(overrideTarget: Element | null): void {
    const target = overrideTarget === null ? this.open.current! : overrideTarget;
    let parent: ParentNode = target;
    let before: ChildNode | null = null;
    if (this.fosterParenting && target.namespaceURI === HTML_NS) {
      const tid = overrideTarget === null ? this.open.currentId : elementTagId(target);
      if (tid === T.TABLE || tid === T.TBODY || tid === T.TFOOT || tid === T.THEAD || tid === T.TR) {
        const lastTemplate = this.open.lastIndexOfId(T.TEMPLATE);
        const lastTable = this.open.lastIndexOfId(T.TABLE);
        if (lastTemplate >= 0 && (lastTable < 0 || lastTemplate > lastTable)) {
          parent = this.open.items[lastTemplate]!;
        } else if (lastTable < 0) {
          parent = this.open.items[0]!;
        } else {
          const table = this.open.items[lastTable]!;
          if (table.parentNode !== null) {
            parent = table.parentNode;
            before = table;
          } else {
            parent = this.open.items[lastTable - 1]!;
          }
        }
      }
    }
    if (parent.nodeType === ELEMENT_NODE && (parent as Element).content !== null) {
      parent = (parent as Element).content!;
    }
    this.locParent = parent;
    this.locBefore = before;
  }

  private insertAtLocation(node: ChildNode): void {
    const parent = this.locParent;
    const before = this.locBefore;
    if (before === null) {
      appendChildNode(parent, node);
    } else {
      const kids = parent.childNodes;
      kids.splice(kids.lastIndexOf(before), 0, node);
    }
    node.parentNode = parent;
  }

  /** "Insert a character" for a run of characters. */
  private insertCharacters(data: string): void {
    this.findInsertionLocation(null);
    const parent = this.locParent;
    if (parent.nodeType === 9 /* Document */) return;
    const kids = parent.childNodes;
    const before = this.locBefore;
    if (before === null) {
      const last = kids.length > 0 ? kids[kids.length - 1]! : null;
      if (last !== null && last.nodeType === TEXT_NODE) {
        (last as Text).data += data;
        return;
      }
      const t = new Text(data);
      t.parentNode = parent;
      appendChildNode(parent, t);
    } else {
      const i = kids.lastIndexOf(before);
      const prev = i > 0 ? kids[i - 1]! : null;
      if (prev !== null && prev.nodeType === TEXT_NODE) {
        (prev as Text).data += data;
        return;
      }
      const t = new Text(data);
      t.parentNode = parent;
      kids.splice(i, 0, t);
    }
  }

  /** "Insert a comment" (and, since 2026, a processing instruction) for the current token. */
  private insertCommentOrPI(parent: ParentNode | null): void {
    const node =
      this.tk === PROCESSING_INSTRUCTION ? new ProcessingInstruction(this.tTarget, this.tData) : new Comment(this.tData);
    if (parent !== null) {
      appendChildNode(parent, node);
      node.parentNode = parent;
      return;
    }
    this.findInsertionLocation(null);
    this.insertAtLocation(node);
  }

  /** "Insert a foreign element" / "insert an HTML element" for a token, pushing it onto the stack. */
  private insertElement(localName: string, ns: string, attrs: Attr[], id: number): Element {
    this.findInsertionLocation(null);
    const el = new Element(localName, ns, attrs);
    this.insertAtLocation(el);
    if (id === T.SELECTEDCONTENT) this.noteSelectedContent(el);
    else if (id === T.OPTION && this.open.hasId(T.SELECT)) this.noteOptionInserted(el);
    this.open.push(el, id);
    return el;
  }

  private insertHtmlElement(): Element {
    return this.insertElement(this.tName, HTML_NS, this.tAttrs, this.tId);
  }

  /** Inserts an HTML element for a start tag the parser makes up ("insert an HTML element for a 'body' start tag"). */
  private insertImpliedElement(name: string, id: number): Element {
    return this.insertElement(name, HTML_NS, [], id);
  }

  /** Inserts an HTML element for the current token and pushes it onto the list of active formatting elements. */
  private insertFormattingElement(): void {
    const el = this.insertHtmlElement();
    this.open.attachEntry(this.open.top, this.afe.push(el, this.tId));
  }

  private insertVoidElement(): void {
    this.insertHtmlElement();
    this.open.pop();
    this.tAcknowledged = true;
  }

  /** "Insert a foreign element" for the current token in `ns` (attributes already adjusted). */
  private insertForeignElement(ns: string): void {
    let localName = this.tName;
    let id = T.UNKNOWN;
    if (ns === SVG_NS) {
      localName = adjustSvgTagName(localName);
      id = T.svgTagId(localName);
    } else {
      id = T.mathmlTagId(localName);
      if (id === T.MATH_ANNOTATION_XML && isHtmlEncoding(this.tAttrs)) id = T.MATH_ANNOTATION_XML_HIP;
    }
    this.insertElement(localName, ns, this.tAttrs, id);
  }

  /** 13.2.6.2 "Generic raw text element parsing algorithm" / "generic RCDATA element parsing algorithm". */
  private parseGenericText(state: number): void {
    this.insertHtmlElement();
    this.tokenizer.state = state;
    this.tokenizer.lastStartTagName = this.tName;
    this.originalMode = this.mode;
    this.mode = TEXT_MODE;
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.6.3 Closing elements that have implied end tags

  /** "Generate implied end tags", except for elements with tag id `except`. */
  private generateImpliedEndTags(except: number): void {
    const open = this.open;
    for (;;) {
      const id = open.currentId;
      if (!T.IMPLIED_END_TAG[id] || id === except) return;
      open.pop();
    }
  }

  /** "Generate all implied end tags thoroughly". */
  private generateImpliedEndTagsThoroughly(): void {
    const open = this.open;
    while (T.IMPLIED_END_TAG_THOROUGH[open.currentId]) open.pop();
  }

  /** "Close a p element" (13.2.6.4.7). */
  private closePElement(): void {
    this.generateImpliedEndTags(T.P);
    if (this.open.currentId !== T.P) this.err(E.UnexpectedEndTagP);
    this.open.popUntilId(T.P);
  }

  private closePIfInButtonScope(): void {
    if (this.open.hasInButtonScope(T.P)) this.closePElement();
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.4.1 Reset the insertion mode appropriately

  private resetInsertionMode(): void {
    const open = this.open;
    // The candidates are the elements the algorithm reacts to; the highest one on the stack decides.
    let best = -1;
    // (Above the bottom only: with nothing there, as when a fragment parse starts, there is none to look for.)
    if (open.top > 0) {
      for (const id of RESET_IDS) {
        const i = open.lastIndexOfId(id);
        if (i > best) best = i;
      }
    }
    if (best > 0) {
      const id = open.idAt(best);
      const m = this.modeForResetNode(id, false, best);
      if (m >= 0) {
        this.mode = m;
        return;
      }
    }
    // The bottom of the stack (the "last" node): the context element in the fragment case.
    const lastId = this.contextElement !== null ? this.contextId : open.idAt(0);
    const m = this.modeForResetNode(lastId, true, 0);
    this.mode = m >= 0 ? m : IN_BODY;
  }

  private modeForResetNode(id: number, last: boolean, index: number): number {
    switch (id) {
      case T.TD:
      case T.TH:
        return last ? -1 : IN_CELL;
      case T.TR:
        return IN_ROW;
      case T.TBODY:
      case T.THEAD:
      case T.TFOOT:
        return IN_TABLE_BODY;
      case T.CAPTION:
        return IN_CAPTION;
      case T.COLGROUP:
        return IN_COLUMN_GROUP;
      case T.TABLE:
        return IN_TABLE;
      case T.TEMPLATE:
        return this.templateModes.length > 0 ? this.templateModes[this.templateModes.length - 1]! : IN_TEMPLATE;
      case T.HEAD:
        return last ? -1 : IN_HEAD;
      case T.BODY:
        return IN_BODY;
      case T.FRAMESET:
        return IN_FRAMESET;
      case T.HTML:
        if (index === 0 || last) return this.headElement === null ? BEFORE_HEAD : AFTER_HEAD;
        return -1;
      default:
        return -1;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.4.3 Reconstruct the active formatting elements

  private reconstructActiveFormattingElements(): void {
    const entries = this.afe.entries;
    let last = entries.length - 1;
    while (last >= 0 && entries[last]!.removed) last--;
    if (last < 0) return;
    const lastEntry = entries[last]!;
    if (lastEntry.element === null || lastEntry.onStack) return;
    // Rewind to the earliest entry after the last marker / last element on the stack.
    let first = last;
    for (let j = last - 1; j >= 0; j--) {
      const e = entries[j]!;
      if (e.removed) continue;
      if (e.element === null || e.onStack) break;
      first = j;
    }
    // Advance and create.
    for (let j = first; j <= last; j++) {
      const entry = entries[j]!;
      if (entry.removed) continue;
      const old = entry.element!;
      const el = this.insertElement(old.localName, HTML_NS, cloneAttributes(old.attributes), entry.id);
      this.open.attachEntry(this.open.top, this.afe.replaceAt(j, entry, el));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.6.4.1 The "initial" insertion mode

  private initialMode(): void {
    switch (this.tk) {
      case CHARACTERS:
        if (this.splitLeadingWhitespace(false)) return;
        break;
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(this.document);
      case DOCTYPE: {
        const name = this.tDoctypeName;
        if (name !== 'html' || this.tPublicId !== null || (this.tSystemId !== null && this.tSystemId !== 'about:legacy-compat')) {
          this.err(E.UnknownDoctype);
        }
        const dt = new DocumentType(name === null ? '' : name, this.tPublicId ?? '', this.tSystemId ?? '');
        dt.parentNode = this.document;
        this.document.childNodes.push(dt);
        const documentMode = this.documentMode;
        if (documentMode === undefined) throw new TypeError('TreeBuilder: a document needs documentMode');
        this.document.mode = documentMode(name, this.tPublicId, this.tSystemId, this.tForceQuirks);
        this.mode = BEFORE_HTML;
        return;
      }
    }
    this.err(this.expectedDoctypeError());
    this.document.mode = 'quirks';
    this.reprocessIn(BEFORE_HTML);
  }

  private expectedDoctypeError(): number {
    switch (this.tk) {
      case START_TAG:
        return E.ExpectedDoctypeButGotStartTag;
      case END_TAG:
        return E.ExpectedDoctypeButGotEndTag;
      case EOF:
        return E.ExpectedDoctypeButGotEof;
      default:
        return E.ExpectedDoctypeButGotChars;
    }
  }

  // 13.2.6.4.2 The "before html" insertion mode
  private beforeHtmlMode(): void {
    switch (this.tk) {
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(this.document);
      case CHARACTERS:
        if (this.splitLeadingWhitespace(false)) return;
        break;
      case START_TAG:
        if (this.tId === T.HTML) {
          this.createRootElement(this.tAttrs);
          this.mode = BEFORE_HEAD;
          return;
        }
        break;
      case END_TAG:
        if (this.tId !== T.HEAD && this.tId !== T.BODY && this.tId !== T.HTML && this.tId !== T.BR) {
          return this.err(E.UnexpectedEndTagBeforeHtml);
        }
        break;
    }
    this.createRootElement([]);
    this.reprocessIn(BEFORE_HEAD);
  }

  private createRootElement(attrs: Attr[]): void {
    const html = new Element('html', HTML_NS, attrs);
    html.parentNode = this.document;
    this.document.childNodes.push(html);
    this.open.push(html, T.HTML);
  }

  // 13.2.6.4.3 The "before head" insertion mode
  private beforeHeadMode(): void {
    switch (this.tk) {
      case CHARACTERS:
        if (this.splitLeadingWhitespace(false)) return;
        break;
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        if (this.tId === T.HTML) return this.inBodyMode();
        if (this.tId === T.HEAD) {
          this.headElement = this.insertHtmlElement();
          this.mode = IN_HEAD;
          return;
        }
        break;
      case END_TAG:
        if (this.tId !== T.HEAD && this.tId !== T.BODY && this.tId !== T.HTML && this.tId !== T.BR) {
          return this.err(E.UnexpectedEndTag);
        }
        break;
    }
    this.headElement = this.insertImpliedElement('head', T.HEAD);
    this.reprocessIn(IN_HEAD);
  }

  // 13.2.6.4.4 The "in head" insertion mode
  private inHeadMode(): void {
    switch (this.tk) {
      case CHARACTERS:
        if (this.splitLeadingWhitespace(true)) return;
        break;
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        switch (this.tId) {
          case T.HTML:
            return this.inBodyMode();
          case T.BASE:
          case T.BASEFONT:
          case T.BGSOUND:
          case T.LINK:
          case T.META:
            return this.insertVoidElement();
          case T.TITLE:
            return this.parseGenericText(RCDATA_STATE);
          case T.NOSCRIPT:
            if (!this.scripting) {
              this.insertHtmlElement();
              this.mode = IN_HEAD_NOSCRIPT;
              return;
            }
            return this.parseGenericText(RAWTEXT_STATE);
          case T.NOFRAMES:
          case T.STYLE:
            return this.parseGenericText(RAWTEXT_STATE);
          case T.SCRIPT:
            return this.parseGenericText(SCRIPT_DATA_STATE);
          case T.TEMPLATE:
            this.insertHtmlElement();
            this.afe.pushMarker();
            this.framesetOk = false;
            this.mode = IN_TEMPLATE;
            this.templateModes.push(IN_TEMPLATE);
            return;
          case T.HEAD:
            return this.err(E.UnexpectedStartTag);
        }
        break;
      case END_TAG:
        switch (this.tId) {
          case T.HEAD:
            this.open.pop();
            this.mode = AFTER_HEAD;
            return;
          case T.BODY:
          case T.HTML:
          case T.BR:
            break;
          case T.TEMPLATE:
            return this.endTagTemplate();
          default:
            return this.err(E.UnexpectedEndTag);
        }
        break;
    }
    this.open.pop();
    this.reprocessIn(AFTER_HEAD);
  }

  /** In head: an end tag whose tag name is "template". */
  private endTagTemplate(): void {
    if (!this.open.hasId(T.TEMPLATE)) return this.err(E.UnexpectedEndTag);
    this.generateImpliedEndTagsThoroughly();
    if (this.open.currentId !== T.TEMPLATE) this.err(E.EndTagTooEarly);
    this.open.popUntilId(T.TEMPLATE);
    this.afe.clearToLastMarker();
    this.templateModes.pop();
    this.resetInsertionMode();
  }

  // 13.2.6.4.5 The "in head noscript" insertion mode
  private inHeadNoscriptMode(): void {
    switch (this.tk) {
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        switch (this.tId) {
          case T.HTML:
            return this.inBodyMode();
          case T.BASEFONT:
          case T.BGSOUND:
          case T.LINK:
          case T.META:
          case T.NOFRAMES:
          case T.STYLE:
            return this.inHeadMode();
          case T.HEAD:
          case T.NOSCRIPT:
            return this.err(E.UnexpectedStartTag);
        }
        break;
      case END_TAG:
        if (this.tId === T.NOSCRIPT) {
          this.open.pop();
          this.mode = IN_HEAD;
          return;
        }
        if (this.tId !== T.BR) return this.err(E.UnexpectedEndTag);
        break;
      case CHARACTERS:
        if (this.splitLeadingWhitespace(true)) return;
        break;
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
    }
    this.err(E.UnexpectedTokenInHeadNoscript);
    this.open.pop();
    this.reprocessIn(IN_HEAD);
  }

  // 13.2.6.4.6 The "after head" insertion mode
  private afterHeadMode(): void {
    switch (this.tk) {
      case CHARACTERS:
        if (this.splitLeadingWhitespace(true)) return;
        break;
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        switch (this.tId) {
          case T.HTML:
            return this.inBodyMode();
          case T.BODY:
            this.insertHtmlElement();
            this.framesetOk = false;
            this.mode = IN_BODY;
            return;
          case T.FRAMESET:
            this.insertHtmlElement();
            this.mode = IN_FRAMESET;
            return;
          case T.BASE:
          case T.BASEFONT:
          case T.BGSOUND:
          case T.LINK:
          case T.META:
          case T.NOFRAMES:
          case T.SCRIPT:
          case T.STYLE:
          case T.TEMPLATE:
          case T.TITLE: {
            this.err(E.UnexpectedStartTagOutOfMyHead);
            const head = this.headElement!;
            this.open.push(head, T.HEAD);
            this.inHeadMode();
            const i = this.open.indexOf(head);
            if (i >= 0) this.open.removeAt(i);
            return;
          }
          case T.HEAD:
            return this.err(E.UnexpectedStartTag);
        }
        break;
      case END_TAG:
        switch (this.tId) {
          case T.TEMPLATE:
            return this.inHeadMode();
          case T.BODY:
          case T.HTML:
          case T.BR:
            break;
          default:
            return this.err(E.UnexpectedEndTag);
        }
        break;
    }
    this.insertImpliedElement('body', T.BODY);
    this.reprocessIn(IN_BODY);
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.6.4.7 The "in body" insertion mode

  private inBodyMode(): void {
    switch (this.tk) {
      case CHARACTERS: {
        this.reconstructActiveFormattingElements();
        const data = this.tData;
        this.insertCharacters(data);
        if (this.framesetOk && leadingWhitespace(data) < data.length) this.framesetOk = false;
        return;
      }
      case NULL_CHARACTER:
        return this.err(E.UnexpectedNullCharacter);
      case START_TAG:
        return this.startTagInBody();
      case END_TAG:
        return this.endTagInBody();
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case EOF:
        if (this.templateModes.length > 0) return this.inTemplateMode();
        return;
    }
  }

  private startTagInBody(): void {
    const open = this.open;
    const id = this.tId;
    switch (id) {
      case T.HTML: {
        this.err(E.UnexpectedStartTag);
        if (open.hasId(T.TEMPLATE)) return;
        this.addMissingAttributes(open.items[0]!);
        return;
      }
      case T.BASE:
      case T.BASEFONT:
      case T.BGSOUND:
      case T.LINK:
      case T.META:
      case T.NOFRAMES:
      case T.SCRIPT:
      case T.STYLE:
      case T.TEMPLATE:
      case T.TITLE:
        return this.inHeadMode();
      case T.BODY: {
        this.err(E.UnexpectedStartTag);
        if (open.top === 0 || open.idAt(1) !== T.BODY || open.hasId(T.TEMPLATE)) return;
        this.framesetOk = false;
        this.addMissingAttributes(open.items[1]!);
        return;
      }
      case T.FRAMESET: {
        this.err(E.UnexpectedStartTag);
        if (open.top === 0 || open.idAt(1) !== T.BODY || !this.framesetOk) return;
        const body = open.items[1]!;
        if (body.parentNode !== null) body.remove();
        treeMoves++;
        while (open.top > 0) open.pop();
        this.insertHtmlElement();
        this.mode = IN_FRAMESET;
        return;
      }
      case T.ADDRESS:
      case T.ARTICLE:
      case T.ASIDE:
      case T.BLOCKQUOTE:
      case T.CENTER:
      case T.DETAILS:
      case T.DIALOG:
      case T.DIR:
      case T.DIV:
      case T.DL:
      case T.FIELDSET:
      case T.FIGCAPTION:
      case T.FIGURE:
      case T.FOOTER:
      case T.HEADER:
      case T.HGROUP:
      case T.MAIN:
      case T.MENU:
      case T.NAV:
      case T.OL:
      case T.P:
      case T.SEARCH:
      case T.SECTION:
      case T.SUMMARY:
      case T.UL:
        this.closePIfInButtonScope();
        this.insertHtmlElement();
        return;
      case T.H1:
      case T.H2:
      case T.H3:
      case T.H4:
      case T.H5:
      case T.H6:
        this.closePIfInButtonScope();
        if (T.isHeading(open.currentId)) {
          this.err(E.UnexpectedStartTag);
          open.pop();
        }
        this.insertHtmlElement();
        return;
      case T.PRE:
      case T.LISTING:
        this.closePIfInButtonScope();
        this.insertHtmlElement();
        this.skipNextNewline = true;
        this.framesetOk = false;
        return;
      case T.FORM: {
        const inTemplate = open.hasId(T.TEMPLATE);
        if (this.formElement !== null && !inTemplate) return this.err(E.UnexpectedStartTag);
        this.closePIfInButtonScope();
        const form = this.insertHtmlElement();
        if (!inTemplate) this.formElement = form;
        return;
      }
      case T.LI:
      case T.DD:
      case T.DT: {
        this.framesetOk = false;
        for (let i = open.top; i >= 0; i--) {
          const nid = open.idAt(i);
          if (id === T.LI ? nid === T.LI : nid === T.DD || nid === T.DT) {
            this.generateImpliedEndTags(nid);
            if (open.currentId !== nid) this.err(E.UnexpectedStartTag);
            open.popTo(i);
            break;
          }
          if (T.SPECIAL[nid] && nid !== T.ADDRESS && nid !== T.DIV && nid !== T.P) break;
        }
        this.closePIfInButtonScope();
        this.insertHtmlElement();
        return;
      }
      case T.PLAINTEXT:
        this.closePIfInButtonScope();
        this.insertHtmlElement();
        this.tokenizer.state = PLAINTEXT_STATE;
        return;
      case T.BUTTON:
        if (open.hasInScope(T.BUTTON)) {
          this.err(E.UnexpectedStartTag);
          this.generateImpliedEndTags(-1);
          open.popUntilId(T.BUTTON);
        }
        this.reconstructActiveFormattingElements();
        this.insertHtmlElement();
        this.framesetOk = false;
        return;
      case T.A: {
        const entry = this.afe.lastAfterMarkerWithId(T.A);
        if (entry !== null) {
          this.err(E.UnexpectedStartTagImpliesEndTag);
          if (!this.adoptionAgency(T.A, 'a')) this.anyOtherEndTagInBody();
          // `entry` is the element's only entry: remove it unless the adoption agency did.
          this.afe.remove(entry);
          if (entry.onStack) open.removeAt(open.indexOf(entry.element!));
        }
        this.reconstructActiveFormattingElements();
        this.insertFormattingElement();
        return;
      }
      case T.B:
      case T.BIG:
      case T.CODE:
      case T.EM:
      case T.FONT:
      case T.I:
      case T.S:
      case T.SMALL:
      case T.STRIKE:
      case T.STRONG:
      case T.TT:
      case T.U:
        this.reconstructActiveFormattingElements();
        this.insertFormattingElement();
        return;
      case T.NOBR:
        this.reconstructActiveFormattingElements();
        if (open.hasInScope(T.NOBR)) {
          this.err(E.UnexpectedStartTagImpliesEndTag);
          if (!this.adoptionAgency(T.NOBR, 'nobr')) this.anyOtherEndTagInBody();
          this.reconstructActiveFormattingElements();
        }
        this.insertFormattingElement();
        return;
      case T.APPLET:
      case T.MARQUEE:
      case T.OBJECT:
        this.reconstructActiveFormattingElements();
        this.insertHtmlElement();
        this.afe.pushMarker();
        this.framesetOk = false;
        return;
      case T.TABLE:
        if (this.document.mode !== 'quirks') this.closePIfInButtonScope();
        this.insertHtmlElement();
        this.framesetOk = false;
        this.mode = IN_TABLE;
        return;
      case T.AREA:
      case T.BR:
      case T.EMBED:
      case T.IMG:
      case T.KEYGEN:
      case T.WBR:
        this.reconstructActiveFormattingElements();
        this.insertVoidElement();
        this.framesetOk = false;
        return;
      case T.INPUT: {
        const sel = open.lastIndexOfId(T.SELECT);
        if (sel >= 0 && open.hasInScope(T.SELECT)) {
          this.err(E.UnexpectedInputInSelect);
          open.popTo(sel);
        }
        this.reconstructActiveFormattingElements();
        this.insertVoidElement();
        const type = getAttr(this.tAttrs, 'type');
        if (type === null || asciiLowercase(type) !== 'hidden') this.framesetOk = false;
        return;
      }
      case T.PARAM:
      case T.SOURCE:
      case T.TRACK:
        this.insertVoidElement();
        return;
      case T.HR:
        this.closePIfInButtonScope();
        if (open.hasInScope(T.SELECT)) {
          this.generateImpliedEndTags(-1);
          if (open.hasInScope(T.OPTION) || open.hasInScope(T.OPTGROUP)) this.err(E.UnexpectedStartTag);
        }
        this.insertVoidElement();
        this.framesetOk = false;
        return;
      case T.IMAGE:
        this.err(E.UnexpectedStartTagTreatedAs);
        this.tName = 'img';
        this.tId = T.IMG;
        return this.dispatch();
      case T.TEXTAREA:
        this.insertHtmlElement();
        this.skipNextNewline = true;
        this.tokenizer.state = RCDATA_STATE;
        this.tokenizer.lastStartTagName = 'textarea';
        this.originalMode = this.mode;
        this.framesetOk = false;
        this.mode = TEXT_MODE;
        return;
      case T.XMP:
        this.closePIfInButtonScope();
        this.reconstructActiveFormattingElements();
        this.framesetOk = false;
        return this.parseGenericText(RAWTEXT_STATE);
      case T.IFRAME:
        this.framesetOk = false;
        return this.parseGenericText(RAWTEXT_STATE);
      case T.NOEMBED:
        return this.parseGenericText(RAWTEXT_STATE);
      case T.NOSCRIPT:
        if (this.scripting) return this.parseGenericText(RAWTEXT_STATE);
        break;
      case T.SELECT: {
        if (this.contextId === T.SELECT && this.isFragment) return this.err(E.UnexpectedSelectInSelect);
        const sel = open.lastIndexOfId(T.SELECT);
        if (sel >= 0 && open.hasInScope(T.SELECT)) {
          this.err(E.UnexpectedSelectInSelect);
          open.popTo(sel);
          return;
        }
        this.reconstructActiveFormattingElements();
        this.insertHtmlElement();
        this.framesetOk = false;
        return;
      }
      case T.OPTION:
        if (open.hasInScope(T.SELECT)) {
          this.generateImpliedEndTags(T.OPTGROUP);
          if (open.hasInScope(T.OPTION)) this.err(E.UnexpectedStartTag);
        } else if (open.currentId === T.OPTION) {
          open.pop();
        }
        this.reconstructActiveFormattingElements();
        this.insertHtmlElement();
        return;
      case T.OPTGROUP:
        if (open.hasInScope(T.SELECT)) {
          this.generateImpliedEndTags(-1);
          if (open.hasInScope(T.OPTION) || open.hasInScope(T.OPTGROUP)) this.err(E.UnexpectedStartTag);
        } else if (open.currentId === T.OPTION) {
          open.pop();
        }
        this.reconstructActiveFormattingElements();
        this.insertHtmlElement();
        return;
      case T.RB:
      case T.RTC:
        if (open.hasInScope(T.RUBY)) {
          this.generateImpliedEndTags(-1);
          if (open.currentId !== T.RUBY) this.err(E.UnexpectedStartTag);
        }
        this.insertHtmlElement();
        return;
      case T.RP:
      case T.RT:
        if (open.hasInScope(T.RUBY)) {
          this.generateImpliedEndTags(T.RTC);
          if (open.currentId !== T.RUBY && open.currentId !== T.RTC) this.err(E.UnexpectedStartTag);
        }
        this.insertHtmlElement();
        return;
      case T.MATH:
        this.reconstructActiveFormattingElements();
        adjustMathMLAttributes(this.tAttrs);
        adjustForeignAttributes(this.tAttrs);
        this.insertForeignElement(MATHML_NS);
        if (this.tSelfClosing) {
          this.open.pop();
          this.tAcknowledged = true;
        }
        return;
      case T.SVG:
        this.reconstructActiveFormattingElements();
        adjustSvgAttributes(this.tAttrs);
        adjustForeignAttributes(this.tAttrs);
        this.insertForeignElement(SVG_NS);
        if (this.tSelfClosing) {
          this.open.pop();
          this.tAcknowledged = true;
        }
        return;
      case T.CAPTION:
      case T.COL:
      case T.COLGROUP:
      case T.FRAME:
      case T.HEAD:
      case T.TBODY:
      case T.TD:
      case T.TFOOT:
      case T.TH:
      case T.THEAD:
      case T.TR:
        return this.err(E.UnexpectedStartTagIgnored);
    }
    // Any other start tag.
    this.reconstructActiveFormattingElements();
    this.insertHtmlElement();
  }

  private addMissingAttributes(el: Element): void {
    const attrs = this.tAttrs;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      if (el.getAttributeNodeNS(null, a.localName) === null) el.attributes.push(a);
    }
  }

  private endTagInBody(): void {
    const open = this.open;
    const id = this.tId;
    switch (id) {
      case T.TEMPLATE:
        return this.endTagTemplate();
      case T.BODY:
      case T.HTML:
        if (!open.hasInScope(T.BODY)) return this.err(E.UnexpectedEndTag);
        this.mode = AFTER_BODY;
        if (id === T.HTML) this.dispatch();
        return;
      case T.ADDRESS:
      case T.ARTICLE:
      case T.ASIDE:
      case T.BLOCKQUOTE:
      case T.BUTTON:
      case T.CENTER:
      case T.DETAILS:
      case T.DIALOG:
      case T.DIR:
      case T.DIV:
      case T.DL:
      case T.FIELDSET:
      case T.FIGCAPTION:
      case T.FIGURE:
      case T.FOOTER:
      case T.HEADER:
      case T.HGROUP:
      case T.LISTING:
      case T.MAIN:
      case T.MENU:
      case T.NAV:
      case T.OL:
      case T.PRE:
      case T.SEARCH:
      case T.SECTION:
      case T.SELECT:
      case T.SUMMARY:
      case T.UL:
        if (!open.hasInScope(id)) return this.err(E.UnexpectedEndTag);
        this.generateImpliedEndTags(-1);
        if (open.currentId !== id) this.err(E.EndTagTooEarly);
        open.popUntilId(id);
        return;
      case T.FORM: {
        if (!open.hasId(T.TEMPLATE)) {
          const node = this.formElement;
          this.formElement = null;
          const i = node === null ? -1 : open.indexOf(node);
          if (i < 0 || !open.isIndexInScope(i)) return this.err(E.UnexpectedEndTag);
          this.generateImpliedEndTags(-1);
          if (open.current !== node) this.err(E.EndTagTooEarly);
          open.removeAt(open.indexOf(node!));
        } else {
          if (!open.hasInScope(T.FORM)) return this.err(E.UnexpectedEndTag);
          this.generateImpliedEndTags(-1);
          if (open.currentId !== T.FORM) this.err(E.EndTagTooEarly);
          open.popUntilId(T.FORM);
        }
        return;
      }
      case T.P:
        if (!open.hasInButtonScope(T.P)) {
          this.err(E.UnexpectedEndTag);
          this.insertImpliedElement('p', T.P);
        }
        this.closePElement();
        return;
      case T.LI:
        if (!open.hasInListItemScope(T.LI)) return this.err(E.UnexpectedEndTag);
        this.generateImpliedEndTags(T.LI);
        if (open.currentId !== T.LI) this.err(E.EndTagTooEarly);
        open.popUntilId(T.LI);
        return;
      case T.DD:
      case T.DT:
        if (!open.hasInScope(id)) return this.err(E.UnexpectedEndTag);
        this.generateImpliedEndTags(id);
        if (open.currentId !== id) this.err(E.EndTagTooEarly);
        open.popUntilId(id);
        return;
      case T.H1:
      case T.H2:
      case T.H3:
      case T.H4:
      case T.H5:
      case T.H6:
        if (!open.hasHeadingInScope()) return this.err(E.UnexpectedEndTag);
        this.generateImpliedEndTags(-1);
        if (open.currentId !== id) this.err(E.EndTagTooEarly);
        open.popUntilHeading();
        return;
      case T.A:
      case T.B:
      case T.BIG:
      case T.CODE:
      case T.EM:
      case T.FONT:
      case T.I:
      case T.NOBR:
      case T.S:
      case T.SMALL:
      case T.STRIKE:
      case T.STRONG:
      case T.TT:
      case T.U:
        if (this.adoptionAgency(id, this.tName)) return;
        break;
      case T.APPLET:
      case T.MARQUEE:
      case T.OBJECT:
        if (!open.hasInScope(id)) return this.err(E.UnexpectedEndTag);
        this.generateImpliedEndTags(-1);
        if (open.currentId !== id) this.err(E.EndTagTooEarly);
        open.popUntilId(id);
        this.afe.clearToLastMarker();
        return;
      case T.BR:
        this.err(E.UnexpectedEndTagTreatedAs);
        this.tk = START_TAG;
        this.tAttrs = [];
        this.tSelfClosing = false;
        this.reconstructActiveFormattingElements();
        this.insertVoidElement();
        this.framesetOk = false;
        return;
    }
    this.anyOtherEndTagInBody();
  }

  /**
   * In body: "any other end tag". The walk down the stack stops at the first HTML element with the token's
   * tag name or at the first special element, whichever is higher: both are O(1) lookups here.
   */
  private anyOtherEndTagInBody(): void {
    const open = this.open;
    const id = this.tId;
    const i = open.lastIndexOfId(id);
    if (i < 0 || i < open.lastSpecialIndex()) return this.err(E.UnexpectedEndTag);
    this.generateImpliedEndTags(id);
    if (i !== open.top) this.err(E.EndTagTooEarly);
    open.popTo(i);
  }

  // 13.2.6.4.7 (in body) The adoption agency algorithm. Returns false for "act as any other end tag".
  private adoptionAgency(id: number, subject: string): boolean {
    const open = this.open;
    const afe = this.afe;
    // Step 2.
    const cur = open.current!;
    if (cur.namespaceURI === HTML_NS && cur.localName === subject && open.liveEntryAt(open.top) === null) {
      open.pop();
      return true;
    }
    for (let outer = 0; outer < 8; outer++) {
      const feEntry = afe.lastAfterMarkerWithId(id);
      if (feEntry === null) return false;
      const fe = feEntry.element!;
      let feIndex = feEntry.onStack ? open.indexOf(fe) : -1;
      if (feIndex < 0) {
        this.err(E.AdoptionAgency1_2);
        afe.remove(feEntry);
        return true;
      }
      if (!open.isIndexInScope(feIndex)) {
        this.err(E.AdoptionAgency4_4);
        return true;
      }
      if (feIndex !== open.top) this.err(E.AdoptionAgency1_3);
      // Furthest block: the lowest-in-stack special element above the formatting element.
      let fbIndex = -1;
      for (let i = feIndex + 1; i <= open.top; i++) {
        if (T.SPECIAL[open.idAt(i)]) {
          fbIndex = i;
          break;
        }
      }
      if (fbIndex < 0) {
        open.popTo(feIndex);
        afe.remove(feEntry);
        return true;
      }
      const furthestBlock = open.items[fbIndex]!;
      const commonAncestor = open.items[feIndex - 1]!;
      // The bookmark: null means "where the formatting element's entry is".
      let bookmarkAfter: FormattingEntry | null = null;
      let node: Element = furthestBlock;
      let lastNode: Element = furthestBlock;
      let nodeIndex = fbIndex;
      for (let inner = 1; ; inner++) {
        nodeIndex--;
        node = open.items[nodeIndex]!;
        if (node === fe) break;
        let nodeEntry = open.liveEntryAt(nodeIndex);
        if (inner > 3 && nodeEntry !== null) {
          afe.remove(nodeEntry);
          nodeEntry = null;
        }
        if (nodeEntry === null) {
          open.removeAt(nodeIndex);
          continue;
        }
        const el = new Element(node.localName, HTML_NS, cloneAttributes(node.attributes));
        const newEntry = afe.replace(nodeEntry, el);
        open.replaceAt(nodeIndex, el, nodeEntry.id);
        open.attachEntry(nodeIndex, newEntry);
        node = el;
        if (lastNode === furthestBlock) bookmarkAfter = newEntry;
        if (lastNode.parentNode !== null) lastNode.remove();
        node.childNodes.push(lastNode);
        lastNode.parentNode = node;
        lastNode = node;
      }
      // Step 14: insert lastNode at the appropriate place with the common ancestor as override target.
      treeMoves++;
      if (lastNode.parentNode !== null) lastNode.remove();
      this.findInsertionLocation(commonAncestor);
      this.insertAtLocation(lastNode);
      // Steps 15-17.
      const newEl = new Element(fe.localName, HTML_NS, cloneAttributes(fe.attributes));
      const kids = furthestBlock.childNodes;
      for (let i = 0; i < kids.length; i++) kids[i]!.parentNode = newEl;
      newEl.childNodes = kids;
      furthestBlock.childNodes = [newEl];
      newEl.parentNode = furthestBlock;
      // Steps 14 and 17 moved the furthest block's subtree (removed, then inserted again).
      this.selectedContentMoved(furthestBlock);
      // Step 18.
      let newElEntry: FormattingEntry;
      if (bookmarkAfter === null) {
        newElEntry = afe.replace(feEntry, newEl);
      } else {
        afe.remove(feEntry);
        newElEntry = afe.insertAt(afe.indexOfEntry(bookmarkAfter) + 1, newEl, id);
      }
      // Step 19.
      feIndex = open.indexOf(fe);
      open.removeAt(feIndex);
      const newElIndex = open.indexOf(furthestBlock) + 1;
      open.insertAt(newElIndex, newEl, id);
      open.attachEntry(newElIndex, newElEntry);
    }
    return true;
  }

  // 13.2.6.4.8 The "text" insertion mode
  private textMode(): void {
    switch (this.tk) {
      case CHARACTERS:
      case NULL_CHARACTER:
        return this.insertCharacters(this.tData);
      case EOF:
        this.err(E.EofInText);
        this.open.pop();
        return this.reprocessIn(this.originalMode);
      case END_TAG:
        this.open.pop();
        this.mode = this.originalMode;
        return;
    }
  }

  // 13.2.6.4.9 The "in table" insertion mode
  private inTableMode(): void {
    const open = this.open;
    switch (this.tk) {
      case CHARACTERS:
      case NULL_CHARACTER: {
        const c = open.currentId;
        if (c === T.TABLE || c === T.TBODY || c === T.TEMPLATE || c === T.TFOOT || c === T.THEAD || c === T.TR) {
          this.pendingTableText = '';
          this.pendingTableTextDirty = false;
          this.originalMode = this.mode;
          return this.reprocessIn(IN_TABLE_TEXT);
        }
        break;
      }
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        switch (this.tId) {
          case T.CAPTION:
            open.clearBackTo(T.TABLE, T.TABLE, T.TABLE);
            this.afe.pushMarker();
            this.insertHtmlElement();
            this.mode = IN_CAPTION;
            return;
          case T.COLGROUP:
            open.clearBackTo(T.TABLE, T.TABLE, T.TABLE);
            this.insertHtmlElement();
            this.mode = IN_COLUMN_GROUP;
            return;
          case T.COL:
            open.clearBackTo(T.TABLE, T.TABLE, T.TABLE);
            this.insertImpliedElement('colgroup', T.COLGROUP);
            return this.reprocessIn(IN_COLUMN_GROUP);
          case T.TBODY:
          case T.TFOOT:
          case T.THEAD:
            open.clearBackTo(T.TABLE, T.TABLE, T.TABLE);
            this.insertHtmlElement();
            this.mode = IN_TABLE_BODY;
            return;
          case T.TD:
          case T.TH:
          case T.TR:
            open.clearBackTo(T.TABLE, T.TABLE, T.TABLE);
            this.insertImpliedElement('tbody', T.TBODY);
            return this.reprocessIn(IN_TABLE_BODY);
          case T.TABLE:
            this.err(E.UnexpectedStartTagImpliesEndTag);
            if (!open.hasInTableScope(T.TABLE)) return;
            open.popUntilId(T.TABLE);
            this.resetInsertionMode();
            return this.dispatch();
          case T.STYLE:
          case T.SCRIPT:
          case T.TEMPLATE:
            return this.inHeadMode();
          case T.INPUT: {
            const type = getAttr(this.tAttrs, 'type');
            if (type === null || asciiLowercase(type) !== 'hidden') break;
            this.err(E.UnexpectedHiddenInputInTable);
            this.insertVoidElement();
            return;
          }
          case T.FORM:
            this.err(E.UnexpectedFormInTable);
            if (open.hasId(T.TEMPLATE) || this.formElement !== null) return;
            this.formElement = this.insertHtmlElement();
            open.pop();
            return;
        }
        break;
      case END_TAG:
        switch (this.tId) {
          case T.TABLE:
            if (!open.hasInTableScope(T.TABLE)) return this.err(E.UnexpectedEndTag);
            open.popUntilId(T.TABLE);
            this.resetInsertionMode();
            return;
          case T.BODY:
          case T.CAPTION:
          case T.COL:
          case T.COLGROUP:
          case T.HTML:
          case T.TBODY:
          case T.TD:
          case T.TFOOT:
          case T.TH:
          case T.THEAD:
          case T.TR:
            return this.err(E.UnexpectedEndTag);
          case T.TEMPLATE:
            return this.inHeadMode();
        }
        break;
      case EOF:
        return this.inBodyMode();
    }
    // Anything else: process using the in-body rules with foster parenting enabled.
    this.err(E.UnexpectedTokenInTable);
    this.fosterParenting = true;
    this.inBodyMode();
    this.fosterParenting = false;
  }

  // 13.2.6.4.10 The "in table text" insertion mode
  private inTableTextMode(): void {
    if (this.tk === NULL_CHARACTER) return this.err(E.UnexpectedNullCharacter);
    if (this.tk === CHARACTERS) {
      this.pendingTableText += this.tData;
      if (!this.pendingTableTextDirty && leadingWhitespace(this.tData) < this.tData.length) this.pendingTableTextDirty = true;
      return;
    }
    const text = this.pendingTableText;
    this.pendingTableText = '';
    if (text.length > 0) {
      // Save the current token; the pending characters are processed first.
      const tk = this.tk;
      const data = this.tData;
      this.tk = CHARACTERS;
      this.tData = text;
      if (this.pendingTableTextDirty) {
        this.err(E.UnexpectedCharacterInTable);
        this.fosterParenting = true;
        this.inBodyMode();
        this.fosterParenting = false;
      } else {
        this.insertCharacters(text);
      }
      this.tk = tk;
      this.tData = data;
    }
    this.pendingTableTextDirty = false;
    this.reprocessIn(this.originalMode);
  }

  // 13.2.6.4.11 The "in caption" insertion mode
  private inCaptionMode(): void {
    const open = this.open;
    const tk = this.tk;
    const id = this.tId;
    if (
      (tk === END_TAG && (id === T.CAPTION || id === T.TABLE)) ||
      (tk === START_TAG &&
        (id === T.CAPTION || id === T.COL || id === T.COLGROUP || id === T.TBODY || id === T.TD ||
          id === T.TFOOT || id === T.TH || id === T.THEAD || id === T.TR))
    ) {
      if (!open.hasInTableScope(T.CAPTION)) return this.err(E.UnexpectedEndTag);
      this.generateImpliedEndTags(-1);
      if (open.currentId !== T.CAPTION) this.err(E.EndTagTooEarly);
      open.popUntilId(T.CAPTION);
      this.afe.clearToLastMarker();
      this.mode = IN_TABLE;
      if (!(tk === END_TAG && id === T.CAPTION)) this.dispatch();
      return;
    }
    if (
      tk === END_TAG &&
      (id === T.BODY || id === T.COL || id === T.COLGROUP || id === T.HTML || id === T.TBODY || id === T.TD ||
        id === T.TFOOT || id === T.TH || id === T.THEAD || id === T.TR)
    ) {
      return this.err(E.UnexpectedEndTag);
    }
    this.inBodyMode();
  }

  // 13.2.6.4.12 The "in column group" insertion mode
  private inColumnGroupMode(): void {
    const open = this.open;
    switch (this.tk) {
      case CHARACTERS: {
        if (this.splitLeadingWhitespace(true)) return;
        if (open.currentId === T.COLGROUP) break;
        // Each character is its own token: with no colgroup to pop (template, fragment), every non-whitespace
        // character is ignored and every whitespace character after it still inserted.
        this.err(E.UnexpectedTokenInColumnGroup);
        const ws = onlyWhitespace(this.tData);
        if (ws.length > 0) this.insertCharacters(ws);
        return;
      }
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        if (this.tId === T.HTML) return this.inBodyMode();
        if (this.tId === T.COL) return this.insertVoidElement();
        if (this.tId === T.TEMPLATE) return this.inHeadMode();
        break;
      case END_TAG:
        if (this.tId === T.COLGROUP) {
          if (open.currentId !== T.COLGROUP) return this.err(E.UnexpectedEndTag);
          open.pop();
          this.mode = IN_TABLE;
          return;
        }
        if (this.tId === T.COL) return this.err(E.UnexpectedEndTag);
        if (this.tId === T.TEMPLATE) return this.inHeadMode();
        break;
      case EOF:
        return this.inBodyMode();
    }
    if (open.currentId !== T.COLGROUP) return this.err(E.UnexpectedTokenInColumnGroup);
    open.pop();
    this.reprocessIn(IN_TABLE);
  }

  // 13.2.6.4.13 The "in table body" insertion mode
  private inTableBodyMode(): void {
    const open = this.open;
    const id = this.tId;
    if (this.tk === START_TAG) {
      switch (id) {
        case T.TR:
          open.clearBackTo(T.TBODY, T.TFOOT, T.THEAD);
          this.insertHtmlElement();
          this.mode = IN_ROW;
          return;
        case T.TH:
        case T.TD:
          this.err(E.UnexpectedCellInTableBody);
          open.clearBackTo(T.TBODY, T.TFOOT, T.THEAD);
          this.insertImpliedElement('tr', T.TR);
          return this.reprocessIn(IN_ROW);
        case T.CAPTION:
        case T.COL:
        case T.COLGROUP:
        case T.TBODY:
        case T.TFOOT:
        case T.THEAD:
          return this.closeTableBodyAndReprocess();
      }
    } else if (this.tk === END_TAG) {
      switch (id) {
        case T.TBODY:
        case T.TFOOT:
        case T.THEAD:
          if (!open.hasInTableScope(id)) return this.err(E.UnexpectedEndTag);
          open.clearBackTo(T.TBODY, T.TFOOT, T.THEAD);
          open.pop();
          this.mode = IN_TABLE;
          return;
        case T.TABLE:
          return this.closeTableBodyAndReprocess();
        case T.BODY:
        case T.CAPTION:
        case T.COL:
        case T.COLGROUP:
        case T.HTML:
        case T.TD:
        case T.TH:
        case T.TR:
          return this.err(E.UnexpectedEndTag);
      }
    }
    this.inTableMode();
  }

  private closeTableBodyAndReprocess(): void {
    const open = this.open;
    if (!open.hasInTableScope(T.TBODY) && !open.hasInTableScope(T.THEAD) && !open.hasInTableScope(T.TFOOT)) {
      return this.err(E.UnexpectedToken);
    }
    open.clearBackTo(T.TBODY, T.TFOOT, T.THEAD);
    open.pop();
    this.reprocessIn(IN_TABLE);
  }

  // 13.2.6.4.14 The "in row" insertion mode
  private inRowMode(): void {
    const open = this.open;
    const id = this.tId;
    if (this.tk === START_TAG) {
      switch (id) {
        case T.TH:
        case T.TD:
          open.clearBackTo(T.TR, T.TR, T.TR);
          this.insertHtmlElement();
          this.mode = IN_CELL;
          this.afe.pushMarker();
          return;
        case T.CAPTION:
        case T.COL:
        case T.COLGROUP:
        case T.TBODY:
        case T.TFOOT:
        case T.THEAD:
        case T.TR:
          if (!open.hasInTableScope(T.TR)) return this.err(E.UnexpectedStartTag);
          open.clearBackTo(T.TR, T.TR, T.TR);
          open.pop();
          return this.reprocessIn(IN_TABLE_BODY);
      }
    } else if (this.tk === END_TAG) {
      switch (id) {
        case T.TR:
          if (!open.hasInTableScope(T.TR)) return this.err(E.UnexpectedEndTag);
          open.clearBackTo(T.TR, T.TR, T.TR);
          open.pop();
          this.mode = IN_TABLE_BODY;
          return;
        case T.TABLE:
          if (!open.hasInTableScope(T.TR)) return this.err(E.UnexpectedEndTag);
          open.clearBackTo(T.TR, T.TR, T.TR);
          open.pop();
          return this.reprocessIn(IN_TABLE_BODY);
        case T.TBODY:
        case T.TFOOT:
        case T.THEAD:
          if (!open.hasInTableScope(id)) return this.err(E.UnexpectedEndTag);
          if (!open.hasInTableScope(T.TR)) return;
          open.clearBackTo(T.TR, T.TR, T.TR);
          open.pop();
          return this.reprocessIn(IN_TABLE_BODY);
        case T.BODY:
        case T.CAPTION:
        case T.COL:
        case T.COLGROUP:
        case T.HTML:
        case T.TD:
        case T.TH:
          return this.err(E.UnexpectedEndTag);
      }
    }
    this.inTableMode();
  }

  // 13.2.6.4.15 The "in cell" insertion mode
  private inCellMode(): void {
    const open = this.open;
    const id = this.tId;
    if (this.tk === END_TAG) {
      switch (id) {
        case T.TD:
        case T.TH:
          if (!open.hasInTableScope(id)) return this.err(E.UnexpectedEndTag);
          this.generateImpliedEndTags(-1);
          if (open.currentId !== id) this.err(E.EndTagTooEarly);
          open.popUntilId(id);
          this.afe.clearToLastMarker();
          this.mode = IN_ROW;
          return;
        case T.BODY:
        case T.CAPTION:
        case T.COL:
        case T.COLGROUP:
        case T.HTML:
          return this.err(E.UnexpectedEndTag);
        case T.TABLE:
        case T.TBODY:
        case T.TFOOT:
        case T.THEAD:
        case T.TR:
          if (!open.hasInTableScope(id)) return this.err(E.UnexpectedEndTag);
          this.closeTheCell();
          return this.dispatch();
      }
    } else if (this.tk === START_TAG) {
      switch (id) {
        case T.CAPTION:
        case T.COL:
        case T.COLGROUP:
        case T.TBODY:
        case T.TD:
        case T.TFOOT:
        case T.TH:
        case T.THEAD:
        case T.TR:
          if (!open.hasInTableScope(T.TD) && !open.hasInTableScope(T.TH)) return this.err(E.UnexpectedStartTag);
          this.closeTheCell();
          return this.dispatch();
      }
    }
    this.inBodyMode();
  }

  /** "Close the cell" (13.2.6.4.15). */
  private closeTheCell(): void {
    const open = this.open;
    this.generateImpliedEndTags(-1);
    if (open.currentId !== T.TD && open.currentId !== T.TH) this.err(E.EndTagTooEarly);
    for (;;) {
      const id = open.currentId;
      open.pop();
      if (id === T.TD || id === T.TH || open.top < 0) break;
    }
    this.afe.clearToLastMarker();
    this.mode = IN_ROW;
  }

  // 13.2.6.4.18 The "in template" insertion mode
  private inTemplateMode(): void {
    switch (this.tk) {
      case CHARACTERS:
      case NULL_CHARACTER:
      case COMMENT:
      case PROCESSING_INSTRUCTION:
      case DOCTYPE:
        return this.inBodyMode();
      case START_TAG:
        switch (this.tId) {
          case T.BASE:
          case T.BASEFONT:
          case T.BGSOUND:
          case T.LINK:
          case T.META:
          case T.NOFRAMES:
          case T.SCRIPT:
          case T.STYLE:
          case T.TEMPLATE:
          case T.TITLE:
            return this.inHeadMode();
          case T.CAPTION:
          case T.COLGROUP:
          case T.TBODY:
          case T.TFOOT:
          case T.THEAD:
            return this.switchTemplateMode(IN_TABLE);
          case T.COL:
            return this.switchTemplateMode(IN_COLUMN_GROUP);
          case T.TR:
            return this.switchTemplateMode(IN_TABLE_BODY);
          case T.TD:
          case T.TH:
            return this.switchTemplateMode(IN_ROW);
          default:
            return this.switchTemplateMode(IN_BODY);
        }
      case END_TAG:
        if (this.tId === T.TEMPLATE) return this.inHeadMode();
        return this.err(E.UnexpectedEndTag);
      case EOF:
        if (!this.open.hasId(T.TEMPLATE)) return;
        this.err(E.EofInTemplate);
        this.open.popUntilId(T.TEMPLATE);
        this.afe.clearToLastMarker();
        this.templateModes.pop();
        this.resetInsertionMode();
        this.reprocessEof = true;
        return;
    }
  }

  private switchTemplateMode(mode: number): void {
    this.templateModes.pop();
    this.templateModes.push(mode);
    this.reprocessIn(mode);
  }

  // 13.2.6.4.19 The "after body" insertion mode
  private afterBodyMode(): void {
    switch (this.tk) {
      case CHARACTERS:
        if (this.leadingWhitespaceInBody()) return;
        break;
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(this.open.items[0]!);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        if (this.tId === T.HTML) return this.inBodyMode();
        break;
      case END_TAG:
        if (this.tId === T.HTML) {
          if (this.isFragment) return this.err(E.UnexpectedEndTag);
          this.mode = AFTER_AFTER_BODY;
          return;
        }
        break;
      case EOF:
        return;
    }
    this.err(E.UnexpectedTokenAfterBody);
    this.reprocessIn(IN_BODY);
  }

  // 13.2.6.4.20 The "in frameset" insertion mode
  private inFramesetMode(): void {
    const open = this.open;
    switch (this.tk) {
      case CHARACTERS: {
        const ws = onlyWhitespace(this.tData);
        if (ws.length !== this.tData.length) this.err(E.UnexpectedCharInFrameset);
        if (ws.length > 0) this.insertCharacters(ws);
        return;
      }
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        switch (this.tId) {
          case T.HTML:
            return this.inBodyMode();
          case T.FRAMESET:
            this.insertHtmlElement();
            return;
          case T.FRAME:
            return this.insertVoidElement();
          case T.NOFRAMES:
            return this.inHeadMode();
        }
        break;
      case END_TAG:
        if (this.tId === T.FRAMESET) {
          if (open.top === 0) return this.err(E.UnexpectedEndTag);
          open.pop();
          if (!this.isFragment && open.currentId !== T.FRAMESET) this.mode = AFTER_FRAMESET;
          return;
        }
        break;
      case EOF:
        return;
    }
    this.err(E.UnexpectedTokenInFrameset);
  }

  // 13.2.6.4.21 The "after frameset" insertion mode
  private afterFramesetMode(): void {
    switch (this.tk) {
      case CHARACTERS: {
        const ws = onlyWhitespace(this.tData);
        if (ws.length !== this.tData.length) this.err(E.UnexpectedCharAfterFrameset);
        if (ws.length > 0) this.insertCharacters(ws);
        return;
      }
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG:
        if (this.tId === T.HTML) return this.inBodyMode();
        if (this.tId === T.NOFRAMES) return this.inHeadMode();
        break;
      case END_TAG:
        if (this.tId === T.HTML) {
          this.mode = AFTER_AFTER_FRAMESET;
          return;
        }
        break;
      case EOF:
        return;
    }
    this.err(E.UnexpectedTokenAfterFrameset);
  }

  // 13.2.6.4.22 The "after after body" insertion mode
  private afterAfterBodyMode(): void {
    switch (this.tk) {
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(this.document);
      case DOCTYPE:
        return this.inBodyMode();
      case CHARACTERS:
        if (this.leadingWhitespaceInBody()) return;
        break;
      case START_TAG:
        if (this.tId === T.HTML) return this.inBodyMode();
        break;
      case EOF:
        return;
    }
    this.err(E.UnexpectedTokenAfterAfterBody);
    this.reprocessIn(IN_BODY);
  }

  // 13.2.6.4.23 The "after after frameset" insertion mode
  private afterAfterFramesetMode(): void {
    switch (this.tk) {
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(this.document);
      case DOCTYPE:
        return this.inBodyMode();
      case CHARACTERS: {
        const ws = onlyWhitespace(this.tData);
        if (ws.length !== this.tData.length) this.err(E.UnexpectedCharAfterAfterFrameset);
        if (ws.length > 0) {
          this.tData = ws;
          this.inBodyMode();
        }
        return;
      }
      case START_TAG:
        if (this.tId === T.HTML) return this.inBodyMode();
        if (this.tId === T.NOFRAMES) return this.inHeadMode();
        break;
      case EOF:
        return;
    }
    this.err(E.UnexpectedTokenAfterAfterFrameset);
  }

  // ---------------------------------------------------------------------------------------------
  // 13.2.6.5 The rules for parsing tokens in foreign content

  private inForeignContent(): void {
    const open = this.open;
    switch (this.tk) {
      case NULL_CHARACTER:
        this.err(E.UnexpectedNullCharacter);
        return this.insertCharacters('\uFFFD');
      case CHARACTERS:
        this.insertCharacters(this.tData);
        if (this.framesetOk && leadingWhitespace(this.tData) < this.tData.length) this.framesetOk = false;
        return;
      case COMMENT:
      case PROCESSING_INSTRUCTION:
        return this.insertCommentOrPI(null);
      case DOCTYPE:
        return this.err(E.UnexpectedDoctype);
      case START_TAG: {
        if (BREAKOUT_START_TAG[this.tId] || (this.tId === T.FONT && fontBreaksOut(this.tAttrs))) {
          this.err(E.UnexpectedHtmlElementInForeignContent);
          this.popUntilHtmlOrIntegrationPoint();
          return this.process();
        }
        const node = this.adjustedCurrentNode()!;
        const ns = node.namespaceURI;
        if (ns === MATHML_NS) adjustMathMLAttributes(this.tAttrs);
        else if (ns === SVG_NS) adjustSvgAttributes(this.tAttrs);
        adjustForeignAttributes(this.tAttrs);
        this.insertForeignElement(ns);
        if (this.tSelfClosing) {
          open.pop();
          this.tAcknowledged = true;
        }
        return;
      }
      case END_TAG: {
        if (this.tId === T.BR || this.tId === T.P) {
          this.err(E.UnexpectedHtmlElementInForeignContent);
          this.popUntilHtmlOrIntegrationPoint();
          return this.process();
        }
        const name = this.tName;
        let i = open.top;
        let node = open.items[i]!;
        if (asciiLowercase(node.localName) !== name) this.err(E.UnexpectedEndTag);
        for (;;) {
          if (i === 0) return;
          if (asciiLowercase(node.localName) === name) {
            open.popTo(i);
            return;
          }
          i--;
          node = open.items[i]!;
          if (node.namespaceURI === HTML_NS) return this.process();
        }
      }
    }
  }

  private popUntilHtmlOrIntegrationPoint(): void {
    const open = this.open;
    for (;;) {
      const node = open.current!;
      const id = open.currentId;
      if (node.namespaceURI === HTML_NS || T.MATHML_TEXT_INTEGRATION_POINT[id] || T.HTML_INTEGRATION_POINT[id]) return;
      open.pop();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // "Maybe clone an option into selectedcontent" (4.10.10 the option element), run whenever an option
  // element is popped off the stack of open elements, or taken off it by the adoption agency algorithm.

  /** "Maybe clone an option into selectedcontent": the stack of open elements popped `option` (OptionPopListener). */
  optionPopped(option: Element): void {
    const contents = this.selectedContentMap;
    if (contents === null) return;
    const select = nearestAncestorSelect(option);
    if (select === null || this.selectedOptionMap?.get(select) !== option) return;
    const sc = contents.get(select);
    if (sc === undefined) return;
    const inside = isAncestor(sc, option);
    cloneOptionInto(option, sc);
    // An option inside the selectedcontent detached itself: it is no longer the select's selected option.
    if (inside) this.reselectAfterRemoval(select);
  }

  /**
   * The selectedness setting algorithm as far as the parser can observe it when an option is inserted: an option
   * with a `selected` attribute becomes the selected one; otherwise the first option that is not disabled does, unless
   * the select's display size is more than 1. `multiple` selects have no enabled selectedcontent and are skipped.
   */
  private noteOptionInserted(option: Element): void {
    const select = this.optionSelect(option);
    if (select === null || select.getAttributeNodeNS(null, 'multiple') !== null) return;
    if (option.getAttributeNodeNS(null, 'selected') === null) {
      if (this.selectedOptionMap?.has(select) || isOptionDisabled(option)) return;
      const size = select.getAttributeNodeNS(null, 'size');
      if (size !== null && displaySizeAbove1(size.value)) return;
    }
    (this.selectedOptionMap ??= new Map()).set(select, option);
    // The selectedness change updates the select's selectedcontent at once (connected trees only): the option is
    // still empty, so this empties it, detaching the option itself when it was inserted inside it.
    const sc = this.selectedContentMap?.get(select);
    if (sc !== undefined && this.connectedInsertion()) {
      const inside = isAncestor(sc, option);
      cloneOptionInto(option, sc);
      // An option that detached itself is no longer in the select.
      if (inside) this.reselectAfterRemoval(select);
    }
  }

  /** nearestAncestorSelect(option), what is above the option's parent remembered (see `selectAbove`). */
  private optionSelect(option: Element): Element | null {
    const parent = option.parentNode;
    if (parent === null || parent.nodeType !== ELEMENT_NODE) return null;
    const el = parent as Element;
    let optgroup = false;
    if (el.namespaceURI === HTML_NS) {
      const found = selectStep(el, false);
      if (found !== undefined) return found;
      optgroup = el.localName === 'optgroup';
    }
    const above = el.parentNode;
    if (above !== this.selectAbove || optgroup !== this.selectAboveOptgroup || treeMoves !== this.selectAboveMoves) {
      this.selectAbove = above;
      this.selectAboveOptgroup = optgroup;
      this.selectAboveMoves = treeMoves;
      this.selectAboveResult = nearestSelectFrom(above, optgroup, 1);
    }
    return this.selectAboveResult;
  }

  /**
   * The selected option left `select` (it was inside the selectedcontent it was cloned into). Its removing steps run
   * the select's selectedness setting algorithm: no option is selected any more, so the first option of the select's
   * list of options that is not disabled becomes selected, unless the display size is more than 1. That change does
   * not update the selectedcontent.
   */
  private reselectAfterRemoval(select: Element): void {
    this.selectedOptionMap?.delete(select);
    const size = select.getAttributeNodeNS(null, 'size');
    if (size !== null && displaySizeAbove1(size.value)) return;
    const first = firstEnabledOption(select);
    if (first !== null) (this.selectedOptionMap ??= new Map()).set(select, first);
  }

  /**
   * The adoption agency moved `root`'s subtree (it was removed and inserted again). In a connected tree the
   * post-connection steps of each selectedcontent in it recompute whether it is disabled, and an enabled one updates
   * its select's selectedcontent from the selected option: a clone, or empty when there is none. (A move can enable
   * a selectedcontent, e.g. out of an option.) Followed while a document has at most MAX_MOVED_SELECTEDCONTENT
   * selectedcontent elements (keeps the adoption agency linear).
   */
  private selectedContentMoved(root: Element): void {
    const all = this.connectedSelectedContents;
    if (all.length === 0 || all.length > MAX_MOVED_SELECTEDCONTENT || !this.connectedInsertion()) return;
    let updated: Element[] | null = null;
    for (const moved of all) {
      if (moved !== root && !isAncestor(root, moved)) continue;
      const select = enabledSelectOf(moved);
      if (select === null) continue;
      const contents = (this.selectedContentMap ??= new Map());
      if (!contents.has(select)) contents.set(select, moved);
      if (updated === null) updated = [];
      else if (updated.includes(select)) continue;
      updated.push(select);
      const sc = contents.get(select)!;
      const selected = this.selectedOptionMap?.get(select);
      if (selected === undefined) {
        treeMoves++;
        for (const c of sc.childNodes) c.parentNode = null;
        sc.childNodes = [];
        continue;
      }
      const inside = isAncestor(sc, selected);
      cloneOptionInto(selected, sc);
      if (inside) this.reselectAfterRemoval(select);
    }
  }

  /**
   * Whether nodes the parser inserts now are connected: a document parse, outside template contents (the steps that
   * run on connection do not run in fragments or templates).
   */
  private connectedInsertion(): boolean {
    return this.contextElement === null && !this.open.hasId(T.TEMPLATE);
  }

  /**
   * Records a selectedcontent element as its select's enabled selectedcontent (the first enabled one in tree
   * order: the parser creates them in tree order), and runs the post-connection steps' update when connected (it
   * gets a clone of the select's selected option). Its select is the nearest select on the stack of open elements; an option or
   * selectedcontent element above that select disables it. Three O(1) stack look-ups.
   */
  private noteSelectedContent(el: Element): void {
    if (this.connectedSelectedContents.length <= MAX_MOVED_SELECTEDCONTENT && this.connectedInsertion()) {
      this.connectedSelectedContents.push(el);
    }
    const open = this.open;
    const i = open.lastIndexOfId(T.SELECT);
    // Ancestors in the same tree only: a template element on the stack starts another one (its contents).
    const t = open.lastIndexOfId(T.TEMPLATE);
    if (i < 0 || i < t) return;
    if (open.lastIndexOfId(T.OPTION) > t || open.lastIndexOfId(T.SELECTEDCONTENT) > t || open.previousIndexOfSameId(i) > t) return;
    const select = open.items[i]!;
    if (select.getAttributeNodeNS(null, 'multiple') !== null || this.selectedContentMap?.has(select)) return;
    (this.selectedContentMap ??= new Map()).set(select, el);
    const selected = this.selectedOptionMap?.get(select);
    if (selected !== undefined && this.connectedInsertion()) cloneOptionInto(selected, el);
  }
}

/** "Clone an option into a selectedcontent": clone first, then replace all (the option may be inside it). */
function cloneOptionInto(option: Element, sc: Element): void {
  treeMoves++;
  const clones = new DocumentFragment();
  cloneChildren(option, clones);
  for (const c of sc.childNodes) c.parentNode = null;
  sc.childNodes = clones.childNodes;
  for (const c of sc.childNodes) c.parentNode = sc;
}

/**
 * The select a selectedcontent element belongs to when it is enabled (its nearest select ancestor, no option or
 * selectedcontent ancestor and no second select ancestor, not `multiple`), else null. Bounded walk.
 */
function enabledSelectOf(sc: Element): Element | null {
  let select: Element | null = null;
  let steps = 0;
  for (let p = sc.parentNode; p !== null && p.nodeType === ELEMENT_NODE; p = p.parentNode) {
    if (++steps > MAX_SELECT_ANCESTOR_WALK) return null;
    const el = p as Element;
    if (el.namespaceURI !== HTML_NS) continue;
    const name = el.localName;
    if (name === 'option' || name === 'selectedcontent') return null;
    if (name === 'select') {
      if (select !== null) return null;
      select = el;
    }
  }
  return select !== null && select.getAttributeNodeNS(null, 'multiple') === null ? select : null;
}

/** Whether `a` is an ancestor of `node` (bounded walk, like the other selectedcontent walks). */
function isAncestor(a: Element, node: Element): boolean {
  let steps = 0;
  for (let p = node.parentNode; p !== null; p = p.parentNode) {
    if (p === a) return true;
    if (++steps > MAX_SELECT_ANCESTOR_WALK) return false;
  }
  return false;
}

/** Whether an option is disabled: its own `disabled` attribute, or a `disabled` optgroup parent. */
function isOptionDisabled(option: Element): boolean {
  if (option.getAttributeNodeNS(null, 'disabled') !== null) return true;
  const group = option.parentNode;
  return group !== null && group.nodeType === ELEMENT_NODE && (group as Element).localName === 'optgroup' &&
    (group as Element).namespaceURI === HTML_NS && (group as Element).getAttributeNodeNS(null, 'disabled') !== null;
}

/**
 * The first option in `select`'s list of options (tree order) that is not disabled, or null. Iterative; it gives up
 * (null) after MAX_SELECT_ANCESTOR_WALK nodes, which keeps repeated detaching linear.
 */
function firstEnabledOption(select: Element): Element | null {
  const stack: ChildNode[] = [];
  for (let i = select.childNodes.length - 1; i >= 0; i--) stack.push(select.childNodes[i]!);
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > MAX_SELECT_ANCESTOR_WALK) return null;
    const node = stack.pop()!;
    if (node.nodeType !== ELEMENT_NODE) continue;
    const el = node as Element;
    if (el.namespaceURI === HTML_NS) {
      const name = el.localName;
      if (name === 'option') {
        if (nearestAncestorSelect(el) === select && !isOptionDisabled(el)) return el;
        continue;
      }
      // Options below these are not in this select's list of options.
      if (name === 'select' || name === 'datalist' || name === 'hr') continue;
    }
    const kids = el.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return null;
}

/** Whether a `size` attribute value parses (rules for parsing non-negative integers) to more than 1. */
function displaySizeAbove1(value: string): boolean {
  const m = /^[\t\n\f\r ]*\+?([0-9]+)/.exec(value);
  return m !== null && Number(m[1]) > 1;
}

const RESET_IDS = [
  T.TD, T.TH, T.TR, T.TBODY, T.THEAD, T.TFOOT, T.CAPTION, T.COLGROUP, T.TABLE, T.TEMPLATE, T.HEAD, T.BODY,
  T.FRAMESET,
];

/**
 * How many times a tree builder took nodes out of where they were (the adoption agency algorithm, `<frameset>`, a
 * selectedcontent's children replaced): what the cached ancestor select of `noteOptionInserted` depends on. Only the
 * parser moves nodes while it runs; a count shared by every tree builder only makes a cache miss more often.
 */
let treeMoves = 0;

/** Ancestor walks for selectedcontent give up this far up (keeps pathological nesting linear). */
const MAX_SELECT_ANCESTOR_WALK = 512;
/** Moves of selectedcontent elements by the adoption agency are followed while a document has at most this many. */
const MAX_MOVED_SELECTEDCONTENT = 64;

/** The option element's nearest ancestor select (4.10.10 "option element nearest ancestor select"). */
function nearestAncestorSelect(option: Element): Element | null {
  return nearestSelectFrom(option.parentNode, false, 0);
}

/**
 * The walk of nearestAncestorSelect from `p` up, `steps` ancestors below it already looked at, `seenOptgroup` if one
 * of them was an optgroup.
 */
function nearestSelectFrom(p: ParentNode | null, seenOptgroup: boolean, steps: number): Element | null {
  for (; p !== null && p.nodeType === ELEMENT_NODE; p = p.parentNode) {
    if (++steps > MAX_SELECT_ANCESTOR_WALK) return null;
    const el = p as Element;
    if (el.namespaceURI !== HTML_NS) continue;
    const found = selectStep(el, seenOptgroup);
    if (found !== undefined) return found;
    if (el.localName === 'optgroup') seenOptgroup = true;
  }
  return null;
}

/** One HTML ancestor of the walk: the answer (a select, or null), or undefined to go on up. */
function selectStep(el: Element, seenOptgroup: boolean): Element | null | undefined {
  switch (el.localName) {
    case 'select':
      return el;
    case 'datalist':
    case 'hr':
    case 'option':
      return null;
    case 'optgroup':
      return seenOptgroup ? null : undefined;
  }
  return undefined;
}

/** Deep-clones the children of `src` into `dst`, without recursion. */
function cloneChildren(src: ParentNode, dst: ParentNode): void {
  const srcStack: ParentNode[] = [src];
  const dstStack: ParentNode[] = [dst];
  while (srcStack.length > 0) {
    const s = srcStack.pop()!;
    const d = dstStack.pop()!;
    for (const child of s.childNodes) {
      let copy: ChildNode;
      switch (child.nodeType) {
        case ELEMENT_NODE: {
          const e = child as Element;
          const c = new Element(e.localName, e.namespaceURI, cloneAttributes(e.attributes));
          c.prefix = e.prefix;
          if (e.content !== null) {
            srcStack.push(e.content);
            dstStack.push(c.content!);
          }
          srcStack.push(e);
          dstStack.push(c);
          copy = c;
          break;
        }
        case TEXT_NODE:
          copy = new Text((child as Text).data);
          break;
        case 8:
          copy = new Comment((child as Comment).data);
          break;
        case 7:
          copy = new ProcessingInstruction((child as ProcessingInstruction).target, (child as ProcessingInstruction).data);
          break;
        default:
          continue;
      }
      copy.parentNode = d;
      d.childNodes.push(copy);
    }
  }
}
