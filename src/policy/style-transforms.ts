/**
 * Presentational attributes turned into CSS declarations (`toStyle`). Each target property has a strict value
 * check: a value that does not match exactly is refused (the attribute is dropped), never guessed at. The
 * output is built only from the matched pieces, so it is always a single valid CSS value.
 */
import type { StyleTransformProperty } from './types.js';

/** CSS Color 4 named colors (plus `transparent`). */
const NAMED_COLORS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
    'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
    'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid ' +
    'darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet ' +
    'deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ' +
    'ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
    'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow ' +
    'lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine ' +
    'mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise ' +
    'mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab ' +
    'orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru ' +
    'pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown ' +
    'seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan ' +
    'teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);

export const STYLE_TRANSFORM_PROPERTIES: readonly StyleTransformProperty[] = [
  'text-align',
  'vertical-align',
  'background-color',
  'color',
  'width',
  'height',
  'font-family',
  'font-size',
  'white-space',
];

const HEX = /^#?([0-9a-fA-F]{6})$|^#([0-9a-fA-F]{3})$/;
const LENGTH = /^([0-9]{1,6})(?:px)?$/;
const PERCENT = /^([0-9]{1,3}(?:\.[0-9]{1,3})?)%$/;
const FONT_NAME = /^[A-Za-z0-9][A-Za-z0-9 -]{0,63}$/;
const GENERIC_FONTS = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui']);
const FONT_SIZES = ['x-small', 'small', 'medium', 'large', 'x-large', 'xx-large', 'xxx-large'];

function trimHtmlSpace(s: string): string {
  return s.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
}

function color(v: string): string | null {
  const m = HEX.exec(v);
  if (m !== null) return '#' + (m[1] ?? m[2]!).toLowerCase();
  const lower = v.toLowerCase();
  return NAMED_COLORS.has(lower) ? lower : null;
}

function fontFamily(v: string): string | null {
  const out: string[] = [];
  for (const raw of v.split(',')) {
    const name = trimHtmlSpace(raw).replace(/ +/g, ' ');
    if (!FONT_NAME.test(name)) return null;
    const lower = name.toLowerCase();
    out.push(GENERIC_FONTS.has(lower) ? lower : '"' + name + '"');
  }
  return out.length > 0 && out.length <= 8 ? out.join(', ') : null;
}

/**
 * The CSS value for `property` from a presentational attribute's value, or null when the value does not pass
 * the property's strict check. `booleanAttribute` values (`nowrap`) are read as present.
 */
export function styleValueFor(property: StyleTransformProperty, rawValue: string): string | null {
  const v = trimHtmlSpace(rawValue);
  const lower = v.toLowerCase();
  switch (property) {
    case 'text-align':
      if (lower === 'left' || lower === 'right' || lower === 'center' || lower === 'justify') return lower;
      return lower === 'middle' ? 'center' : null;
    case 'vertical-align':
      return lower === 'top' || lower === 'middle' || lower === 'bottom' || lower === 'baseline' ? lower : null;
    case 'background-color':
    case 'color':
      return color(v);
    case 'width':
    case 'height': {
      const px = LENGTH.exec(v);
      if (px !== null) return String(parseInt(px[1]!, 10)) + 'px';
      const pc = PERCENT.exec(v);
      if (pc !== null && parseFloat(pc[1]!) <= 100) return String(parseFloat(pc[1]!)) + '%';
      return null;
    }
    case 'font-family':
      return fontFamily(v);
    case 'font-size': {
      // <font size>: 1..7, or +n/-n relative to 3.
      const m = /^([+-]?)([1-7])$/.exec(v);
      if (m === null) return null;
      const n = parseInt(m[2]!, 10);
      const size = m[1] === '+' ? 3 + n : m[1] === '-' ? 3 - n : n;
      return FONT_SIZES[Math.min(7, Math.max(1, size)) - 1]!;
    }
    case 'white-space':
      // `nowrap` is a boolean attribute: any value means present.
      return 'nowrap';
  }
}

/**
 * The HTML standard's "rules for parsing a legacy colour value" (`bgcolor`, `text`, `link`... of the body), as a
 * CSS color: a named color's name, otherwise `#rrggbb`; null where the rules fail (an empty value, `transparent`).
 * For what a browser shows, not a strict check (`toStyle` refuses what is not plainly a color): `chucknorris` is
 * `#c00000` there.
 */
export function legacyColor(value: string): string | null {
  if (value === '') return null;
  let v = trimHtmlSpace(value);
  const lower = v.toLowerCase();
  if (lower === 'transparent') return null;
  if (NAMED_COLORS.has(lower)) return lower;
  if (/^#[0-9a-fA-F]{3}$/.test(v)) return '#' + (v[1]! + v[1]! + v[2]! + v[2]! + v[3]! + v[3]!).toLowerCase();
  // Code points past U+FFFF become "00"; then at most 128 code points, no leading #, and every non-hex digit a 0.
  v = v.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '00');
  if (v.length > 128) v = v.slice(0, 128);
  if (v.charCodeAt(0) === 0x23) v = v.slice(1);
  v = v.replace(/[^0-9a-fA-F]/g, '0');
  while (v.length === 0 || v.length % 3 !== 0) v += '0';
  let length = v.length / 3;
  const parts = [v.slice(0, length), v.slice(length, 2 * length), v.slice(2 * length)];
  if (length > 8) {
    for (let k = 0; k < 3; k++) parts[k] = parts[k]!.slice(length - 8);
    length = 8;
  }
  while (length > 2 && parts[0]![0] === '0' && parts[1]![0] === '0' && parts[2]![0] === '0') {
    for (let k = 0; k < 3; k++) parts[k] = parts[k]!.slice(1);
    length--;
  }
  let hex = '#';
  // The first two digits of each part (a part of one digit is that digit).
  for (const p of parts) hex += p.padStart(2, '0').slice(0, 2).toLowerCase();
  return hex;
}
