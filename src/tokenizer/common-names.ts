/**
 * Interning of common tag and attribute names, for the tag name and attribute name states.
 *
 * A name already in lower case (no upper-case letter, no U+0000: the tokenizer's scan knows) is looked up
 * here straight from the input range, before any string is made: a hit returns the one shared string
 * literal, so the most frequent tokens allocate no name at all, and the tree builder's lookups by name get
 * an internalized string whose hash is already known. A miss costs a hash of a few characters and returns
 * the slice the tokenizer would have taken anyway.
 */

const NAMES = [
  // HTML elements
  'a', 'abbr', 'address', 'applet', 'area', 'article', 'aside', 'audio', 'b', 'base', 'basefont', 'bdi', 'bdo',
  'bgsound', 'big', 'blockquote', 'body', 'br', 'button', 'canvas', 'caption', 'center', 'cite', 'code', 'col',
  'colgroup', 'data', 'datalist', 'dd', 'del', 'details', 'dfn', 'dialog', 'dir', 'div', 'dl', 'dt', 'em',
  'embed', 'fieldset', 'figcaption', 'figure', 'font', 'footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'i', 'iframe', 'image', 'img', 'input', 'ins',
  'kbd', 'keygen', 'label', 'legend', 'li', 'link', 'listing', 'main', 'map', 'mark', 'marquee', 'menu', 'meta',
  'meter', 'nav', 'nobr', 'noembed', 'noframes', 'noscript', 'object', 'ol', 'optgroup', 'option', 'output',
  'p', 'param', 'picture', 'plaintext', 'pre', 'progress', 'q', 'rb', 'rp', 'rt', 'rtc', 'ruby', 's', 'samp',
  'script', 'search', 'section', 'select', 'selectedcontent', 'slot', 'small', 'source', 'span', 'strike',
  'strong', 'style', 'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'template', 'textarea', 'tfoot', 'th',
  'thead', 'time', 'title', 'tr', 'track', 'tt', 'u', 'ul', 'var', 'video', 'wbr', 'xmp',
  // SVG and MathML elements (lower-cased, as tokens carry them)
  'svg', 'g', 'path', 'circle', 'rect', 'line', 'polygon', 'polyline', 'use', 'defs', 'symbol', 'desc',
  'foreignobject', 'lineargradient', 'stop', 'clippath', 'math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'mrow',
  'annotation-xml',
  // Attributes
  'id', 'class', 'style', 'href', 'src', 'srcset', 'sizes', 'alt', 'title', 'type', 'name', 'value', 'rel',
  'content', 'charset', 'lang', 'dir', 'width', 'height', 'target', 'action', 'method', 'for', 'role',
  'tabindex', 'hidden', 'async', 'defer', 'crossorigin', 'integrity', 'media', 'property', 'itemprop',
  'itemscope', 'itemtype', 'http-equiv', 'placeholder', 'checked', 'disabled', 'selected', 'readonly',
  'required', 'loading', 'decoding', 'colspan', 'rowspan', 'align', 'valign', 'border', 'cellpadding',
  'cellspacing', 'bgcolor', 'color', 'face', 'size', 'nonce', 'xmlns', 'xmlns:xlink', 'xlink:href', 'viewbox',
  'fill', 'stroke', 'stroke-width', 'd', 'x', 'y', 'cx', 'cy', 'r', 'x1', 'x2', 'y1', 'y2', 'points',
  'transform', 'opacity', 'focusable', 'aria-hidden', 'aria-label', 'aria-labelledby', 'aria-describedby',
  'aria-expanded', 'aria-controls', 'aria-current', 'aria-haspopup', 'autocomplete', 'accesskey', 'download',
  'datetime', 'referrerpolicy', 'onclick', 'onload', 'translate', 'dir', 'data-id', 'data-src', 'data-type',
];

/** Open-addressed hash table: slot -> index + 1 into `names` (0: empty). 1024 slots for ~300 names. */
const MASK = 1023;
const table = new Int32Array(MASK + 1);
const names: string[] = [];
/** Names longer than this are never interned (the hash loop would not pay for itself). */
const MAX_LENGTH = 16;

function hashRange(s: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return (h ^ (h >>> 11)) & MASK;
}

for (const name of NAMES) {
  if (name.length > MAX_LENGTH || names.includes(name)) continue;
  let slot = hashRange(name, 0, name.length);
  while (table[slot] !== 0) slot = (slot + 1) & MASK;
  names.push(name);
  table[slot] = names.length;
}

/**
 * `s.slice(start, end)`, as the shared string when it is a common name. The range must hold no ASCII
 * upper-case letter and no U+0000 (names are lower-cased before they are interned, and these are not).
 */
export function sliceName(s: string, start: number, end: number): string {
  const length = end - start;
  if (length > MAX_LENGTH || length === 0) return s.slice(start, end);
  for (let slot = hashRange(s, start, end); ; slot = (slot + 1) & MASK) {
    const k = table[slot]!;
    if (k === 0) return s.slice(start, end);
    const name = names[k - 1]!;
    if (name.length !== length) continue;
    let i = 0;
    while (i < length && name.charCodeAt(i) === s.charCodeAt(start + i)) i++;
    if (i === length) return name;
  }
}
