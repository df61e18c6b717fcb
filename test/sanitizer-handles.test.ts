/**
 * `sanitize()` and the tree functions work from Sanitizer handles (`sanitizerHandleFromOptions`) rather than new
 * Sanitizer objects, so that a bundle which never constructs a Sanitizer does not carry the class. What a caller
 * sees must not change: a Sanitizer given is used (and its later edits are seen), a dictionary or preset is
 * converted as the setHTML-like methods convert it, and an object is a Sanitizer only when the class made it
 * (Web IDL: a platform object), so one that merely inherits from Sanitizer.prototype is read as a dictionary.
 */
import { describe, expect, test } from 'vitest';
import { serialize } from '../src/serializer.js';
import { sanitize, sanitizeFragment } from '../src/sanitize.js';
import { Sanitizer, getSanitizerInstanceFromOptions, setHTMLLike } from '../src/sanitizer-api/index.js';

describe('Sanitizer handles', () => {
  test('a Sanitizer given is used, and its later changes are seen', () => {
    const s = new Sanitizer({ elements: ['p', 'b'] });
    expect(sanitize('<p><b>x</b><i>y</i></p>', { sanitizer: s })).toBe('<p><b>x</b></p>');
    s.allowElement('i');
    expect(sanitize('<p><b>x</b><i>y</i></p>', { sanitizer: s })).toBe('<p><b>x</b><i>y</i></p>');
    s.removeElement('b');
    expect(serialize(sanitizeFragment('<p><b>x</b><i>y</i></p>', { sanitizer: s }))).toBe('<p><i>y</i></p>');
  });

  test('presets and dictionaries are converted as setHTML converts them', () => {
    const html = '<p title="t" data-x="1"><b>x</b><!--c--><u>y</u></p>';
    for (const spec of ['default', {}, { elements: ['p', 'u'], comments: true }, { removeElements: ['u'] }] as const) {
      for (const safe of [true, false]) {
        expect(serialize(sanitizeFragment(html, { sanitizer: spec, safe })), JSON.stringify([spec, safe])).toBe(
          serialize(setHTMLLike(html, { sanitizer: spec, safe })),
        );
      }
    }
    expect(() => sanitize('x', { sanitizer: 'strict' as never })).toThrow(TypeError);
    expect(() => sanitize('x', { sanitizer: { elements: ['p'], removeElements: ['b'] } })).toThrow(TypeError);
  });

  test('an object that only inherits from Sanitizer.prototype is read as a dictionary, everywhere', () => {
    const fake = Object.create(Sanitizer.prototype) as Sanitizer;
    const html = '<p><b>x</b><script>y</script></p>';
    expect(sanitize(html, { sanitizer: fake })).toBe(sanitize(html, { sanitizer: {} }));
    expect(serialize(setHTMLLike(html, { sanitizer: fake }))).toBe(serialize(setHTMLLike(html, { sanitizer: {} })));
    const made = getSanitizerInstanceFromOptions({ sanitizer: fake }, true);
    expect(made).not.toBe(fake);
    expect(made.get()).toEqual(getSanitizerInstanceFromOptions({ sanitizer: {} }, true).get());
  });
});
