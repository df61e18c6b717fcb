/**
 * The HTML fragment serializer: HTML Standard, "Serializing HTML fragments" (§13.3), as it reads today
 * (2026) and as Chromium 156 implements it.
 *
 * Departures of today's algorithm from the old snapshots the project started from:
 * - Attribute values escape `<` and `>` too (whatwg/html "Escape "<" and ">" when serializing attribute
 *   values", 2025; Chromium, Gecko and WebKit ship it).
 * - Processing instructions end with `?>` (whatwg/html #12654, 2026), so data ending in `?` round-trips.
 * - Void elements serialize no children at all, even when a DOM edit gave them some (whatwg/html #4238).
 * - No extra LF after `pre` / `textarea` / `listing`: the old step "if the first child is a Text node whose
 *   data starts with U+000A, append a U+000A" was removed from the standard by whatwg/html #1815 (2016,
 *   after it broke CKEditor in Gecko; whatwg/html issue #944). Chromium 156 does not add it either (checked:
 *   a `pre` whose text is "\nx" has the outerHTML `<pre>\nx</pre>`), so we do not add it. Consequence,
 *   shared with every browser: such a leading LF is lost on a re-parse.
 *
 * Not applicable here: shadow roots (the tree model has none) and the `is` value of customized built-ins.
 *
 * The walk is iterative (a 100,000-deep tree must serialize). Text and attribute values that need no escaping
 * are written as they are, with no copy. The output's pieces go into a list, joined every `PARTS` pieces into
 * one flat string (those after the last full chunk are concatenated with `+=`, cheaper than a join for a short
 * output). Built with `+=` alone, the output was a rope, one heap object per piece: for a whole page, megabytes of
 * them, and each young-generation collection they brought on copied the tree being serialized (sanitize()
 * 1.06-1.07x faster on the corpus pages with the list). An escaped string is built with `+=` in chunks of `CHUNK_CHARS` characters,
 * each flattened when it is full (see rope.ts), so that a rope's pieces die young and what stays alive is one
 * flat string per chunk.
 */
import {
  CYCLE_CHECK_DEPTH,
  COMMENT_NODE,
  DOCUMENT_FRAGMENT_NODE,
  DOCUMENT_NODE,
  DOCUMENT_TYPE_NODE,
  ELEMENT_NODE,
  HTML_NS,
  MATHML_NS,
  PROCESSING_INSTRUCTION_NODE,
  SVG_NS,
  TEXT_NODE,
  XLINK_NS,
  XML_NS,
  XMLNS_NS,
  noCycle,
  workList,
} from './dom.js';
import { checkOptions } from './options.js';
import { flattenRope } from './rope.js';
import { CHUNK_CHARS, ESCAPE_ATTRIBUTE, ESCAPE_CR, LEADING_LF, NOSCRIPT, PARTS, RAW, VOID } from './serializer-constants.js';
import type {
  Attr,
  ChildNode,
  Comment,
  Document,
  DocumentFragment,
  DocumentType,
  Element,
  ProcessingInstruction,
  Text,
} from './dom.js';

export interface SerializeOptions {
  /**
   * Whether scripting is enabled for the nodes (default true, as in a browser). With scripting on, the
   * text of a `noscript` element is serialized unescaped, as raw text, except in template contents, for which
   * scripting is disabled (their node document has no browsing context) and which a template's serialization
   * reaches (a node of template contents given directly is taken to be in a document with scripting as given).
   */
  scripting?: boolean;
  /**
   * Round-trip mode (htmlsift's, beyond the standard; the sanitizer's output uses it): the markup is
   * written so that parsing it again gives exactly the same tree, where the standard's output would lose
   * something. These additions, all valid HTML: a DOCTYPE keeps its public and system identifiers (so the
   * document mode survives), a `pre`/`textarea`/`listing` whose text starts with a line feed gets the extra
   * line feed the parser drops after its start tag (not the element given to `serialize`, whose children's markup
   * reparses in its context, where that line feed is kept), and U+000D in text and attribute values is written
   * `&#13;` (a literal CR would come back as LF). Also, with scripting on, a `noscript` in template contents keeps
   * its text literal: the standard escapes it there, but the parser reads it as raw text.
   */
  roundTrip?: boolean;
}

/**
 * "Serializes as void" (§13.3): the void elements (area, base, br, col, embed, hr, img, input, link,
 * meta, source, track, wbr) plus the legacy basefont, bgsound, frame, keygen and param. Only HTML
 * elements: an `svg:img` or a custom-namespace `br` gets an end tag, as in browsers.
 */
export const SERIALIZES_AS_VOID_NAMES = [
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
];

/** What an HTML element of a name is, for the serializer (see serializer-constants.ts). */
const KINDS = new Map<string, number>([['noscript', NOSCRIPT]]);
for (const name of SERIALIZES_AS_VOID_NAMES) KINDS.set(name, VOID);
for (const name of ['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']) KINDS.set(name, RAW);
for (const name of ['pre', 'textarea', 'listing']) KINDS.set(name, LEADING_LF);

/** The HTML fragment serialization algorithm (§13.3): the markup of `node`'s children (innerHTML). */
export function serialize(node: Document | DocumentFragment | Element, options?: SerializeOptions): string {
  checkOptions(options, 'serialize');
  return serializeWith(node, options, false);
}

/**
 * `serialize`, and for `sanitize()`, whose tree no one else holds, `release`: each node is let go of once the walk
 * reaches it (its slot in its parent's list emptied; an open element stays in the walk's frames until its end tag),
 * so that the collections the output's strings bring on copy only the part of the tree still to be written (while
 * the tree is young, each one copied all of it). The tree is then unusable. The options are the caller's to check.
 */
export function serializeWith(node: Document | DocumentFragment | Element, options: SerializeOptions | undefined, release: boolean): string {
  const type = nodeTypeOf(node);
  if (type !== ELEMENT_NODE && type !== DOCUMENT_NODE && type !== DOCUMENT_FRAGMENT_NODE) {
    throw new TypeError('serialize: expected a Document, DocumentFragment or Element, got ' + describe(node));
  }
  const scripting = options?.scripting !== false;
  if (type === ELEMENT_NODE) {
    const el = node as Element;
    // Step 1: a node that serializes as void has no serialized children.
    if (serializesAsVoid(el)) return '';
    // Step 3: a template serializes its template contents.
    const kids = childListOf(el);
    const roundTrip = options?.roundTrip === true;
    // (Round-trip mode adds no line feed before the children of a pre, textarea or listing given here: their markup
    // is reparsed in the element's context, where the parser keeps a leading line feed; only after a start tag does
    // it drop one.) A template's contents are inert: scripting is disabled for them (see serializeChildren).
    return serializeChildren(kids, rawTextFor(el, scripting), scripting && (roundTrip || kids === el.childNodes), roundTrip, release);
  }
  return serializeChildren((node as Document | DocumentFragment).childNodes, false, scripting, options?.roundTrip === true, release);
}

/** The markup of `node` itself (outerHTML): the child-node steps of §13.3 applied to the one node. */
export function serializeOuter(node: ChildNode, options?: SerializeOptions): string {
  const type = nodeTypeOf(node);
  checkOptions(options, 'serializeOuter');
  const scripting = options?.scripting !== false;
  if (type === TEXT_NODE) {
    // A Text node is written as its parent would write it: literally under a raw-text element.
    const parent = node.parentNode;
    const raw = parent !== null && parent.nodeType === ELEMENT_NODE && rawTextFor(parent as Element, scripting);
    return serializeChildren([node], raw, scripting, options?.roundTrip === true);
  }
  if (type === ELEMENT_NODE || type === COMMENT_NODE || type === PROCESSING_INSTRUCTION_NODE || type === DOCUMENT_TYPE_NODE) {
    return serializeChildren([node], false, scripting, options?.roundTrip === true);
  }
  throw new TypeError(
    'serializeOuter: expected an Element, Text, Comment, ProcessingInstruction or DocumentType, got ' + describe(node),
  );
}

/**
 * The loop of the fragment serialization algorithm over `children`, descending into elements with an
 * explicit stack instead of recursion. `rawText` says whether the top-level Text nodes are serialized
 * literally (their parent is a raw-text element).
 */
function serializeChildren(children: readonly ChildNode[], rawText: boolean, scripting: boolean, roundTrip: boolean, release = false): string {
  // Taken while a walk runs: a walk inside it makes its own.
  const frames = spareFrames ?? new Frames();
  spareFrames = null;
  try {
    return walkChildren(frames, children, rawText, scripting, roundTrip, release);
  } finally {
    frames.clear();
    spareFrames = frames;
  }
}

/**
 * The walk's stack of frames: for each open element's parent, its child list, the index to go on from, whether its
 * Text children are raw, and its end tag (the open element's own frame is in the walk's locals). Parallel arrays
 * written at the depth (no object per element, no push or pop). One set serves every call (`spareFrames`): their
 * arrays, made per call, were a sixth of what sanitizing a comment-sized input allocated. A walk that starts while
 * another has them (from a getter of a node class made by a user, say) gets its own.
 * @internal (see scripts/internal-names.ts: its members' names are shortened in the published build)
 */
class Frames {
  /** The end tag of each level's element ('' at the bottom). */
  readonly ends: string[] = [''];
  readonly lists: (readonly ChildNode[])[] = [NO_NODES];
  readonly indexes: number[] = [0];
  readonly raws: boolean[] = [false];
  /** The open elements below CYCLE_CHECK_DEPTH, by level less CYCLE_CHECK_DEPTH (see the cycle check in walkChildren). */
  readonly elements: (Element | null)[] = [null];

  /**
   * What a walk left (a walk that threw leaves more), so that no frame keeps a node or a parsed input alive. The
   * arrays keep their storage (V8 would drop it with a shorter `length`) unless a deep walk made them long.
   */
  clear(): void {
    const lists = this.lists;
    const ends = this.ends;
    if (lists.length > 256) {
      this.elements.length = ends.length = lists.length = this.indexes.length = this.raws.length = 1;
    } else {
      for (let k = 1; k < lists.length; k++) {
        lists[k] = NO_NODES;
        ends[k] = '';
      }
    }
    lists[0] = NO_NODES;
  }
}
const NO_NODES: readonly ChildNode[] = [];
let spareFrames: Frames | null = new Frames();

function walkChildren(frames: Frames, children: readonly ChildNode[], rawText: boolean, scripting: boolean, roundTrip: boolean, release: boolean): string {
  // The output is `out` (joined chunks) then parts[0..n) (the chunk being built; a list that starts young, see
  // workList).
  let out = '';
  const parts: string[] = workList();
  let n = 0;
  // The flags as values TurboFan knows to be booleans: a parameter's is tested as any value would be (is it false,
  // '', 0, a number, a bigint?) at every use, in this loop once per node.
  release = !!release;
  roundTrip = !!roundTrip;
  scripting = !!scripting;
  const ends = frames.ends;
  const lists = frames.lists;
  const indexes = frames.indexes;
  const raws = frames.raws;
  const elements = frames.elements;
  // The frame of the innermost open element (level `top`), in locals: its child list, the next index, whether its Text
  // children are raw, and its end tag. Level 0 is `children`.
  let list = children;
  let i = 0;
  // (Compared with true: a value V8 knows is a boolean, tested without ToBoolean at every Text node.)
  let raw = rawText === true;
  let end = '';
  let top = 0;
  // From CYCLE_CHECK_DEPTH levels down, the open elements from there on, kept in a set: a cycle makes the depth grow
  // without end, and repeats its elements there, which turns it into an error instead of a hang. Shallow trees pay
  // nothing.
  let onStack: Set<unknown> | null = null;
  // Scripting is disabled for the nodes of template contents (§13.3 "scripting is enabled for a node": their node
  // document has no browsing context), so there a noscript's text is escaped. Round-trip mode keeps it literal, as
  // the parser with scripting on reads it. `inert` is the level of the template contents for which `scripting`
  // was last turned off.
  let inert = -1;
  for (;;) {
    if (n >= PARTS) {
      // (n is PARTS or a piece or two more; a longer earlier chunk may have left pieces past n.)
      parts.length = n;
      out += parts.join('');
      n = 0;
    }
    if (i >= list.length) {
      if (top === 0) break;
      parts[n++] = end;
      if (top > CYCLE_CHECK_DEPTH) {
        onStack!.delete(elements[top - CYCLE_CHECK_DEPTH]);
        elements[top - CYCLE_CHECK_DEPTH] = null;
      }
      // Leaving the template contents (`inert` may stay: scripting was on before, so this only ever turns it on).
      if (top-- === inert) scripting = true;
      list = lists[top]!;
      i = indexes[top]!;
      raw = raws[top] === true;
      end = ends[top]!;
      continue;
    }
    const child = list[i]!;
    if (release) (list as unknown[])[i] = null;
    i++;
    // (Read here, not through nodeTypeOf: that one function reads every kind of node, the documents and fragments
    // given to serialize too, which made its load megamorphic.)
    switch (child !== null && typeof child === 'object' ? child.nodeType : -1) {
      case ELEMENT_NODE: {
        const el = child as Element;
        // serializationTagName, serializesAsVoid, childListOf and rawTextFor with their common case (an HTML
        // element) taken inline, and what is written for the name, and what the name is, in one lookup (tagFor):
        // this loop runs once per node of every sanitized document.
        const localName = el.localName;
        const isHTML = el.namespaceURI === HTML_NS;
        const tag = tagFor(isHTML ? localName : serializationTagName(el));
        // What an HTML element of this name is; nothing for the others.
        const kind = isHTML ? tag.kind : 0;
        const attrs = el.attributes;
        if (attrs.length === 0) parts[n++] = tag.start;
        else {
          let startTag = tag.open;
          for (let a = 0; a < attrs.length; a++) {
            const attr = attrs[a]!;
            const name = attr.namespaceURI === null ? attr.localName : serializedAttributeName(attr);
            startTag += attributePrefix(name) + escapeValue(attr.value, roundTrip ? ESCAPE_ATTRIBUTE | ESCAPE_CR : ESCAPE_ATTRIBUTE) + '"';
          }
          parts[n++] = startTag + '>';
        }
        if (kind !== 0) {
          if (kind === VOID) break;
          // (The walk knows the element is an HTML pre, textarea or listing: the parser drops a line feed right after its
          // start tag.)
          if (kind === LEADING_LF && roundTrip && startsWithLineFeed(el.childNodes)) parts[n++] = '\n';
        }
        const content = el.content;
        const kids = isHTML && content !== null && localName === 'template' ? content.childNodes : el.childNodes;
        if (kids.length === 0) {
          parts[n++] = tag.end;
          break;
        }
        // The frame of the element's parent is saved; the element's own goes in the locals.
        lists[top] = list;
        indexes[top] = i;
        raws[top] = raw;
        ends[top] = end;
        top++;
        if (top > CYCLE_CHECK_DEPTH) {
          onStack = noCycle('serialize', NO_NODES, onStack, el);
          elements[top - CYCLE_CHECK_DEPTH] = el;
        }
        list = kids;
        i = 0;
        raw = kind === RAW || (kind === NOSCRIPT && scripting);
        end = tag.end;
        if (scripting && !roundTrip && kids !== el.childNodes) (scripting = false), (inert = top);
        break;
      }
      case TEXT_NODE: {
        const data = (child as Text).data;
        parts[n++] = raw ? data : escapeValue(data, roundTrip ? ESCAPE_CR : 0);
        break;
      }
      case COMMENT_NODE:
        parts[n++] = '<!--' + (child as Comment).data + '-->';
        break;
      case PROCESSING_INSTRUCTION_NODE: {
        const pi = child as ProcessingInstruction;
        parts[n++] = '<?' + pi.target + ' ' + pi.data + '?>';
        break;
      }
      case DOCUMENT_TYPE_NODE:
        parts[n++] = roundTrip ? doctypeWithIdentifiers(child as DocumentType) : '<!DOCTYPE ' + (child as DocumentType).name + '>';
        break;
      default:
        throw new TypeError('serialize: unexpected child node ' + describe(child));
    }
  }
  let last = '';
  for (let k = 0; k < n; k++) last += parts[k]!;
  return out + last;
}

/**
 * What the walk writes for an element of one tag name (`<name>`, `<name` before attributes, `</name>`) and, for an
 * HTML element of that name, what it is (`kind`, see KINDS; the walk ignores it for other namespaces): made once per
 * name instead of by concatenations per element, with the name's lookup in KINDS (the serializer's main cost was these
 * small strings and lookups; one lookup per element instead of four: bench:ab 1.027x on the corpus pages).
 */
interface Tag {
  readonly start: string;
  readonly open: string;
  readonly end: string;
  readonly kind: number;
}

/**
 * The tag records and the ` name="` pieces of attributes, by name. Bounded, so that no input can make the caches hold
 * much: a cache of more than 512 names is emptied, and names over 12 characters are not cached (V8 makes a substring
 * of 13 or more code units a view of the string it was cut from: a cached name sliced from a parsed input would keep
 * all of that input alive).
 */
const tags = new Map<string, Tag>();
const attributePrefixes = new Map<string, string>();

function tagFor(name: string): Tag {
  let t = tags.get(name);
  if (t === undefined) {
    t = {
      start: '<' + name + '>',
      open: '<' + name,
      end: '</' + name + '>',
      kind: KINDS.get(name) ?? 0,
    };
    if (name.length > 12) return t;
    if (tags.size > 512) tags.clear();
    tags.set(name, t);
  }
  return t;
}

function attributePrefix(name: string): string {
  let t = attributePrefixes.get(name);
  if (t === undefined) {
    t = ' ' + name + '="';
    if (name.length > 12) return t;
    if (attributePrefixes.size > 512) attributePrefixes.clear();
    attributePrefixes.set(name, t);
  }
  return t;
}

/** Whether the first of `kids` is a Text node whose data starts with a line feed. */
function startsWithLineFeed(kids: readonly ChildNode[]): boolean {
  const first = kids.length > 0 ? kids[0]! : null;
  return first !== null && first.nodeType === TEXT_NODE && (first as Text).data.charCodeAt(0) === 0x0a;
}

/** Round-trip mode: a DOCTYPE with its identifiers, as the tokenizer reads them back (quirks mode included). */
function doctypeWithIdentifiers(dt: DocumentType): string {
  const quote = (v: string): string => (v.indexOf('"') < 0 ? '"' + v + '"' : "'" + v + "'");
  if (dt.publicId !== '') {
    return '<!DOCTYPE ' + dt.name + ' PUBLIC ' + quote(dt.publicId) + (dt.systemId !== '' ? ' ' + quote(dt.systemId) : '') + '>';
  }
  if (dt.systemId !== '') return '<!DOCTYPE ' + dt.name + ' SYSTEM ' + quote(dt.systemId) + '>';
  return '<!DOCTYPE ' + dt.name + '>';
}

/** "Serializes as void" (§13.3). */
export function serializesAsVoid(el: Element): boolean {
  return el.namespaceURI === HTML_NS && KINDS.get(el.localName) === VOID;
}

/** Whether the Text children of `el` are serialized literally (§13.3, the Text node case). */
function rawTextFor(el: Element, scripting: boolean): boolean {
  return el.namespaceURI === HTML_NS && htmlRawTextParent(el.localName, scripting);
}

/** Whether the Text children of an HTML element with this local name are serialized literally. */
export function htmlRawTextParent(localName: string, scripting: boolean): boolean {
  const kind = KINDS.get(localName);
  return kind === RAW || (scripting && kind === NOSCRIPT);
}

/** The children the algorithm serializes: an HTML template's template contents, else the child nodes. */
function childListOf(el: Element): readonly ChildNode[] {
  const content = el.content;
  return content !== null && el.localName === 'template' && el.namespaceURI === HTML_NS
    ? content.childNodes
    : el.childNodes;
}

/** The tag name written for an element (§13.3): local name in the HTML, MathML and SVG namespaces, else the qualified name. */
function serializationTagName(el: Element): string {
  const ns = el.namespaceURI;
  if (ns === HTML_NS || ns === SVG_NS || ns === MATHML_NS || el.prefix === null) return el.localName;
  return el.prefix + ':' + el.localName;
}

/** "The attribute's serialized name" (§13.3). */
export function serializedAttributeName(attr: Attr): string {
  const ns = attr.namespaceURI;
  if (ns === null) return attr.localName;
  if (ns === XML_NS) return 'xml:' + attr.localName;
  if (ns === XMLNS_NS) return attr.localName === 'xmlns' ? 'xmlns' : 'xmlns:' + attr.localName;
  if (ns === XLINK_NS) return 'xlink:' + attr.localName;
  return attr.prefix === null ? attr.localName : attr.prefix + ':' + attr.localName;
}

/**
 * "Escaping a string" (§13.3), not in attribute mode: `&` → `&amp;`, U+00A0 → `&nbsp;`, `<` → `&lt;`,
 * `>` → `&gt;`. Returns `str` itself when nothing needs escaping.
 */
export function escapeText(str: string): string {
  return escapeValue(str, 0);
}

/**
 * "Escaping a string" (§13.3) in attribute mode: as in text, plus `"` → `&quot;` (today's standard
 * escapes `<` and `>` in attribute values as well).
 */
export function escapeAttributeValue(str: string): string {
  return escapeValue(str, ESCAPE_ATTRIBUTE);
}

function escapeValue(str: string, mode: number): string {
  if (typeof str !== 'string') {
    throw new TypeError('serialize: ' + (mode & ESCAPE_ATTRIBUTE ? 'attribute values must be strings' : 'text data must be a string') + ', got ' + typeof str);
  }
  return escapeString(str, mode);
}

/**
 * The characters escapeString may escape, for its first scan of a string longer than a few characters (a regular
 * expression scans faster than a loop of charCodeAt). U+000D is in both, for ESCAPE_CR: without that mode the
 * loop just passes over it.
 */
const TEXT_SPECIAL = /[&<>\u00a0\r]/g;
const ATTRIBUTE_SPECIAL = /[&<>"\u00a0\r]/g;

/**
 * Both modes of "escaping a string" (and ESCAPE_CR): finds the first character to escape (with TEXT_SPECIAL or
 * ATTRIBUTE_SPECIAL past 8 characters: most strings have none and are returned as they are), then copies the runs
 * between the escaped characters.
 */
function escapeString(str: string, mode: number): string {
  // (`'' + str`: a value V8 knows is a string, whose length it reads as such; `str.length` was a megamorphic load, the
  // strings here having many representations.)
  const n = ('' + str).length;
  const attributeMode = (mode & ESCAPE_ATTRIBUTE) !== 0;
  const cr = (mode & ESCAPE_CR) !== 0;
  let i = 0;
  if (n > 8) {
    const special = attributeMode ? ATTRIBUTE_SPECIAL : TEXT_SPECIAL;
    special.lastIndex = 0;
    if (!special.test(str)) return str;
    // The loop below starts at the first match.
    i = special.lastIndex - 1;
  }
  for (; i < n; i++) {
    const c = str.charCodeAt(i);
    // Letters and everything else above `>` take one comparison more than the U+00A0 test.
    if (c > 0x3e ? c === 0xa0 : c === 0x26 || c === 0x3c || c === 0x3e || (c === 0x22 && attributeMode) || (c === 0x0d && cr)) break;
  }
  if (i === n) return str;
  // As in serializeChildren: `out` (flattened chunks), then `chunk`.
  let out = '';
  let chunk = str.slice(0, i);
  let runStart = i;
  for (; i < n; i++) {
    let rep: string;
    switch (str.charCodeAt(i)) {
      case 0x26: rep = '&amp;'; break;
      case 0x3c: rep = '&lt;'; break;
      case 0x3e: rep = '&gt;'; break;
      case 0xa0: rep = '&nbsp;'; break;
      case 0x22:
        if (!attributeMode) continue;
        rep = '&quot;';
        break;
      case 0x0d:
        if (!cr) continue;
        rep = '&#13;';
        break;
      default: continue;
    }
    if (runStart < i) chunk += str.slice(runStart, i);
    chunk += rep;
    runStart = i + 1;
    if (chunk.length >= CHUNK_CHARS) {
      out += flattenRope(chunk);
      chunk = '';
    }
  }
  if (runStart < n) chunk += str.slice(runStart);
  return out + chunk;
}

/** `node.nodeType`, or -1 for something that is not a node at all (null, a string, a plain object). */
function nodeTypeOf(node: unknown): number {
  if (node === null || typeof node !== 'object') return -1;
  const t = (node as { nodeType?: unknown }).nodeType;
  return typeof t === 'number' ? t : -1;
}

function describe(node: unknown): string {
  if (node === null) return 'null';
  if (typeof node !== 'object') return typeof node;
  const t = (node as { nodeType?: unknown }).nodeType;
  return typeof t === 'number' ? 'a node of type ' + t : 'an object that is not a node';
}
