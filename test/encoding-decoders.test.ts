/**
 * htmlsift's own decoders for the Encoding Standard's legacy encodings (src/encoding/legacy-decoders.ts).
 *
 * The expected strings follow the standard's decoder steps and its indexes, and are what Firefox's encoding_rs (in
 * Deno), Bun and Chromium give (Chromium's departures are in test/browser/encoding-decoders.test.ts, which compares
 * every one- and two-byte sequence with Chromium). Node 20's TextDecoder gets many of them wrong: windows-1252 as
 * ISO-8859-1, EUC-KR without its extension, ICU's Big5, Shift_JIS, EUC-JP and GBK.
 */
import { describe, expect, it } from 'vitest';
import { decodeBytes, decodeHTMLBytes } from '../src/encoding/encoding-sniffing.js';
import { decodeLegacy, expandIndex, readVarints } from '../src/encoding/legacy-decoders.js';
import { installMultiByteDecoders } from '../src/encoding/multi-byte.js';
import { GB18030_RANGES, MULTI_BYTE_INDEXES } from '../src/encoding/multi-byte-indexes.generated.js';
import { SINGLE_BYTE_INDEXES } from '../src/encoding/single-byte-indexes.generated.js';
import { encodeIndex, encodeRanges, SINGLE_BYTE } from '../scripts/generate-encoding-indexes.js';
import { parseDocument, serialize } from '../src/index.js';

installMultiByteDecoders();

const decode = (encoding: string, bytes: number[]): string | null => decodeBytes(encoding, Uint8Array.from(bytes));

describe('windows-1252, the default encoding', () => {
  it('decodes 0x80–0x9F with the standard index (not as ISO-8859-1 control characters)', () => {
    const bytes = [0x3c, 0x70, 0x3e, 0x80, 0x20, 0x93, 0x78, 0x94, 0x20, 0x81, 0x9d, 0xe9];
    expect(decode('windows-1252', bytes)).toBe('<p>\u20ac \u201cx\u201d \u0081\u009d\u00e9');
    // The same through sniffing (no declaration: the default applies) and through a document parse.
    const doc = parseDocument(Uint8Array.from([...bytes, 0x3c, 0x2f, 0x70, 0x3e]));
    expect(serialize(doc.body!)).toBe('<p>\u20ac \u201cx\u201d \u0081\u009d\u00e9</p>');
    expect(decodeHTMLBytes(Uint8Array.from(bytes), { transportEncoding: 'latin1' }).text).toBe('<p>\u20ac \u201cx\u201d \u0081\u009d\u00e9');
  });
});

describe('single-byte encodings', () => {
  it.each([
    ['windows-874', [0xa1, 0xdb, 0xfc], '\u0e01\ufffd\ufffd'],
    ['windows-1253', [0xaa, 0xa2], '\ufffd\u0386'],
    ['windows-1255', [0xca, 0xd9], '\u05ba\ufffd'],
    ['koi8-u', [0xae, 0xbe, 0xe9], '\u045e\u040e\u0418'],
    ['ibm866', [0x1a, 0x1c, 0x7f, 0x80, 0xff], '\u001a\u001c\u007f\u0410\u00a0'],
    ['iso-8859-16', [0x41, 0xa4, 0xaa, 0xde, 0xe9], 'A\u20ac\u0218\u021a\u00e9'],
    ['iso-8859-8-i', [0xe0, 0xfa, 0xbf], '\u05d0\u05ea\ufffd'],
    ['x-user-defined', [0x61, 0x80, 0xff], 'a\uf780\uf7ff'],
  ])('%s', (encoding, bytes, expected) => {
    expect(decode(encoding, bytes)).toBe(expected);
  });

  it('maps every byte below 0x80 to itself', () => {
    const ascii = Array.from({ length: 128 }, (_, i) => i);
    for (const encoding of [...SINGLE_BYTE, 'iso-8859-8-i', 'x-user-defined']) {
      expect(decode(encoding, ascii), encoding).toBe(String.fromCharCode(...ascii));
    }
  });
});

describe('multi-byte encodings', () => {
  it.each([
    // index EUC-KR pointer 0 (0x81 0x41) is U+AC02, an extension syllable outside KS X 1001; an invalid trail byte
    // that is ASCII is read again; a lead byte cut by the end is an error.
    ['euc-kr', [0x81, 0x41, 0xb0, 0xa1, 0xc8, 0xfe, 0x81, 0x40, 0x81], '\uac02\uac00\ud79d\ufffd@\ufffd'],
    ['euc-kr', [0x80, 0xff, 0xa1, 0x7f], '\ufffd\ufffd\ufffd\u007f'],
    // Big5: HKSCS pointer 942 (0x87 0x40), the pointers that give two code points, errors.
    ['big5', [0x87, 0x40, 0x88, 0x62, 0x88, 0x64, 0xa4, 0x40, 0x80, 0xff, 0x81, 0x41], '\u43f0\u00ca\u0304\u00ca\u030c\u4e00\ufffd\ufffd\ufffdA'],
    // A code point beyond the BMP (U+27267), then a lead byte cut by the end.
    ['big5', [0x87, 0x45, 0xfe, 0xfe, 0xa4], '\ud85c\ude67\u79d4\ufffd'],
    ['gbk', [0x80, 0x81, 0x40, 0xd6, 0xd0, 0xa1, 0xa1, 0xff], '\u20ac\u4e02\u4e2d\u3000\ufffd'],
    // Four-byte sequences: range pointers 0 (U+0080), the last BMP one (U+FFFF), 189000 (U+10000), the last one
    // (U+10FFFF); pointer 39420 (past the BMP ranges) is an error; pointer 7457 is U+E7C7.
    ['gb18030', [0x81, 0x30, 0x81, 0x30, 0x84, 0x31, 0xa4, 0x39, 0x90, 0x30, 0x81, 0x30, 0xe3, 0x32, 0x9a, 0x35, 0x84, 0x31, 0xa5, 0x30, 0x81, 0x35, 0xf4, 0x37], '\u0080\uffff\ud800\udc00\udbff\udfff\ufffd\ue7c7'],
    // Cut four-byte sequences: the bytes after the first are read again.
    ['gb18030', [0x81, 0x30, 0x81, 0x41, 0x81, 0x30, 0x41, 0x81], '\ufffd0\u4e04\ufffd0A\ufffd'],
    ['euc-jp', [0xa4, 0xa2, 0x8e, 0xb1, 0x8f, 0xb0, 0xa1, 0x8e, 0xe0, 0xa1, 0x41, 0x8f], '\u3042\uff71\u4e02\ufffd\ufffdA\ufffd'],
    ['shift_jis', [0x82, 0xa0, 0x80, 0xa0, 0xb1, 0xf0, 0x40, 0x81, 0x7f, 0x88, 0x9f, 0x5c, 0x7e, 0xfd, 0x93], '\u3042\u0080\ufffd\uff71\ue000\ufffd\u007f\u4e9c\\~\ufffd\ufffd'],
    ['iso-2022-jp', [0x41, 0x1b, 0x24, 0x42, 0x24, 0x22, 0x1b, 0x28, 0x49, 0x31, 0x1b, 0x28, 0x4a, 0x5c, 0x7e, 0x1b, 0x28, 0x42, 0x5c, 0x0e], 'A\u3042\uff71\u00a5\u203e\\\ufffd'],
    // Two escape sequences in a row are an error; an escape cut by the end reads its `$` again in the output state.
    ['iso-2022-jp', [0x1b, 0x28, 0x42, 0x1b, 0x28, 0x42, 0x41, 0x1b, 0x24, 0x42, 0x24], '\ufffdA\ufffd'],
    ['iso-2022-jp', [0x1b, 0x28, 0x49, 0x1b, 0x24], '\ufffd\uff64'],
    ['iso-2022-jp', [0x1b, 0x28, 0x42, 0x1b, 0x28, 0x0e], '\ufffd(\ufffd'],
  ])('%s %#', (encoding, bytes, expected) => {
    expect(decode(encoding, bytes)).toBe(expected);
  });

  it('decodes long inputs across the output chunks (pairs and surrogate pairs at every boundary)', () => {
    for (const [encoding, unit, text] of [
      ['euc-kr', [0xb0, 0xa1, 0x41], '\uac00A'],
      ['big5', [0x87, 0x45], '\ud85c\ude67'],
      ['gb18030', [0x90, 0x30, 0x81, 0x30, 0x61], '\ud800\udc00a'],
    ] as const) {
      for (const n of [1, 2730, 2731, 4095, 4096, 4097, 10_000]) {
        const bytes: number[] = [];
        for (let i = 0; i < n; i++) bytes.push(...unit);
        expect(decode(encoding, bytes), `${encoding} × ${n}`).toBe(text.repeat(n));
      }
    }
  });

  it('do not use the runtime TextDecoder (the same text in every runtime)', () => {
    const original = globalThis.TextDecoder;
    globalThis.TextDecoder = class {
      constructor() {
        throw new Error('TextDecoder used');
      }
    } as never;
    try {
      expect(decode('euc-kr', [0x81, 0x41])).toBe('\uac02');
      expect(decode('windows-1252', [0x80])).toBe('\u20ac');
      expect(decode('shift_jis', [0x82, 0xa0])).toBe('\u3042');
    } finally {
      globalThis.TextDecoder = original;
    }
  });
});

describe('the generated indexes', () => {
  it('expand to the standard indexes\' entry counts, and encode back to the committed strings', () => {
    const counts: Record<string, [number, number]> = {
      big5: [19782, 18590],
      'euc-kr': [23940, 17048],
      gb18030: [23940, 23940],
      jis0208: [11104, 7724],
      jis0212: [7211, 6067],
      'iso-2022-jp-katakana': [63, 63],
    };
    for (const [name, [length, entries]] of Object.entries(counts)) {
      const index = expandIndex(MULTI_BYTE_INDEXES[name]!(), length);
      const map = new Map<number, number>();
      index.forEach((cp, pointer) => cp !== 0 && map.set(pointer, cp));
      expect(map.size, name).toBe(entries);
      expect(encodeIndex(map), name).toBe(MULTI_BYTE_INDEXES[name]!());
    }
    for (const name of SINGLE_BYTE) {
      const index = expandIndex(SINGLE_BYTE_INDEXES[name]!, 128);
      const map = new Map<number, number>();
      index.forEach((cp, pointer) => cp !== 0 && map.set(pointer, cp));
      expect(encodeIndex(map), name).toBe(SINGLE_BYTE_INDEXES[name]);
    }
    // index gb18030 ranges: 207 ranges, from pointer 0 (U+0080) to 189000 (U+10000).
        const ranges = new Map<number, number>();
    let p = 0;
    let c = 0;
    const values = readVarints(GB18030_RANGES());
    for (let i = 0; i < values.length; i += 2) ranges.set((p += values[i]!), (c += values[i + 1]!));
    expect(ranges.size).toBe(207);
    expect(ranges.get(0)).toBe(0x80);
    expect(ranges.get(189000)).toBe(0x10000);
    expect(encodeRanges(ranges)).toBe(GB18030_RANGES());
  });

  it('have no decoder for encodings outside the standard', () => {
    expect(decodeLegacy('utf-7', new Uint8Array([0x41]))).toBeNull();
  });
});
