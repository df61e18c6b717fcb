/**
 * Seeded random edits of a parsed tree, of the kinds a policy or a hook can make: unwrap or drop elements, rename
 * them (also across namespaces and to names the parser would never produce), move subtrees, insert text, comments
 * and processing instructions with awkward data, add attributes with odd names, namespaces and duplicates.
 *
 * Used by test/reparse-safety.test.ts (our parser only) and test/browser/round-trip.test.ts (Chromium). All edits
 * are iterative (no recursion over the tree) and keep the tree a tree (no cycles, consistent `parentNode`).
 */
import {
  Attr,
  Comment,
  ELEMENT_NODE,
  Element,
  HTML_NS,
  MATHML_NS,
  ProcessingInstruction,
  SVG_NS,
  Text,
  XLINK_NS,
  XML_NS,
  XMLNS_NS,
  type ChildNode,
  type ParentNode,
} from '../src/dom.js';
import type { Rng } from './browser/generator.js';

/** Minimal RNG surface (test/browser/generator.ts's `Rng` satisfies it). */
type R = Pick<Rng, 'int' | 'chance' | 'pick' | 'range'>;

const HTML_RENAMES = [
  'p', 'div', 'a', 'form', 'li', 'ul', 'ol', 'dl', 'dd', 'dt', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th',
  'caption', 'colgroup', 'col', 'option', 'optgroup', 'select', 'h1', 'h2', 'h6', 'image', 'svg', 'math', 'noscript',
  'plaintext', 'script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'template', 'button',
  'nobr', 'b', 'i', 'font', 'span', 'pre', 'listing', 'input', 'hr', 'br', 'img', 'ruby', 'rb', 'rt', 'rtc', 'rp',
  'html', 'head', 'body', 'frameset', 'frame', 'meta', 'link', 'base', 'object', 'marquee', 'applet', 'address',
  'center', 'menu', 'search', 'main', 'summary', 'details', 'blockquote', 'fieldset', 'keygen', 'selectedcontent',
  'mglyph', 'malignmark', 'foreignObject', 'annotation-xml', 'mi', 'desc', 'my-el', 'x:y',
  // names the tokenizer cannot produce as written
  'DIV', 'Foo', 'P', 'a b', '1x', '', 'x/y', 'x>y', 'é', 'x\u0000',
];
const SVG_RENAMES = [
  'svg', 'g', 'path', 'foreignObject', 'foreignobject', 'desc', 'title', 'text', 'clipPath', 'clippath', 'a', 'script',
  'style', 'font', 'div', 'p', 'b', 'table', 'tr', 'td', 'li', 'br', 'span', 'img', 'math', 'mi', 'image', 'textarea',
  'noscript', 'plaintext', 'FOO', 'linearGradient', 'annotation-xml', 'template', 'select', 'option', 'x y', '',
];
const MATH_RENAMES = [
  'math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'mrow', 'annotation-xml', 'annotation', 'mglyph', 'malignmark', 'svg',
  'semantics', 'p', 'div', 'b', 'font', 'table', 'td', 'tr', 'foreignObject', 'style', 'script', 'Mi', 'a', 'option',
];

const TEXTS = [
  'x', 'hello', ' ', '\n', '\nlead', '\n\nx', '\r', '\r\n', 'a\rb', '\u0000', 'a\u0000b', '', '&', '<', '>', '&amp;',
  '<b>x</b>', '</script>', '</style>', '</textarea>', '</title>', '</xmp>', '</noscript>', '<!--', '-->', '<!--<script>',
  '</script x>', '\u00a0', '\uFEFF', '\uD800', 'x</', '</plaintext>', '<p>', ' \t\n', '\f', '</iframe>', '</noembed>',
  '</noframes>', '<script>', '<![CDATA[x]]>',
];
const COMMENTS = [
  'x', '', '-->', 'a-->b', '--!>', 'a--!>b', '--', '-', '>', '->', '<!--', 'a--', '<!-', 'x-', '--x', '<!--->', '\u0000',
  ' -- ', '--!', '-!>', 'a\rb', '<!', '---', 'a<!--b-->c',
];
const PI_TARGETS = ['x', 'xml', 'xml-stylesheet', 'php', 'a-b', 'x y', '', '>', 'a?', 'x\u0000', '-x', 'é'];
const PI_DATA = ['', 'data', '>', 'a>b', ' lead', '  ', '?', 'a?', 'a?>b', '\tx', '\u0000', 'x\ry', '<b>', '-->', ' >'];
const ATTR_NAMES = [
  'id', 'class', 'title', 'href', 'type', 'encoding', 'color', 'face', 'size', 'selected', 'multiple', 'value',
  'a b', 'x"y', "x'y", '', 'A', 'Id', 'x=y', '=x', 'x/y', 'x>y', 'x\u0000', 'é', 'viewbox', 'viewBox', 'VIEWBOX',
  'definitionurl', 'definitionURL', 'xlink:href', 'xml:lang', 'xmlns', 'xmlns:xlink', 'foo:bar', 'refX', 'is',
  'shadowrootmode', '<', '"', 'data-x', 'onclick',
];
const ATTR_VALUES = [
  '', 'x', 'hidden', 'HIDDEN', ' hidden', 'text/html', 'TEXT/HTML', 'application/xhtml+xml', 'red', '3', 'a"b', "a'b",
  'a&b', '&amp;', '<', '>', '\u0000', 'a\rb', '\r\n', '\n', '`', '\u00a0', 'javascript:alert(1)',
];

/** All nodes below `root` (template contents included), with their parents, in tree order, iteratively. */
export function collectNodes(root: ParentNode): { node: ChildNode; parent: ParentNode }[] {
  const out: { node: ChildNode; parent: ParentNode }[] = [];
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    const list = childList(p);
    const host = listOwner(p);
    for (let i = list.length - 1; i >= 0; i--) {
      const n = list[i]!;
      out.push({ node: n, parent: host });
      if (n.nodeType === ELEMENT_NODE) stack.push(n as Element);
    }
  }
  return out;
}

function childList(p: ParentNode): ChildNode[] {
  return p.nodeType === ELEMENT_NODE && (p as Element).content !== null ? (p as Element).content!.childNodes : p.childNodes;
}

/** The node that is the `parentNode` of the entries of `childList(p)`. */
function listOwner(p: ParentNode): ParentNode {
  return p.nodeType === ELEMENT_NODE && (p as Element).content !== null ? (p as Element).content! : p;
}

function detach(node: ChildNode, parent: ParentNode): number {
  const list = parent.childNodes;
  const i = list.indexOf(node);
  if (i >= 0) list.splice(i, 1);
  node.parentNode = null;
  return i;
}

function insertInto(target: ParentNode, index: number, nodes: ChildNode[]): void {
  const list = childList(target);
  const owner = listOwner(target);
  const at = Math.max(0, Math.min(index, list.length));
  list.splice(at, 0, ...nodes);
  for (const n of nodes) n.parentNode = owner;
}

function randomNamespacedName(rng: R): { name: string; ns: string } {
  const r = rng.int(20);
  if (r < 13) return { name: rng.pick(HTML_RENAMES), ns: HTML_NS };
  if (r < 17) return { name: rng.pick(SVG_RENAMES), ns: SVG_NS };
  if (r < 19) return { name: rng.pick(MATH_RENAMES), ns: MATHML_NS };
  return { name: rng.pick(['x', 'div', 'svg']), ns: 'urn:x-other' };
}

function randomAttr(rng: R): Attr {
  const value = rng.pick(ATTR_VALUES);
  const r = rng.int(12);
  if (r === 0) return new Attr('href', value, XLINK_NS, rng.pick(['xlink', 'xl', null]));
  if (r === 1) return new Attr(rng.pick(['lang', 'space', 'base']), value, XML_NS, rng.pick(['xml', null]));
  if (r === 2) return new Attr(rng.pick(['xmlns', 'xlink', 'foo']), value, XMLNS_NS, rng.pick(['xmlns', null]));
  if (r === 3) return new Attr(rng.pick(['bar', 'href']), value, 'urn:x-other', rng.pick(['foo', null]));
  return new Attr(rng.pick(ATTR_NAMES), value);
}

function makeElement(rng: R): Element {
  const { name, ns } = randomNamespacedName(rng);
  const el = new Element(name, ns, []);
  if (rng.chance(0.3)) el.attributes.push(randomAttr(rng));
  if (rng.chance(0.3)) el.childNodes.push(Object.assign(new Text(rng.pick(TEXTS)), { parentNode: el }));
  return el;
}

function descendantsAndSelf(node: ChildNode): Set<ParentNode> {
  const set = new Set<ParentNode>();
  if (node.nodeType !== ELEMENT_NODE) return set;
  const stack: Element[] = [node as Element];
  while (stack.length > 0) {
    const el = stack.pop()!;
    set.add(el);
    if (el.content !== null) set.add(el.content);
    for (const k of el.childNodes) if (k.nodeType === ELEMENT_NODE) stack.push(k as Element);
    if (el.content !== null) for (const k of el.content.childNodes) if (k.nodeType === ELEMENT_NODE) stack.push(k as Element);
  }
  return set;
}

/** The names of the edits, for statistics. */
export const EDIT_KINDS = [
  'unwrap', 'drop', 'rename', 'move', 'insert-element', 'text', 'comment', 'pi', 'attribute', 'template-child',
  'void-child', 'split-text', 'wrap-same', 'wrap-foreign', 'semantic-attribute',
] as const;

/** Wrappers whose nesting the parser restricts, and foreign wrappers (integration points and their roots). */
const NESTING = ['p', 'a', 'li', 'dd', 'dt', 'form', 'button', 'nobr', 'select', 'option', 'optgroup', 'h1', 'table', 'tr', 'td', 'ruby', 'rt', 'template'];
const FOREIGN_WRAPPERS: [string, string, Attr[]][] = [
  ['svg', SVG_NS, []], ['foreignObject', SVG_NS, []], ['desc', SVG_NS, []], ['g', SVG_NS, []], ['math', MATHML_NS, []],
  ['mi', MATHML_NS, []], ['mtext', MATHML_NS, []], ['annotation-xml', MATHML_NS, []], ['mrow', MATHML_NS, []],
];
export type EditKind = (typeof EDIT_KINDS)[number];

/** Applies one random edit to the tree below `root`; returns its kind. */
export function randomEdit(rng: R, root: ParentNode): EditKind {
  const all = collectNodes(root);
  const elements = all.filter((e) => e.node.nodeType === ELEMENT_NODE);
  const parents: ParentNode[] = [root, ...elements.map((e) => e.node as Element)];
  const kind = rng.pick(EDIT_KINDS);
  switch (kind) {
    case 'unwrap': {
      if (elements.length === 0) return kind;
      const { node, parent } = rng.pick(elements);
      const el = node as Element;
      const kids = el.content !== null ? [...el.content.childNodes, ...el.childNodes] : el.childNodes.slice();
      const at = detach(el, parent);
      el.childNodes.length = 0;
      if (el.content !== null) el.content.childNodes.length = 0;
      parent.childNodes.splice(at, 0, ...kids);
      for (const k of kids) k.parentNode = parent;
      return kind;
    }
    case 'drop': {
      if (all.length === 0) return kind;
      const { node, parent } = rng.pick(all);
      detach(node, parent);
      return kind;
    }
    case 'rename': {
      if (elements.length === 0) return kind;
      const el = rng.pick(elements).node as Element;
      const { name, ns } = randomNamespacedName(rng);
      // A template keeps its contents object; anything else must not have one.
      const wasTemplate = el.content !== null;
      el.localName = name;
      el.namespaceURI = ns;
      const isTemplate = name === 'template' && ns === HTML_NS;
      if (wasTemplate && !isTemplate) {
        for (const k of el.content!.childNodes) k.parentNode = el;
        el.childNodes.push(...el.content!.childNodes);
        el.content = null;
      } else if (!wasTemplate && isTemplate) {
        const tmp = new Element('template', HTML_NS, []);
        el.content = tmp.content;
        if (rng.chance(0.7)) {
          for (const k of el.childNodes) k.parentNode = el.content;
          el.content!.childNodes.push(...el.childNodes);
          el.childNodes.length = 0;
        }
      }
      if (rng.chance(0.1)) el.prefix = 'p';
      return kind;
    }
    case 'move': {
      if (all.length === 0) return kind;
      const { node, parent } = rng.pick(all);
      const banned = descendantsAndSelf(node);
      const targets = parents.filter((p) => !banned.has(p));
      if (targets.length === 0) return kind;
      detach(node, parent);
      const t = rng.pick(targets);
      insertInto(t, rng.int(childList(t).length + 1), [node]);
      return kind;
    }
    case 'insert-element': {
      const t = rng.pick(parents);
      const el = makeElement(rng);
      const list = childList(t);
      if (list.length > 0 && rng.chance(0.4)) {
        // Wrap a run of children.
        const a = rng.int(list.length);
        const b = Math.min(list.length, a + rng.range(1, 3));
        const run = list.splice(a, b - a);
        for (const k of run) k.parentNode = el.content ?? el;
        (el.content ?? el).childNodes.push(...run);
        insertInto(t, a, [el]);
      } else {
        insertInto(t, rng.int(list.length + 1), [el]);
      }
      return kind;
    }
    case 'text': {
      const t = rng.pick(parents);
      insertInto(t, rng.int(childList(t).length + 1), [new Text(rng.pick(TEXTS) + (rng.chance(0.3) ? rng.pick(TEXTS) : ''))]);
      return kind;
    }
    case 'comment': {
      const t = rng.pick(parents);
      insertInto(t, rng.int(childList(t).length + 1), [new Comment(rng.pick(COMMENTS))]);
      return kind;
    }
    case 'pi': {
      const t = rng.pick(parents);
      insertInto(t, rng.int(childList(t).length + 1), [new ProcessingInstruction(rng.pick(PI_TARGETS), rng.pick(PI_DATA))]);
      return kind;
    }
    case 'attribute': {
      if (elements.length === 0) return kind;
      const el = rng.pick(elements).node as Element;
      if (el.attributes.length > 0 && rng.chance(0.25)) {
        // A duplicate of an existing attribute (same name), or a changed value.
        const a = rng.pick(el.attributes);
        if (rng.chance(0.5)) el.attributes.push(new Attr(a.localName, rng.pick(ATTR_VALUES), a.namespaceURI, a.prefix));
        else a.value = rng.pick(ATTR_VALUES);
      } else {
        el.attributes.push(randomAttr(rng));
      }
      return kind;
    }
    case 'template-child': {
      // Children of a template element itself (not of its contents): DOM edits can make them.
      const templates = elements.filter((e) => (e.node as Element).content !== null);
      if (templates.length === 0) return kind;
      const el = rng.pick(templates).node as Element;
      const t = new Text('direct');
      t.parentNode = el;
      el.childNodes.push(t);
      return kind;
    }
    case 'void-child': {
      const voids = elements.filter((e) => (e.node as Element).namespaceURI === HTML_NS && ['br', 'img', 'input', 'hr', 'col', 'meta'].includes((e.node as Element).localName));
      if (voids.length === 0) return kind;
      const el = rng.pick(voids).node as Element;
      const t = new Text('in-void');
      t.parentNode = el;
      el.childNodes.push(t);
      return kind;
    }
    case 'wrap-same': {
      // An element inside another of the same name (or a restricted pair), possibly with something in between.
      if (elements.length === 0) return kind;
      const { node, parent } = rng.pick(elements);
      const inner = node as Element;
      const name = rng.chance(0.5) && inner.namespaceURI === HTML_NS ? inner.localName : rng.pick(NESTING);
      const outer = new Element(name, HTML_NS, []);
      const at = detach(inner, parent);
      let holder: Element = outer;
      if (rng.chance(0.4)) {
        const mid = new Element(rng.pick(['div', 'span', 'button', 'ul', 'table', 'object', 'marquee', 'template', 'svg', 'em']), rng.chance(0.8) ? HTML_NS : SVG_NS, []);
        (outer.content ?? outer).childNodes.push(mid);
        mid.parentNode = outer.content ?? outer;
        holder = mid;
      }
      (holder.content ?? holder).childNodes.push(inner);
      inner.parentNode = holder.content ?? holder;
      parent.childNodes.splice(Math.max(0, at), 0, outer);
      outer.parentNode = parent;
      return kind;
    }
    case 'wrap-foreign': {
      const t = rng.pick(parents);
      const list = childList(t);
      const [name, ns] = rng.pick(FOREIGN_WRAPPERS);
      const attrs = name === 'annotation-xml' && rng.chance(0.5) ? [new Attr('encoding', rng.pick(['text/html', 'application/xhtml+xml', 'TEXT/HTML', 'text/xml']))] : [];
      const w = new Element(name, ns, attrs);
      const a = rng.int(list.length + 1);
      const b = Math.min(list.length, a + rng.range(0, 3));
      const run = list.splice(a, b - a);
      for (const k of run) k.parentNode = w;
      w.childNodes.push(...run);
      insertInto(t, a, [w]);
      return kind;
    }
    case 'semantic-attribute': {
      // Attributes that change what the parser does with an element.
      if (elements.length === 0) return kind;
      const el = rng.pick(elements).node as Element;
      const [name, value] = rng.pick<[string, string]>([
        ['type', 'hidden'], ['type', 'HIDDEN'], ['type', 'text'], ['encoding', 'text/html'], ['encoding', 'application/xhtml+xml'],
        ['color', 'red'], ['face', 'x'], ['size', '3'], ['multiple', ''], ['selected', ''], ['is', 'x-y'],
      ]);
      el.attributes.push(new Attr(name, value));
      return kind;
    }
    case 'split-text': {
      // Adjacent and empty text nodes.
      const texts = all.filter((e) => e.node.nodeType === 3);
      if (texts.length === 0) return kind;
      const { node, parent } = rng.pick(texts);
      const text = node as Text;
      const cut = rng.int(text.data.length + 1);
      const rest = new Text(text.data.slice(cut));
      text.data = text.data.slice(0, cut);
      const list = parent.childNodes;
      list.splice(list.indexOf(text) + 1, 0, rest);
      rest.parentNode = parent;
      return kind;
    }
  }
}

/** Applies `n` random edits. */
export function randomEdits(rng: R, root: ParentNode, n: number): EditKind[] {
  const kinds: EditKind[] = [];
  for (let i = 0; i < n; i++) kinds.push(randomEdit(rng, root));
  return kinds;
}
