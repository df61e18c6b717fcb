/** extendPolicy: merge semantics, list edits, defaults, immutability, validation. */
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_STYLE_PROPERTIES,
  DEFAULT_URL_SCHEMES,
  compilePolicy,
  extendPolicy,
  type Policy,
  type PolicyChanges,
} from '../../src/policy/index.js';
import { DEFAULT_DATA_MIME_TYPES } from '../../src/url/index.js';
import { Sanitizer } from '../../src/sanitizer-api/index.js';
import { attributes, structure } from './helpers.js';

const base: Policy = {
  sanitizer: { elements: ['p', 'a', 'b', 'strong', 'em'] },
  elements: { b: { rename: 'strong' }, a: { force: { rel: 'noopener', target: '_blank' } } },
  attributes: { align: { toStyle: 'text-align' } },
  urls: { schemes: ['https', 'mailto'] },
  style: { properties: ['color', 'text-align'] },
  classes: { allow: ['note'] },
  maxDepth: 50,
};

describe('extendPolicy', () => {
  test('lists: an array replaces, { add, remove } edits', () => {
    const p = extendPolicy(base, { urls: { schemes: { add: ['http'], remove: ['mailto'] } }, classes: { allow: ['a', 'b'] } });
    expect(p.urls!.schemes).toEqual(['https', 'http']);
    expect((p.classes as { allow: string[] }).allow).toEqual(['a', 'b']);
  });

  test('an edit adds no duplicates and removes before adding', () => {
    const p = extendPolicy(base, { style: { properties: { add: ['color', 'margin'], remove: ['color'] } } });
    expect((p.style as { properties: string[] }).properties).toEqual(['text-align', 'color', 'margin']);
  });

  test('an edit of a list the base leaves out starts from the engine default', () => {
    const p = extendPolicy({}, { style: { properties: { add: ['float'] } }, urls: { schemes: { remove: ['tel'] }, dataMimeTypes: { remove: ['image/bmp'] } } });
    expect((p.style as { properties: string[] }).properties).toEqual([...DEFAULT_STYLE_PROPERTIES, 'float']);
    expect(p.urls!.schemes).toEqual(DEFAULT_URL_SCHEMES.filter((s) => s !== 'tel'));
    expect(p.urls!.dataMimeTypes).toEqual(DEFAULT_DATA_MIME_TYPES.filter((s) => s !== 'image/bmp'));
  });

  test('a per-kind scheme edit starts from the top-level list', () => {
    const p = extendPolicy(base, { urls: { kinds: { image: { schemes: { add: ['data'] } } } } });
    expect(p.urls!.kinds!.image!.schemes).toEqual(['https', 'mailto', 'data']);
  });

  test('maps merge entry by entry; null removes', () => {
    const p = extendPolicy(base, {
      elements: { i: { rename: 'em' }, a: { force: { target: null, title: 'external' } } },
      attributes: { align: null },
      classes: null,
    });
    expect(p.elements).toEqual({ b: { rename: 'strong' }, a: { force: { rel: 'noopener', title: 'external' } }, i: { rename: 'em' } });
    expect(p.attributes).toEqual({});
    expect('classes' in p).toBe(false);
  });

  test('setting an action replaces the previous one', () => {
    const p = extendPolicy(base, { elements: { b: { drop: true }, a: { unwrap: true } } });
    expect(p.elements!.b).toEqual({ drop: true });
    expect(p.elements!.a).toEqual({ unwrap: true }); // force cleared: it would have no effect
    const q = extendPolicy(base, { attributes: { align: { rename: 'data-align' } } });
    expect(q.attributes!.align).toEqual({ rename: 'data-align' });
    // And the effect follows.
    expect(structure('<b>x</b><p align="left">y</p>', p)).toBe('<p style="text-align:left">y</p>');
  });

  test('style/classes/ids may become false, and an object replaces false', () => {
    const off = extendPolicy(base, { style: false, attributes: { align: null } });
    expect(off.style).toBe(false);
    const on = extendPolicy(off, { style: { properties: ['color'] } });
    expect(on.style).toEqual({ properties: ['color'] });
  });

  test('functions and the sanitizer are replaced', () => {
    const rewrite = (u: string): string => u;
    const s = new Sanitizer({ elements: ['p', 'strong'] });
    const p = extendPolicy(base, { sanitizer: s, urls: { rewrite }, hooks: { onElement: () => undefined } });
    expect(p.sanitizer).toBe(s);
    expect(p.urls!.rewrite).toBe(rewrite);
    expect(typeof p.hooks!.onElement).toBe('function');
    expect(extendPolicy(p, { hooks: { onElement: null } }).hooks).toEqual({});
  });

  test('neither argument is modified, and the result shares nothing mutable with them', () => {
    const before = JSON.stringify(base);
    const changes: PolicyChanges = { urls: { schemes: { add: ['http'] } }, elements: { b: { drop: true } } };
    const changesBefore = JSON.stringify(changes);
    const p = extendPolicy(base, changes);
    expect(JSON.stringify(base)).toBe(before);
    expect(JSON.stringify(changes)).toBe(changesBefore);
    (p.elements!.a!.force as Record<string, string>).rel = 'changed';
    (p.style as { properties: string[] }).properties.push('margin');
    expect(JSON.stringify(base)).toBe(before);
  });

  test('a compiled base is accepted', () => {
    const p = extendPolicy(compilePolicy(base), { maxDepth: 10 });
    expect(p.maxDepth).toBe(10);
    expect(p.elements).toEqual(base.elements);
  });

  test('the result takes effect', () => {
    const p = extendPolicy(base, { urls: { schemes: { add: ['http'] } } });
    expect(attributes('<a href="http://x/">x</a>', base)).toBe('<a rel="noopener" target="_blank">x</a>');
    expect(attributes('<a href="http://x/">x</a>', p)).toBe('<a href="http://x/" rel="noopener" target="_blank">x</a>');
  });

  const ERRORS: [string, unknown, unknown, string][] = [
    ['changes not an object', base, 'x', 'changes: expected an object'],
    ['unknown field', base, { colours: true }, 'changes.colours: unknown field'],
    ['unknown nested field', base, { urls: { scheme: [] } }, 'changes.urls.scheme: unknown field'],
    ['list change of a wrong type', base, { style: { properties: 'color' } }, 'changes.style.properties: expected an array or { add, remove }'],
    ['unknown list edit', base, { style: { properties: { put: ['x'] } } }, 'changes.style.properties.put: unknown field (expected add or remove)'],
    ['list edit with non-strings', base, { style: { properties: { add: [1] } } }, 'changes.style.properties.add: expected an array of strings'],
    ['replacement list with non-strings', base, { classes: { allow: [1] } }, 'changes.classes.allow: expected an array of strings'],
    ['map of a wrong type', base, { elements: [] }, 'changes.elements: expected an object'],
    ['object of a wrong type', base, { urls: 'https' }, 'changes.urls: expected an object'],
    ['object-or-false of a wrong type', base, { style: true }, 'changes.style: expected an object or false'],
    ['entry of a wrong type', base, { elements: { b: 'strong' } }, 'changes.elements["b"]: expected an object'],
    ['invalid result', base, { elements: { strong: { drop: true } } }, 'policy.elements["b"].rename: the target is dropped by policy.elements["strong"]'],
    ['invalid base', { maxDepth: -1 }, {}, 'policy.maxDepth: expected a positive integer'],
  ];
  test.each(ERRORS)('error: %s', (_n, b, c, message) => {
    expect(() => extendPolicy(b as Policy, c as PolicyChanges)).toThrow(new TypeError(message));
  });
});
