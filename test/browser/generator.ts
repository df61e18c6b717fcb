/**
 * Seeded random markup aimed at the HTML parser's corners rather than at valid HTML.
 *
 * A case is a sequence of "pieces" (tags, text, comments, raw-text blocks, small structured snippets of tables,
 * selects, templates, foreign content, formatting soup...), optionally mutated by truncation, splicing and
 * duplication. Everything is driven by `Rng` (sfc32), so a seed replays a run exactly. Inputs stay short (a few
 * hundred start tags at most), which keeps trees far below Chromium's 512-level flattening.
 */
import { MATHML_NS, SVG_NS, type ContextSpec } from './chromium.js';

// ---------------------------------------------------------------------------------------------------------------
// PRNG

/** sfc32: small, fast, good enough for fuzzing; fully determined by the 32-bit seed. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.u32() / 4294967296) * n);
  }

  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.u32() / 4294967296 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Picks by weight from [weight, value] pairs. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of items) total += w;
    let r = (this.u32() / 4294967296) * total;
    for (const [w, v] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1]![1];
  }

  /** A derived generator, so that sub-streams (documents vs fragments) do not shift each other. */
  fork(): Rng {
    return new Rng(this.u32());
  }
}

/** The run's seed: `$HTMLSIFT_SEED` (decimal or 0x hex) to replay, else a fresh one. */
export function seedFromEnv(): number {
  const env = process.env.HTMLSIFT_SEED;
  if (env !== undefined && env.trim() !== '') {
    const n = Number(env.trim());
    if (!Number.isFinite(n)) throw new Error(`HTMLSIFT_SEED must be a number, got '${env}'`);
    return n >>> 0;
  }
  return (Date.now() ^ Math.floor(Math.random() * 0x100000000)) >>> 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary

const FORMATTING = ['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u'];
const TABLE_PARTS = ['table', 'caption', 'colgroup', 'col', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th'];
const SELECT_PARTS = ['select', 'option', 'optgroup', 'hr', 'input', 'textarea', 'selectedcontent', 'button', 'datalist', 'keygen', 'div', 'span', 'img', 'svg', 'legend'];
const BLOCKS = ['address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'header', 'hgroup', 'main', 'menu', 'nav', 'ol', 'p', 'search', 'section', 'summary', 'ul', 'li', 'dd', 'dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'listing', 'form', 'button', 'marquee', 'object', 'applet'];
const VOIDS = ['area', 'br', 'embed', 'img', 'image', 'keygen', 'wbr', 'input', 'param', 'source', 'track', 'hr', 'base', 'basefont', 'bgsound', 'link', 'meta', 'col', 'frame', 'isindex'];
const HEADISH = ['head', 'title', 'base', 'link', 'meta', 'style', 'script', 'noscript', 'template', 'basefont', 'bgsound', 'noframes'];
const STRUCTURE = ['html', 'head', 'body', 'frameset', 'frame', 'noframes'];
const RAWTEXT = ['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript'];
const MISC = ['ruby', 'rb', 'rt', 'rtc', 'rp', 'span', 'label', 'math', 'svg', 'my-el', 'x-y', 'x:y', 'q', 'sub', 'sup', 'var', 'abbr', 'optgroup', 'option', 'image', 'menuitem', 'frameset', 'dialog', 'video', 'audio', 'picture', 'slot', 'canvas', 'annotation-xml'];
const SVG_TAGS = ['svg', 'g', 'path', 'rect', 'circle', 'text', 'tspan', 'foreignObject', 'foreignobject', 'FOREIGNOBJECT', 'desc', 'title', 'clipPath', 'clippath', 'feGaussianBlur', 'fegaussianblur', 'linearGradient', 'lineargradient', 'textPath', 'altGlyph', 'animateMotion', 'feDropShadow', 'glyphRef', 'use', 'a', 'script', 'style', 'image', 'font', 'metadata'];
const MATH_TAGS = ['math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'mrow', 'mfrac', 'msqrt', 'semantics', 'annotation', 'annotation-xml', 'mglyph', 'malignmark', 'mtable', 'mtr', 'mtd', 'mstyle', 'svg'];
const BREAKOUT = ['b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'embed', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li', 'listing', 'menu', 'meta', 'nobr', 'ol', 'p', 'pre', 'ruby', 's', 'small', 'span', 'strong', 'strike', 'sub', 'sup', 'table', 'tt', 'u', 'ul', 'var'];

const ATTR_NAMES = ['id', 'class', 'title', 'href', 'src', 'style', 'type', 'name', 'value', 'color', 'size', 'face', 'encoding', 'selected', 'multiple', 'onclick', 'data-x', 'lang', 'dir', 'colspan', 'rowspan', 'span', 'action', 'hidden', 'prompt', 'shadowrootmode', 'is'];
const FOREIGN_ATTRS = ['viewBox', 'viewbox', 'VIEWBOX', 'preserveAspectRatio', 'attributeName', 'baseProfile', 'definitionURL', 'definitionurl', 'xlink:href', 'XLINK:HREF', 'xlink:title', 'xlink:actuate', 'xlink:arcrole', 'xlink:role', 'xlink:show', 'xlink:type', 'xml:lang', 'xml:space', 'xml:base', 'xmlns', 'xmlns:xlink', 'xmlns:foo', 'xlink:foo', 'xml:foo', 'foo:bar', 'encoding', 'glyphRef', 'kernelMatrix', 'refX', 'requiredFeatures', 'spreadMethod', 'surfaceScale', 'tableValues', 'textLength', 'zoomAndPan', 'contentScriptType', 'diffuseConstant', 'edgeMode', 'filterUnits', 'gradientTransform', 'keyPoints', 'lengthAdjust', 'markerWidth', 'numOctaves', 'pathLength', 'pointsAtZ', 'repeatCount', 'specularExponent', 'stdDeviation', 'stitchTiles', 'xChannelSelector', 'd', 'fill', 'width'];
const WEIRD_ATTR_NAMES = ['"', "'", '<', '=x', 'a"b', "a'b", 'a<b', 'A', 'ID', 'Id', 'x\u0000y', 'é', '\uD800', '/', 'a/b', '`', '??'];
const ATTR_VALUES = ['', 'x', 'a b', 'text/html', 'TEXT/HTML', 'application/xhtml+xml', 'Application/XHTML+XML', 'text/html ', 'hidden', 'HIDDEN', ' hidden', 'javascript:alert(1)', '&amp;', '&amp', '&ampx', '&ampx=', '&amp=', '&notin', '&notit;', '&#0;', '&#x41;', '&#X41', '&lt;script&gt;', '"', "'", '<', '>', 'a&b', '&#128;', '&#xD800;', '&#1114112;', '&Aacute', '&AElig', '\r\n', '\r', '\u0000', '\uDC00', 'open', 'closed', 'red', '+1', '5'];
const WORDS = ['x', 'foo', 'bar', 'Hello', 'a b', ' ', '  ', '\t', '\n', '\f', 'text', '1<2', 'a>b', 'é', '中文', '\u00A0', 'x y z', '&', '&&', '<', '< ', '>', '"', "'", '=', '/', '-->', ']]>', '</', '<3', '<!', '<?', '<=', '< x>'];
const CHAR_REFS = ['&amp;', '&amp', '&AMP;', '&AMP', '&lt', '&gt;', '&quot', '&nbsp;', '&nbsp', '&notin;', '&notin', '&notit;', '&not', '&noti', '&Aacute;', '&Aacute', '&aacute', '&AElig', '&NotEqualTilde;', '&NotNestedGreaterGreater;', '&zwnj;', '&ThickSpace;', '&fjlig;', '&xxx;', '&;', '&#;', '&#x;', '&#X;', '&#65;', '&#65', '&#x41;', '&#X41', '&#0;', '&#x0;', '&#13;', '&#xD;', '&#128;', '&#x80;', '&#x81;', '&#x9F;', '&#150;', '&#xD800;', '&#xDFFF;', '&#xDBFF;', '&#x10FFFF;', '&#x110000;', '&#1114112;', '&#99999999999999;', '&#xFFFE;', '&#xFDD0;', '&#x1F;', '&#x7F;', '&#x0B;', '&#x0C;', '&#00000065;', '&#x0000041;', '&#xZ;', '&#9;', '&#x1F600;', '&ampamp;', '&lang;', '&rang;', '&#10;'];
const SPECIAL_CHARS = ['\r', '\n', '\r\n', '\r\r\n', '\n\r', '\u0000', '\u0000\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D\uDE00', '\uDE00\uD83D', '\uFFFF', '\uFFFE', '\uFDD0', '\u0001', '\u007F', '\u0080', '\u009F', '\u000B', '\f', '\u2028', '\uFEFF', '\u0085', ' \n '];
const COMMENTS = ['<!--x-->', '<!---->', '<!-->', '<!--->', '<!-- a -- b -->', '<!--x--!>', '<!--x--!-->', '<!--x---->', '<!--<!-->', '<!--<!--x-->', '<!-- - -->', '<!--x--!', '<!--x--', '<!--', '<!-', '<!x>', '<!>', '<! >', '</ x>', '</>', '</3>', '</ >', '<!DOCTYPEx>', '<!-- --!-->', '<!----!>', '<!--\u0000-->', '<!--\r\n-->', '<!--a-b-->', '<!--a--b-->', '<!--->x-->', '<!---x-->', '<!--x-->-->', '<!--x-- >', '<![CDATA[x]]>', '<!ELEMENT br EMPTY>', '<!doctype>'];
const PIS = ['<?xml version="1.0"?>', '<?xml version="1.0" encoding="utf-8"?>', '<?target data>', '<?target data?>', '<?php echo 1 ?>', '<?a$>', '<?a$b>', '<?1x>', '<??>', '<? >', '<?>', '<?x?y>', '<?x-y:z data?>', '<?x.y_z data>', '<?xml-stylesheet href="a.css"?>', '<?XML-STYLESHEET href="a"?>', '<?x data?x>', '<?x >', '<?x  spaced  data >', '<?x\tdata>', '<?x\ndata\n>', '<?x\u0000y>', '<?x a\u0000b>', '<?x a>b>', '<?x -->', '<?x <y>', '<?é data>', '<?a:b:c>', '<?COMMENT?>', '<?COM--MENT?>', '<?import namespace="foo" implementation="#bar">', '<?x "quoted >" y>', '<?x /?>', '<?/x>', '<?-x>', '<?_x>', '<?x', '<?x data', '<?'];
const DOCTYPES = ['<!DOCTYPE html>', '<!doctype HTML>', '<!DoCtYpE hTmL>', '<!DOCTYPE>', '<!DOCTYPE >', '<!DOCTYPEhtml>', '<!DOCTYPE html SYSTEM "about:legacy-compat">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">', '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">', '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Frameset//EN">', '<!DOCTYPE html PUBLIC "-//w3c//dtd xhtml 1.0 transitional//en">', '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">', '<!DOCTYPE html PUBLIC "-//W3O//DTD W3 HTML Strict 3.0//EN//">', '<!DOCTYPE html PUBLIC "-//W3O//DTD W3 HTML Strict 3.0//EN//x">', '<!DOCTYPE html PUBLIC "-/W3C/DTD HTML 4.0 Transitional/EN">', '<!DOCTYPE html PUBLIC "HTML">', '<!DOCTYPE html PUBLIC "html">', '<!DOCTYPE html SYSTEM "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd">', '<!DOCTYPE html SYSTEM "HTTP://WWW.IBM.COM/data/dtd/v11/ibmxhtml1-transitional.dtd">', '<!DOCTYPE html PUBLIC "">', "<!DOCTYPE html PUBLIC ''>", '<!DOCTYPE html PUBLIC "" "">', '<!DOCTYPE html SYSTEM "">', '<!DOCTYPE html PUBLIC>', '<!DOCTYPE html SYSTEM>', '<!DOCTYPE html PUBLIC "x" "y" junk>', '<!DOCTYPE html PUBLIC"-//W3C//DTD HTML 3.2 Final//EN">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01', "<!DOCTYPE html PUBLIC '-//W3C//DTD HTML 4.0 Transitional//EN'>", '<!DOCTYPE foo>', '<!DOCTYPE html5>', '<!DOCTYPE html junk>', '<!DOCTYPE html SYSTEM \'a"b\'>', '<!DOCTYPE h\u0000tml>', '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML//EN">', '<!DOCTYPE HTML PUBLIC "-//Netscape Comm. Corp.//DTD HTML//EN">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML Experimental 19960712//EN">', '<!DOCTYPE html PUBLIC "-//Microsoft//DTD Internet Explorer 3.0 HTML//EN">', '<!DOCTYPE html PUBLIC "-//W3C//DTD W3 HTML//EN" "x">', '<!DOCTYPE html PUBLIC "+//Silmaril//dtd html Pro v0r11 19970101//EN">', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.0 Frameset//EN" "x">', '<!DOCTYPE html PUBLIC "-//WebTechs//DTD Mozilla HTML//EN">', '<!DOCTYPE', '<!DOCTYPE html PUBLIC "a\r\nb" "c\u0000d">'];
const CDATA = ['<![CDATA[x]]>', '<![CDATA[]]>', '<![CDATA[]]]>', '<![CDATA[a]]b]]>', '<![CDATA[<b>x</b>]]>', '<![CDATA[x', '<![CDATA[', '<![cdata[x]]>', '<![CDATA[\u0000]]>', '<![CDATA[\r\n]]>', '<![CDATA[x]]', '<![CDATA[x]>y]]>'];
const SCRIPT_BODIES = ['alert(1)', '<!--', '<!--<script>', '<!--<script>x</script>-->', '<!--<script></script>', '<!-- x --> y', '<!--<script>--></script>', '</scripts>', '</script x>', '</SCRIPT >', '</script/>', '<\\/script>', '<!--<scr', '<!--<script', '-->', '<!--<script>x</script', 'if (a<b && c>d) {}', '<![CDATA[x]]>', '</ script>', '<!--<sCrIpT>--><\u0000', '\u0000', '<!--<script>\u0000</script>--></script>'];

/** Random ASCII case of a tag or attribute name (the parser folds it, foreign content then adjusts some). */
function randomCase(rng: Rng, s: string): string {
  const r = rng.int(10);
  if (r < 6) return s;
  if (r < 8) return s.toUpperCase();
  let out = '';
  for (const ch of s) out += rng.chance(0.5) ? ch.toUpperCase() : ch;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The generator

export interface GeneratorOptions {
  /** Roughly how many pieces to emit at the top level. */
  maxPieces?: number;
}

type Flavor = 'table' | 'select' | 'template' | 'foreign' | 'formatting' | 'rawtext' | 'head' | 'structure' | 'mixed';

class Gen {
  private out: string[] = [];
  private budget: number;

  constructor(
    private readonly rng: Rng,
    budget: number,
  ) {
    this.budget = budget;
  }

  result(): string {
    return this.out.join('');
  }

  private emit(s: string): void {
    this.out.push(s);
    this.budget--;
  }

  get exhausted(): boolean {
    return this.budget <= 0;
  }

  attrValue(): string {
    const r = this.rng;
    return r.chance(0.7) ? r.pick(ATTR_VALUES) : r.pick(WORDS) + r.pick(CHAR_REFS);
  }

  attrs(foreign: boolean): string {
    const r = this.rng;
    let s = '';
    const n = r.chance(0.55) ? 0 : r.range(1, 3);
    for (let i = 0; i < n; i++) {
      const name = r.chance(0.05)
        ? r.pick(WEIRD_ATTR_NAMES)
        : randomCase(r, foreign || r.chance(0.08) ? r.pick(FOREIGN_ATTRS) : r.pick(ATTR_NAMES));
      const sep = r.weighted<string>([[10, ' '], [1, '\n'], [1, '/'], [1, ' / '], [1, '\t'], [1, '']]);
      s += (i === 0 && sep === '' ? ' ' : sep) + name;
      const v = this.attrValue();
      switch (r.int(6)) {
        case 0:
          break; // no value
        case 1:
          s += '=' + v.replace(/[\s>"'=<`]/g, '');
          break;
        case 2:
          s += "='" + v.replace(/'/g, '') + "'";
          break;
        case 3:
          s += ' = "' + v.replace(/"/g, '') + '"';
          break;
        default:
          s += '="' + v.replace(/"/g, '') + '"';
      }
    }
    return s;
  }

  startTag(name: string, foreign = false, attrs?: string): void {
    const r = this.rng;
    let s = '<' + randomCase(r, name) + (attrs ?? this.attrs(foreign));
    if (r.chance(foreign ? 0.25 : 0.04)) s += '/';
    if (!r.chance(0.01)) s += r.chance(0.03) ? ' >' : '>';
    this.emit(s);
  }

  endTag(name: string): void {
    const r = this.rng;
    let s = '</' + randomCase(r, name);
    if (r.chance(0.03)) s += ' x="y"';
    if (r.chance(0.02)) s += '/';
    s += r.chance(0.03) ? ' >' : '>';
    this.emit(s);
  }

  text(): void {
    const r = this.rng;
    let s = '';
    const n = r.range(1, 3);
    for (let i = 0; i < n; i++) {
      s += r.weighted<() => string>([
        [6, () => r.pick(WORDS)],
        [3, () => r.pick(CHAR_REFS)],
        [3, () => r.pick(SPECIAL_CHARS)],
        [1, () => r.pick(CHAR_REFS).replace(';', '') + r.pick(['x', '=', ';', '1', ''])],
      ])();
    }
    this.emit(s);
  }

  comment(): void {
    this.emit(this.rng.pick(COMMENTS));
  }

  pi(): void {
    this.emit(this.rng.pick(PIS));
  }

  doctype(): void {
    this.emit(this.rng.pick(DOCTYPES));
  }

  rawText(): void {
    const r = this.rng;
    const name = r.pick(RAWTEXT);
    this.startTag(name);
    if (name === 'script' && r.chance(0.8)) {
      let body = '';
      for (let i = r.range(1, 3); i > 0; i--) body += r.pick(SCRIPT_BODIES);
      this.emit(body);
    } else {
      let body = r.pick(['', 'x', '\n', '\nx', '\r\nx', '<b>x</b>', '</' + name + 'x>', '<!--</' + name + '>-->', '&amp;', '&lt;b&gt;', '\u0000', '<!--', '</', '</' + name + ' ', '<' + name + '>']);
      if (r.chance(0.3)) body += r.pick(CHAR_REFS);
      this.emit(body);
    }
    if (r.chance(0.85)) this.endTag(name);
  }

  /** A random tag (start or end) from a vocabulary. */
  tag(names: readonly string[], foreign = false): void {
    const name = this.rng.pick(names);
    if (this.rng.chance(0.72)) this.startTag(name, foreign);
    else this.endTag(name);
  }

  /** Balanced-ish nesting: start tag, some content, usually the end tag. */
  nest(names: readonly string[], depth: number, flavor: Flavor, foreign = false): void {
    const name = this.rng.pick(names);
    this.startTag(name, foreign);
    this.pieces(this.rng.range(0, 3), depth + 1, flavor);
    if (this.rng.chance(0.75)) this.endTag(name);
  }

  table(depth: number): void {
    const r = this.rng;
    this.startTag('table');
    const rows = r.range(0, 3);
    if (r.chance(0.3)) this.pieces(1, depth + 1, 'mixed'); // foster parented
    if (r.chance(0.3)) {
      this.startTag('caption');
      this.pieces(r.range(0, 2), depth + 1, 'mixed');
      if (r.chance(0.7)) this.endTag('caption');
    }
    if (r.chance(0.25)) {
      this.startTag('colgroup');
      if (r.chance(0.7)) this.startTag('col');
      if (r.chance(0.3)) this.text();
      if (r.chance(0.5)) this.endTag('colgroup');
    }
    const section = r.pick(['', 'tbody', 'thead', 'tfoot']);
    if (section !== '') this.startTag(section);
    for (let i = 0; i < rows; i++) {
      if (r.chance(0.7)) this.startTag('tr');
      for (let j = r.range(0, 3); j > 0; j--) {
        const cell = r.chance(0.8) ? 'td' : 'th';
        if (r.chance(0.9)) this.startTag(cell);
        this.pieces(r.range(0, 2), depth + 1, r.chance(0.3) ? 'table' : 'mixed');
        if (r.chance(0.5)) this.endTag(cell);
      }
      if (r.chance(0.3)) this.pieces(1, depth + 1, 'mixed');
      if (r.chance(0.5)) this.endTag('tr');
    }
    if (section !== '' && r.chance(0.5)) this.endTag(section);
    if (r.chance(0.2)) this.emit(r.pick(['<input type=hidden>', '<input type="HIDDEN ">', '<input type=" hidden">', '<form>', '<form><input>', '<style>x</style>', '<script>x</script>', '<template>x</template>', ' \n ', '\u0000']));
    if (r.chance(0.8)) this.endTag('table');
  }

  select(depth: number): void {
    const r = this.rng;
    this.startTag('select');
    for (let i = r.range(0, 4); i > 0; i--) {
      const what = r.int(8);
      if (what < 3) {
        this.startTag('option');
        if (r.chance(0.7)) this.text();
        if (r.chance(0.4)) this.endTag('option');
      } else if (what === 3) {
        this.startTag('optgroup');
        if (r.chance(0.6)) this.emit('<option>' + r.pick(WORDS));
        if (r.chance(0.5)) this.endTag('optgroup');
      } else if (what === 4) {
        this.startTag('button');
        if (r.chance(0.5)) this.startTag('selectedcontent');
        if (r.chance(0.5)) this.endTag('button');
      } else if (what === 5 && depth < 6) {
        this.pieces(1, depth + 1, r.pick<Flavor>(['mixed', 'select', 'formatting', 'table']));
      } else {
        this.tag(SELECT_PARTS);
      }
    }
    if (r.chance(0.75)) this.endTag('select');
  }

  template(depth: number): void {
    const r = this.rng;
    this.startTag('template');
    this.pieces(r.range(0, 3), depth + 1, r.pick<Flavor>(['table', 'mixed', 'template', 'select', 'head']));
    if (r.chance(0.8)) this.endTag('template');
  }

  foreign(depth: number): void {
    const r = this.rng;
    const svg = r.chance(0.55);
    this.startTag(svg ? 'svg' : 'math', true);
    for (let i = r.range(0, 4); i > 0; i--) {
      const what = r.int(12);
      if (what < 3) {
        this.tag(svg ? SVG_TAGS : MATH_TAGS, true);
      } else if (what === 3) {
        this.emit(r.pick(CDATA));
      } else if (what === 4) {
        this.startTag(r.pick(BREAKOUT));
      } else if (what === 5) {
        this.startTag('font', false, r.pick(['', ' color=red', ' face=x', ' size=3', ' COLOR=x', ' id=x', ' Size']));
      } else if (what === 6) {
        // integration points
        const ip = svg ? r.pick(['foreignObject', 'desc', 'title']) : r.pick(['mi', 'mo', 'mn', 'ms', 'mtext']);
        this.startTag(ip, true);
        this.pieces(r.range(0, 2), depth + 1, r.pick<Flavor>(['mixed', 'table', 'foreign', 'formatting']));
        if (r.chance(0.6)) this.endTag(ip);
      } else if (what === 7 && !svg) {
        this.emit('<annotation-xml' + r.pick(['', ' encoding="text/html"', ' encoding="application/xhtml+xml"', ' ENCODING="TEXT/HTML"', ' encoding="text/xml"', ' encoding=text/html ']) + '>');
        this.pieces(r.range(0, 2), depth + 1, r.pick<Flavor>(['mixed', 'foreign']));
        if (r.chance(0.5)) this.endTag('annotation-xml');
      } else if (what === 8) {
        this.emit(r.pick(['</p>', '</br>', '<p>', '<br>', '</svg>', '</math>', '</foreignObject>', '</desc>']));
      } else if (what === 9) {
        this.startTag(r.pick(svg ? SVG_TAGS : MATH_TAGS), true, this.attrs(true));
      } else {
        this.pieces(1, depth + 1, r.pick<Flavor>(['mixed', 'foreign', 'rawtext']));
      }
    }
    if (r.chance(0.7)) this.endTag(svg ? 'svg' : 'math');
  }

  formatting(depth: number): void {
    const r = this.rng;
    const kind = r.int(6);
    if (kind === 0) {
      // Noah's Ark: the same element with the same attributes more than three times, then a reconstruction.
      const name = r.pick(FORMATTING);
      const attrs = this.attrs(false);
      for (let i = r.range(3, 6); i > 0; i--) this.startTag(name, false, r.chance(0.8) ? attrs : this.attrs(false));
      this.startTag(r.pick(['p', 'div', 'td', 'li']));
      this.text();
    } else if (kind === 1) {
      // Misnested formatting (adoption agency) with blocks in between.
      const a = r.pick(FORMATTING);
      const b = r.pick(FORMATTING);
      this.startTag(a);
      this.text();
      this.startTag(r.chance(0.5) ? b : r.pick(BLOCKS));
      this.text();
      this.endTag(a);
      this.text();
      if (r.chance(0.7)) this.endTag(b);
    } else if (kind === 2) {
      this.emit(r.pick(['<a><a>', '<a href=x>1<a href=y>2</a>3', '<nobr><nobr>', '<nobr>x<nobr>y', '<b><p>x</b>y</p>', '<a><p><a>', '<a><table><a>', '<b><table><td></b><i></table>x', '<font color=red><p>x</font>', '<b><div><i>x</b>y</div>z', '<a><div><style></style><address><a>', '<b>1<i>2<p>3</b>4</i>5', '<table><a>1<td>2</td>3</table>', '<a><svg><tr><input></a>', '<div><a><b><div><div><div><div><div><div><div><div><div><div></a>', '<b><em><foo><foo><foo><aside></b>', '<b><em><foo><foo><aside></b>', '<em><b><marquee><em></b>', '<u><table><u><td></u>', '<button><p></button>', '<p><button><p></button>']));
    } else {
      this.nest(FORMATTING, depth, 'formatting');
    }
  }

  head(depth: number): void {
    const r = this.rng;
    const what = r.int(5);
    if (what === 0) this.emit(r.pick(['<head><noscript><head class="foo"><!--foo--></noscript>', '<head><noscript><link></noscript>', '<head><noscript><style>x</style><!--c--></noscript>', '<head><noscript>text</noscript>', '<noscript><!--x--></noscript>', '<head><noscript><meta><noscript></noscript>', '<head><noscript></head>', '<head><noscript><template>']));
    else if (what === 1) this.rawText();
    else if (what === 2) this.template(depth);
    else this.tag(HEADISH);
  }

  structure(): void {
    const r = this.rng;
    if (r.chance(0.5)) this.tag(STRUCTURE);
    else this.emit(r.pick(['<frameset><frame><frameset>', '<frameset rows="*"><noframes>x</noframes></frameset>', '</frameset>', '<frameset> x </frameset> y', '<body><frameset>', '<html a=b><html c=d>', '<body x><body y>', '</body></html>x', '</body><!--c-->', '</html> <!--c--> x', '<head></head> <p>', '</head>x', '<html><!--c--><head>', '<image src=x>', '<isindex prompt=x>', '<form><form>', '<form><div></form><form>', '<form><table><input></form>', '<li><ul><li>', '<dd><dt><dd>', '<p><h1><h2></p>', '<h1><h2>x</h1>', '<p><div>', '<p><table>', '<pre>\nx', '<listing>\r\nx', '<textarea>\nx</textarea>', '<plaintext>x</plaintext><b>', '<br/>', '</br>', '</p>', '<p>x</P>', '<option><option>', '<ruby><rb>x<rt>y<rp>z</ruby>', '<math><mi><p>', '<button><button>', '<main>']));
  }

  /** One piece of markup at nesting level `depth`. */
  piece(depth: number, flavor: Flavor): void {
    const r = this.rng;
    if (this.exhausted || depth > 10) {
      if (r.chance(0.5)) this.text();
      else this.tag(r.pick([FORMATTING, BLOCKS, TABLE_PARTS]));
      return;
    }
    const boost = (f: Flavor): number => (flavor === f ? 8 : 1);
    const choice = r.weighted<() => void>([
      [8, () => this.text()],
      [2, () => this.comment()],
      [1.2, () => this.pi()],
      [0.4, () => this.doctype()],
      [2 * boost('rawtext'), () => this.rawText()],
      [3 * boost('table'), () => this.table(depth)],
      [2 * boost('table'), () => this.tag(TABLE_PARTS)],
      [2 * boost('select'), () => this.select(depth)],
      [1.5 * boost('template'), () => this.template(depth)],
      [3 * boost('foreign'), () => this.foreign(depth)],
      [3 * boost('formatting'), () => this.formatting(depth)],
      [1.5 * boost('head'), () => this.head(depth)],
      [1.5 * boost('structure'), () => this.structure()],
      [5, () => this.tag(BLOCKS)],
      [3, () => this.nest(BLOCKS, depth, flavor)],
      [2, () => this.tag(VOIDS)],
      [2, () => this.tag(MISC)],
      [0.7, () => this.emit(r.pick(CDATA))],
      [0.3, () => this.emit(r.pick(VALID_SNIPPETS))],
    ]);
    choice();
  }

  pieces(n: number, depth: number, flavor: Flavor): void {
    for (let i = 0; i < n; i++) this.piece(depth, flavor);
  }
}

/** Small well-formed snippets of real-looking markup, to splice into and truncate. */
const VALID_SNIPPETS = [
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>T</title><link rel=stylesheet href=a.css></head><body><h1>Hi</h1><p>One <b>two</b> <i>three</i></p></body></html>',
  '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody><tfoot><tr><td colspan=2>x</td></tr></tfoot></table>',
  '<table width="100%" cellpadding="0"><tr><td align="center"><table><tr><td><img src="a.png" alt=""></td></tr></table></td></tr></table>',
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><path d="M0 0L10 10" fill="url(#g)"/><use xlink:href="#g"/></svg>',
  '<math><mrow><mi>x</mi><mo>=</mo><mfrac><mn>1</mn><msqrt><mn>2</mn></msqrt></mfrac></mrow><annotation-xml encoding="text/html"><b>x</b></annotation-xml></math>',
  '<form action="/x"><label>Name <input name=n></label><select name=s><option value=1 selected>One</option><optgroup label=g><option>Two</option></optgroup></select><textarea>\nhi</textarea><button type=submit>Go</button></form>',
  '<select><button><selectedcontent></selectedcontent></button><option><img src=x>One</option><hr><option>Two</option></select>',
  '<ul><li>One<li>Two<ol><li>Three</ol></ul><dl><dt>T<dd>D</dl>',
  '<template><tr><td>x</td></tr></template><template shadowrootmode=open><slot></slot></template>',
  '<div><p>Para<p>Para 2<pre>\ncode</pre><blockquote>q</blockquote></div>',
  '<script>if (a < b) { document.write("<p>x</p>"); }</script><style>p > b { color: red }</style>',
  '<!--[if mso]><table><tr><td><![endif]--><p>mail</p><!--[if mso]></td></tr></table><![endif]-->',
  '<p class=MsoNormal><span style="mso-bidi-font-weight:bold"><o:p>&nbsp;</o:p></span></p>',
  '<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby><details><summary>S</summary>D</details>',
  '<svg><foreignObject><div><math><mi>x</mi></math></div></foreignObject><desc><b>d</b></desc></svg>',
];

function mutate(rng: Rng, s: string): string {
  if (s.length === 0) return s;
  switch (rng.int(10)) {
    case 0: // truncate
      return s.slice(0, rng.int(s.length + 1));
    case 1: {
      // splice a slice of itself somewhere else
      const a = rng.int(s.length);
      const b = Math.min(s.length, a + rng.range(1, 40));
      const at = rng.int(s.length + 1);
      return s.slice(0, at) + s.slice(a, b) + s.slice(at);
    }
    case 2: {
      // delete a slice
      const a = rng.int(s.length);
      return s.slice(0, a) + s.slice(Math.min(s.length, a + rng.range(1, 12)));
    }
    case 3: {
      // insert a special character or a lone '<', '&', '>'
      const at = rng.int(s.length + 1);
      return s.slice(0, at) + rng.pick([...SPECIAL_CHARS, '<', '&', '>', '</', '"', "'", '=', '<!', '<?', '-->', '/']) + s.slice(at);
    }
    default:
      return s;
  }
}

function build(rng: Rng, flavor: Flavor, pieces: number, prefix: string): string {
  const g = new Gen(rng, pieces * 3);
  g.pieces(pieces, 0, flavor);
  let s = prefix + g.result();
  for (let m = rng.int(3); m > 0; m--) s = mutate(rng, s);
  // A very long accidental input would only slow the run down.
  return s.length > 4000 ? s.slice(0, 4000) : s;
}

const FLAVORS: readonly (readonly [number, Flavor])[] = [
  [6, 'mixed'],
  [2, 'table'],
  [2, 'select'],
  [1, 'template'],
  [2, 'foreign'],
  [2, 'formatting'],
  [1, 'rawtext'],
  [1, 'head'],
  [1, 'structure'],
];

/** A whole document: usually a DOCTYPE first, sometimes explicit html/head/body, then random pieces. */
export function generateDocument(rng: Rng, opts: GeneratorOptions = {}): string {
  const maxPieces = opts.maxPieces ?? 24;
  let prefix = '';
  const r = rng.int(10);
  if (r < 5) prefix = rng.pick(DOCTYPES);
  else if (r === 5) prefix = rng.pick(COMMENTS) + rng.pick(DOCTYPES);
  else if (r === 6) prefix = rng.pick(SPECIAL_CHARS) + rng.pick(DOCTYPES);
  if (rng.chance(0.3)) prefix += rng.pick(['<html>', '<html><head>', '<head>', '<html><body>', '<body>', '<html> <head> </head> <body>', '<head></head><body>', '<html><head><title>t</title></head>']);
  return build(rng, rng.weighted(FLAVORS), rng.range(1, maxPieces), prefix);
}

function flavorFor(ctx: ContextSpec): Flavor {
  if (ctx.namespace === SVG_NS || ctx.namespace === MATHML_NS) return 'foreign';
  switch (ctx.name) {
    case 'table':
    case 'tbody':
    case 'thead':
    case 'tfoot':
    case 'tr':
    case 'td':
    case 'th':
    case 'caption':
    case 'colgroup':
      return 'table';
    case 'select':
    case 'option':
    case 'optgroup':
      return 'select';
    case 'template':
      return 'template';
    case 'head':
    case 'noscript':
      return 'head';
    case 'html':
    case 'frameset':
      return 'structure';
    case 'textarea':
    case 'title':
    case 'style':
    case 'script':
    case 'xmp':
    case 'plaintext':
    case 'iframe':
    case 'noembed':
    case 'noframes':
      return 'rawtext';
    default:
      return 'mixed';
  }
}

/** Input for fragment parsing in `ctx`, biased towards what is interesting in that context. */
export function generateFragment(rng: Rng, ctx: ContextSpec, opts: GeneratorOptions = {}): string {
  const maxPieces = opts.maxPieces ?? 16;
  const flavor = rng.chance(0.6) ? flavorFor(ctx) : rng.weighted(FLAVORS);
  // Raw-text contexts: make the end tag of the context itself likely.
  let prefix = '';
  if (flavor === 'rawtext' && rng.chance(0.5)) prefix = rng.pick(['x</' + ctx.name + '>', '</' + ctx.name + '><b>', '<!--</' + ctx.name + '>-->', '\n']);
  return build(rng, flavor, rng.range(1, maxPieces), prefix);
}

const svg = (name: string): ContextSpec => ({ name, namespace: SVG_NS });
const math = (name: string): ContextSpec => ({ name, namespace: MATHML_NS });

/** Context elements for fragment parsing (HTML, SVG and MathML). */
export const FRAGMENT_CONTEXTS: readonly ContextSpec[] = [
  { name: 'body' },
  { name: 'div' },
  { name: 'p' },
  { name: 'span' },
  { name: 'table' },
  { name: 'tbody' },
  { name: 'thead' },
  { name: 'tr' },
  { name: 'td' },
  { name: 'th' },
  { name: 'caption' },
  { name: 'colgroup' },
  { name: 'select' },
  { name: 'option' },
  { name: 'optgroup' },
  { name: 'template' },
  { name: 'textarea' },
  { name: 'title' },
  { name: 'style' },
  { name: 'script' },
  { name: 'noscript' },
  { name: 'plaintext' },
  { name: 'xmp' },
  { name: 'iframe' },
  { name: 'noembed' },
  { name: 'noframes' },
  { name: 'html' },
  { name: 'head' },
  { name: 'frameset' },
  { name: 'ul' },
  { name: 'li' },
  { name: 'dl' },
  { name: 'pre' },
  { name: 'listing' },
  { name: 'button' },
  { name: 'a' },
  { name: 'form' },
  { name: 'h1' },
  { name: 'ruby' },
  { name: 'object' },
  { name: 'my-element' },
  svg('svg'),
  svg('g'),
  svg('path'),
  svg('foreignObject'),
  svg('desc'),
  svg('title'),
  svg('text'),
  svg('style'),
  svg('script'),
  math('math'),
  math('mi'),
  math('mo'),
  math('mtext'),
  math('ms'),
  math('mrow'),
  math('annotation-xml'),
  math('mglyph'),
];
