import { describe, expect, test } from 'vitest';
import { HTML_NS, MATHML_NS, SVG_NS, XLINK_NS } from '../../src/dom.js';
import {
  Sanitizer,
  canonicalizeConfig,
  configValidityError,
  getSanitizerInstanceFromOptions,
  type SanitizerConfig,
} from '../../src/sanitizer-api/index.js';
import {
  cloneConfig,
  removeAttributeFromConfig,
  removeElementFromConfig,
  removeUnsafeFromConfig,
} from '../../src/sanitizer-api/config.js';
import {
  BASELINE_ATTRIBUTES_TO_REMOVE,
  BASELINE_ELEMENTS_TO_REMOVE,
  EVENT_HANDLER_ATTRIBUTES,
} from '../../src/sanitizer-api/builtins.js';
import type { CanonicalElement, CanonicalSanitizerConfig } from '../../src/sanitizer-api/types.js';

const html = (name: string) => ({ name, namespace: HTML_NS });
const attr = (name: string, namespace: string | null = null) => ({ name, namespace });

/** The TypeError message `new Sanitizer(config)` throws (fails the test when it does not throw). */
function rejection(config: unknown): string {
  try {
    new Sanitizer(config as SanitizerConfig);
  } catch (e) {
    expect(e).toBeInstanceOf(TypeError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(config)}`);
}

describe('canonicalization', () => {
  test('an empty dictionary allows everything (constructor flavour)', () => {
    const got = new Sanitizer({}).get();
    expect(got).toEqual({ comments: true, removeAttributes: [], removeElements: [], removeProcessingInstructions: [] });
    // Web IDL order: dictionary members lexicographically.
    expect(Object.keys(got)).toEqual(['comments', 'removeAttributes', 'removeElements', 'removeProcessingInstructions']);
    expect(new Sanitizer(null).get()).toEqual(got);
  });

  test('strings take the default namespaces; dictionaries may name another; "" means none', () => {
    const got = new Sanitizer({
      elements: ['p', { name: 'circle', namespace: SVG_NS }, { name: 'x', namespace: '' }, { name: 'b' }],
      attributes: ['title', { name: 'href', namespace: XLINK_NS }, { name: 'lang', namespace: '' }],
    }).get();
    expect(got.elements).toEqual([
      { name: 'x', namespace: null, removeAttributes: [] },
      { name: 'b', namespace: HTML_NS, removeAttributes: [] },
      { name: 'p', namespace: HTML_NS, removeAttributes: [] },
      { name: 'circle', namespace: SVG_NS, removeAttributes: [] },
    ]);
    expect(got.attributes).toEqual([attr('lang'), attr('title'), attr('href', XLINK_NS)]);
    // dataAttributes appears with an attributes allow-list, defaulting to the flavour (true here).
    expect(got.dataAttributes).toBe(true);
    expect('removeAttributes' in got).toBe(false);
  });

  test('per-element lists are canonicalized and kept; an element with neither gets removeAttributes: []', () => {
    const c = canonicalizeConfig(
      { elements: [{ name: 'a', attributes: ['href', { name: 'href', namespace: XLINK_NS }] }, 'p'] },
      true,
    );
    expect(c.elements).toEqual([
      { name: 'a', namespace: HTML_NS, attributes: [attr('href'), attr('href', XLINK_NS)] },
      { name: 'p', namespace: HTML_NS, removeAttributes: [] },
    ]);
  });

  test('Web IDL conversions: non-strings become strings, booleans are ToBoolean', () => {
    const c = canonicalizeConfig({ removeElements: [42 as unknown as string], comments: 0 as unknown as boolean }, true);
    expect(c.removeElements).toEqual([html('42')]);
    expect(c.comments).toBe(false);
    expect(canonicalizeConfig({ elements: new Set(['p']) }, true).elements).toEqual([
      { name: 'p', namespace: HTML_NS, removeAttributes: [] },
    ]);
  });

  test('processing instructions as strings or { target }', () => {
    const c = canonicalizeConfig({ processingInstructions: ['xml-stylesheet', { target: 'php' }] }, true);
    expect(c.processingInstructions).toEqual([{ target: 'xml-stylesheet' }, { target: 'php' }]);
    expect(c.removeProcessingInstructions).toBeUndefined();
  });

  test('the safe flavour defaults comments, PIs and data attributes to removed', () => {
    const safe = getSanitizerInstanceFromOptions({ sanitizer: { attributes: ['title'] } }, true).get();
    expect(safe.comments).toBe(false);
    expect(safe.dataAttributes).toBe(false);
    expect(safe.processingInstructions).toEqual([]);
    expect(safe.removeProcessingInstructions).toBeUndefined();
    const unsafe = getSanitizerInstanceFromOptions({ sanitizer: { attributes: ['title'] } }, false).get();
    expect(unsafe.comments).toBe(true);
    expect(unsafe.dataAttributes).toBe(true);
    expect(unsafe.removeProcessingInstructions).toEqual([]);
    // Explicit values win over the flavour.
    expect(getSanitizerInstanceFromOptions({ sanitizer: { comments: true } }, true).get().comments).toBe(true);
  });

  test('options: a Sanitizer is used as it is; "default" and no option mean the built-in default when safe', () => {
    const s = new Sanitizer({ elements: ['p'] });
    expect(getSanitizerInstanceFromOptions({ sanitizer: s }, true)).toBe(s);
    const dflt = new Sanitizer().get();
    expect(getSanitizerInstanceFromOptions({}, true).get()).toEqual(dflt);
    expect(getSanitizerInstanceFromOptions({ sanitizer: 'default' }, false).get()).toEqual(dflt);
    // The unsafe methods default to {}: everything allowed.
    expect(getSanitizerInstanceFromOptions(undefined, false).get()).toEqual(new Sanitizer({}).get());
    expect(new Sanitizer('default').get()).toEqual(dflt);
  });

  test('options: null and arrays are dictionaries (an empty configuration), other primitives bogus presets', () => {
    // Web IDL: only a missing member takes the default; null converts to the union's dictionary (Chromium 156).
    const empty = (safe: boolean): unknown => getSanitizerInstanceFromOptions({ sanitizer: {} }, safe).get();
    expect(getSanitizerInstanceFromOptions({ sanitizer: null as never }, true).get()).toEqual(empty(true));
    expect(getSanitizerInstanceFromOptions({ sanitizer: null as never }, true).get()).not.toEqual(new Sanitizer().get());
    expect(getSanitizerInstanceFromOptions({ sanitizer: null as never }, false).get()).toEqual(empty(false));
    expect(getSanitizerInstanceFromOptions({ sanitizer: [] as never }, true).get()).toEqual(empty(true));
    for (const v of [5, 0, true, '', 'Default', ' default']) {
      expect(() => getSanitizerInstanceFromOptions({ sanitizer: v as never }, true)).toThrow(TypeError);
    }
  });
});

describe('validity: every rule throws a TypeError naming the problem', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['allow and remove elements', { elements: [], removeElements: [] }, /"elements" and "removeElements"/],
    [
      'allow and remove PIs',
      { processingInstructions: [], removeProcessingInstructions: [] },
      /"processingInstructions" and "removeProcessingInstructions"/,
    ],
    ['allow and remove attributes', { attributes: [], removeAttributes: [] }, /"attributes" and "removeAttributes"/],
    ['duplicate in elements', { elements: ['p', { name: 'p' }] }, /"elements" lists .*p" twice/],
    ['duplicate in removeElements', { removeElements: ['p', 'p'] }, /"removeElements" lists/],
    ['duplicate in replaceWithChildrenElements', { replaceWithChildrenElements: ['b', 'b'] }, /"replaceWithChildrenElements" lists/],
    ['duplicate PI target', { processingInstructions: ['x', { target: 'x' }] }, /"processingInstructions" lists the target "x"/],
    ['duplicate removed PI target', { removeProcessingInstructions: ['x', 'x'] }, /"removeProcessingInstructions" lists/],
    ['duplicate in attributes', { attributes: ['id', { name: 'id', namespace: null }] }, /"attributes" lists "id" twice/],
    ['duplicate in removeAttributes', { removeAttributes: ['id', 'id'] }, /"removeAttributes" lists "id" twice/],
    ['html replaced with children', { replaceWithChildrenElements: ['html'] }, /"replaceWithChildrenElements" cannot contain .*html/],
    [
      'svg replaced with children',
      { replaceWithChildrenElements: [{ name: 'svg', namespace: SVG_NS }] },
      /cannot contain .*svg/,
    ],
    [
      'math replaced with children',
      { replaceWithChildrenElements: [{ name: 'math', namespace: MATHML_NS }] },
      /cannot contain .*math/,
    ],
    ['allowed and replaced', { elements: ['b'], replaceWithChildrenElements: ['b'] }, /in both "elements" and "replaceWithChildrenElements"/],
    [
      'removed and replaced',
      { removeElements: ['b'], replaceWithChildrenElements: ['b'] },
      /in both "removeElements" and "replaceWithChildrenElements"/,
    ],
    [
      'duplicate in an element allow-list',
      { attributes: [], elements: [{ name: 'a', attributes: ['href', 'href'] }] },
      /elements\[0\].*\.attributes" lists "href" twice/,
    ],
    [
      'duplicate in an element remove-list',
      { attributes: ['href'], elements: [{ name: 'a', removeAttributes: ['href', 'href'] }] },
      /\.removeAttributes" lists "href" twice/,
    ],
    [
      'global and local allow-lists overlap',
      { attributes: ['title'], elements: [{ name: 'a', attributes: ['title'] }] },
      /"title" is in both "attributes" and "elements\[0\]/,
    ],
    [
      'local remove-list not within the global allow-list',
      { attributes: ['title'], elements: [{ name: 'a', removeAttributes: ['href'] }] },
      /removeAttributes" lists "href", which "attributes" does not allow/,
    ],
    [
      'data attribute in a local allow-list with dataAttributes',
      { attributes: [], dataAttributes: true, elements: [{ name: 'a', attributes: ['data-x'] }] },
      /lists the data attribute "data-x" while "dataAttributes" is true/,
    ],
    [
      'data attribute in the global allow-list with dataAttributes',
      { attributes: ['data-x'], dataAttributes: true },
      /"attributes" lists the data attribute "data-x"/,
    ],
    [
      'both local lists under a global remove-list',
      { removeAttributes: [], elements: [{ name: 'a', attributes: ['href'], removeAttributes: ['title'] }] },
      /cannot have both "attributes" and "removeAttributes"/,
    ],
    [
      'duplicate in a local allow-list under a global remove-list',
      { elements: [{ name: 'a', attributes: ['href', 'href'] }] },
      /\.attributes" lists "href" twice/,
    ],
    [
      'duplicate in a local remove-list under a global remove-list',
      { elements: [{ name: 'a', removeAttributes: ['href', 'href'] }] },
      /\.removeAttributes" lists "href" twice/,
    ],
    [
      'global remove-list and local allow-list overlap',
      { removeAttributes: ['href'], elements: [{ name: 'a', attributes: ['href'] }] },
      /"href" is in both "removeAttributes" and "elements\[0\].*\.attributes"/,
    ],
    [
      'global and local remove-lists overlap',
      { removeAttributes: ['href'], elements: [{ name: 'a', removeAttributes: ['href'] }] },
      /"href" is in both "removeAttributes" and "elements\[0\].*\.removeAttributes"/,
    ],
    ['dataAttributes without an attributes allow-list', { dataAttributes: true }, /"dataAttributes" requires an "attributes" allow-list/],
    ['dataAttributes: false without an allow-list', { removeAttributes: [], dataAttributes: false }, /"dataAttributes" requires/],
    // Conversion errors (Web IDL).
    ['a configuration that is not a dictionary', 42, /must be a dictionary/],
    ['a list that is not a sequence', { elements: 'div' }, /"elements" must be a sequence/],
    ['an element dictionary without a name', { removeElements: [{ namespace: HTML_NS }] }, /removeElements\[0\]\.name is required/],
    ['a null element entry', { elements: [null] }, /elements\[0\]\.name is required/],
    ['an attribute entry without a name', { attributes: [{}] }, /attributes\[0\]\.name is required/],
    ['a symbol as a name', { removeAttributes: [Symbol('x')] }, /removeAttributes\[0\] cannot be a symbol/],
    ['a PI dictionary without a target', { processingInstructions: [{}] }, /processingInstructions\[0\]\.target is required/],
    ['an unknown preset', 'strict', /unknown preset "strict"/],
  ];
  for (const [what, config, message] of cases) {
    test(what, () => {
      expect(rejection(config)).toMatch(message);
    });
  }

  test('the safe and unsafe options path throws too', () => {
    expect(() => getSanitizerInstanceFromOptions({ sanitizer: { elements: ['p'], removeElements: [] } }, true)).toThrow(TypeError);
    expect(() => getSanitizerInstanceFromOptions({ sanitizer: { dataAttributes: true } }, false)).toThrow(/dataAttributes/);
  });

  test('valid edge cases are accepted', () => {
    // Global allow-list: an element may have both local lists.
    expect(
      () => new Sanitizer({ attributes: ['title'], elements: [{ name: 'a', attributes: ['href'], removeAttributes: ['title'] }] }),
    ).not.toThrow();
    // The same name in different namespaces is not a duplicate.
    expect(() => new Sanitizer({ elements: ['a', { name: 'a', namespace: SVG_NS }] })).not.toThrow();
    // A namespaced data-* attribute is not a custom data attribute.
    expect(() => new Sanitizer({ attributes: [{ name: 'data-x', namespace: XLINK_NS }], dataAttributes: true })).not.toThrow();
    expect(configValidityError(canonicalizeConfig({ replaceWithChildrenElements: ['b', { name: 'svg' }] }, true))).toBeNull();
  });
});

describe('get()', () => {
  test('sorts every list: null namespace first, then namespace, then name (code units)', () => {
    const got = new Sanitizer({
      elements: [
        { name: 'b', attributes: [{ name: 'z', namespace: XLINK_NS }, 'y', 'B'] },
        { name: 'a', namespace: SVG_NS },
        'a',
        { name: 'q', namespace: null },
      ],
      replaceWithChildrenElements: ['u', 'i', { name: 'g', namespace: SVG_NS }],
      processingInstructions: ['z', 'a', 'M'],
      removeAttributes: ['title', { name: 'href', namespace: XLINK_NS }, 'class'],
    }).get();
    expect(got.elements!.map((e) => [e.namespace, e.name])).toEqual([
      [null, 'q'],
      [HTML_NS, 'a'],
      [HTML_NS, 'b'],
      [SVG_NS, 'a'],
    ]);
    expect(got.elements![2]!.attributes).toEqual([attr('B'), attr('y'), attr('z', XLINK_NS)]);
    expect(got.replaceWithChildrenElements).toEqual([html('i'), html('u'), { name: 'g', namespace: SVG_NS }]);
    expect(got.processingInstructions).toEqual([{ target: 'M' }, { target: 'a' }, { target: 'z' }]);
    expect(got.removeAttributes).toEqual([attr('class'), attr('title'), attr('href', XLINK_NS)]);
    expect(Object.keys(got)).toEqual(['comments', 'elements', 'processingInstructions', 'removeAttributes', 'replaceWithChildrenElements']);
    expect(Object.keys(got.elements![2]!)).toEqual(['name', 'namespace', 'attributes']);
  });

  test('returns a copy: editing it does not change the Sanitizer', () => {
    const s = new Sanitizer({ elements: ['p'] });
    const got = s.get();
    got.elements!.push({ name: 'script', namespace: HTML_NS });
    got.comments = false;
    expect(s.get()).toEqual({ comments: true, elements: [{ name: 'p', namespace: HTML_NS, removeAttributes: [] }], removeAttributes: [], removeProcessingInstructions: [] });
  });

  test('round-trips through the constructor', () => {
    const s = new Sanitizer({
      elements: [{ name: 'a', attributes: ['href'] }, 'p'],
      attributes: ['title', 'data-x'],
      dataAttributes: false,
      replaceWithChildrenElements: ['b'],
      comments: false,
    });
    expect(new Sanitizer(s.get()).get()).toEqual(s.get());
  });
});

describe('modifier methods: return values and effects', () => {
  const names = (list: Array<{ name: string }> | undefined) => list?.map((n) => n.name);

  test('allowElement with a global allow-list', () => {
    const s = new Sanitizer({ elements: ['div'], replaceWithChildrenElements: ['b'] });
    expect(s.allowElement('p')).toBe(true);
    expect(s.allowElement('p')).toBe(false); // already there, same attributes
    expect(names(s.get().elements)).toEqual(['div', 'p']);
    // Moves an element from replaceWithChildrenElements into the allow-list.
    expect(s.allowElement('b')).toBe(true);
    expect(s.get().replaceWithChildrenElements).toEqual([]);
    // New per-element attribute lists replace the entry.
    expect(s.allowElement({ name: 'p', attributes: ['title', 'title'] })).toBe(true);
    expect(s.get().elements!.find((e) => e.name === 'p')).toEqual({ name: 'p', namespace: HTML_NS, attributes: [attr('title')] });
    expect(s.allowElement({ name: 'p', attributes: ['title'] })).toBe(false);
  });

  test('allowElement trims per-element lists against the global lists', () => {
    const allow = new Sanitizer({ elements: [], attributes: ['title', 'lang'], dataAttributes: true });
    expect(allow.allowElement({ name: 'a', attributes: ['href', 'title', 'data-x'], removeAttributes: ['lang', 'id'] })).toBe(true);
    expect(allow.get().elements).toEqual([
      { name: 'a', namespace: HTML_NS, attributes: [attr('href')], removeAttributes: [attr('lang')] },
    ]);
    const remove = new Sanitizer({ elements: [], removeAttributes: ['style'] });
    expect(remove.allowElement({ name: 'a', attributes: ['href', 'style', 'id'], removeAttributes: ['id'] })).toBe(true);
    expect(remove.get().elements).toEqual([{ name: 'a', namespace: HTML_NS, attributes: [attr('href')] }]);
    expect(remove.allowElement({ name: 'b', removeAttributes: ['style', 'id'] })).toBe(true);
    expect(remove.get().elements![1]).toEqual({ name: 'b', namespace: HTML_NS, removeAttributes: [attr('id')] });
  });

  test('allowElement with a global remove-list', () => {
    const s = new Sanitizer({ removeElements: ['p', 'span'], replaceWithChildrenElements: ['b'] });
    expect(s.allowElement('p')).toBe(true);
    expect(s.allowElement('p')).toBe(false);
    expect(names(s.get().removeElements)).toEqual(['span']);
    expect(s.allowElement('b')).toBe(true); // was replaced with children
    expect(s.get().replaceWithChildrenElements).toEqual([]);
    // Per-element lists cannot be expressed: refused, nothing changes.
    expect(s.allowElement({ name: 'span', attributes: [] })).toBe(false);
    expect(s.allowElement({ name: 'span', removeAttributes: ['id'] })).toBe(false);
    expect(names(s.get().removeElements)).toEqual(['span']);
    expect(s.allowElement({ name: 'span', removeAttributes: [] })).toBe(true);
  });

  test('removeElement', () => {
    const allow = new Sanitizer({ elements: ['p', 'div'], replaceWithChildrenElements: ['b'] });
    expect(allow.removeElement('p')).toBe(true);
    expect(allow.removeElement('p')).toBe(false);
    expect(allow.removeElement('b')).toBe(true); // taken out of replaceWithChildrenElements
    expect(allow.get()).toMatchObject({ elements: [{ name: 'div' }], replaceWithChildrenElements: [] });
    const remove = new Sanitizer({});
    expect(remove.removeElement({ name: 'use', namespace: SVG_NS })).toBe(true);
    expect(remove.removeElement({ name: 'use', namespace: SVG_NS })).toBe(false);
    expect(remove.get().removeElements).toEqual([{ name: 'use', namespace: SVG_NS }]);
  });

  test('replaceElementWithChildren', () => {
    const s = new Sanitizer({ elements: ['b', 'p'] });
    expect(s.replaceElementWithChildren('b')).toBe(true);
    expect(s.replaceElementWithChildren('b')).toBe(false);
    expect(names(s.get().elements)).toEqual(['p']);
    expect(s.get().replaceWithChildrenElements).toEqual([html('b')]);
    // Never html, svg or math.
    expect(s.replaceElementWithChildren('html')).toBe(false);
    expect(s.replaceElementWithChildren({ name: 'svg', namespace: SVG_NS })).toBe(false);
    expect(s.replaceElementWithChildren({ name: 'math', namespace: MATHML_NS })).toBe(false);
    const r = new Sanitizer({ removeElements: ['i'] });
    expect(r.replaceElementWithChildren('i')).toBe(true);
    expect(r.get()).toMatchObject({ removeElements: [], replaceWithChildrenElements: [html('i')] });
  });

  test('allowProcessingInstruction and removeProcessingInstruction', () => {
    const allow = getSanitizerInstanceFromOptions({ sanitizer: {} }, true); // processingInstructions: []
    expect(allow.allowProcessingInstruction('xml-stylesheet')).toBe(true);
    expect(allow.allowProcessingInstruction({ target: 'xml-stylesheet' })).toBe(false);
    expect(allow.get().processingInstructions).toEqual([{ target: 'xml-stylesheet' }]);
    expect(allow.removeProcessingInstruction('xml-stylesheet')).toBe(true);
    expect(allow.removeProcessingInstruction('xml-stylesheet')).toBe(false);
    expect(allow.get().processingInstructions).toEqual([]);
    const remove = new Sanitizer({});
    expect(remove.allowProcessingInstruction('php')).toBe(false); // nothing to un-remove
    expect(remove.removeProcessingInstruction('php')).toBe(true);
    expect(remove.removeProcessingInstruction('php')).toBe(false);
    expect(remove.get().removeProcessingInstructions).toEqual([{ target: 'php' }]);
    expect(remove.allowProcessingInstruction('php')).toBe(true);
    expect(remove.get().removeProcessingInstructions).toEqual([]);
  });

  test('allowAttribute', () => {
    const allow = new Sanitizer({ attributes: ['title'], elements: [{ name: 'a', attributes: ['href'] }], dataAttributes: true });
    expect(allow.allowAttribute('title')).toBe(false);
    expect(allow.allowAttribute('data-x')).toBe(false); // covered by dataAttributes
    expect(allow.allowAttribute('href')).toBe(true);
    expect(allow.get().attributes).toEqual([attr('href'), attr('title')]);
    expect(allow.get().elements![0]!.attributes).toEqual([]); // no longer repeated locally
    const remove = new Sanitizer({ removeAttributes: ['style'] });
    expect(remove.allowAttribute('id')).toBe(false);
    expect(remove.allowAttribute('style')).toBe(true);
    expect(remove.get().removeAttributes).toEqual([]);
  });

  test('removeAttribute', () => {
    const allow = new Sanitizer({
      attributes: ['title', 'lang'],
      elements: [{ name: 'a', attributes: ['href'], removeAttributes: ['title'] }],
    });
    expect(allow.removeAttribute('title')).toBe(true);
    expect(allow.get().attributes).toEqual([attr('lang')]);
    expect(allow.get().elements![0]!.removeAttributes).toEqual([]); // local remove-list stays a subset
    expect(allow.removeAttribute('title')).toBe(false);
    expect(allow.removeAttribute('href')).toBe(true); // only in a local allow-list
    expect(allow.get().elements![0]!.attributes).toEqual([]);
    const remove = new Sanitizer({ elements: [{ name: 'a', attributes: ['href', 'id'] }, { name: 'b', removeAttributes: ['id'] }] });
    expect(remove.removeAttribute('id')).toBe(true);
    expect(remove.removeAttribute('id')).toBe(false);
    const got = remove.get();
    expect(got.removeAttributes).toEqual([attr('id')]);
    expect(got.elements).toEqual([
      { name: 'a', namespace: HTML_NS, attributes: [attr('href')] },
      { name: 'b', namespace: HTML_NS, removeAttributes: [] },
    ]);
  });

  test('setComments', () => {
    const s = new Sanitizer({});
    expect(s.setComments(true)).toBe(false);
    expect(s.setComments(false)).toBe(true);
    expect(s.get().comments).toBe(false);
    expect(s.setComments(false)).toBe(false);
  });

  test('setDataAttributes', () => {
    const remove = new Sanitizer({});
    expect(remove.setDataAttributes(true)).toBe(false); // no attributes allow-list
    expect('dataAttributes' in remove.get()).toBe(false);
    const allow = new Sanitizer({ attributes: ['data-a', 'title'], elements: [{ name: 'p', attributes: ['data-b', 'lang'] }], dataAttributes: false });
    expect(allow.setDataAttributes(false)).toBe(false);
    expect(allow.setDataAttributes(true)).toBe(true);
    const got = allow.get();
    expect(got.dataAttributes).toBe(true);
    expect(got.attributes).toEqual([attr('title')]);
    expect(got.elements![0]!.attributes).toEqual([attr('lang')]);
    expect(allow.setDataAttributes(true)).toBe(false);
  });

  test('removeUnsafe', () => {
    const s = new Sanitizer({});
    expect(s.removeUnsafe()).toBe(true);
    const got = s.get();
    expect(got.removeElements).toEqual([
      html('base'), // unsafe in the HTML Standard (whatwg/html#12664), as in Chromium 156
      html('embed'),
      html('frame'),
      html('iframe'),
      html('object'),
      html('script'),
      { name: 'script', namespace: SVG_NS },
      { name: 'use', namespace: SVG_NS },
    ]);
    for (const handler of ['onclick', 'onload', 'onerror', 'onpointerdown', 'onanimationstart']) {
      expect(got.removeAttributes).toContainEqual(attr(handler));
    }
    expect(s.removeUnsafe()).toBe(false);
    // An allow-list without anything unsafe is unchanged.
    const clean = new Sanitizer({ elements: ['p'], attributes: ['title'] });
    expect(clean.removeUnsafe()).toBe(false);
    const dirty = new Sanitizer({ elements: ['p', 'script'], attributes: ['title', 'onclick'] });
    expect(dirty.removeUnsafe()).toBe(true);
    expect(dirty.get()).toMatchObject({ elements: [{ name: 'p' }], attributes: [attr('title')] });
  });

  test('methods keep the configuration valid', () => {
    const s = new Sanitizer({ attributes: ['title'], elements: [{ name: 'a', removeAttributes: ['title'] }] });
    s.allowElement({ name: 'b', attributes: ['title', 'x'], removeAttributes: ['y', 'title'] });
    s.removeAttribute('title');
    s.setDataAttributes(true);
    s.allowAttribute('data-q');
    s.replaceElementWithChildren('a');
    s.removeUnsafe();
    expect(() => new Sanitizer(s.get())).not.toThrow();
  });
});

describe('"remove unsafe" filters each list once', () => {
  // The draft's steps, one name at a time ("remove an element" for each baseline element, then "remove an attribute"
  // for each baseline attribute and event handler): the model removeUnsafeFromConfig must agree with.
  function draftRemoveUnsafe(c: CanonicalSanitizerConfig): boolean {
    let result = false;
    for (const e of BASELINE_ELEMENTS_TO_REMOVE) if (removeElementFromConfig(c, { ...e })) result = true;
    for (const a of [...BASELINE_ATTRIBUTES_TO_REMOVE, ...EVENT_HANDLER_ATTRIBUTES]) {
      if (removeAttributeFromConfig(c, { ...a })) result = true;
    }
    return result;
  }

  const ELEMENT_POOL = [
    html('p'), html('a'), html('script'), html('iframe'), html('embed'), html('base'), html('div'),
    { name: 'script', namespace: SVG_NS }, { name: 'use', namespace: SVG_NS }, { name: 'circle', namespace: SVG_NS },
    { name: 'mi', namespace: MATHML_NS }, { name: 'script', namespace: null },
  ];
  const ATTRIBUTE_POOL = [
    attr('title'), attr('href'), attr('onclick'), attr('onload'), attr('onpointerdown'), attr('onwebkitanimationend'),
    attr('href', XLINK_NS), attr('onclick', XLINK_NS), attr('class'), attr('onfocusin'),
  ];

  const UNSAFE = {
    has: (n: { name: string; namespace: string | null }): boolean =>
      [...BASELINE_ELEMENTS_TO_REMOVE, ...EVENT_HANDLER_ATTRIBUTES].some((u) => u.name === n.name && u.namespace === n.namespace),
  };
  /** A canonical configuration drawn from the pools (duplicates avoided within each list, as canonical ones are). */
  function randomConfig(rand: (n: number) => number): CanonicalSanitizerConfig {
    // A third of them draw only names that are not unsafe (with allow-lists, nothing changes then).
    const safeOnly = rand(3) === 0;
    const pick = <T extends { name: string; namespace: string | null }>(pool: readonly T[]): T[] => {
      const out: T[] = [];
      for (const n of pool) if (rand(3) === 0 && !(safeOnly && UNSAFE.has(n))) out.push({ ...n });
      return out;
    };
    const c: CanonicalSanitizerConfig = { comments: rand(2) === 0 };
    if (rand(2) === 0) {
      c.elements = pick(ELEMENT_POOL).map((e) => {
        const el: CanonicalElement = { ...e };
        if (rand(2) === 0) el.attributes = pick(ATTRIBUTE_POOL);
        if (rand(2) === 0) el.removeAttributes = pick(ATTRIBUTE_POOL);
        return el;
      });
    } else if (rand(3) !== 0) {
      c.removeElements = pick(ELEMENT_POOL);
    }
    if (rand(2) === 0) c.replaceWithChildrenElements = pick(ELEMENT_POOL);
    if (rand(2) === 0) c.attributes = pick(ATTRIBUTE_POOL);
    else if (rand(3) !== 0) c.removeAttributes = pick(ATTRIBUTE_POOL);
    return c;
  }

  test('same lists, same order, same result as the draft on 3,000 configurations', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    let changed = 0;
    for (let k = 0; k < 3000; k++) {
      const c = randomConfig(rand);
      const model = cloneConfig(c);
      const got = removeUnsafeFromConfig(c);
      expect({ result: got, config: c }).toEqual({ result: draftRemoveUnsafe(model), config: model });
      if (got) changed++;
      // A second pass changes nothing, in both.
      expect(removeUnsafeFromConfig(c)).toBe(false);
    }
    // Both outcomes are well represented.
    expect(changed).toBeGreaterThan(300);
    expect(3000 - changed).toBeGreaterThan(150);
  });

  test('added entries are copies, not the built-in lists\' objects', () => {
    const c: CanonicalSanitizerConfig = { comments: false };
    expect(removeUnsafeFromConfig(c)).toBe(true);
    expect(c.removeElements!.length).toBe(BASELINE_ELEMENTS_TO_REMOVE.length);
    for (const e of c.removeElements!) expect(BASELINE_ELEMENTS_TO_REMOVE).not.toContain(e);
    for (const a of c.removeAttributes!) expect(EVENT_HANDLER_ATTRIBUTES).not.toContain(a);
    expect(c.removeAttributes!.length).toBe(new Set(EVENT_HANDLER_ATTRIBUTES.map((a) => a.name)).size);
  });
});
