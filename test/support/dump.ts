/**
 * The html5lib tree-construction dump format (tree-construction/README.md of html5lib-tests), used to
 * compare our trees with the expected ones and with Chromium's (test/browser/).
 */
import {
  type Attr,
  type ChildNode,
  type DocumentType,
  type Element,
  type ParentNode,
  type ProcessingInstruction,
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
  XMLNS_NS,
} from '../../src/dom.js';

function elementName(el: Element): string {
  if (el.namespaceURI === SVG_NS) return 'svg ' + el.localName;
  if (el.namespaceURI === MATHML_NS) return 'math ' + el.localName;
  if (el.namespaceURI === HTML_NS) return el.localName;
  return el.namespaceURI + ' ' + el.localName;
}

function attributeName(a: Attr): string {
  switch (a.namespaceURI) {
    case null:
      return a.localName;
    case XLINK_NS:
      return 'xlink ' + a.localName;
    case XML_NS:
      return 'xml ' + a.localName;
    case XMLNS_NS:
      return 'xmlns ' + a.localName;
    default:
      return a.namespaceURI + ' ' + a.localName;
  }
}

/** Dumps the children of `root` (a Document, DocumentFragment or Element), one `| `-prefixed line per node. */
export function dumpTree(root: ParentNode): string {
  const out: string[] = [];
  // Explicit stack: (node list, next index, depth).
  const lists: ChildNode[][] = [root.childNodes];
  const index: number[] = [0];
  const depths: number[] = [0];
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top]!;
    const i = index[top]!;
    if (i >= list.length) {
      lists.pop();
      index.pop();
      depths.pop();
      continue;
    }
    index[top] = i + 1;
    const depth = depths[top]!;
    const node = list[i]!;
    const pad = '| ' + '  '.repeat(depth);
    switch (node.nodeType) {
      case ELEMENT_NODE: {
        const el = node as Element;
        out.push(pad + '<' + elementName(el) + '>');
        const attrs = el.attributes.map((a) => [attributeName(a), a.value] as const);
        attrs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        for (const [name, value] of attrs) out.push(pad + '  ' + name + '="' + value + '"');
        if (el.content !== null) {
          out.push(pad + '  content');
          lists.push(el.childNodes);
          index.push(0);
          depths.push(depth + 1);
          lists.push(el.content.childNodes);
          index.push(0);
          depths.push(depth + 2);
        } else {
          lists.push(el.childNodes);
          index.push(0);
          depths.push(depth + 1);
        }
        break;
      }
      case TEXT_NODE:
        out.push(pad + '"' + (node as { data: string }).data + '"');
        break;
      case COMMENT_NODE:
        out.push(pad + '<!-- ' + (node as { data: string }).data + ' -->');
        break;
      case PROCESSING_INSTRUCTION_NODE: {
        const pi = node as ProcessingInstruction;
        out.push(pad + '<?' + pi.target + ' ' + pi.data + '?>');
        break;
      }
      case DOCUMENT_TYPE_NODE: {
        const dt = node as DocumentType;
        if (dt.publicId !== '' || dt.systemId !== '') {
          out.push(pad + '<!DOCTYPE ' + dt.name + ' "' + dt.publicId + '" "' + dt.systemId + '">');
        } else {
          out.push(pad + '<!DOCTYPE ' + dt.name + '>');
        }
        break;
      }
    }
  }
  return out.join('\n');
}
