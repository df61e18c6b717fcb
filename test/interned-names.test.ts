import { describe, expect, it } from 'vitest';
import { lookupName, rememberName } from '../src/tokenizer/interned-names.js';
import { parseDocument } from '../src/index.js';
import { Tokenizer } from '../src/tokenizer/tokenizer.js';
import type { TokenSink } from '../src/tokenizer/token-sink.js';
import { htmlTagId, UNKNOWN } from '../src/tree-builder/html-elements.js';

describe('shared tag and attribute names', () => {
  it('finds a remembered name in any ASCII case, inside a larger string', () => {
    expect(lookupName('zz-qq', 0, 5)).toBeUndefined();
    rememberName('zz-qq');
    expect(lookupName('<ZZ-Qq x>', 1, 6)).toBe('zz-qq');
    expect(lookupName('zz-qqx', 0, 6)).toBeUndefined();
    expect(lookupName('zz-q', 0, 4)).toBeUndefined();
  });

  it('never matches a name with U+0000, non-ASCII case pairs, empty or very long names', () => {
    expect(lookupName('d\u0000v', 0, 3)).toBeUndefined();
    rememberName('d\uFFFDv');
    expect(lookupName('d\u0000v', 0, 3)).toBeUndefined();
    expect(lookupName('\u212Aey', 0, 3)).toBeUndefined();
    rememberName('\u212Aey');
    expect(lookupName('key', 0, 3) === '\u212Aey').toBe(false);
    expect(lookupName('', 0, 0)).toBeUndefined();
    expect(lookupName('x'.repeat(100), 0, 100)).toBeUndefined();
    rememberName('x'.repeat(100)); // nothing to remember after a too-long lookup
    expect(lookupName('x'.repeat(100), 0, 100)).toBeUndefined();
  });

  it('tells apart names whose code units would pack alike: past U+00FF, longer than twelve, Latin-1 case', () => {
    // 'x\u0161' packs like 'ya' ((0x78 << 8) | 0x161 === (0x79 << 8) | 0x61) were code units past U+00FF kept.
    expect(lookupName('ya', 0, 2)).toBeUndefined();
    rememberName('ya');
    expect(lookupName('YA', 0, 2)).toBe('ya');
    expect(lookupName('x\u0161', 0, 2)).toBeUndefined();
    // Twelve code units are all a name's three words hold: a longer name is never kept, nor found.
    const twelve = 'abcdefghijkl';
    expect(lookupName(twelve, 0, 12)).toBeUndefined();
    rememberName(twelve);
    expect(lookupName(twelve, 0, 12)).toBe(twelve);
    expect(lookupName('z' + twelve, 0, 13)).toBeUndefined();
    // Only ASCII letters fold: U+00C9 is not the kept U+00E9.
    expect(lookupName('d\u00e9', 0, 2)).toBeUndefined();
    rememberName('d\u00e9');
    expect(lookupName('D\u00e9', 0, 2)).toBe('d\u00e9');
    expect(lookupName('d\u00c9', 0, 2)).toBeUndefined();
    // Through the tokenizer, both kinds of names, twice (the second time from the cache).
    for (let round = 0; round < 2; round++) {
      const kids = parseDocument('<ya x\u0161=1 ya=2></ya><x\u0161 YA=3></x\u0161><z' + twelve + ' ' + twelve + '=4>').body!
        .childNodes as unknown as { localName: string; attributes: { localName: string; value: string }[] }[];
      expect(kids.map((k) => k.localName)).toEqual(['ya', 'x\u0161', 'z' + twelve]);
      expect(kids.map((k) => k.attributes.map((a) => a.localName + '=' + a.value).join(' '))).toEqual(['x\u0161=1 ya=2', 'ya=3', twelve + '=4']);
    }
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
