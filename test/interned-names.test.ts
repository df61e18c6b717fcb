import { describe, expect, it } from 'vitest';
import { internedName } from '../src/tokenizer/interned-names.js';
import { parseDocument } from '../src/index.js';

describe('interned tag and attribute names', () => {
  it('finds a known name in any ASCII case, inside a larger string', () => {
    expect(internedName('<DiV class=x>', 1, 4)).toBe('div');
    expect(internedName('<div CLASS=x>', 5, 10)).toBe('class');
    expect(internedName('xaria-labelx', 1, 11)).toBe('aria-label');
  });

  it('returns null for other names, prefixes, extensions, NUL and non-ASCII case pairs', () => {
    expect(internedName('divx', 0, 4)).toBeNull();
    expect(internedName('di', 0, 2)).toBeNull();
    expect(internedName('d\u0000v', 0, 3)).toBeNull();
    expect(internedName('\u212Aey', 0, 3)).toBeNull(); // KELVIN SIGN does not fold to k
    expect(internedName('', 0, 0)).toBeNull();
    expect(internedName('x'.repeat(100), 0, 100)).toBeNull();
  });

  it('gives every element of a name the same string, and unknown names their own', () => {
    const doc = parseDocument('<DIV Class=a></DIV><div class=b></div><x-y data-q=1></x-y>');
    const [a, b, c] = doc.body!.childNodes as unknown as { localName: string; attributes: { localName: string }[] }[];
    expect(a!.localName).toBe('div');
    expect(a!.attributes[0]!.localName).toBe('class');
    expect(b!.localName).toBe('div');
    expect(c!.localName).toBe('x-y');
    expect(c!.attributes[0]!.localName).toBe('data-q');
  });
});
