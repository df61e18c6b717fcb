import { describe, expect, it } from 'vitest';
import { lookupName, rememberName } from '../src/tokenizer/interned-names.js';
import { parseDocument } from '../src/index.js';
import { Tokenizer } from '../src/tokenizer/tokenizer.js';
import type { TokenSink } from '../src/tokenizer/token-sink.js';
import { htmlTagId, UNKNOWN } from '../src/tree-builder/html-elements.js';

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

  it('hands each tag token the tag id of its name, or -1 (then the tree builder looks the name up)', () => {
    // HTML tag names in both cases, names that are not HTML tag names (SVG, custom, with U+0000), names too long
    // to keep (selectedcontent), and enough distinct names that slots are taken over; then all of it again.
    const names = ['div', 'P', 'tAbLe', 'td', 'svg', 'foreignObject', 'path', 'x-a', 'my-element', 'selectedcontent', 'b\u0000r'];
    for (let i = 0; i < 1500; i++) names.push('n' + i.toString(36), i % 3 ? 'span' : 'A');
    const html = names.map((n) => `<${n} x=1>t</${n}>`).join('');
    const seen: [string, number][] = [];
    const sink: TokenSink = {
      startTag: (name, _a, _s, tagId) => void seen.push([name, tagId]),
      endTag: (name, tagId) => void seen.push([name, tagId]),
      characters: () => {},
      nullCharacter: () => {},
      comment: () => {},
      processingInstruction: () => {},
      doctype: () => {},
      endOfFile: () => {},
      cdataAllowed: () => false,
    };
    for (let round = 0; round < 2; round++) {
      seen.length = 0;
      new Tokenizer(sink, null).run(html);
      expect(seen.length).toBe(names.length * 2);
      let known = 0;
      for (const [name, tagId] of seen) {
        if (tagId === -1) continue;
        known++;
        expect([name, tagId]).toEqual([name, htmlTagId(name)]);
      }
      // The cache knows most of them, the HTML ones with their ids.
      expect(known).toBeGreaterThan(seen.length / 2);
      expect(seen.filter(([n, id]) => n === 'span' && id === htmlTagId('span')).length).toBeGreaterThan(1000);
      expect(seen.some(([n, id]) => n === 'my-element' && id === UNKNOWN)).toBe(true);
      expect(seen.filter(([n]) => n === 'selectedcontent').every(([, id]) => id === -1)).toBe(true);
    }
  });
});
