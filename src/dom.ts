/**
 * The tree: a small DOM-named node model.
 *
 * Names follow the DOM Standard (`nodeType`, `childNodes`, `parentNode`, `localName`, `namespaceURI`,
 * `attributes`, `data`, `target`, template `content`) so that code written against real DOM nodes can
 * read these nodes too. It is deliberately not a full DOM: no live collections, no events, no selectors.
 *
 * Per-class constants (`nodeType`, `nodeName` for character data...) live on the prototypes so that
 * nodes carry only their own data.
 */

export const HTML_NS = 'http://www.w3.org/1999/xhtml';
export const SVG_NS = 'http://www.w3.org/2000/svg';
export const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const PROCESSING_INSTRUCTION_NODE = 7;
export const COMMENT_NODE = 8;
export const DOCUMENT_NODE = 9;
export const DOCUMENT_TYPE_NODE = 10;
export const DOCUMENT_FRAGMENT_NODE = 11;

/**
 * Depth from which the tree walks check for a cycle (a tree edited through `childNodes` directly can have one). (With
 * the constants above, before any other statement: see scripts/build.ts.)
 */
export const CYCLE_CHECK_DEPTH = 2048;

export type DocumentMode = 'no-quirks' | 'quirks' | 'limited-quirks';

/** An attribute. `name` is the qualified name (`prefix:localName`, or `localName` without a prefix). */
export class Attr {
  localName: string;
  value: string;
  /** null (the prototype's value) for the no-namespace attributes that are nearly all attributes. */
  declare namespaceURI: string | null;
  /** null (the prototype's value) unless the attribute has a prefix. */
  declare prefix: string | null;

  constructor(localName: string, value: string, namespaceURI: string | null = null, prefix: string | null = null) {
    this.localName = localName;
    this.value = value;
    // Namespaced attributes are rare: the others carry no own slots for these (memory per attribute).
    if (namespaceURI !== null) this.namespaceURI = namespaceURI;
    if (prefix !== null) this.prefix = prefix;
  }

  get name(): string {
    return this.prefix === null ? this.localName : this.prefix + ':' + this.localName;
  }
}

export type ChildNode = Element | Text | Comment | ProcessingInstruction | DocumentType;
export type ParentNode = Document | DocumentFragment | Element;
export type Node = ParentNode | Text | Comment | ProcessingInstruction | DocumentType;

/** Thrown by the tree-editing helpers when an edit would make an impossible tree (a cycle, a foreign reference node). */
export class HierarchyRequestError extends Error {
  override name = 'HierarchyRequestError';
}

/** Thrown by the construction helpers for a name the DOM would refuse (its InvalidCharacterError). */
export class InvalidCharacterError extends Error {
  override name = 'InvalidCharacterError';
}

/** Thrown by `setAttributeNS` for a prefix and namespace the DOM refuses together (its NamespaceError). */
export class NamespaceError extends Error {
  override name = 'NamespaceError';
}

/** Web IDL's DOMString conversion of an argument, as the DOM's methods take theirs: `null` is "null", 5 is "5". */
function domString(v: unknown): string {
  return typeof v === 'string' ? v : '' + (v as string);
}

/** A `DOMString?` namespace argument: null, undefined and '' are no namespace. */
function namespaceArg(v: unknown): string | null {
  return v === null || v === undefined || v === '' ? null : domString(v);
}

/** DOM "valid attribute local name". */
const ATTRIBUTE_NAME = /^[^\t\n\f\r \0/>=]+$/;
/** DOM "valid element local name" (the relaxed rules of 2025), and XML's Name (any code point from U+0080 up). */
const ELEMENT_NAME = /^(?:[A-Za-z][^\t\n\f\r \0/>]*|[:_\u0080-\uffff][-.:\w\u0080-\uffff]*)$/;
const XML_NAME = /^[A-Za-z:_\u0080-\uffff][-.:\w\u0080-\uffff]*$/;

/**
 * Shapes checked where the tree comes from a caller (by shape, not instanceof: another copy of this module, e.g. the
 * CommonJS build, makes nodes too): a node with a child list, and an attribute with a string name and value.
 */
export function isParentLike(node: unknown): node is ParentNode {
  return typeof node === 'object' && node !== null && Array.isArray((node as ParentNode).childNodes);
}

export function isAttrLike(a: unknown): a is Attr {
  return typeof a === 'object' && a !== null && typeof (a as Attr).localName === 'string' && typeof (a as Attr).value === 'string';
}

function checkAttributeName(name: string, fn: string): void {
  if (!ATTRIBUTE_NAME.test(name)) throw new InvalidCharacterError(fn + ': invalid attribute name ' + JSON.stringify(name));
}

/**
 * What `walk`, `enforceReparseSafety` and `textContent` throw when the tree is not one (code that edits the tree by
 * hand can give an element a `childNodes` that is null, a child that is a string...): the engine's TypeError from
 * inside the walk, given the function's name. Nothing is checked per node; nothing is paid until something is thrown.
 * The function's own errors (its name first) and any other error pass as they are. (Not the serializer: it names the
 * nodes it cannot write.)
 */
export function malformedTree(fn: string, e: unknown): unknown {
  if (!(e instanceof TypeError) || e.message.startsWith(fn + ':')) return e;
  return new TypeError(`${fn}: not a well-formed tree (${e.message})`, { cause: e });
}

abstract class NodeBase {
  declare readonly nodeType: number;
  parentNode: ParentNode | null = null;

  get parentElement(): Element | null {
    const p = this.parentNode;
    return p !== null && p.nodeType === ELEMENT_NODE ? (p as Element) : null;
  }

  /** O(index) in the parent's child list. */
  get previousSibling(): ChildNode | null {
    const p = this.parentNode;
    if (p === null) return null;
    const i = p.childNodes.indexOf(this as unknown as ChildNode);
    return i > 0 ? p.childNodes[i - 1]! : null;
  }

  /** O(index) in the parent's child list. */
  get nextSibling(): ChildNode | null {
    const p = this.parentNode;
    if (p === null) return null;
    const kids = p.childNodes;
    const i = kids.indexOf(this as unknown as ChildNode);
    return i >= 0 && i + 1 < kids.length ? kids[i + 1]! : null;
  }

  /** Removes this node from its parent, if any. */
  remove(): void {
    const p = this.parentNode;
    if (p !== null) p.removeChild(this as unknown as ChildNode);
  }
}

abstract class ParentNodeBase extends NodeBase {
  childNodes: ChildNode[] = [];

  // (Written out, here and below: the constructor a class gets by default passes its arguments on through a V8
  // builtin that copies them, and a fragment parse makes its document, fragment and context element through it.)
  constructor() {
    super();
  }

  get firstChild(): ChildNode | null {
    return this.childNodes.length > 0 ? this.childNodes[0]! : null;
  }

  get lastChild(): ChildNode | null {
    const n = this.childNodes.length;
    return n > 0 ? this.childNodes[n - 1]! : null;
  }

  hasChildNodes(): boolean {
    return this.childNodes.length > 0;
  }

  /** Appends `child` (detaching it from its old parent first). Returns `child`. */
  appendChild<T extends ChildNode>(child: T): T {
    return this.insertChild(child, null, 'appendChild');
  }

  /** Inserts `child` before `ref` (or at the end when `ref` is null). Returns `child`. */
  insertBefore<T extends ChildNode>(child: T, ref: ChildNode | null): T {
    return this.insertChild(child, ref ?? null, 'insertBefore');
  }

  private insertChild<T extends ChildNode>(child: T, ref: ChildNode | null, fn: string): T {
    checkInsertable(this as unknown as ParentNode, child, fn);
    if (ref !== null && (checkNode(ref, fn), ref.parentNode !== (this as unknown as ParentNode))) {
      throw new HierarchyRequestError('insertBefore: the reference node is not a child of this node');
    }
    if (child.parentNode !== null) child.parentNode.removeChild(child);
    if (ref === null) {
      this.childNodes.push(child);
    } else {
      this.childNodes.splice(this.childNodes.indexOf(ref), 0, child);
    }
    child.parentNode = this as unknown as ParentNode;
    return child;
  }

  /** Removes `child` from this node. Returns `child`. */
  removeChild<T extends ChildNode>(child: T): T {
    checkNode(child, 'removeChild');
    const i = this.childNodes.indexOf(child);
    if (i < 0) throw new HierarchyRequestError('removeChild: the node is not a child of this node');
    this.childNodes.splice(i, 1);
    child.parentNode = null;
    return child;
  }

  /** Replaces `oldChild` with `newChild`. Returns `oldChild`. */
  replaceChild<T extends ChildNode>(newChild: ChildNode, oldChild: T): T {
    checkNode(oldChild, 'replaceChild');
    if (oldChild.parentNode !== (this as unknown as ParentNode)) {
      throw new HierarchyRequestError('replaceChild: the node to replace is not a child of this node');
    }
    if (newChild === oldChild) return oldChild;
    checkInsertable(this as unknown as ParentNode, newChild, 'replaceChild');
    if (newChild.parentNode !== null) newChild.parentNode.removeChild(newChild);
    const i = this.childNodes.indexOf(oldChild);
    this.childNodes[i] = newChild;
    newChild.parentNode = this as unknown as ParentNode;
    oldChild.parentNode = null;
    return oldChild;
  }

  /** Concatenated data of all descendant text nodes (template contents excluded, as in the DOM). */
  get textContent(): string {
    try {
      return this.text();
    } catch (e) {
      throw malformedTree('textContent', e);
    }
  }

  private text(): string {
    let out = '';
    const stack: ChildNode[][] = [this.childNodes];
    const index: number[] = [0];
    let onStack: Set<unknown> | null = null;
    while (stack.length > 0) {
      const top = stack.length - 1;
      const list = stack[top]!;
      const i = index[top]!;
      if (i >= list.length) {
        const done = stack.pop();
        index.pop();
        if (onStack !== null) onStack.delete(done);
        continue;
      }
      index[top] = i + 1;
      const n = list[i]!;
      if (n.nodeType === TEXT_NODE) out += (n as Text).data;
      else if (n.nodeType === ELEMENT_NODE && (n as Element).childNodes.length > 0) {
        if (top >= CYCLE_CHECK_DEPTH) onStack = noCycle('textContent', stack, onStack, (n as Element).childNodes);
        stack.push((n as Element).childNodes);
        index.push(0);
      }
    }
    return out;
  }
}

/**
 * For a walk at least `CYCLE_CHECK_DEPTH` levels deep, about to descend into `next`: a TypeError naming `fn` when
 * `next` is already on the walk's `stack` (a cycle would make the walk go on until memory runs out). Returns the set of
 * what is on the stack (made on the first call; the walk deletes what it pops). Shallow walks never call it.
 */
export function noCycle<T>(fn: string, stack: readonly T[], onStack: Set<unknown> | null, next: T): Set<unknown> {
  onStack ??= new Set(stack);
  if (onStack.has(next)) throw new TypeError(fn + ': the tree has a cycle');
  onStack.add(next);
  return onStack;
}

/** A node argument that is not one of this module's nodes (null, a string, a plain object) is a TypeError, as in the DOM. */
function checkNode(node: unknown, fn: string): void {
  if (!(node instanceof NodeBase)) throw new TypeError(fn + ': expected a node, got ' + (node === null ? 'null' : typeof node));
}

function checkInsertable(parent: ParentNode, child: ChildNode, fn: string): void {
  checkNode(child, fn);
  const t: number = child.nodeType;
  if (t === DOCUMENT_NODE || t === DOCUMENT_FRAGMENT_NODE) {
    throw new HierarchyRequestError('only element, text, comment, processing instruction and doctype nodes can be inserted');
  }
  if (t === ELEMENT_NODE) {
    // No cycles: `child` must not be `parent` or one of its ancestors. A childless element can only be
    // `parent` itself, so the walk up (O(depth)) is needed only for elements that have children.
    if ((child as Element).childNodes.length === 0) {
      if ((child as Element) === parent) throw new HierarchyRequestError('a node cannot be inserted into itself');
      return;
    }
    for (let p: ParentNode | null = parent; p !== null; p = p.parentNode) {
      if (p === (child as Element)) throw new HierarchyRequestError('a node cannot be inserted into itself or its descendants');
    }
  }
}

export class Document extends ParentNodeBase {
  declare readonly nodeType: 9;
  declare readonly nodeName: '#document';
  mode: DocumentMode = 'no-quirks';

  constructor() {
    super();
  }

  /** The first element child (the `html` element for parsed documents). */
  get documentElement(): Element | null {
    for (const n of this.childNodes) if (n.nodeType === ELEMENT_NODE) return n as Element;
    return null;
  }

  get doctype(): DocumentType | null {
    for (const n of this.childNodes) if (n.nodeType === DOCUMENT_TYPE_NODE) return n as DocumentType;
    return null;
  }

  get head(): Element | null {
    return htmlChild(this.documentElement, 'head');
  }

  get body(): Element | null {
    const html = this.documentElement;
    if (html === null || html.localName !== 'html' || html.namespaceURI !== HTML_NS) return null;
    for (const n of html.childNodes) {
      if (n.nodeType === ELEMENT_NODE && (n as Element).namespaceURI === HTML_NS) {
        const name = (n as Element).localName;
        if (name === 'body' || name === 'frameset') return n as Element;
      }
    }
    return null;
  }
}

function htmlChild(parent: Element | null, localName: string): Element | null {
  if (parent === null) return null;
  for (const n of parent.childNodes) {
    if (n.nodeType === ELEMENT_NODE && (n as Element).localName === localName && (n as Element).namespaceURI === HTML_NS) {
      return n as Element;
    }
  }
  return null;
}

export class DocumentFragment extends ParentNodeBase {
  declare readonly nodeType: 11;
  declare readonly nodeName: '#document-fragment';

  constructor() {
    super();
  }
}

export class Element extends ParentNodeBase {
  declare readonly nodeType: 1;
  localName: string;
  namespaceURI: string;
  /** null (the prototype's value) unless set: parsed elements never have a prefix. */
  declare prefix: string | null;
  attributes: Attr[];
  /** The template contents; non-null exactly for HTML `template` elements (others read the prototype's null). */
  declare content: DocumentFragment | null;

  constructor(localName: string, namespaceURI: string = HTML_NS, attributes: Attr[] = []) {
    super();
    this.localName = localName;
    this.namespaceURI = namespaceURI;
    this.attributes = attributes;
    if (localName === 'template' && namespaceURI === HTML_NS) this.content = new DocumentFragment();
  }

  /** The qualified name, upper-cased for HTML elements as in an HTML document's DOM. */
  get tagName(): string {
    const q = this.prefix === null ? this.localName : this.prefix + ':' + this.localName;
    return this.namespaceURI === HTML_NS ? q.toUpperCase() : q;
  }

  get nodeName(): string {
    return this.tagName;
  }

  /** Value of the first attribute whose qualified name is `name` (ASCII case-insensitive for HTML elements), or null. */
  getAttribute(name: string): string | null {
    const a = this.getAttributeNode(name);
    return a === null ? null : a.value;
  }

  getAttributeNode(name: string): Attr | null {
    name = domString(name);
    const q = this.namespaceURI === HTML_NS ? asciiLowercase(name) : name;
    for (const a of this.attributes) if (a.name === q) return a;
    return null;
  }

  getAttributeNS(namespaceURI: string | null, localName: string): string | null {
    const a = this.getAttributeNodeNS(namespaceURI, localName);
    return a === null ? null : a.value;
  }

  getAttributeNodeNS(namespaceURI: string | null, localName: string): Attr | null {
    const ns = namespaceArg(namespaceURI);
    localName = domString(localName);
    for (const a of this.attributes) if (a.localName === localName && a.namespaceURI === ns) return a;
    return null;
  }

  hasAttribute(name: string): boolean {
    return this.getAttributeNode(name) !== null;
  }

  /**
   * Sets a no-namespace attribute (the name is lower-cased on HTML elements, as in the DOM). Its arguments are taken as
   * the DOM takes them (converted to strings), and a name the DOM refuses is an `InvalidCharacterError`.
   */
  setAttribute(name: string, value: string): void {
    name = domString(name);
    checkAttributeName(name, 'setAttribute');
    value = domString(value);
    const q = this.namespaceURI === HTML_NS ? asciiLowercase(name) : name;
    const a = this.getAttributeNode(q);
    if (a !== null) a.value = value;
    else this.attributes.push(new Attr(q, value));
  }

  /**
   * As the DOM's: an invalid name or prefix is an `InvalidCharacterError` (a prefix follows the rules of a name here,
   * so that the markup reparses), a prefix with no namespace, `xml` or `xmlns` in another namespace, or the XMLNS
   * namespace without `xmlns`, a `NamespaceError`.
   */
  setAttributeNS(namespaceURI: string | null, qualifiedName: string, value: string): void {
    const ns = namespaceArg(namespaceURI);
    qualifiedName = domString(qualifiedName);
    value = domString(value);
    const colon = qualifiedName.indexOf(':');
    const prefix = colon >= 0 ? qualifiedName.slice(0, colon) : null;
    const localName = colon >= 0 ? qualifiedName.slice(colon + 1) : qualifiedName;
    checkAttributeName(localName, 'setAttributeNS');
    if (prefix !== null) checkAttributeName(prefix, 'setAttributeNS');
    if (
      (prefix !== null && ns === null) ||
      (prefix === 'xml' && ns !== XML_NS) ||
      ((prefix ?? qualifiedName) === 'xmlns') !== (ns === XMLNS_NS)
    ) {
      throw new NamespaceError('setAttributeNS: the prefix of ' + JSON.stringify(qualifiedName) + ' does not go with namespace ' + ns);
    }
    const a = this.getAttributeNodeNS(ns, localName);
    if (a !== null) {
      a.value = value;
      a.prefix = prefix;
    } else {
      this.attributes.push(new Attr(localName, value, ns, prefix));
    }
  }

  removeAttribute(name: string): void {
    const a = this.getAttributeNode(name);
    if (a !== null) this.attributes.splice(this.attributes.indexOf(a), 1);
  }

  removeAttributeNS(namespaceURI: string | null, localName: string): void {
    const a = this.getAttributeNodeNS(namespaceURI, localName);
    if (a !== null) this.attributes.splice(this.attributes.indexOf(a), 1);
  }
}

abstract class CharacterDataBase extends NodeBase {
  data: string;
  constructor(data: string) {
    super();
    this.data = data;
  }
  get nodeValue(): string {
    return this.data;
  }
}

export class Text extends CharacterDataBase {
  declare readonly nodeType: 3;
  declare readonly nodeName: '#text';
}

export class Comment extends CharacterDataBase {
  declare readonly nodeType: 8;
  declare readonly nodeName: '#comment';
}

export class ProcessingInstruction extends CharacterDataBase {
  declare readonly nodeType: 7;
  target: string;
  constructor(target: string, data: string) {
    super(data);
    this.target = target;
  }
  get nodeName(): string {
    return this.target;
  }
}

export class DocumentType extends NodeBase {
  declare readonly nodeType: 10;
  name: string;
  publicId: string;
  systemId: string;
  constructor(name: string, publicId = '', systemId = '') {
    super();
    this.name = name;
    this.publicId = publicId;
    this.systemId = systemId;
  }
  get nodeName(): string {
    return this.name;
  }
}

function defineDefault(proto: object, key: string, value: unknown): void {
  Object.defineProperty(proto, key, { value, writable: true, enumerable: true, configurable: true });
}
function defineConstant(proto: object, key: string, value: unknown): void {
  Object.defineProperty(proto, key, { value, writable: false, enumerable: true, configurable: false });
}
defineConstant(Document.prototype, 'nodeType', DOCUMENT_NODE);
defineConstant(Document.prototype, 'nodeName', '#document');
defineConstant(DocumentFragment.prototype, 'nodeType', DOCUMENT_FRAGMENT_NODE);
defineConstant(DocumentFragment.prototype, 'nodeName', '#document-fragment');
defineConstant(Element.prototype, 'nodeType', ELEMENT_NODE);
// Defaults read through the prototype, so that the common node carries no slot for them (tree memory is what
// parsing costs in garbage collection). Writable: assigning gives the node its own property.
defineDefault(Element.prototype, 'prefix', null);
defineDefault(Element.prototype, 'content', null);
defineDefault(Attr.prototype, 'namespaceURI', null);
defineDefault(Attr.prototype, 'prefix', null);
defineConstant(Text.prototype, 'nodeType', TEXT_NODE);
defineConstant(Text.prototype, 'nodeName', '#text');
defineConstant(Comment.prototype, 'nodeType', COMMENT_NODE);
defineConstant(Comment.prototype, 'nodeName', '#comment');
defineConstant(ProcessingInstruction.prototype, 'nodeType', PROCESSING_INSTRUCTION_NODE);
defineConstant(DocumentType.prototype, 'nodeType', DOCUMENT_TYPE_NODE);

/** ASCII alpha (Infra): A-Z, a-z. */
export function isAsciiAlpha(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

/** ASCII whitespace (Infra): TAB, LF, FF, CR, SPACE. */
export function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/** Length of the leading run of ASCII whitespace in `s` (`s.length`: it is whitespace only). */
export function leadingWhitespace(s: string): number {
  let i = 0;
  while (i < s.length && isAsciiWhitespace(s.charCodeAt(i))) i++;
  return i;
}

/** ASCII lower-casing (the DOM's and HTML's case folding, which leaves non-ASCII alone). */
export function asciiLowercase(s: string): string {
  // The default fragment context: a sanitize() call lower-cases its name three times (the context element, which the
  // parser and sanitize() share, reparse safety's html check and its root frame); the loop below took about 860 of the
  // 13,260 instructions of a call on `<p>hi</p>` (measured when there were five).
  if (s === 'body') return s;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Helpers for the parser
//
// The parser builds nodes with `new`, which V8 compiles to an inline allocation. (Literals with `__proto__` set
// to the class's prototype let V8 allocate nodes straight in the old generation, but change the prototype at
// run time, about 40 ns per node: measured slower, 2026-11.)

/**
 * A new empty list for the parser's own working state (never for the tree). V8 may decide to allocate everything
 * an array literal makes in the old generation ("pretenuring"), when most of the arrays it made lately survived a
 * scavenge. A parse's working lists do whenever a scavenge falls inside the parse, so a literal here would be
 * pretenured: each later parse then leaves its lists as old-generation garbage, full GCs follow, and each one
 * discards the optimized parser (V8: "low survival rate in the old generation"). A 137-byte comment took 10 µs
 * per parse instead of 4 that way (2026-11). A `slice` copy has no allocation site, so it always starts young.
 * `EMPTY` held an object before it was emptied, so its copies are born with the elements kind object lists need
 * (small integers fit it too).
 */
export function workList<T>(): T[] {
  return EMPTY.slice() as T[];
}
const EMPTY: unknown[] = [null].slice(1);

/**
 * A copy of `items[0..n)` with no spare capacity. Short copies are array literals (allocation sites V8 can
 * pretenure); `slice` (whose result always starts in the young generation) for the rest.
 */
export function exactCopy<T>(items: T[], n: number): T[] {
  switch (n) {
    case 0:
      return [];
    case 1:
      return [items[0]!];
    case 2:
      return [items[0]!, items[1]!];
    case 3:
      return [items[0]!, items[1]!, items[2]!];
    default:
      return items.slice(0, n);
  }
}

// ---------------------------------------------------------------------------------------------
// Construction helpers

/** Creates an element; `attributes` may be given as a name→value record (no-namespace attributes). */
export function createElement(
  localName: string,
  attributes?: Record<string, string> | Attr[],
  namespaceURI: string = HTML_NS,
): Element {
  needString(localName, 'createElement', 'localName', true);
  needString(namespaceURI, 'createElement', 'namespaceURI', false);
  if (!ELEMENT_NAME.test(localName)) throw new InvalidCharacterError('createElement: invalid element name ' + JSON.stringify(localName));
  let attrs: Attr[];
  if (attributes === undefined || attributes === null) attrs = [];
  else if (Array.isArray(attributes)) {
    if (!attributes.every(isAttrLike)) throw new TypeError('createElement: an attribute list must hold Attr objects');
    for (const a of attributes) checkAttributeName(a.localName, 'createElement');
    attrs = attributes;
  } else if (typeof attributes === 'object') {
    attrs = Object.keys(attributes).map((k) => {
      needString(attributes[k], 'createElement', 'the value of attribute ' + JSON.stringify(k), false);
      checkAttributeName(k, 'createElement');
      return new Attr(k, attributes[k]!);
    });
  } else throw new TypeError('createElement: attributes must be a name→value record or a list of Attr objects, got ' + typeof attributes);
  return new Element(localName, namespaceURI, attrs);
}

export function createText(data: string): Text {
  needString(data, 'createText', 'data', false);
  return new Text(data);
}

export function createComment(data: string): Comment {
  needString(data, 'createComment', 'data', false);
  return new Comment(data);
}

export function createProcessingInstruction(target: string, data: string): ProcessingInstruction {
  needString(target, 'createProcessingInstruction', 'target', true);
  needString(data, 'createProcessingInstruction', 'data', false);
  if (!XML_NAME.test(target)) throw new InvalidCharacterError('createProcessingInstruction: invalid target ' + JSON.stringify(target));
  if (data.includes('?>')) throw new InvalidCharacterError('createProcessingInstruction: the data must not contain "?>"');
  return new ProcessingInstruction(target, data);
}

/** The construction helpers' argument check: a string (non-empty for a name), else a TypeError naming it. */
function needString(value: unknown, fn: string, what: string, name: boolean): void {
  if (typeof value !== 'string' || (name && value === '')) {
    throw new TypeError(fn + ': ' + what + ' must be a ' + (name ? 'non-empty ' : '') + 'string, got ' + (value === '' ? 'an empty string' : value === null ? 'null' : typeof value));
  }
}

export function createDocumentFragment(): DocumentFragment {
  return new DocumentFragment();
}

export function isElement(node: Node | null | undefined): node is Element {
  return node != null && node.nodeType === ELEMENT_NODE;
}

/** True for an element with the given local name in the HTML namespace. */
export function isHTMLElement(node: Node | null | undefined, localName?: string): node is Element {
  return (
    node != null &&
    node.nodeType === ELEMENT_NODE &&
    (node as Element).namespaceURI === HTML_NS &&
    (localName === undefined || (node as Element).localName === localName)
  );
}

/**
 * Visits every node below `root` in tree order, without recursion (deep trees are normal input).
 * Template contents are visited after the template's attributes, as the template's children.
 * Return `false` from `visit` to skip a node's descendants.
 */
export function walk(root: ParentNode, visit: (node: ChildNode, depth: number) => boolean | void): void {
  if (!isParentLike(root)) throw new TypeError('walk: root must be a Document, DocumentFragment or Element');
  if (typeof visit !== 'function') throw new TypeError('walk: visit must be a function');
  // (What `visit` throws goes out as it is: only the walk's own reads of the tree are the tree's fault.)
  let visiting = false;
  try {
    walkFrom(root, (node, depth) => {
      visiting = true;
      const r = visit(node, depth);
      visiting = false;
      return r;
    });
  } catch (e) {
    throw visiting ? e : malformedTree('walk', e);
  }
}

function walkFrom(root: ParentNode, visit: (node: ChildNode, depth: number) => boolean | void): void {
  const lists: ChildNode[][] = [childrenOf(root)];
  const index: number[] = [0];
  let onStack: Set<unknown> | null = null;
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top]!;
    const i = index[top]!;
    if (i >= list.length) {
      const done = lists.pop();
      index.pop();
      if (onStack !== null) onStack.delete(done);
      continue;
    }
    index[top] = i + 1;
    const node = list[i]!;
    if (visit(node, top) === false) continue;
    if (node.nodeType === ELEMENT_NODE) {
      const kids = childrenOf(node as Element);
      if (kids.length > 0) {
        if (top >= CYCLE_CHECK_DEPTH) onStack = noCycle('walk', lists, onStack, kids);
        lists.push(kids);
        index.push(0);
      }
    }
  }
}

/** childrenOf as the package exports it: the node checked first (the parser's and walks' own calls need no check). */
export function checkedChildrenOf(node: ParentNode): ChildNode[] {
  if (!isParentLike(node)) throw new TypeError('childrenOf: node must be a Document, DocumentFragment or Element');
  return childrenOf(node);
}

/** The children a tree walk descends into: a template's contents, otherwise `childNodes`. */
export function childrenOf(node: ParentNode): ChildNode[] {
  return node.nodeType === ELEMENT_NODE && (node as Element).content !== null
    ? (node as Element).content!.childNodes
    : node.childNodes;
}
