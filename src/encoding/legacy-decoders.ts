/**
 * The legacy decoders of the WHATWG Encoding Standard: here the single-byte ones (§9) and x-user-defined (§14.5),
 * in `multi-byte.ts` gb18030 and GBK (§10), Big5 (§11), EUC-JP, ISO-2022-JP and Shift_JIS (§12) and EUC-KR (§13),
 * and what they share (the compact indexes, the output buffer). UTF-8 and UTF-16 are left to the
 * runtime's TextDecoder, which every runtime implements as the standard says; for the legacy encodings runtimes
 * disagree (Node 20 decodes windows-1252 as ISO-8859-1, and its EUC-KR, Big5, EUC-JP, Shift_JIS and GBK are ICU's
 * tables, not the standard's), so htmlsift decodes them itself and gives the same text in every runtime.
 *
 * This module has the single-byte decoders and their indexes (2.8 KB gzipped, in every build). The multi-byte decoders
 * and their indexes (87 KB gzipped) are in `multi-byte.ts`, installed by the Node entry point (`src/node.ts`, the
 * package's `node` export condition, which Deno and Bun also take): a browser bundle does not carry them, and there
 * the multi-byte encodings use the browser's TextDecoder.
 */
import { SINGLE_BYTE_INDEXES } from './single-byte-indexes.generated.js';

/** The multi-byte decoders (`multi-byte.ts`), once installed: null for an encoding they do not decode. */
type MultiByteDecoder = (encoding: string, bytes: Uint8Array) => string | null;

let multiByteDecoder: MultiByteDecoder | null = null;

/** Makes the multi-byte decoders available (`installMultiByteDecoders` does this). */
export function registerMultiByteDecoder(decoder: MultiByteDecoder): void {
  multiByteDecoder = decoder;
}

const VARINT_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/';

/** The numbers of a varint string (see scripts/generate-encoding-indexes.ts): base 32, digits 32–63 continue. */
export function readVarints(data: string): number[] {
  const out: number[] = [];
  let n = 0;
  let scale = 1;
  for (let i = 0; i < data.length; i++) {
    const d = VARINT_DIGITS.indexOf(data[i]!);
    n += (d & 31) * scale;
    if (d < 32) {
      out.push(n);
      n = 0;
      scale = 1;
    } else scale *= 32;
  }
  return out;
}

/**
 * Expands an index string into pointer → code point, 0 for null (no index maps to U+0000): (null pointers skipped,
 * zigzag difference from the previous run's last code point + 1, further pointers with consecutive code points).
 */
export function expandIndex(data: string, length: number): Uint32Array {
  const values = readVarints(data);
  const out = new Uint32Array(length);
  let pointer = 0;
  let prev = -1;
  for (let i = 0; i < values.length; i += 3) {
    pointer += values[i]!;
    const z = values[i + 1]!;
    let cp = prev + 1 + (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
    for (let k = 0; k <= values[i + 2]!; k++) out[pointer++] = cp++;
    prev = cp - 1;
  }
  return out;
}

/** Byte 0x80–0xFF → code unit, per single-byte encoding (U+FFFD where the index has no code point). */
const singleByteTables = new Map<string, Uint16Array>();

/** x-user-defined (§14.5.1) is a single-byte decoder whose table is a formula: 0x80–0xFF → U+F780–U+F7FF. */
function singleByteTable(encoding: string): Uint16Array {
  let table = singleByteTables.get(encoding);
  if (table === undefined) {
    table = new Uint16Array(128);
    if (encoding === 'x-user-defined') for (let i = 0; i < 128; i++) table[i] = 0xf780 + i;
    else {
      const index = expandIndex(SINGLE_BYTE_INDEXES[encoding]!, 128);
      for (let i = 0; i < 128; i++) table[i] = index[i] === 0 ? 0xfffd : index[i]!;
    }
    singleByteTables.set(encoding, table);
  }
  return table;
}

/**
 * Collects decoded code units in one buffer (a decoder writes about one code unit per byte) and makes the string with
 * one UTF-16LE TextDecoder call: twice as fast as String.fromCharCode over chunks. UTF-16 decoding is the same in
 * every runtime, and the buffer never holds a lone surrogate. Where the platform is big-endian or has no TextDecoder,
 * String.fromCharCode in chunks.
 */
export class Output {
  private units: Uint16Array;
  private length = 0;
  constructor(inputLength: number) {
    this.units = new Uint16Array(inputLength + 16);
  }
  push(cp: number): void {
    if (this.length + 2 > this.units.length) {
      const bigger = new Uint16Array(this.units.length * 2);
      bigger.set(this.units);
      this.units = bigger;
    }
    if (cp < 0x10000) this.units[this.length++] = cp;
    else {
      cp -= 0x10000;
      this.units[this.length++] = 0xd800 + (cp >> 10);
      this.units[this.length++] = 0xdc00 + (cp & 0x3ff);
    }
  }
  finish(): string {
    const units = this.units.subarray(0, this.length);
    const utf16 = utf16Decoder();
    if (utf16 !== null) return utf16.decode(units);
    let text = '';
    for (let i = 0; i < units.length; i += 8192) {
      text += String.fromCharCode.apply(null, units.subarray(i, i + 8192) as unknown as number[]);
    }
    return text;
  }
}

let utf16: TextDecoder | null | undefined;

/** A UTF-16LE decoder when the platform stores a Uint16Array little-endian, else null. */
function utf16Decoder(): TextDecoder | null {
  if (utf16 === undefined) {
    utf16 = null;
    try {
      if (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });
    } catch {
      // No TextDecoder: String.fromCharCode.
    }
  }
  return utf16;
}

export const ERROR = 0xfffd;

/**
 * Decodes `bytes` with a legacy encoding (errors become U+FFFD), or returns null when this build has no decoder for
 * it (a multi-byte encoding before `installMultiByteDecoders`, or an encoding that is not a legacy one).
 */
export function decodeLegacy(encoding: string, bytes: Uint8Array): string | null {
  // ISO-8859-8-I decodes as ISO-8859-8 (they differ only in how text is laid out).
  if (encoding === 'iso-8859-8-i') encoding = 'iso-8859-8';
  if (encoding === 'x-user-defined' || SINGLE_BYTE_INDEXES[encoding] !== undefined) {
    return decodeSingleByte(bytes, singleByteTable(encoding));
  }
  return multiByteDecoder === null ? null : multiByteDecoder(encoding, bytes);
}

/** Single-byte decoder (§9.1): ASCII as is, 0x80–0xFF through `table`. */
function decodeSingleByte(bytes: Uint8Array, table: Uint16Array): string {
  const out = new Output(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out.push(b < 0x80 ? b : table[b - 0x80]!);
  }
  return out.finish();
}
