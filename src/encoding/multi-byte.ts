/**
 * The Encoding Standard's multi-byte decoders: gb18030 and GBK (§10), Big5 (§11), EUC-JP, ISO-2022-JP and
 * Shift_JIS (§12), EUC-KR (§13), with their indexes (87 KB gzipped). Kept out of the main entry point so that
 * browser bundles, whose TextDecoder follows the standard, do not carry them; the Node entry point (`src/node.ts`),
 * the policies' Node entry point and the command line install them at load (see `legacy-decoders.ts` for why Node
 * needs them).
 *
 * Every decoder is the standard's handler loop run over the whole input at once: "prepend to the stream" steps
 * move the read position back, since the bytes to prepend are always the ones just read.
 */
import { ERROR, Output, expandIndex, readVarints, registerMultiByteDecoder } from './legacy-decoders.js';
import { GB18030_RANGES, MULTI_BYTE_INDEXES } from './multi-byte-indexes.generated.js';

/** Makes `decodeHTMLBytes` (and every byte input) decode the multi-byte encodings with htmlsift's own decoders. */
export function installMultiByteDecoders(): void {
  registerMultiByteDecoder(decodeMultiByte);
}

function decodeMultiByte(encoding: string, bytes: Uint8Array): string | null {
  switch (encoding) {
    case 'gbk':
    case 'gb18030':
      return decodeGb18030(bytes);
    case 'big5':
      return decodeBig5(bytes);
    case 'euc-jp':
      return decodeEucJp(bytes);
    case 'iso-2022-jp':
      return decodeIso2022Jp(bytes);
    case 'shift_jis':
      return decodeShiftJis(bytes);
    case 'euc-kr':
      return decodeEucKr(bytes);
  }
  return null;
}

/** Pointer lengths of the multi-byte indexes (one past the largest pointer each index can be asked for). */
const INDEX_LENGTHS: Readonly<Record<string, number>> = {
  big5: 126 * 157,
  'euc-kr': 126 * 190,
  gb18030: 126 * 190,
  jis0208: 94 * 94 * 2, // Shift_JIS pointers go up to (0xFC - 0xC1) * 188 + 0xFC - 0x41 = 11279
  jis0212: 94 * 94,
  'iso-2022-jp-katakana': 63,
};

const expanded = new Map<string, Uint32Array>();

function multiByteIndex(name: string): Uint32Array {
  let index = expanded.get(name);
  if (index === undefined) {
    index = expandIndex(MULTI_BYTE_INDEXES[name]!(), INDEX_LENGTHS[name]!);
    expanded.set(name, index);
  }
  return index;
}

// ---------------------------------------------------------------------------------------------
// gb18030 (§10.2); GBK's decoder is gb18030's (§10.1.1)

let gbRanges: { pointers: Uint32Array; codePoints: Uint32Array } | null = null;

/** "index gb18030 ranges code point" (§5). */
function gb18030RangesCodePoint(pointer: number): number {
  if ((pointer > 39419 && pointer < 189000) || pointer > 1237575) return 0;
  if (pointer === 7457) return 0xe7c7;
  if (gbRanges === null) {
    const values = readVarints(GB18030_RANGES());
    const pointers = new Uint32Array(values.length / 2);
    const codePoints = new Uint32Array(values.length / 2);
    let p = 0;
    let c = 0;
    for (let i = 0; i < pointers.length; i++) {
      pointers[i] = p += values[2 * i]!;
      codePoints[i] = c += values[2 * i + 1]!;
    }
    gbRanges = { pointers, codePoints };
  }
  const { pointers, codePoints } = gbRanges;
  // The last range whose pointer is at most `pointer` (pointers[0] is 0).
  let lo = 0;
  let hi = pointers.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pointers[mid]! <= pointer) lo = mid;
    else hi = mid - 1;
  }
  return codePoints[lo]! + pointer - pointers[lo]!;
}

function decodeGb18030(bytes: Uint8Array): string {
  const index = multiByteIndex('gb18030');
  const out = new Output(bytes.length);
  let first = 0;
  let second = 0;
  let third = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (third !== 0) {
      if (b < 0x30 || b > 0x39) {
        // Prepend second, third and byte: read again from `second`, two bytes back.
        first = second = third = 0;
        i -= 3;
        out.push(ERROR);
        continue;
      }
      const cp = gb18030RangesCodePoint((first - 0x81) * 12600 + (second - 0x30) * 1260 + (third - 0x81) * 10 + b - 0x30);
      first = second = third = 0;
      out.push(cp === 0 ? ERROR : cp);
      continue;
    }
    if (second !== 0) {
      if (b >= 0x81 && b <= 0xfe) {
        third = b;
        continue;
      }
      // Prepend second and byte.
      first = second = 0;
      i -= 2;
      out.push(ERROR);
      continue;
    }
    if (first !== 0) {
      if (b >= 0x30 && b <= 0x39) {
        second = b;
        continue;
      }
      const lead = first;
      first = 0;
      let cp = 0;
      if ((b >= 0x40 && b <= 0x7e) || (b >= 0x80 && b <= 0xfe)) cp = index[(lead - 0x81) * 190 + b - (b < 0x7f ? 0x40 : 0x41)]!;
      if (cp !== 0) {
        out.push(cp);
        continue;
      }
      if (b < 0x80) i--; // prepend an ASCII byte
      out.push(ERROR);
      continue;
    }
    if (b < 0x80) out.push(b);
    else if (b === 0x80) out.push(0x20ac);
    else if (b <= 0xfe) first = b;
    else out.push(ERROR);
  }
  if (first !== 0 || second !== 0 || third !== 0) out.push(ERROR);
  return out.finish();
}

// ---------------------------------------------------------------------------------------------
// Big5 (§11.1)

function decodeBig5(bytes: Uint8Array): string {
  const index = multiByteIndex('big5');
  const out = new Output(bytes.length);
  let lead = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (lead !== 0) {
      const l = lead;
      lead = 0;
      let pointer = -1;
      if ((b >= 0x40 && b <= 0x7e) || (b >= 0xa1 && b <= 0xfe)) pointer = (l - 0x81) * 157 + b - (b < 0x7f ? 0x40 : 0x62);
      // The four pointers that decode to two code points.
      if (pointer === 1133 || pointer === 1135) {
        out.push(0xca);
        out.push(pointer === 1133 ? 0x304 : 0x30c);
        continue;
      }
      if (pointer === 1164 || pointer === 1166) {
        out.push(0xea);
        out.push(pointer === 1164 ? 0x304 : 0x30c);
        continue;
      }
      const cp = pointer < 0 ? 0 : index[pointer]!;
      if (cp !== 0) {
        out.push(cp);
        continue;
      }
      if (b < 0x80) i--;
      out.push(ERROR);
      continue;
    }
    if (b < 0x80) out.push(b);
    else if (b >= 0x81 && b <= 0xfe) lead = b;
    else out.push(ERROR);
  }
  if (lead !== 0) out.push(ERROR);
  return out.finish();
}

// ---------------------------------------------------------------------------------------------
// EUC-JP (§12.1)

function decodeEucJp(bytes: Uint8Array): string {
  const jis0208 = multiByteIndex('jis0208');
  const out = new Output(bytes.length);
  let lead = 0;
  let jis0212 = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (lead === 0x8e && b >= 0xa1 && b <= 0xdf) {
      lead = 0;
      out.push(0xff61 - 0xa1 + b);
      continue;
    }
    if (lead === 0x8f && b >= 0xa1 && b <= 0xfe) {
      jis0212 = true;
      lead = b;
      continue;
    }
    if (lead !== 0) {
      const l = lead;
      lead = 0;
      let cp = 0;
      if (l >= 0xa1 && l <= 0xfe && b >= 0xa1 && b <= 0xfe) {
        cp = (jis0212 ? multiByteIndex('jis0212') : jis0208)[(l - 0xa1) * 94 + b - 0xa1]!;
      }
      jis0212 = false;
      if (cp !== 0) {
        out.push(cp);
        continue;
      }
      if (b < 0x80) i--;
      out.push(ERROR);
      continue;
    }
    if (b < 0x80) out.push(b);
    else if (b === 0x8e || b === 0x8f || (b >= 0xa1 && b <= 0xfe)) lead = b;
    else out.push(ERROR);
  }
  if (lead !== 0) out.push(ERROR);
  return out.finish();
}

// ---------------------------------------------------------------------------------------------
// ISO-2022-JP (§12.2)

const ASCII = 0;
const ROMAN = 1;
const KATAKANA = 2;
const LEAD_BYTE = 3;
const TRAIL_BYTE = 4;
const ESCAPE_START = 5;
const ESCAPE = 6;

function decodeIso2022Jp(bytes: Uint8Array): string {
  const jis0208 = multiByteIndex('jis0208');
  const out = new Output(bytes.length);
  let state = ASCII;
  let outputState = ASCII;
  let lead = 0;
  let output = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    switch (state) {
      case ASCII:
      case ROMAN:
      case KATAKANA:
      case LEAD_BYTE:
        if (b === 0x1b) {
          state = ESCAPE_START;
          continue;
        }
        output = false;
        if (state === ASCII) out.push(b <= 0x7f && b !== 0x0e && b !== 0x0f ? b : ERROR);
        else if (state === ROMAN) out.push(b === 0x5c ? 0xa5 : b === 0x7e ? 0x203e : b <= 0x7f && b !== 0x0e && b !== 0x0f ? b : ERROR);
        else if (state === KATAKANA) out.push(b >= 0x21 && b <= 0x5f ? 0xff61 - 0x21 + b : ERROR);
        else if (b >= 0x21 && b <= 0x7e) {
          lead = b;
          state = TRAIL_BYTE;
        } else out.push(ERROR);
        continue;
      case TRAIL_BYTE:
        if (b === 0x1b) {
          state = ESCAPE_START;
          out.push(ERROR);
          continue;
        }
        state = LEAD_BYTE;
        if (b >= 0x21 && b <= 0x7e) {
          const cp = jis0208[(lead - 0x21) * 94 + b - 0x21]!;
          out.push(cp === 0 ? ERROR : cp);
        } else out.push(ERROR);
        continue;
      case ESCAPE_START:
        if (b === 0x24 || b === 0x28) {
          lead = b;
          state = ESCAPE;
          continue;
        }
        i--; // prepend byte
        output = false;
        state = outputState;
        out.push(ERROR);
        continue;
      default: {
        // ESCAPE
        const l = lead;
        lead = 0;
        let next = -1;
        if (l === 0x28 && b === 0x42) next = ASCII;
        else if (l === 0x28 && b === 0x4a) next = ROMAN;
        else if (l === 0x28 && b === 0x49) next = KATAKANA;
        else if (l === 0x24 && (b === 0x40 || b === 0x42)) next = LEAD_BYTE;
        if (next >= 0) {
          state = outputState = next;
          const wasOutput = output;
          output = true;
          if (wasOutput) out.push(ERROR);
          continue;
        }
        i -= 2; // prepend lead and byte
        output = false;
        state = outputState;
        out.push(ERROR);
      }
    }
  }
  // End of queue: the trail byte state, escape start and escape states each end with an error (their prepended
  // bytes, if any, are then read in the output state, where only the end of the queue follows).
  if (state === TRAIL_BYTE || state === ESCAPE_START) out.push(ERROR);
  else if (state === ESCAPE) {
    // Prepend lead (the byte before the end): read again in the output state.
    out.push(ERROR);
    out.push(iso2022JpEscapeLeadAtEnd(bytes[bytes.length - 1]!, outputState));
  }
  return out.finish();
}

/**
 * ISO-2022-JP: what the lead of an escape sequence cut short by the end of the input (0x24 or 0x28, prepended back)
 * decodes to in the output state: itself in the ASCII and Roman states, a katakana, or, in the lead byte state, the
 * start of a pair that the end of the queue cuts short: an error.
 */
function iso2022JpEscapeLeadAtEnd(b: number, state: number): number {
  if (state === ASCII || state === ROMAN) return b;
  if (state === KATAKANA) return 0xff61 - 0x21 + b;
  return ERROR;
}

// ---------------------------------------------------------------------------------------------
// Shift_JIS (§12.3)

function decodeShiftJis(bytes: Uint8Array): string {
  const jis0208 = multiByteIndex('jis0208');
  const out = new Output(bytes.length);
  let lead = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (lead !== 0) {
      const l = lead;
      lead = 0;
      let pointer = -1;
      if ((b >= 0x40 && b <= 0x7e) || (b >= 0x80 && b <= 0xfc)) {
        pointer = (l - (l < 0xa0 ? 0x81 : 0xc1)) * 188 + b - (b < 0x7f ? 0x40 : 0x41);
      }
      if (pointer >= 8836 && pointer <= 10715) {
        out.push(0xe000 - 8836 + pointer);
        continue;
      }
      const cp = pointer < 0 ? 0 : jis0208[pointer]!;
      if (cp !== 0) {
        out.push(cp);
        continue;
      }
      if (b < 0x80) i--;
      out.push(ERROR);
      continue;
    }
    if (b <= 0x80) out.push(b);
    else if (b >= 0xa1 && b <= 0xdf) out.push(0xff61 - 0xa1 + b);
    else if ((b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc)) lead = b;
    else out.push(ERROR);
  }
  if (lead !== 0) out.push(ERROR);
  return out.finish();
}

// ---------------------------------------------------------------------------------------------
// EUC-KR (§13.1)

function decodeEucKr(bytes: Uint8Array): string {
  const index = multiByteIndex('euc-kr');
  const out = new Output(bytes.length);
  let lead = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (lead !== 0) {
      const l = lead;
      lead = 0;
      const cp = b >= 0x41 && b <= 0xfe ? index[(l - 0x81) * 190 + b - 0x41]! : 0;
      if (cp !== 0) {
        out.push(cp);
        continue;
      }
      if (b < 0x80) i--;
      out.push(ERROR);
      continue;
    }
    if (b < 0x80) out.push(b);
    else if (b >= 0x81 && b <= 0xfe) lead = b;
    else out.push(ERROR);
  }
  if (lead !== 0) out.push(ERROR);
  return out.finish();
}
