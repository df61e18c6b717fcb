import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parser.js';
import { retention, visibleText, words } from './helpers.js';

describe('policy test helpers', () => {
  it('visible text leaves out head, style, script and comments; inline elements do not split words', () => {
    const doc = parseDocument('<title>T1</title><style>s1</style><p>a<b>b</b> c<!--x1--><script>z1</script></p><p>d</p>');
    expect([...words(visibleText(doc)).keys()]).toEqual(['ab', 'c', 'd']);
  });
  it('retention counts lost words', () => {
    expect(retention('a b c d', 'a b c d')).toBe(1);
    expect(retention('a a b c', 'a b c')).toBe(0.75);
    expect(retention('', 'x')).toBe(1);
  });
});
