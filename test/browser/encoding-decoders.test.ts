/**
 * htmlsift's legacy decoders (src/encoding/legacy-decoders.ts) against Chromium's TextDecoder, byte sequence by byte
 * sequence, for every legacy encoding of the Encoding Standard:
 * - every single byte, and every two-byte sequence whose first byte is 0x80–0xFF (33,024 per encoding);
 * - EUC-JP: every 0x8F-led three-byte sequence with two bytes 0xA1–0xFE (JIS X 0212);
 * - gb18030 and GBK: four-byte sequences over ten first bytes, every second and fourth byte, 26 third bytes;
 * - ISO-2022-JP: every two-byte sequence of 0x00–0x7F after each of the five escape sequences, and cut or
 *   unknown escape sequences;
 * - one 64 KB random input per encoding, biased towards lead bytes (state carried across a long input), without the
 *   byte patterns of Chromium's known departures so that it is compared whole.
 * Each sequence gets a fresh TextDecoder in the page (Chromium's decoders keep state from one `decode` call to the
 * next in some cases). Chromium departs from the standard in one place, listed in KNOWN_DEVIATIONS; every other
 * difference fails the test.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { decodeBytes } from '../../src/encoding/encoding-sniffing.js';
import { installMultiByteDecoders } from '../../src/encoding/multi-byte.js';
import { mulberry32 } from '../support/random.js';
import { chromiumSkipReason, launchChromium } from './chromium.js';

installMultiByteDecoders();

const SINGLE_BYTE = [
  'ibm866', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8',
  'iso-8859-8-i', 'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'iso-8859-16', 'koi8-r', 'koi8-u',
  'macintosh', 'windows-874', 'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253', 'windows-1254',
  'windows-1255', 'windows-1256', 'windows-1257', 'windows-1258', 'x-mac-cyrillic', 'x-user-defined',
];
const MULTI_BYTE = ['gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr'];

/**
 * Where Chromium 156 departs from the Encoding Standard. Big5 pointers 1133, 1135, 1164 and 1166 decode to two code
 * points each (Ê̄ Ê̌ ê̄ ê̌: U+00CA or U+00EA, then U+0304 or U+030C); Chromium gives U+0093 or U+00B3 and a lone
 * surrogate instead. ISO-2022-JP: after an escape sequence that is not one of the five (ESC followed by `$` or `(`
 * and then a byte that does not complete it, or the end of the input), the standard reads the `$` or `(` again in
 * the output state (a katakana in the katakana state, the start of a pair in the lead byte state) and then the
 * byte after it; Chromium writes the `$` or `(` as ASCII whatever the state, and drops the error of a following
 * 0x0E or 0x0F. EUC-JP: after 0x8F and a lead byte 0xA1–0xFE, a byte outside 0xA1–0xFE ends the sequence with an
 * error and the standard unsets the JIS X 0212 flag; Chromium keeps it, and decodes the next pair with JIS X 0212
 * instead of JIS X 0208 (`8F FA 66 DD F9`: U+FFFD f U+6CD7 in the standard, U+8A9F in Chromium). We follow the
 * standard (so do Firefox's encoding_rs, Deno and Bun).
 */
interface KnownDeviation {
  id: string;
  encoding: string;
  /** Whether the departure's byte pattern starts at `bytes[i]`. */
  startsAt: (bytes: readonly number[], i: number) => boolean;
}

const inRange = (x: number | undefined): boolean => x !== undefined && x >= 0xa1 && x <= 0xfe;

const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    id: 'chromium-big5-two-code-point-pointers',
    encoding: 'big5',
    startsAt: (bytes, i) => bytes[i] === 0x88 && [0x62, 0x64, 0xa3, 0xa5].includes(bytes[i + 1] ?? -1),
  },
  {
    id: 'chromium-euc-jp-jis0212-flag-kept',
    encoding: 'euc-jp',
    startsAt: (bytes, i) => bytes[i] === 0x8f && inRange(bytes[i + 1]) && !inRange(bytes[i + 2]),
  },
  {
    id: 'chromium-iso-2022-jp-failed-escape',
    encoding: 'iso-2022-jp',
    startsAt: (bytes, i) => {
      if (bytes[i] !== 0x1b) return false;
      const l = bytes[i + 1];
      const n = bytes[i + 2] ?? -1;
      return (l === 0x28 && n !== 0x42 && n !== 0x4a && n !== 0x49) || (l === 0x24 && n !== 0x40 && n !== 0x42);
    },
  },
];

/** The known deviation whose byte pattern `bytes` contains, if any. */
function knownDeviation(encoding: string, bytes: readonly number[]): KnownDeviation | undefined {
  return KNOWN_DEVIATIONS.find((d) => d.encoding === encoding && bytes.some((_, i) => d.startsAt(bytes, i)));
}

function sequences(encoding: string): number[][] {
  const out: number[][] = [];
  for (let a = 0; a < 256; a++) out.push([a]);
  for (let a = 0x80; a < 256; a++) for (let b = 0; b < 256; b++) out.push([a, b]);
  if (encoding === 'euc-jp') for (let a = 0xa1; a < 0xff; a++) for (let b = 0xa1; b < 0xff; b++) out.push([0x8f, a, b]);
  if (encoding === 'gb18030' || encoding === 'gbk') {
    for (const a of [0x81, 0x82, 0x84, 0x85, 0x8f, 0x90, 0x91, 0xe3, 0xe4, 0xfe]) {
      for (let b = 0x2f; b <= 0x3a; b++) {
        for (let c = 0x80; c <= 0xff; c += 5) for (let d = 0x2f; d <= 0x3a; d++) out.push([a, b, c, d]);
      }
    }
  }
  if (encoding === 'iso-2022-jp') {
    const escapes = [[0x1b, 0x28, 0x42], [0x1b, 0x28, 0x4a], [0x1b, 0x28, 0x49], [0x1b, 0x24, 0x40], [0x1b, 0x24, 0x42]];
    for (const e of escapes) for (let a = 0; a < 0x80; a++) for (let b = 0; b < 0x80; b++) out.push([...e, a, b]);
    for (const e of escapes) {
      out.push(e.slice(0, 1), e.slice(0, 2), [...e, 0x1b], [...e, 0x1b, 0x28], [...e, 0x1b, 0x24], [...e, ...e], [...e, 0x41, ...e, 0x41]);
      for (const f of escapes) out.push([...e, 0x1b, f[1]!], [...e, ...f, 0x21], [...e, 0x21, 0x1b, ...f.slice(1), 0x22]);
      for (let x = 0; x < 0x80; x++) out.push([...e, 0x1b, x], [...e, 0x1b, 0x28, x], [...e, 0x1b, 0x24, x]);
    }
  }
  // One long random input, biased towards bytes that start sequences.
  const rnd = mulberry32(encoding.length * 7919 + encoding.charCodeAt(0));
  const long: number[] = [];
  for (let i = 0; i < 65536; i++) {
    const r = rnd();
    long.push(r < 0.15 ? Math.floor(rnd() * 0x80) : r < 0.2 ? 0x1b : r < 0.3 ? 0x30 + Math.floor(rnd() * 10) : 0x80 + Math.floor(rnd() * 0x80));
  }
  // Without the byte patterns of KNOWN_DEVIATIONS (each start turned into an 'A'), so that the long input is compared whole.
  for (let i = 0; i < long.length; i++) {
    if (KNOWN_DEVIATIONS.some((d) => d.encoding === encoding && d.startsAt(long, i))) long[i] = 0x41;
  }
  if (knownDeviation(encoding, long) !== undefined) throw new Error(encoding + ': the long input still has a known deviation');
  out.push(long);
  return out;
}

/** Chromium's decoding of each sequence (a fresh decoder each): code units, with per-sequence lengths. */
async function chromiumDecode(page: Page, encoding: string, seqs: number[][]): Promise<string[]> {
  const flat: number[] = [];
  const lengths: number[] = [];
  for (const s of seqs) {
    lengths.push(s.length);
    for (const b of s) flat.push(b);
  }
  const r = await page.evaluate(
    ({ encoding, flat, lengths }) => {
      const bytes = Uint8Array.from(flat);
      const units: number[] = [];
      const outLengths: number[] = [];
      let p = 0;
      for (const n of lengths) {
        const s = new TextDecoder(encoding).decode(bytes.subarray(p, p + n));
        p += n;
        outLengths.push(s.length);
        for (let i = 0; i < s.length; i++) units.push(s.charCodeAt(i));
      }
      return { units, outLengths };
    },
    { encoding, flat, lengths },
  );
  const out: string[] = [];
  let p = 0;
  for (const n of r.outLengths) {
    out.push(String.fromCharCode(...r.units.slice(p, p + n)));
    p += n;
  }
  return out;
}

const hex = (xs: readonly number[]): string => xs.map((x) => x.toString(16).padStart(2, '0')).join(' ');
const units = (s: string): string => [...s].map((c) => 'U+' + c.codePointAt(0)!.toString(16).toUpperCase()).join(' ');

const skip = chromiumSkipReason('encoding-decoders');

describe.skipIf(skip !== null)('legacy decoders against Chromium', () => {
  let browser: Browser;
  let page: Page;
  const known = new Map<string, number>();
  let compared = 0;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    console.log(
      `[encoding-decoders] ${compared} byte sequences across ${SINGLE_BYTE.length + MULTI_BYTE.length} encodings; ` +
        `known deviations: ${[...known].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
    );
  });

  for (const encoding of [...SINGLE_BYTE, ...MULTI_BYTE]) {
    test(encoding, async () => {
      const seqs = sequences(encoding);
      const theirs = await chromiumDecode(page, encoding, seqs);
      const unexplained: string[] = [];
      let more = 0;
      for (let i = 0; i < seqs.length; i++) {
        const ours = decodeBytes(encoding, Uint8Array.from(seqs[i]!));
        compared++;
        if (ours === theirs[i]) continue;
        const dev = knownDeviation(encoding, seqs[i]!);
        if (dev !== undefined) {
          known.set(dev.id, (known.get(dev.id) ?? 0) + 1);
          continue;
        }
        if (unexplained.length < 10) {
          const s = seqs[i]!.length > 16 ? `${seqs[i]!.length} bytes (random input)` : hex(seqs[i]!);
          unexplained.push(`${s}: ours ${units(ours ?? '(null)').slice(0, 200)}, Chromium ${units(theirs[i]!).slice(0, 200)}`);
        } else more++;
      }
      if (more > 0) unexplained.push(`… and ${more} more`);
      expect(unexplained, `${encoding}: decodings that differ from Chromium's`).toEqual([]);
    });
  }
});
