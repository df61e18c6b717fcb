import { describe, expect, it } from 'vitest';
import { lookupName, rememberName } from '../src/tokenizer/interned-names.js';
import { parseDocument } from '../src/index.js';

describe('shared tag and attribute names', () => {
  it('finds a remembered name in any ASCII case, inside a larger string', () => {
    expect(lookupName('zz-qq', 0, 5)).toBeNull();
    rememberName('zz-qq');
    expect(lookupName('<ZZ-Qq x>', 1, 6)).toBe('zz-qq');
    expect(lookupName('zz-qqx', 0, 6)).toBeNull();
    expect(lookupName('zz-q', 0, 4)).toBeNull();
  });

  it('never matches a name with U+0000, non-ASCII case pairs, empty or very long names', () => {
    expect(lookupName('d\u0000v', 0, 3)).toBeNull();
    rememberName('d\uFFFDv');
    expect(lookupName('d\u0000v', 0, 3)).toBeNull();
    expect(lookupName('\u212Aey', 0, 3)).toBeNull();
    rememberName('\u212Aey');
    expect(lookupName('key', 0, 3) === '\u212Aey').toBe(false);
    expect(lookupName('', 0, 0)).toBeNull();
    expect(lookupName('x'.repeat(100), 0, 100)).toBeNull();
    rememberName('x'.repeat(100)); // nothing to remember after a too-long lookup
    expect(lookupName('x'.repeat(100), 0, 100)).toBeNull();
  });

  it('parses names correctly through the cache (case, NUL, colliding and unknown names)', () => {
    const names = Array.from({ length: 2000 }, (_, i) => 'x-' + i.toString(36));
    const html = names.map((n, i) => `<${i % 2 ? n.toUpperCase() : n} Data-${n}=1></${n}>`).join('') + '<di\u0000v a\u0000b=1></di\u0000v>';
    for (let round = 0; round < 2; round++) {
      const kids = parseDocument(html).body!.childNodes as unknown as { localName: string; attributes: { localName: string }[] }[];
      expect(kids.length).toBe(names.length + 1);
      for (let i = 0; i < names.length; i++) {
        expect(kids[i]!.localName).toBe(names[i]);
        expect(kids[i]!.attributes[0]!.localName).toBe('data-' + names[i]);
      }
      expect(kids[names.length]!.localName).toBe('di\uFFFDv');
      expect(kids[names.length]!.attributes[0]!.localName).toBe('a\uFFFDb');
    }
  });

  it('gives every element of a name the same string', () => {
    const doc = parseDocument('<DIV Class=a></DIV><div class=b></div>');
    const [a, b] = doc.body!.childNodes as unknown as { localName: string; attributes: { localName: string }[] }[];
    expect(a!.localName).toBe('div');
    expect(a!.attributes[0]!.localName).toBe('class');
    expect(b!.localName).toBe('div');
  });
});
