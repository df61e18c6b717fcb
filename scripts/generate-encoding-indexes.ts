/**
 * Generates `src/encoding/single-byte-indexes.generated.ts` and `multi-byte-indexes.generated.ts`: the indexes of the WHATWG Encoding Standard (§5 "Indexes"), the
 * tables behind its legacy single-byte and multi-byte decoders, in a compact ASCII form that
 * `src/encoding/legacy-decoders.ts` expands on first use of an encoding.
 *
 * Run: npx tsx scripts/generate-encoding-indexes.ts DIR
 * where DIR holds the standard's index files (`index-*.txt`, as published at https://encoding.spec.whatwg.org/ and
 * in the whatwg/encoding repository). Each file is lines of "pointer<TAB>code point (hex)<TAB>…", `#` comments.
 *
 * Why our own tables: runtimes' TextDecoder does not follow the standard for many legacy encodings. Node 20's decodes
 * windows-1252 (the default of the standard's encoding sniffing) as ISO-8859-1 and its EUC-KR, Big5, EUC-JP,
 * Shift_JIS and GBK are ICU's, not the standard's (measured: thousands of the 33,024 one- and two-byte sequences
 * differ from Chromium's). With these tables every runtime decodes bytes the same way.
 *
 * Encoding of an index (pointer → code point, sparse): a list of tokens, each three numbers: the count of null
 * pointers skipped, the code point's difference from the previous token's last code point + 1 (zigzag: signed),
 * and how many more pointers follow with consecutive code points. Each number is a little-endian base-32 varint
 * over the 64 characters of VARINT_DIGITS (32–63 mean "more digits follow"): gzip keeps ASCII small, where minified
 * `\u` escapes of raw code points would not shrink. The gb18030 ranges index is a list of (pointer, code point)
 * pairs, each number written as its difference from the previous pair's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VARINT_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/';

/** The single-byte encodings, by the name of their index file (index-NAME.txt) = the encoding's name. */
export const SINGLE_BYTE = [
  'ibm866', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8',
  'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'iso-8859-16', 'koi8-r', 'koi8-u', 'macintosh',
  'windows-874', 'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253', 'windows-1254', 'windows-1255',
  'windows-1256', 'windows-1257', 'windows-1258', 'x-mac-cyrillic',
];
const MULTI_BYTE = ['big5', 'euc-kr', 'gb18030', 'jis0208', 'jis0212', 'iso-2022-jp-katakana'];

function varint(n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new Error('varint: ' + n);
  let s = '';
  do {
    const d = n % 32;
    n = Math.floor(n / 32);
    s += VARINT_DIGITS[d + (n > 0 ? 32 : 0)];
  } while (n > 0);
  return s;
}

const zigzag = (d: number): number => (d >= 0 ? d * 2 : -d * 2 - 1);

export function readIndex(dir: string, name: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const line of readFileSync(join(dir, 'index-' + name + '.txt'), 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [p, c] = line.trim().split(/\s+/);
    const pointer = Number(p);
    const cp = Number(c);
    if (!Number.isInteger(pointer) || !Number.isInteger(cp) || map.has(pointer)) throw new Error(`index-${name}.txt: bad line ${line}`);
    map.set(pointer, cp);
  }
  return map;
}

export function encodeIndex(map: Map<number, number>): string {
  const max = Math.max(...map.keys());
  let out = '';
  let prev = -1;
  for (let p = 0; p <= max; ) {
    let gap = 0;
    while (!map.has(p)) {
      gap++;
      p++;
    }
    const cp = map.get(p)!;
    let run = 0;
    while (map.get(p + run + 1) === cp + run + 1) run++;
    out += varint(gap) + varint(zigzag(cp - (prev + 1))) + varint(run);
    prev = cp + run;
    p += run + 1;
  }
  return out;
}

export function encodeRanges(map: Map<number, number>): string {
  let out = '';
  let pp = 0;
  let pc = 0;
  for (const [p, c] of [...map].sort((a, b) => a[0] - b[0])) {
    out += varint(p - pp) + varint(c - pc);
    pp = p;
    pc = c;
  }
  return out;
}

const HEADER = [
  '// GENERATED FILE, do not edit. Regenerate with: npx tsx scripts/generate-encoding-indexes.ts DIR',
  '// Source: the indexes of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/, §5 "Indexes"),',
  '// copyright WHATWG (Apple, Google, Mozilla, Microsoft), CC BY 4.0 / BSD 3-Clause as source code.',
  '// The encoding of each string is described in scripts/generate-encoding-indexes.ts.',
  '',
];

/** The two generated modules: the single-byte indexes (small, in every build) and the multi-byte ones. */
export function generate(dir: string): { singleByte: string; multiByte: string } {
  const single = [...HEADER, '/** The single-byte indexes (pointers 0–127: bytes 0x80–0xFF), by encoding name. */'];
  single.push('export const SINGLE_BYTE_INDEXES: Readonly<Record<string, string>> = {');
  for (const name of SINGLE_BYTE) single.push(`  '${name}': '${encodeIndex(readIndex(dir, name))}',`);
  single.push('};', '');
  const multi = [
    ...HEADER,
    '/**',
    ' * The multi-byte indexes, by their name in the standard (index Big5, index EUC-KR, …). Each is a function, so that',
    ' * an engine compiles it, and makes its string, only when an encoding that needs it is first decoded: importing',
    ' * this module costs about its source text, not that again in strings.',
    ' */',
    'export const MULTI_BYTE_INDEXES: Readonly<Record<string, () => string>> = {',
  ];
  for (const name of MULTI_BYTE) multi.push(`  '${name}': () =>\n    '${encodeIndex(readIndex(dir, name))}',`);
  multi.push('};', '');
  multi.push('/** index gb18030 ranges: (pointer, code point) pairs, each number as a difference from the previous pair. */');
  multi.push(`export const GB18030_RANGES = (): string => '${encodeRanges(readIndex(dir, 'gb18030-ranges'))}';`, '');
  return { singleByte: single.join('\n'), multiByte: multi.join('\n') };
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] !== undefined && resolve(process.argv[1]) === self) {
  const dir = process.argv[2];
  if (dir === undefined) {
    console.error('usage: npx tsx scripts/generate-encoding-indexes.ts DIR  (DIR: the Encoding Standard\'s index-*.txt files)');
    process.exit(2);
  }
  const out = generate(dir);
  for (const [file, text] of [['single-byte-indexes', out.singleByte], ['multi-byte-indexes', out.multiByte]] as const) {
    const target = resolve(dirname(self), `../src/encoding/${file}.generated.ts`);
    writeFileSync(target, text);
    console.log('wrote ' + target);
  }
}
