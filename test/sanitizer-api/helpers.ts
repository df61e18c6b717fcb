/**
 * Test helpers for the Sanitizer API suites: build trees by hand and show them as compact markup.
 *
 * `show` writes names with their namespace (`svg:a`, `math:mi`, attributes `xlink:href`), text as it is, and
 * template contents inside the template, so that assertions see exactly what the sanitizer kept.
 */
import {
  Attr,
  COMMENT_NODE,
  DOCUMENT_TYPE_NODE,
  ELEMENT_NODE,
  HTML_NS,
  MATHML_NS,
  PROCESSING_INSTRUCTION_NODE,
  SVG_NS,
  TEXT_NODE,
  XLINK_NS,
  XML_NS,
  createComment,
  createDocumentFragment,
  createElement,
  createText,
  type ChildNode,
  type DocumentFragment,
  type DocumentType,
  type Element,
  type ParentNode,
  type ProcessingInstruction,
} from '../../src/dom.js';

type Child = ChildNode | string;

function namespaceOf(prefixed: string): [string, string] {
  if (prefixed.startsWith('svg:')) return [SVG_NS, prefixed.slice(4)];
  if (prefixed.startsWith('math:')) return [MATHML_NS, prefixed.slice(5)];
  return [HTML_NS, prefixed];
}

function attrsOf(attrs: Record<string, string> | null | undefined): Attr[] {
  const out: Attr[] = [];
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (k.startsWith('xlink:')) out.push(new Attr(k.slice(6), v, XLINK_NS, 'xlink'));
    else if (k.startsWith('xml:')) out.push(new Attr(k.slice(4), v, XML_NS, 'xml'));
    else out.push(new Attr(k, v));
  }
  return out;
}

/** An element: `h('p', { title: 'x' }, 'text', h('b'))`; `svg:` / `math:` prefixes pick the namespace. */
export function h(name: string, attrs?: Record<string, string> | null, ...children: Child[]): Element {
  const [ns, local] = namespaceOf(name);
  const el = createElement(local, attrsOf(attrs), ns);
  const target = el.content ?? el;
  for (const c of children) target.appendChild(typeof c === 'string' ? createText(c) : c);
  return el;
}

export function frag(...children: Child[]): DocumentFragment {
  const f = createDocumentFragment();
  for (const c of children) f.appendChild(typeof c === 'string' ? createText(c) : c);
  return f;
}

export const comment = createComment;

function elementName(el: Element): string {
  if (el.namespaceURI === SVG_NS) return 'svg:' + el.localName;
  if (el.namespaceURI === MATHML_NS) return 'math:' + el.localName;
  if (el.namespaceURI === HTML_NS) return el.localName;
  return `{${el.namespaceURI}}${el.localName}`;
}

function attrName(a: Attr): string {
  if (a.namespaceURI === null) return a.localName;
  if (a.namespaceURI === XLINK_NS) return 'xlink:' + a.localName;
  if (a.namespaceURI === XML_NS) return 'xml:' + a.localName;
  return `{${a.namespaceURI}}${a.localName}`;
}

/** The children of `root` as compact markup (iterative: works on 100,000-deep trees). */
export function show(root: ParentNode): string {
  let out = '';
  // Entries are nodes to open, or strings to emit (end tags).
  const stack: Array<ChildNode | string> = [];
  const pushChildren = (list: ChildNode[]): void => {
    for (let i = list.length - 1; i >= 0; i--) stack.push(list[i]!);
  };
  pushChildren(root.nodeType === ELEMENT_NODE && (root as Element).content !== null ? (root as Element).content!.childNodes : root.childNodes);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (typeof n === 'string') {
      out += n;
      continue;
    }
    switch (n.nodeType) {
      case ELEMENT_NODE: {
        const el = n as Element;
        const name = elementName(el);
        out += '<' + name;
        for (const a of el.attributes) out += ` ${attrName(a)}="${a.value}"`;
        out += '>';
        stack.push(`</${name}>`);
        pushChildren(el.childNodes);
        if (el.content !== null) pushChildren(el.content.childNodes);
        break;
      }
      case TEXT_NODE:
        out += (n as { data: string }).data;
        break;
      case COMMENT_NODE:
        out += `<!--${(n as { data: string }).data}-->`;
        break;
      case PROCESSING_INSTRUCTION_NODE:
        out += `<?${(n as ProcessingInstruction).target} ${(n as ProcessingInstruction).data}?>`;
        break;
      case DOCUMENT_TYPE_NODE:
        out += `<!DOCTYPE ${(n as DocumentType).name}>`;
        break;
    }
  }
  return out;
}

/** Checks that every node below `root` points at its parent (the sanitizer re-links moved children). */
export function parentLinksConsistent(root: ParentNode): boolean {
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const c of p.childNodes) {
      if (c.parentNode !== p) return false;
      if (c.nodeType === ELEMENT_NODE) {
        stack.push(c as Element);
        if ((c as Element).content !== null) stack.push((c as Element).content!);
      }
    }
  }
  return true;
}
