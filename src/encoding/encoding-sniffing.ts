/**
 * Determining the character encoding of HTML given as bytes: HTML Standard §13.2.3.2 "Determining the
 * character encoding" (the encoding sniffing algorithm, the prescan, "get an attribute", "get an XML
 * encoding") and §2.6.x "algorithm for extracting a character encoding from a meta element".
 *
 * Choices where the standard leaves room (each as Chromium 156 does it):
 * - Prescan end condition: the first 1024 bytes are always scanned; past them the scan goes on only
 *   while every tag seen so far may appear in `head` (html, head, meta, link, script, noscript, style,
 *   object, title, base; an end tag of html or head ends the head). This is Blink's
 *   HTMLMetaCharsetParser rule, and it is why a `<meta charset>` after a long head comment still counts.
 *   The condition is checked before each construct the prescan reads, so a tag that starts in range is
 *   read to its end.
 * - The scan itself is the standard's byte-level prescan; we follow the standard (and html5lib-tests) where
 *   Chromium 156 departs from it. Blink scans with its HTML tokenizer, so it ignores a `<meta>` inside
 *   `<script>`/`<style>`/`<title>` text (`<script type="text/plain"><meta charset="koi8-r"></script>` stays
 *   windows-1252), ends a comment at `--!>`, takes the last of a `<meta>`'s duplicate attributes and decodes
 *   character references in their values; it ends an unquoted charset in `content` at a quote or a control
 *   character too; and it takes the UTF-16 XML declaration bytes as the fallback only in a document of at least 8
 *   bytes. test/browser/encoding-sniffing.test.ts pins each of these against Chromium.
 * - No user override, no parent-document encoding, no frequency-analysis autodetection (steps 2, 6-8).
 * - Default encoding: windows-1252 (the standard's suggestion for most locales, and Chromium's default).
 *
 * Decoding: UTF-8 and UTF-16 with the runtime's TextDecoder; the legacy encodings with htmlsift's own decoders
 * (`legacy-decoders.ts`), which follow the Encoding Standard in every runtime (Node's TextDecoder does not). The
 * `replacement` encoding (labels such as `iso-2022-kr`, `hz-gb-2312`) is honoured as the standard says: the whole
 * input decodes to a single U+FFFD (nothing for empty input). A build without the multi-byte indexes (a browser
 * bundle: see `legacy-decoders.ts`) decodes the multi-byte encodings with the runtime's TextDecoder; a runtime
 * that has no decoder for one either falls back to windows-1252, and the result says so.
 */
import { getEncoding } from './labels.js';
import { checkOptions } from '../options.js';
import { decodeLegacy } from './legacy-decoders.js';

export type EncodingConfidence = 'certain' | 'tentative';

export interface SniffOptions {
  /** The charset label given by the transport layer (e.g. the `charset` parameter of Content-Type). */
  transportEncoding?: string;
}

export interface SniffResult {
  /** The WHATWG encoding name, lower-case: `'utf-8'`, `'windows-1252'`, `'shift_jis'`, `'replacement'`... */
  encoding: string;
  confidence: EncodingConfidence;
  /** Length of the byte order mark at the start of the input (0, 2 or 3); decoding starts after it. */
  bomLength: number;
}

export interface DecodeResult {
  text: string;
  encoding: string;
  confidence: EncodingConfidence;
}

/** The default encoding (§13.2.3.2 step 9). */
const DEFAULT_ENCODING = 'windows-1252';

/** Blink's kBytesToCheckUnconditionally: the prescan always covers this many bytes. */
const PRESCAN_UNCONDITIONAL_BYTES = 1024;

/** Tags that keep the prescan "in head" (Blink's HTMLMetaCharsetParser list). */
const HEAD_TAGS: ReadonlySet<string> = new Set(['script', 'noscript', 'style', 'link', 'meta', 'object', 'title', 'base']);

/** The encoding sniffing algorithm (§13.2.3.2). Does not decode. */
export function sniffEncoding(bytes: Uint8Array, options?: SniffOptions): SniffResult {
  checkBytes(bytes, 'sniffEncoding');
  checkOptions(options, 'sniffEncoding');
  // Step 1: BOM sniffing (Encoding Standard); a BOM wins over everything.
  const bom = bomSniff(bytes);
  if (bom !== null) return { encoding: bom, confidence: 'certain', bomLength: bom === 'utf-8' ? 3 : 2 };
  // Step 4: the transport layer's encoding, if it names a supported encoding.
  const transport = options?.transportEncoding;
  if (typeof transport === 'string') {
    const enc = getEncoding(transport);
    if (enc !== null) return { encoding: enc, confidence: 'certain', bomLength: 0 };
  }
  // Step 5: the prescan.
  const found = prescan(bytes);
  if (found !== null) return { encoding: found, confidence: 'tentative', bomLength: 0 };
  // Step 9: the default.
  return { encoding: DEFAULT_ENCODING, confidence: 'tentative', bomLength: 0 };
}

/** Sniffs the encoding of `bytes` (see {@link sniffEncoding}) and decodes them with it. */
export function decodeHTMLBytes(bytes: Uint8Array, options?: SniffOptions): DecodeResult {
  checkBytes(bytes, 'decodeHTMLBytes');
  checkOptions(options, 'decodeHTMLBytes');
  const sniffed = sniffEncoding(bytes, options);
  const body = sniffed.bomLength > 0 ? bytes.subarray(sniffed.bomLength) : bytes;
  const encoding = sniffed.encoding;
  const text = decodeBytes(encoding, body);
  if (text !== null) return { text, encoding, confidence: sniffed.confidence };
  // The runtime has no decoder for this encoding: fall back to the default, and report it.
  return { text: decodeLegacy(DEFAULT_ENCODING, body)!, encoding: DEFAULT_ENCODING, confidence: 'tentative' };
}

/**
 * Decodes `bytes` with `encoding` (a WHATWG encoding name, as `getEncoding` returns; no BOM handling: a BOM is
 * content), errors becoming U+FFFD. Null when this runtime and build have no decoder for it.
 */
export function decodeBytes(encoding: string, bytes: Uint8Array): string | null {
  // The replacement decoder: one error for a non-empty stream, then the end.
  if (encoding === 'replacement') return bytes.length > 0 ? '\uFFFD' : '';
  return decodeLegacy(encoding, bytes) ?? decodeWith(encoding, bytes);
}

/**
 * True for a Uint8Array (or a subclass such as Node's Buffer) from any realm: `instanceof` fails for arrays
 * made in another realm (an iframe, a vm context), whose Uint8Array is a different constructor.
 */
export function isUint8Array(x: unknown): x is Uint8Array {
  return ArrayBuffer.isView(x) && Object.prototype.toString.call(x) === '[object Uint8Array]';
}

function checkBytes(bytes: unknown, fn: string): void {
  if (!isUint8Array(bytes)) {
    throw new TypeError(fn + ': expected a Uint8Array, got ' + (bytes === null ? 'null' : typeof bytes));
  }
}

/** BOM sniff (Encoding Standard §6): the encoding a byte order mark names, or null. */
function bomSniff(bytes: Uint8Array): string | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 2) {
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The prescan

/** Outcome codes of "get an attribute". */
const ATTR_FOUND = 0;
const ATTR_NONE = 1;
const OUT_OF_BYTES = 2;

/**
 * "Prescan a byte stream to determine its encoding" (§13.2.3.2), with the end condition described at
 * the top of this file. Returns an encoding name or null (failure). Running out of bytes or reaching
 * the end condition aborts with the result of "get an XML encoding".
 */
export function prescan(bytes: Uint8Array): string | null {
  const n = bytes.length;
  // Step 2: prescan for UTF-16 XML declarations ('<?x' in UTF-16LE / UTF-16BE).
  if (n >= 6) {
    if (bytes[0] === 0x3c && bytes[1] === 0 && bytes[2] === 0x3f && bytes[3] === 0 && bytes[4] === 0x78 && bytes[5] === 0) {
      return 'utf-16le';
    }
    if (bytes[0] === 0 && bytes[1] === 0x3c && bytes[2] === 0 && bytes[3] === 0x3f && bytes[4] === 0 && bytes[5] === 0x78) {
      return 'utf-16be';
    }
  }
  const scanner = new Prescanner(bytes);
  let inHead = true;
  let position = 0;
  // Step 3, "loop"; each iteration ends with step 4, "next byte".
  for (;;) {
    // "Any other byte: do nothing": jump straight to the next '<'.
    position = bytes.indexOf(0x3c, position);
    if (position < 0) return getXMLEncoding(bytes);
    if (!inHead && position >= PRESCAN_UNCONDITIONAL_BYTES) return getXMLEncoding(bytes); // end condition
    const b1 = position + 1 < n ? bytes[position + 1]! : -1;
    if (b1 === 0x21 && position + 3 < n && bytes[position + 2] === 0x2d && bytes[position + 3] === 0x2d) {
      // '<!--': skip to the first '>' preceded by '--' (the dashes of '<!--' count).
      let gt = position + 4;
      for (;;) {
        gt = bytes.indexOf(0x3e, gt);
        if (gt < 0) return getXMLEncoding(bytes);
        if (bytes[gt - 1] === 0x2d && bytes[gt - 2] === 0x2d) break;
        gt++;
      }
      position = gt + 1;
      continue;
    }
    if (isMetaStart(bytes, position)) {
      scanner.position = position + 5;
      const result = scanner.processMeta();
      if (result === OUT_OF_BYTES) return getXMLEncoding(bytes);
      if (typeof result === 'string') return result;
      position = scanner.position + 1;
      continue;
    }
    const nameStart = b1 === 0x2f ? position + 2 : position + 1;
    if (nameStart < n && isAsciiAlpha(bytes[nameStart]!)) {
      // A start or end tag: skip its name and attributes. Track whether we are still in the head.
      if (inHead && !isHeadTag(bytes, nameStart, b1 === 0x2f)) inHead = false;
      let p = nameStart;
      while (p < n && !isSpaceOrGt(bytes[p]!)) p++;
      if (p >= n) return getXMLEncoding(bytes);
      scanner.position = p;
      let r: number;
      do r = scanner.getAttribute(false);
      while (r === ATTR_FOUND);
      if (r === OUT_OF_BYTES) return getXMLEncoding(bytes);
      position = scanner.position + 1;
      continue;
    }
    if (b1 === 0x21 || b1 === 0x2f || b1 === 0x3f) {
      // '<!', '</', '<?': skip to the first '>' after the '<'.
      const gt = bytes.indexOf(0x3e, position + 2);
      if (gt < 0) return getXMLEncoding(bytes);
      position = gt + 1;
      continue;
    }
    position++;
  }
}

/** Case-insensitive '<meta' followed by one of HT, LF, FF, CR, SP or '/'. */
function isMetaStart(bytes: Uint8Array, p: number): boolean {
  return (
    p + 5 < bytes.length &&
    (bytes[p + 1]! | 0x20) === 0x6d &&
    (bytes[p + 2]! | 0x20) === 0x65 &&
    (bytes[p + 3]! | 0x20) === 0x74 &&
    (bytes[p + 4]! | 0x20) === 0x61 &&
    (isSpaceByte(bytes[p + 5]!) || bytes[p + 5] === 0x2f)
  );
}

/** Whether the tag whose name starts at `start` keeps the prescan in the head (Blink's rule). */
function isHeadTag(bytes: Uint8Array, start: number, endTag: boolean): boolean {
  let end = start;
  const n = bytes.length;
  while (end < n && end - start <= 8) {
    const b = bytes[end]!;
    if (isSpaceOrGt(b) || b === 0x2f) break;
    end++;
  }
  if (end - start > 8) return false;
  let name = '';
  for (let i = start; i < end; i++) name += String.fromCharCode(bytes[i]! | 0x20);
  if (name === 'html' || name === 'head') return !endTag;
  return HEAD_TAGS.has(name);
}

/**
 * The meta-processing and "get an attribute" steps of the prescan, over one byte array.
 * @internal
 */
class Prescanner {
  readonly bytes: Uint8Array;
  position = 0;
  name = '';
  value = '';

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /**
   * The '<meta' branch of the prescan loop, from the byte after 'meta'. Returns the encoding name, null
   * to go on with "next byte" (at `this.position`), or OUT_OF_BYTES.
   */
  processMeta(): string | null | typeof OUT_OF_BYTES {
    const attributeList: string[] = [];
    let gotPragma = false;
    let needPragma: boolean | null = null;
    let charset: string | null | undefined = undefined; // undefined: the standard's null; null: failure
    for (;;) {
      const r = this.getAttribute(true);
      if (r === OUT_OF_BYTES) return OUT_OF_BYTES;
      if (r === ATTR_NONE) break;
      const name = this.name;
      if (attributeList.includes(name)) continue;
      attributeList.push(name);
      if (name === 'http-equiv') {
        if (this.value === 'content-type') gotPragma = true;
      } else if (name === 'content') {
        const enc = extractEncodingFromMeta(this.value);
        if (enc !== null && charset === undefined) {
          charset = enc;
          needPragma = true;
        }
      } else if (name === 'charset') {
        charset = getEncoding(this.value);
        needPragma = false;
      }
    }
    // Processing.
    if (needPragma === null) return null;
    if (needPragma && !gotPragma) return null;
    if (charset === null || charset === undefined) return null;
    if (charset === 'utf-16be' || charset === 'utf-16le') return 'utf-8';
    if (charset === 'x-user-defined') return 'windows-1252';
    return charset;
  }

  /**
   * "Get an attribute" (§13.2.3.2). On ATTR_FOUND, `name` and `value` hold the attribute when `collect`
   * is true (the meta case); other tags only need the bytes skipped, so nothing is built for them.
   */
  getAttribute(collect: boolean): number {
    const bytes = this.bytes;
    const n = bytes.length;
    let p = this.position;
    let name = '';
    let value = '';
    // Step 1: skip whitespace and '/'.
    while (p < n && (isSpaceByte(bytes[p]!) || bytes[p] === 0x2f)) p++;
    if (p >= n) return this.outOfBytes(p);
    // Step 2: '>' means there is no attribute.
    if (bytes[p] === 0x3e) {
      this.position = p;
      return ATTR_NONE;
    }
    // Steps 3-5: the attribute name.
    let nameLength = 0;
    for (;;) {
      if (p >= n) return this.outOfBytes(p);
      const b = bytes[p]!;
      if (b === 0x3d && nameLength > 0) {
        p++;
        break; // to "value"
      }
      if (isSpaceByte(b)) {
        // Step 6, "spaces".
        while (p < n && isSpaceByte(bytes[p]!)) p++;
        if (p >= n) return this.outOfBytes(p);
        // Step 7: no '=' means an empty value.
        if (bytes[p] !== 0x3d) return this.found(p, name, '');
        p++; // step 8
        break;
      }
      if (b === 0x2f || b === 0x3e) return this.found(p, name, '');
      if (collect) name += String.fromCharCode(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
      nameLength++;
      p++;
    }
    // Step 9, "value": skip whitespace.
    while (p < n && isSpaceByte(bytes[p]!)) p++;
    if (p >= n) return this.outOfBytes(p);
    // Step 10.
    const first = bytes[p]!;
    if (first === 0x22 || first === 0x27) {
      const close = bytes.indexOf(first, p + 1);
      if (close < 0) return this.outOfBytes(n);
      if (collect) value = lowerLatin1(bytes, p + 1, close);
      return this.found(close + 1, name, value);
    }
    if (first === 0x3e) return this.found(p, name, '');
    // Steps 10 (anything else) to 12: an unquoted value up to whitespace or '>'.
    const start = p;
    while (p < n && !isSpaceOrGt(bytes[p]!)) p++;
    if (p >= n) return this.outOfBytes(p);
    if (collect) value = lowerLatin1(bytes, start, p);
    return this.found(p, name, value);
  }

  private found(position: number, name: string, value: string): number {
    this.position = position;
    this.name = name;
    this.value = value;
    return ATTR_FOUND;
  }

  private outOfBytes(position: number): number {
    this.position = position;
    return OUT_OF_BYTES;
  }
}

/** Isomorphic decoding of bytes[start, end) with ASCII upper-case letters lowered (as the prescan reads values). */
function lowerLatin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    s += String.fromCharCode(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
  }
  return s;
}

/**
 * "Algorithm for extracting a character encoding from a meta element" (HTML §2.6, URLs and fetching):
 * finds `charset=` in a `content` value. Returns an encoding name or null ("nothing", or a label that
 * names no encoding).
 */
export function extractEncodingFromMeta(s: string): string | null {
  const n = s.length;
  let position = 0;
  for (;;) {
    // Loop: the next ASCII case-insensitive "charset".
    const at = indexOfCharset(s, position);
    if (at < 0) return null;
    let p = at + 7;
    while (p < n && isSpaceByte(s.charCodeAt(p))) p++;
    if (p >= n || s.charCodeAt(p) !== 0x3d) {
      position = p;
      continue;
    }
    p++;
    while (p < n && isSpaceByte(s.charCodeAt(p))) p++;
    if (p >= n) return null;
    const c = s.charCodeAt(p);
    if (c === 0x22 || c === 0x27) {
      const close = s.indexOf(s[p]!, p + 1);
      if (close < 0) return null; // an unmatched quote
      return getEncoding(s.slice(p + 1, close));
    }
    let end = p;
    while (end < n && !isSpaceByte(s.charCodeAt(end)) && s.charCodeAt(end) !== 0x3b) end++;
    return getEncoding(s.slice(p, end));
  }
}

/** Index of the first ASCII case-insensitive "charset" at or after `from`, or -1. */
function indexOfCharset(s: string, from: number): number {
  const last = s.length - 7;
  for (let i = from; i <= last; i++) {
    if (
      (s.charCodeAt(i) | 0x20) === 0x63 &&
      (s.charCodeAt(i + 1) | 0x20) === 0x68 &&
      (s.charCodeAt(i + 2) | 0x20) === 0x61 &&
      (s.charCodeAt(i + 3) | 0x20) === 0x72 &&
      (s.charCodeAt(i + 4) | 0x20) === 0x73 &&
      (s.charCodeAt(i + 5) | 0x20) === 0x65 &&
      (s.charCodeAt(i + 6) | 0x20) === 0x74
    ) {
      return i;
    }
  }
  return -1;
}

/**
 * "Get an XML encoding" (§13.2.3.2): the encoding named by a leading `<?xml ... encoding="...">`, or null.
 * The search for `encoding="..."` stays inside the declaration (before its first '>'): the standard
 * computes that end (step 3) without using it afterwards; Blink and WebKit bound the search by it, and
 * so do we.
 */
export function getXMLEncoding(bytes: Uint8Array): string | null {
  const n = bytes.length;
  // Step 2: '<?xml' at the very start.
  if (n < 5 || bytes[0] !== 0x3c || bytes[1] !== 0x3f || bytes[2] !== 0x78 || bytes[3] !== 0x6d || bytes[4] !== 0x6c) {
    return null;
  }
  // Step 3: the declaration ends at the next '>'.
  const declEnd = bytes.indexOf(0x3e, 5);
  if (declEnd < 0) return null;
  // Step 4: the first 'encoding'.
  let p = indexOfBytes(bytes, ENCODING_BYTES, 5, declEnd);
  if (p < 0) return null;
  p += ENCODING_BYTES.length; // step 5
  while (p < declEnd && bytes[p]! <= 0x20) p++; // step 6
  if (p >= declEnd || bytes[p] !== 0x3d) return null; // step 7
  p++; // step 8
  while (p < declEnd && bytes[p]! <= 0x20) p++; // step 9
  if (p >= declEnd) return null;
  const quote = bytes[p]!; // step 10
  if (quote !== 0x22 && quote !== 0x27) return null; // step 11
  p++; // step 12
  const close = bytes.indexOf(quote, p); // step 13
  if (close < 0 || close > declEnd) return null;
  let label = '';
  for (let i = p; i < close; i++) {
    const b = bytes[i]!;
    if (b <= 0x20) return null; // step 15
    label += String.fromCharCode(b); // step 16: isomorphic decode
  }
  const enc = getEncoding(label);
  if (enc === 'utf-16be' || enc === 'utf-16le') return 'utf-8'; // step 17
  return enc;
}

const ENCODING_BYTES = [0x65, 0x6e, 0x63, 0x6f, 0x64, 0x69, 0x6e, 0x67]; // 'encoding'

/** Index of `needle` in bytes[from, end), or -1. */
function indexOfBytes(bytes: Uint8Array, needle: readonly number[], from: number, end: number): number {
  const first = needle[0]!;
  const last = end - needle.length;
  for (let i = bytes.indexOf(first, from); i >= 0 && i <= last; i = bytes.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function isSpaceByte(b: number): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
}

function isSpaceOrGt(b: number): boolean {
  return b === 0x3e || isSpaceByte(b);
}

function isAsciiAlpha(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** Decodes with the runtime's TextDecoder (not fatal: errors become U+FFFD), or null if it lacks the encoding. */
function decodeWith(encoding: string, bytes: Uint8Array): string | null {
  let decoder: TextDecoder;
  try {
    // ignoreBOM: the sniffed BOM is already cut off, and a second one is content.
    decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
  } catch {
    return null;
  }
  // A runtime may map an encoding it does not have to another one; only an exact match will do.
  if (decoder.encoding !== encoding) return null;
  return decoder.decode(bytes);
}
