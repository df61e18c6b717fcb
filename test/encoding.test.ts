/**
 * Encoding sniffing for byte input (src/encoding/): html5lib-tests encoding suite and direct tests of
 * the standard's steps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './support/random.js';
import {
  decodeHTMLBytes,
  extractEncodingFromMeta,
  getXMLEncoding,
  prescan,
  sniffEncoding,
} from '../src/encoding/encoding-sniffing.js';
import { allEncodingLabels, getEncoding } from '../src/encoding/labels.js';
import { parseDocument } from '../src/index.js';
import { sharedPath } from './support/shared.js';

const ascii = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
};
const concat = (...parts: (Uint8Array | number[])[]): Uint8Array => {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

// ---------------------------------------------------------------------------------------------
// html5lib-tests/encoding

interface EncodingTest {
  file: string;
  index: number;
  data: Uint8Array;
  expected: string;
}

/**
 * Reads a `.dat` file of the encoding suite as bytes (the data is in many encodings, so not as text):
 * `#data\n<bytes>\n#encoding\n<label>\n`.
 */
function readEncodingTests(path: string, file: string): EncodingTest[] {
  const bytes = new Uint8Array(readFileSync(path));
  const DATA = ascii('#data\n');
  const ENCODING = ascii('\n#encoding\n');
  const tests: EncodingTest[] = [];
  const find = (needle: Uint8Array, from: number): number => {
    outer: for (let i = bytes.indexOf(needle[0]!, from); i >= 0; i = bytes.indexOf(needle[0]!, i + 1)) {
      for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
      return i;
    }
    return -1;
  };
  let at = find(DATA, 0);
  while (at >= 0) {
    const dataStart = at + DATA.length;
    const encAt = find(ENCODING, dataStart);
    if (encAt < 0) throw new Error(`${file}: #data without #encoding`);
    const labelStart = encAt + ENCODING.length;
    let labelEnd = bytes.indexOf(0x0a, labelStart);
    if (labelEnd < 0) labelEnd = bytes.length;
    const label = String.fromCharCode(...bytes.subarray(labelStart, labelEnd)).trim();
    tests.push({ file, index: tests.length, data: bytes.slice(dataStart, encAt), expected: label });
    at = find(DATA, labelEnd);
  }
  return tests;
}

const encodingDir = sharedPath('html5lib-tests/encoding', 'encoding');

describe.skipIf(!encodingDir)('html5lib-tests encoding suite', () => {
  it('determines the expected encoding for every test of tests1.dat, tests2.dat and test-yahoo-jp.dat', () => {
    const files = readdirSync(encodingDir!).filter((f) => f.endsWith('.dat')).sort();
    let total = 0;
    let passed = 0;
    const failures: string[] = [];
    const perFile: string[] = [];
    for (const file of files) {
      const tests = readEncodingTests(join(encodingDir!, file), file);
      let filePassed = 0;
      for (const t of tests) {
        total++;
        const expected = getEncoding(t.expected);
        expect(expected, `${file} #${t.index}: the expected label ${t.expected} names an encoding`).not.toBeNull();
        const sniffed = sniffEncoding(t.data);
        const decoded = decodeHTMLBytes(t.data);
        if (sniffed.encoding === expected && decoded.encoding === expected) {
          passed++;
          filePassed++;
        } else {
          failures.push(`${file} #${t.index}: expected ${expected}, sniffed ${sniffed.encoding}, decoded as ${decoded.encoding}`);
        }
      }
      perFile.push(`${file} ${filePassed}/${tests.length}`);
    }
    // scripted/ needs a script engine (document.write of a <meta>): out of scope for byte sniffing.
    const scripted = readdirSync(join(encodingDir!, 'scripted')).filter((f) => f.endsWith('.dat'));
    const scriptedCount = scripted.reduce(
      (n, f) => n + readEncodingTests(join(encodingDir!, 'scripted', f), f).length,
      0,
    );
    console.log(
      `[encoding] html5lib-tests: ${passed}/${total} passed (${perFile.join(', ')}); ` +
        `out of scope: scripted/ ${scriptedCount} (needs script execution)`,
    );
    expect(failures).toEqual([]);
    expect(total).toBe(82);
  });

  it('chardet/test_big5.txt: no declaration, so the default applies (no frequency analysis); decodes cleanly as declared Big5', () => {
    const bytes = new Uint8Array(readFileSync(join(encodingDir!, 'chardet', 'test_big5.txt')));
    // The standard makes autodetection optional (step 8) and we do not do it: the default applies.
    expect(sniffEncoding(bytes)).toEqual({ encoding: 'windows-1252', confidence: 'tentative', bomLength: 0 });
    const asBig5 = decodeHTMLBytes(bytes, { transportEncoding: 'big5' });
    expect(asBig5.encoding).toBe('big5');
    expect(asBig5.confidence).toBe('certain');
    expect(asBig5.text).not.toContain('\uFFFD');
    // The sample is Chinese prose: most of its characters are CJK ideographs.
    const cjk = [...asBig5.text].filter((c) => c >= '\u4e00' && c <= '\u9fff').length;
    expect(cjk).toBeGreaterThan(asBig5.text.length / 2);
  });
});

// ---------------------------------------------------------------------------------------------
// Direct tests

describe('BOM sniffing', () => {
  it('recognises UTF-8, UTF-16BE and UTF-16LE BOMs, strips them, and lets them win over everything', () => {
    const meta = ascii('<meta charset="iso-8859-2">');
    const utf8 = concat([0xef, 0xbb, 0xbf], meta, [0xc3, 0xa9]);
    expect(sniffEncoding(utf8, { transportEncoding: 'shift_jis' })).toEqual({ encoding: 'utf-8', confidence: 'certain', bomLength: 3 });
    expect(decodeHTMLBytes(utf8).text).toBe('<meta charset="iso-8859-2">\u00e9');

    const be = concat([0xfe, 0xff], [0x00, 0x3c, 0x00, 0x70, 0x4e, 0x2d]);
    expect(decodeHTMLBytes(be, { transportEncoding: 'utf-8' })).toEqual({ text: '<p\u4e2d', encoding: 'utf-16be', confidence: 'certain' });
    const le = concat([0xff, 0xfe], [0x3c, 0x00, 0x70, 0x00]);
    expect(decodeHTMLBytes(le)).toEqual({ text: '<p', encoding: 'utf-16le', confidence: 'certain' });
  });

  it('strips one BOM only: a second one is content', () => {
    expect(decodeHTMLBytes(concat([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], ascii('a'))).text).toBe('\ufeffa');
  });

  it('needs the whole BOM', () => {
    expect(sniffEncoding(new Uint8Array([0xef, 0xbb])).encoding).toBe('windows-1252');
    expect(sniffEncoding(new Uint8Array([0xfe])).encoding).toBe('windows-1252');
    expect(decodeHTMLBytes(new Uint8Array([])).text).toBe('');
  });
});

describe('transport encoding', () => {
  it('is used, canonicalised and certain when it names an encoding, and ignored otherwise', () => {
    const bytes = ascii('<meta charset="koi8-r">\xe9');
    expect(sniffEncoding(bytes, { transportEncoding: ' ISO-8859-1 ' })).toEqual({ encoding: 'windows-1252', confidence: 'certain', bomLength: 0 });
    expect(decodeHTMLBytes(bytes, { transportEncoding: 'latin2' }).text.endsWith('\u00e9')).toBe(true);
    expect(sniffEncoding(bytes, { transportEncoding: 'no-such-encoding' })).toEqual({ encoding: 'koi8-r', confidence: 'tentative', bomLength: 0 });
    expect(sniffEncoding(bytes, { transportEncoding: 'utf-16' }).encoding).toBe('utf-16le');
  });

  it('decodes the replacement encoding to a single U+FFFD, and empty input to nothing', () => {
    expect(decodeHTMLBytes(ascii('<p>hello'), { transportEncoding: 'ISO-2022-KR' })).toEqual({
      text: '\uFFFD',
      encoding: 'replacement',
      confidence: 'certain',
    });
    expect(decodeHTMLBytes(new Uint8Array(0), { transportEncoding: 'hz-gb-2312' }).text).toBe('');
  });

  it('decodes x-user-defined (0x80-0xFF to U+F780-U+F7FF)', () => {
    expect(decodeHTMLBytes(new Uint8Array([0x61, 0x80, 0xff]), { transportEncoding: 'x-user-defined' }).text).toBe('a\uf780\uf7ff');
  });

  it('decodes iso-8859-16 even where the runtime TextDecoder lacks it', () => {
    // index-iso-8859-16: 0xA4 is U+20AC, 0xAA is U+0218, 0xDE is U+021A.
    const r = decodeHTMLBytes(new Uint8Array([0x41, 0xa4, 0xaa, 0xde, 0xe9]), { transportEncoding: 'iso-8859-16' });
    expect(r).toEqual({ text: 'A\u20ac\u0218\u021a\u00e9', encoding: 'iso-8859-16', confidence: 'certain' });
  });

  it('decodes legacy multi-byte encodings, errors as U+FFFD (here without the multi-byte indexes: a browser build, on TextDecoder)', () => {
    const sjis = decodeHTMLBytes(concat(ascii('<meta charset=sjis>'), [0x93, 0xfa, 0x96, 0x7b, 0x81]));
    expect(sjis.encoding).toBe('shift_jis');
    expect(sjis.confidence).toBe('tentative');
    expect(sjis.text).toBe('<meta charset=sjis>\u65e5\u672c\ufffd');
  });
});

describe('prescan', () => {
  const sniff = (s: string): string => sniffEncoding(ascii(s)).encoding;

  it('reads <meta charset> and <meta http-equiv content-type content>', () => {
    expect(sniff('<meta charset=koi8-r>')).toBe('koi8-r');
    expect(sniff('<META CHARSET="KOI8-R">')).toBe('koi8-r');
    expect(sniff('<meta/charset=koi8-r>')).toBe('koi8-r');
    expect(sniff('<meta http-equiv=Content-Type content="text/html;charset=koi8-r">')).toBe('koi8-r');
    expect(sniff('<meta content="text/html;charset=koi8-r">')).toBe('windows-1252'); // no pragma
    expect(sniff('<meta content="charset=koi8-r" charset="iso-8859-5" http-equiv="content-type">')).toBe('iso-8859-5');
    expect(sniff('<meta charset="iso-8859-5" content="charset=koi8-r" http-equiv="content-type">')).toBe('iso-8859-5');
    // A repeated attribute name is ignored.
    expect(sniff('<meta charset=koi8-r charset=iso-8859-5>')).toBe('koi8-r');
    expect(sniff('<meta charset=bogus charset=koi8-r>')).toBe('windows-1252');
  });

  it('maps UTF-16 to UTF-8 and x-user-defined to windows-1252', () => {
    expect(sniff('<meta charset=utf-16le>')).toBe('utf-8');
    expect(sniff('<meta charset=unicodefffe>')).toBe('utf-8');
    expect(sniff('<meta charset=x-user-defined>')).toBe('windows-1252');
    expect(sniff('<meta charset=iso-2022-kr>')).toBe('replacement');
    expect(decodeHTMLBytes(ascii('<meta charset=iso-2022-kr>')).text).toBe('\uFFFD');
  });

  it('skips comments, other tags with their attributes, and <!, </, <? constructs', () => {
    expect(sniff('<!-- <meta charset=koi8-r> --><meta charset=iso-8859-5>')).toBe('iso-8859-5');
    expect(sniff('<!--><meta charset=koi8-r>')).toBe('koi8-r'); // '<!-->' is a whole comment
    expect(sniff('<!---><meta charset=koi8-r> --><meta charset=iso-8859-5>')).toBe('koi8-r');
    expect(sniff('<p title="<meta charset=koi8-r>"><meta charset=iso-8859-5>')).toBe('iso-8859-5');
    expect(sniff('<!DOCTYPE html><?pi <meta charset=koi8-r?><meta charset=iso-8859-5>')).toBe('iso-8859-5');
    expect(sniff('</p <meta charset=koi8-r>><meta charset=iso-8859-5>')).toBe('iso-8859-5');
    expect(sniff('<metaa charset=koi8-r><meta charset=iso-8859-5>')).toBe('iso-8859-5');
    expect(sniff('<p><meta charset=iso-8859-5></p>')).toBe('iso-8859-5');
  });

  it('gives up (falls back to the default) when the input ends inside a construct', () => {
    for (const s of ['<meta charset="koi8-r', '<meta charset=koi8-r', '<!-- <meta charset=koi8-r>', '<p title="x', '<meta', '<']) {
      expect(sniff(s), s).toBe('windows-1252');
    }
  });

  it('scans 1024 bytes, and further only while still in the head (Blink\'s end condition)', () => {
    const pad = 'x'.repeat(1100);
    expect(sniff(`<!--${pad}--><meta charset=koi8-r>`)).toBe('koi8-r');
    expect(sniff(`<title>${pad}</title><script>${pad}</script><meta charset=koi8-r>`)).toBe('koi8-r');
    expect(sniff(`<body>${pad}<meta charset=koi8-r>`)).toBe('windows-1252');
    expect(sniff(`<div></div>${pad}<meta charset=koi8-r>`)).toBe('windows-1252');
    expect(sniff(`<head></head>${pad}<meta charset=koi8-r>`)).toBe('windows-1252');
    expect(sniff(`<body>${'x'.repeat(900)}<meta charset=koi8-r>`)).toBe('koi8-r'); // within 1024 bytes
    // A tag that starts within range is read to its end.
    expect(sniff(`<body>${'x'.repeat(1000)}<meta ${' '.repeat(200)}charset=koi8-r>`)).toBe('koi8-r');
  });

  it('finds UTF-16 XML declarations and falls back to <?xml encoding=...>', () => {
    expect(prescan(new Uint8Array([0x3c, 0, 0x3f, 0, 0x78, 0, 0x6d, 0]))).toBe('utf-16le');
    expect(prescan(new Uint8Array([0, 0x3c, 0, 0x3f, 0, 0x78, 0, 0x6d]))).toBe('utf-16be');
    expect(sniff('<?xml version="1.0" encoding="koi8-r"?><p>')).toBe('koi8-r');
    expect(sniff("<?xml version='1.0' encoding = 'utf-16'?>")).toBe('utf-8');
    expect(sniff('<?xml version="1.0"?><meta charset=iso-8859-5>')).toBe('iso-8859-5'); // meta first
    expect(getXMLEncoding(ascii('<?xml encoding="koi8 r"?>'))).toBeNull();
    expect(getXMLEncoding(ascii('<?xml version="1.0"?><p encoding="koi8-r">'))).toBeNull(); // outside the declaration
    expect(getXMLEncoding(ascii(' <?xml encoding="koi8-r"?>'))).toBeNull();
    expect(getXMLEncoding(ascii('<?XML encoding="koi8-r"?>'))).toBeNull();
  });
});

describe('extracting a character encoding from a meta element', () => {
  it('follows the standard\'s steps', () => {
    expect(extractEncodingFromMeta('text/html; charset=koi8-r')).toBe('koi8-r');
    expect(extractEncodingFromMeta('text/html; CHARSET = "koi8-r" ; x')).toBe('koi8-r');
    expect(extractEncodingFromMeta("charset='koi8-r'")).toBe('koi8-r');
    expect(extractEncodingFromMeta('charset="koi8-r')).toBeNull();
    expect(extractEncodingFromMeta('charset=')).toBeNull();
    expect(extractEncodingFromMeta('charsetcharset=koi8-r')).toBe('koi8-r');
    expect(extractEncodingFromMeta('charset x charset=koi8-r')).toBe('koi8-r');
    expect(extractEncodingFromMeta('charset=koi8-r;charset=iso-8859-5')).toBe('koi8-r');
    expect(extractEncodingFromMeta('charset=bogus')).toBeNull();
    expect(extractEncodingFromMeta('text/html')).toBeNull();
  });
});

describe('labels', () => {
  it('agree with the runtime TextDecoder for every label it accepts', () => {
    let checked = 0;
    for (const [label, name] of allEncodingLabels()) {
      let runtime: string | null = null;
      try {
        runtime = new TextDecoder(label).encoding;
      } catch {
        continue; // the runtime lacks it (replacement, x-user-defined, and iso-8859-16 on Node)
      }
      expect(runtime, label).toBe(name);
      checked++;
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('match ASCII case-insensitively after trimming ASCII whitespace, and nothing else', () => {
    expect(getEncoding('\t UTF8 \n')).toBe('utf-8');
    expect(getEncoding('Shift_JIS')).toBe('shift_jis');
    expect(getEncoding('utf-8\u0000')).toBeNull();
    expect(getEncoding('\u00a0utf-8')).toBeNull();
    expect(getEncoding('\u212aoi8-r')).toBeNull(); // KELVIN SIGN is not an ASCII 'K'
    expect(getEncoding('')).toBeNull();
    expect(getEncoding('x'.repeat(10_000))).toBeNull();
    expect(getEncoding(42 as never)).toBeNull();
  });
});

describe('bad and hostile input', () => {
  it('rejects non-byte input with a TypeError', () => {
    expect(() => sniffEncoding('<p>' as never)).toThrow(TypeError);
    expect(() => decodeHTMLBytes(null as never)).toThrow(TypeError);
    expect(() => decodeHTMLBytes([60, 112] as never)).toThrow(TypeError);
  });

  it('accepts any Uint8Array view, including a subarray and a Buffer', () => {
    const whole = ascii('xx<meta charset=koi8-r>');
    expect(sniffEncoding(whole.subarray(2)).encoding).toBe('koi8-r');
    const buffer = Buffer.from('<meta charset=koi8-r>\xe9', 'latin1');
    expect(decodeHTMLBytes(buffer).text).toBe('<meta charset=koi8-r>\u0418'); // index-koi8-r: 0xE9 is U+0418
  });

  it('never throws on random bytes, and stays linear on pathological input', () => {
    const random = mulberry32(12345);
    const alphabet = ascii('<>!-/?="\' \tmetaMETAcharsetCHARSEThttp-equivcontent;x\u00e9');
    for (let i = 0; i < 2000; i++) {
      const bytes = new Uint8Array(Math.floor(random() * 200));
      for (let j = 0; j < bytes.length; j++) bytes[j] = random() < 0.9 ? alphabet[Math.floor(random() * alphabet.length)]! : Math.floor(random() * 256);
      const r = decodeHTMLBytes(bytes);
      expect(typeof r.text).toBe('string');
    }
    // Pathological prescan input of 2 MB per pattern: a quadratic prescan would not finish within the test's
    // timeout (no timing is asserted; speed is the benchmarks' business).
    const big = 2_000_000;
    for (const unit of ['<!--', '<a ', '<meta a', '<meta a="', '<?xml ', '-->', '<!-- --', '<p title=\'']) {
      expect(sniffEncoding(ascii(unit.repeat(Math.ceil(big / unit.length)))).encoding, unit).toBe('windows-1252');
    }
  });

  it('accepts bytes from another realm (a vm context or an iframe has its own Uint8Array)', () => {
    const foreign = runInNewContext('new Uint8Array([0x3c, 0x70, 0x3e, 0xe9])') as Uint8Array;
    expect(foreign instanceof Uint8Array).toBe(false);
    expect(decodeHTMLBytes(foreign).text).toBe('<p>\u00e9');
    const doc = parseDocument(foreign);
    expect(doc.body!.childNodes.length).toBe(1);
    expect(() => decodeHTMLBytes(new Uint16Array(2) as unknown as Uint8Array)).toThrow(TypeError);
  });
});
