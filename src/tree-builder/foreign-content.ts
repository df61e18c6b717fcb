/**
 * Foreign content support (WHATWG HTML, "13.2.6.5 The rules for parsing tokens in foreign content" and
 * "13.2.6.3 Creating and inserting nodes": adjust MathML attributes, adjust SVG attributes, adjust
 * foreign attributes, and the SVG tag-name table).
 */
import { type Attr, XLINK_NS, XML_NS, XMLNS_NS } from '../dom.js';
import * as T from './html-elements.js';

/** The SVG element names whose case the parser fixes (the table in "any other start tag" of foreign content). */
const SVG_TAG_NAMES = new Map<string, string>();
for (const n of [
  'altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform', 'clipPath',
  'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting',
  'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR',
  'feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
  'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence', 'foreignObject', 'glyphRef', 'linearGradient',
  'radialGradient', 'textPath',
]) {
  SVG_TAG_NAMES.set(n.toLowerCase(), n);
}

/** The SVG attribute names whose case the parser fixes ("adjust SVG attributes"). */
const SVG_ATTRIBUTE_NAMES = new Map<string, string>();
for (const n of [
  'attributeName', 'attributeType', 'baseFrequency', 'baseProfile', 'calcMode', 'clipPathUnits', 'diffuseConstant',
  'edgeMode', 'filterUnits', 'glyphRef', 'gradientTransform', 'gradientUnits', 'kernelMatrix', 'kernelUnitLength',
  'keyPoints', 'keySplines', 'keyTimes', 'lengthAdjust', 'limitingConeAngle', 'markerHeight', 'markerUnits',
  'markerWidth', 'maskContentUnits', 'maskUnits', 'numOctaves', 'pathLength', 'patternContentUnits',
  'patternTransform', 'patternUnits', 'pointsAtX', 'pointsAtY', 'pointsAtZ', 'preserveAlpha', 'preserveAspectRatio',
  'primitiveUnits', 'refX', 'refY', 'repeatCount', 'repeatDur', 'requiredExtensions', 'requiredFeatures',
  'specularConstant', 'specularExponent', 'spreadMethod', 'startOffset', 'stdDeviation', 'stitchTiles',
  'surfaceScale', 'systemLanguage', 'tableValues', 'targetX', 'targetY', 'textLength', 'viewBox', 'viewTarget',
  'xChannelSelector', 'yChannelSelector', 'zoomAndPan',
]) {
  SVG_ATTRIBUTE_NAMES.set(n.toLowerCase(), n);
}

/** The SVG local name for a lower-cased start tag name. */
export function adjustSvgTagName(name: string): string {
  const fixed = SVG_TAG_NAMES.get(name);
  return fixed === undefined ? name : fixed;
}

/** "Adjust MathML attributes": definitionurl becomes definitionURL. */
export function adjustMathMLAttributes(attrs: Attr[]): void {
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.localName === 'definitionurl') a.localName = 'definitionURL';
  }
}

/** "Adjust SVG attributes". */
export function adjustSvgAttributes(attrs: Attr[]): void {
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    const fixed = SVG_ATTRIBUTE_NAMES.get(a.localName);
    if (fixed !== undefined) a.localName = fixed;
  }
}

/** "Adjust foreign attributes": xlink:*, xml:*, xmlns and xmlns:xlink get their namespace and prefix. */
export function adjustForeignAttributes(attrs: Attr[]): void {
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    const name = a.localName;
    const c = name.charCodeAt(0);
    if (c !== 0x78 /* x */ || name.length < 5) continue;
    switch (name) {
      case 'xlink:actuate':
      case 'xlink:arcrole':
      case 'xlink:href':
      case 'xlink:role':
      case 'xlink:show':
      case 'xlink:title':
      case 'xlink:type':
        a.prefix = 'xlink';
        a.localName = name.slice(6);
        a.namespaceURI = XLINK_NS;
        break;
      case 'xml:lang':
      case 'xml:space':
        a.prefix = 'xml';
        a.localName = name.slice(4);
        a.namespaceURI = XML_NS;
        break;
      case 'xmlns':
        a.namespaceURI = XMLNS_NS;
        break;
      case 'xmlns:xlink':
        a.prefix = 'xmlns';
        a.localName = 'xlink';
        a.namespaceURI = XMLNS_NS;
        break;
    }
  }
}

/** Start tags that break out of foreign content ("13.2.6.5", the list before "font"). */
export const BREAKOUT_START_TAG = T.tagIdTable([
  T.B, T.BIG, T.BLOCKQUOTE, T.BODY, T.BR, T.CENTER, T.CODE, T.DD, T.DIV, T.DL, T.DT, T.EM, T.EMBED, T.H1, T.H2,
  T.H3, T.H4, T.H5, T.H6, T.HEAD, T.HR, T.I, T.IMG, T.LI, T.LISTING, T.MENU, T.META, T.NOBR, T.OL, T.P, T.PRE,
  T.RUBY, T.S, T.SMALL, T.SPAN, T.STRONG, T.STRIKE, T.SUB, T.SUP, T.TABLE, T.TT, T.U, T.UL, T.VAR,
]);

/** A `font` start tag breaks out of foreign content when it has a color, face or size attribute. */
export function fontBreaksOut(attrs: Attr[]): boolean {
  for (let i = 0; i < attrs.length; i++) {
    const n = attrs[i]!.localName;
    if (n === 'color' || n === 'face' || n === 'size') return true;
  }
  return false;
}

/** For `annotation-xml`: is the `encoding` attribute text/html or application/xhtml+xml (ASCII case-insensitive)? */
export function isHtmlEncoding(attrs: Attr[]): boolean {
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.localName === 'encoding' && a.namespaceURI === null) {
      const v = a.value.toLowerCase();
      return v === 'text/html' || v === 'application/xhtml+xml';
    }
  }
  return false;
}
