/**
 * Tag and attribute names the tokenizer hands out as shared strings.
 *
 * The tag name state and the attribute name state read a name as a range of the input. For the names that
 * make up nearly all real markup, the tokenizer looks the range up here instead of slicing it: no string is
 * allocated per tag or attribute, and every element of one name holds the same string (whose hash V8 has
 * already computed, which makes the tree builder's lookups by name cheaper too). Other names are sliced
 * as before. Lookup is ASCII case-insensitive, since both states lower-case ASCII letters.
 */

const NAMES = [
  // HTML elements
  'a', 'abbr', 'address', 'area', 'article', 'aside', 'audio', 'b', 'base', 'bdi', 'bdo', 'blockquote', 'body',
  'br', 'button', 'canvas', 'caption', 'center', 'cite', 'code', 'col', 'colgroup', 'data', 'datalist', 'dd',
  'del', 'details', 'dfn', 'dialog', 'div', 'dl', 'dt', 'em', 'embed', 'fieldset', 'figcaption', 'figure', 'font',
  'footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr',
  'html', 'i', 'iframe', 'img', 'input', 'ins', 'kbd', 'label', 'legend', 'li', 'link', 'main', 'map', 'mark',
  'menu', 'meta', 'meter', 'nav', 'nobr', 'noscript', 'object', 'ol', 'optgroup', 'option', 'output', 'p',
  'param', 'picture', 'pre', 'progress', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'script', 'search', 'section',
  'select', 'selectedcontent', 'slot', 'small', 'source', 'span', 'strike', 'strong', 'style', 'sub', 'summary',
  'sup', 'table', 'tbody', 'td', 'template', 'textarea', 'tfoot', 'th', 'thead', 'time', 'title', 'tr', 'track',
  'tt', 'u', 'ul', 'var', 'video', 'wbr',
  // SVG and MathML elements (lower-case, as the tokenizer reads them; the tree builder adjusts the case)
  'svg', 'path', 'g', 'circle', 'rect', 'line', 'polygon', 'polyline', 'ellipse', 'use', 'defs', 'symbol',
  'math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'mrow',
  // Attributes
  'id', 'class', 'style', 'href', 'src', 'srcset', 'sizes', 'alt', 'title', 'type', 'name', 'value', 'rel', 'target',
  'content', 'charset', 'lang', 'dir', 'role', 'width', 'height', 'align', 'valign', 'bgcolor', 'color', 'border',
  'cellpadding', 'cellspacing', 'colspan', 'rowspan', 'face', 'size', 'action', 'method', 'for', 'tabindex',
  'hidden', 'disabled', 'checked', 'selected', 'placeholder', 'property', 'itemprop', 'itemscope', 'itemtype',
  'crossorigin', 'integrity', 'loading', 'decoding', 'async', 'defer', 'media', 'http-equiv', 'datetime',
  'aria-label', 'aria-hidden', 'aria-expanded', 'aria-labelledby', 'aria-describedby', 'aria-controls',
  'data-id', 'xmlns', 'viewbox', 'fill', 'stroke', 'd', 'x', 'y', 'version', 'focusable', 'autocomplete',
  'onclick', 'onload', 'onerror', 'nowrap', 'scope', 'headers', 'start', 'reversed', 'span', 'cite', 'accesskey',
  'draggable', 'translate', 'spellcheck', 'contenteditable', 'download', 'ping', 'referrerpolicy', 'nonce',
];

const BITS = 10;
const SIZE = 1 << BITS;
const MASK = SIZE - 1;
const table: (string | undefined)[] = new Array<string | undefined>(SIZE).fill(undefined);
const hashes = new Int32Array(SIZE);

/** The hash of the lower-cased range [start, end) of `s`; the same function builds and probes the table. */
function hashRange(s: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    h = (Math.imul(h, 31) + c) | 0;
  }
  return (h ^ (h >>> 15)) | 0;
}

for (const name of NAMES) {
  const h = hashRange(name, 0, name.length);
  let i = h & MASK;
  while (table[i] !== undefined && table[i] !== name) i = (i + 1) & MASK;
  table[i] = name;
  hashes[i] = h;
}

/** Longest interned name: longer ranges are not looked up. */
const MAX_LENGTH = NAMES.reduce((m, n) => Math.max(m, n.length), 0);

/**
 * The shared string equal to the ASCII-lower-cased range [start, end) of `s`, or null when the name is not
 * one of the interned names (then the caller slices).
 */
export function internedName(s: string, start: number, end: number): string | null {
  const len = end - start;
  if (len === 0 || len > MAX_LENGTH) return null;
  const h = hashRange(s, start, end);
  for (let i = h & MASK; ; i = (i + 1) & MASK) {
    const cand = table[i];
    if (cand === undefined) return null;
    if (hashes[i] === h && cand.length === len) {
      let j = 0;
      for (; j < len; j++) {
        let c = s.charCodeAt(start + j);
        if (c >= 0x41 && c <= 0x5a) c |= 0x20;
        if (c !== cand.charCodeAt(j)) break;
      }
      if (j === len) return cand;
    }
  }
}
