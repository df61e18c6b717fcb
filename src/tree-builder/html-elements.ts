/**
 * Element categories used by tree construction (WHATWG HTML, "13.2.4.2 The stack of open elements":
 * the special, formatting and ordinary categories, and the element sets of the "has an element in
 * ... scope" definitions).
 *
 * Common HTML tag names are interned to small integers ("tag ids") so that category checks on the
 * hot path are array lookups. Elements in the SVG and MathML namespaces get ids only when the
 * parser needs to recognise them (scope boundaries and integration points); every other element
 * has the id `UNKNOWN`.
 */

export const UNKNOWN = 0;

// HTML elements (ids 1..). Keep `HTML_TAG_NAMES` below in the same order.
export const A = 1;
export const ADDRESS = 2;
export const APPLET = 3;
export const AREA = 4;
export const ARTICLE = 5;
export const ASIDE = 6;
export const B = 7;
export const BASE = 8;
export const BASEFONT = 9;
export const BGSOUND = 10;
export const BIG = 11;
export const BLOCKQUOTE = 12;
export const BODY = 13;
export const BR = 14;
export const BUTTON = 15;
export const CAPTION = 16;
export const CENTER = 17;
export const CODE = 18;
export const COL = 19;
export const COLGROUP = 20;
export const DD = 21;
export const DETAILS = 22;
export const DIALOG = 23;
export const DIR = 24;
export const DIV = 25;
export const DL = 26;
export const DT = 27;
export const EM = 28;
export const EMBED = 29;
export const FIELDSET = 30;
export const FIGCAPTION = 31;
export const FIGURE = 32;
export const FONT = 33;
export const FOOTER = 34;
export const FORM = 35;
export const FRAME = 36;
export const FRAMESET = 37;
export const H1 = 38;
export const H2 = 39;
export const H3 = 40;
export const H4 = 41;
export const H5 = 42;
export const H6 = 43;
export const HEAD = 44;
export const HEADER = 45;
export const HGROUP = 46;
export const HR = 47;
export const HTML = 48;
export const I = 49;
export const IFRAME = 50;
export const IMAGE = 51;
export const IMG = 52;
export const INPUT = 53;
export const KEYGEN = 54;
export const LI = 55;
export const LINK = 56;
export const LISTING = 57;
export const MAIN = 58;
export const MARQUEE = 59;
export const MATH = 60;
export const MENU = 61;
export const META = 62;
export const NAV = 63;
export const NOBR = 64;
export const NOEMBED = 65;
export const NOFRAMES = 66;
export const NOSCRIPT = 67;
export const OBJECT = 68;
export const OL = 69;
export const OPTGROUP = 70;
export const OPTION = 71;
export const P = 72;
export const PARAM = 73;
export const PLAINTEXT = 74;
export const PRE = 75;
export const RB = 76;
export const RP = 77;
export const RT = 78;
export const RTC = 79;
export const RUBY = 80;
export const S = 81;
export const SCRIPT = 82;
export const SEARCH = 83;
export const SECTION = 84;
export const SELECT = 85;
export const SELECTEDCONTENT = 86;
export const SMALL = 87;
export const SOURCE = 88;
export const STRIKE = 89;
export const STRONG = 90;
export const STYLE = 91;
export const SUMMARY = 92;
export const SVG = 93;
export const TABLE = 94;
export const TBODY = 95;
export const TD = 96;
export const TEMPLATE = 97;
export const TEXTAREA = 98;
export const TFOOT = 99;
export const TH = 100;
export const THEAD = 101;
export const TITLE = 102;
export const TR = 103;
export const TRACK = 104;
export const TT = 105;
export const U = 106;
export const UL = 107;
export const WBR = 108;
export const XMP = 109;
export const SPAN = 110;
export const SUB = 111;
export const SUP = 112;
export const VAR = 113;

// Foreign elements the tree builder must recognise (MathML text integration points, HTML
// integration points; all of them are scope boundaries).
export const MATH_MI = 114;
export const MATH_MO = 115;
export const MATH_MN = 116;
export const MATH_MS = 117;
export const MATH_MTEXT = 118;
/** MathML `annotation-xml` that is not an HTML integration point. */
export const MATH_ANNOTATION_XML = 119;
/** MathML `annotation-xml` whose `encoding` is text/html or application/xhtml+xml (an HTML integration point). */
export const MATH_ANNOTATION_XML_HIP = 120;
export const SVG_FOREIGN_OBJECT = 121;
export const SVG_DESC = 122;
export const SVG_TITLE = 123;

export const TAG_ID_COUNT = 124;

const HTML_TAG_NAMES = [
  '', 'a', 'address', 'applet', 'area', 'article', 'aside', 'b', 'base', 'basefont', 'bgsound', 'big',
  'blockquote', 'body', 'br', 'button', 'caption', 'center', 'code', 'col', 'colgroup', 'dd', 'details',
  'dialog', 'dir', 'div', 'dl', 'dt', 'em', 'embed', 'fieldset', 'figcaption', 'figure', 'font', 'footer',
  'form', 'frame', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html',
  'i', 'iframe', 'image', 'img', 'input', 'keygen', 'li', 'link', 'listing', 'main', 'marquee', 'math', 'menu',
  'meta', 'nav', 'nobr', 'noembed', 'noframes', 'noscript', 'object', 'ol', 'optgroup', 'option', 'p', 'param',
  'plaintext', 'pre', 'rb', 'rp', 'rt', 'rtc', 'ruby', 's', 'script', 'search', 'section', 'select',
  'selectedcontent', 'small', 'source', 'strike', 'strong', 'style', 'summary', 'svg', 'table', 'tbody', 'td',
  'template', 'textarea', 'tfoot', 'th', 'thead', 'title', 'tr', 'track', 'tt', 'u', 'ul', 'wbr', 'xmp', 'span',
  'sub', 'sup', 'var',
];

const htmlTagIds = new Map<string, number>();
for (let i = 1; i < HTML_TAG_NAMES.length; i++) htmlTagIds.set(HTML_TAG_NAMES[i]!, i);

/** The HTML tag name whose id (1 to `VAR`) is `id`. */
export function htmlTagName(id: number): string {
  return HTML_TAG_NAMES[id]!;
}

/** The tag id of a (lower-cased) tag name as an HTML element or HTML tag token. */
export function htmlTagId(name: string): number {
  const id = htmlTagIds.get(name);
  return id === undefined ? UNKNOWN : id;
}

/** The tag id of a MathML element with this local name. */
export function mathmlTagId(localName: string): number {
  switch (localName) {
    case 'mi':
      return MATH_MI;
    case 'mo':
      return MATH_MO;
    case 'mn':
      return MATH_MN;
    case 'ms':
      return MATH_MS;
    case 'mtext':
      return MATH_MTEXT;
    case 'annotation-xml':
      return MATH_ANNOTATION_XML;
    default:
      return UNKNOWN;
  }
}

/** The tag id of an SVG element with this (adjusted) local name. */
export function svgTagId(localName: string): number {
  switch (localName) {
    case 'foreignObject':
      return SVG_FOREIGN_OBJECT;
    case 'desc':
      return SVG_DESC;
    case 'title':
      return SVG_TITLE;
    default:
      return UNKNOWN;
  }
}

/** A lookup table by tag id: 1 for the ids given, 0 for every other. */
export function tagIdTable(ids: number[]): Uint8Array {
  const t = new Uint8Array(TAG_ID_COUNT);
  for (const id of ids) t[id] = 1;
  return t;
}

const FOREIGN_SPECIAL = [
  MATH_MI, MATH_MO, MATH_MN, MATH_MS, MATH_MTEXT, MATH_ANNOTATION_XML, MATH_ANNOTATION_XML_HIP,
  SVG_FOREIGN_OBJECT, SVG_DESC, SVG_TITLE,
];

/** The "special" category (13.2.4.2). */
export const SPECIAL = tagIdTable([
  ADDRESS, APPLET, AREA, ARTICLE, ASIDE, BASE, BASEFONT, BGSOUND, BLOCKQUOTE, BODY, BR, BUTTON, CAPTION,
  CENTER, COL, COLGROUP, DD, DETAILS, DIR, DIV, DL, DT, EMBED, FIELDSET, FIGCAPTION, FIGURE, FOOTER,
  FORM, FRAME, FRAMESET, H1, H2, H3, H4, H5, H6, HEAD, HEADER, HGROUP, HR, HTML, IFRAME, IMG, INPUT, KEYGEN,
  LI, LINK, LISTING, MAIN, MARQUEE, MENU, META, NAV, NOEMBED, NOFRAMES, NOSCRIPT, OBJECT, OL, P, PARAM,
  PLAINTEXT, PRE, SCRIPT, SEARCH, SECTION, SELECT, SOURCE, STYLE, SUMMARY, TABLE, TBODY, TD, TEMPLATE,
  TEXTAREA, TFOOT, TH, THEAD, TITLE, TR, TRACK, UL, WBR, XMP, ...FOREIGN_SPECIAL,
]);

/** The "formatting" category (13.2.4.2). */
export const FORMATTING = tagIdTable([A, B, BIG, CODE, EM, FONT, I, NOBR, S, SMALL, STRIKE, STRONG, TT, U]);

/**
 * Boundaries of "has an element in scope" (13.2.4.2). Since the relaxed `select` parser (2025) `select`
 * is one of them (html5lib-tests PR 178 / issue 179).
 */
const DEFAULT_SCOPE = [APPLET, CAPTION, HTML, TABLE, TD, TH, MARQUEE, OBJECT, SELECT, TEMPLATE, ...FOREIGN_SPECIAL];
export const SCOPE_BOUNDARY = tagIdTable(DEFAULT_SCOPE);
/** Boundaries of "has an element in list item scope": the scope boundaries plus ol and ul. */
export const LIST_ITEM_SCOPE_BOUNDARY = tagIdTable([...DEFAULT_SCOPE, OL, UL]);
/** Boundaries of "has an element in button scope": the scope boundaries plus button. */
export const BUTTON_SCOPE_BOUNDARY = tagIdTable([...DEFAULT_SCOPE, BUTTON]);
/** Boundaries of "has an element in table scope". */
export const TABLE_SCOPE_BOUNDARY = tagIdTable([HTML, TABLE, TEMPLATE]);

/**
 * The five tables above in one, for the stack of open elements' records: bit `k - 1` says whether an element bounds
 * what record field `k` keeps (SPECIAL_BOUND to TABLE_BOUND, see stack-records.ts).
 */
export const STACK_BOUNDS = new Uint8Array(TAG_ID_COUNT);
for (let id = 0; id < TAG_ID_COUNT; id++) {
  STACK_BOUNDS[id] = SPECIAL[id]! | (SCOPE_BOUNDARY[id]! << 1) | (LIST_ITEM_SCOPE_BOUNDARY[id]! << 2) | (BUTTON_SCOPE_BOUNDARY[id]! << 3) | (TABLE_SCOPE_BOUNDARY[id]! << 4);
}

/** Elements popped by "generate implied end tags" (13.2.6.3). */
export const IMPLIED_END_TAG = tagIdTable([DD, DT, LI, OPTGROUP, OPTION, P, RB, RP, RT, RTC]);
/** Elements popped by "generate all implied end tags thoroughly". */
export const IMPLIED_END_TAG_THOROUGH = tagIdTable([
  CAPTION, COLGROUP, DD, DT, LI, OPTGROUP, OPTION, P, RB, RP, RT, RTC, TBODY, TD, TFOOT, TH, THEAD, TR,
]);

/** MathML text integration points (13.2.6.5 / 13.2.6.1). */
export const MATHML_TEXT_INTEGRATION_POINT = tagIdTable([MATH_MI, MATH_MO, MATH_MN, MATH_MS, MATH_MTEXT]);
/** HTML integration points (13.2.6.1). */
export const HTML_INTEGRATION_POINT = tagIdTable([MATH_ANNOTATION_XML_HIP, SVG_FOREIGN_OBJECT, SVG_DESC, SVG_TITLE]);

/** h1..h6 */
export function isHeading(id: number): boolean {
  return id >= H1 && id <= H6;
}
