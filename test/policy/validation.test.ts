/**
 * Every validation error of compilePolicy, one policy per message: the exact message (field path first) is
 * asserted, and each bad policy differs from a valid one by the single field named.
 */
import { describe, expect, test } from 'vitest';
import { compilePolicy, type Policy } from '../../src/policy/index.js';
import { Sanitizer } from '../../src/sanitizer-api/index.js';
import { sanitize } from '../../src/sanitize.js';

const bad = (v: unknown): Policy => v as Policy;

const CASES: [string, unknown, string | RegExp][] = [
  ['not an object (null)', null, 'policy: expected an object'],
  ['not an object (array)', [], 'policy: expected an object'],
  ['unknown top-level field', { sanitiser: {} }, 'policy.sanitiser: unknown field'],
  ['sanitizer of a wrong type', { sanitizer: 42 }, "policy.sanitizer: expected a SanitizerConfig, a Sanitizer or 'default'"],
  ['invalid sanitizer config', { sanitizer: { elements: ['a'], removeElements: ['b'] } }, /^policy\.sanitizer: Sanitizer: /],
  ['comments not boolean', { comments: 'yes' }, 'policy.comments: expected a boolean'],
  ['processingInstructions not boolean', { processingInstructions: 1 }, 'policy.processingInstructions: expected a boolean'],
  ['comments contradicting the sanitizer', { sanitizer: { comments: true }, comments: false }, 'policy.comments: contradicts policy.sanitizer.comments'],
  ['elements not an object', { elements: [] }, 'policy.elements: expected an object'],
  ['unknown element prefix', { elements: { 'foo:bar': {} } }, 'policy.elements["foo:bar"]: unknown namespace prefix "foo" (use html:, svg: or math:)'],
  ['uppercase HTML element key', { elements: { B: {} } }, 'policy.elements["B"]: HTML element names are lowercase'],
  ['empty element key', { elements: { '': {} } }, 'policy.elements[""]: invalid element name ""'],
  ['element rule not an object', { elements: { b: 'strong' } }, 'policy.elements["b"]: expected an object'],
  ['unknown element rule field', { elements: { b: { remove: true } } }, 'policy.elements["b"].remove: unknown field'],
  ['drop not boolean', { elements: { b: { drop: 'yes' } } }, 'policy.elements["b"].drop: expected a boolean'],
  ['unwrap not boolean', { elements: { b: { unwrap: 1 } } }, 'policy.elements["b"].unwrap: expected a boolean'],
  ['rename not a string', { elements: { 'svg:circle': { rename: 1 } } }, 'policy.elements["svg:circle"].rename: expected a string'],
  ['rename to an invalid name', { elements: { b: { rename: 'a b' } } }, 'policy.elements["b"].rename: invalid element name "a b"'],
  ['rename to an uppercase HTML name', { elements: { b: { rename: 'Strong' } } }, 'policy.elements["b"].rename: HTML element names are lowercase'],
  ['rename across namespaces', { elements: { b: { rename: 'svg:g' } } }, 'policy.elements["b"].rename: renaming across namespaces is not supported'],
  ['rename to template', { elements: { div: { rename: 'template' } } }, 'policy.elements["div"].rename: template elements cannot be renamed to or from'],
  ['rename to itself', { elements: { b: { rename: 'b' } } }, 'policy.elements["b"].rename: renames the element to itself'],
  ['dropped and renamed', { elements: { b: { drop: true, rename: 'strong' } } }, 'policy.elements["b"]: drop, unwrap and rename are exclusive'],
  ['dropped and unwrapped', { elements: { b: { drop: true, unwrap: true } } }, 'policy.elements["b"]: drop, unwrap and rename are exclusive'],
  ['force on a dropped element', { elements: { b: { drop: true, force: { title: 'x' } } } }, 'policy.elements["b"]: attributes and force have no effect on a dropped element'],
  ['attributes on an unwrapped element', { elements: { b: { unwrap: true, attributes: {} } } }, 'policy.elements["b"]: attributes and force have no effect on an unwrapped element'],
  ['rename target dropped', { elements: { b: { rename: 'strong' }, strong: { drop: true } } }, 'policy.elements["b"].rename: the target is dropped by policy.elements["strong"]'],
  ['rename target renamed', { elements: { b: { rename: 'strong' }, strong: { rename: 'em' } } }, 'policy.elements["b"].rename: the target is renamed by policy.elements["strong"]'],
  ['rename target unwrapped', { elements: { font: { rename: 'span' }, span: { unwrap: true } } }, 'policy.elements["font"].rename: the target is unwrapped by policy.elements["span"]'],
  ['rename target not allowed by the sanitizer', { sanitizer: { elements: ['p'] }, elements: { b: { rename: 'strong' } } }, 'policy.elements["b"].rename: the target "strong" is removed by the policy\'s sanitizer'],
  ['rename target removed by the sanitizer', { sanitizer: { removeElements: ['span'] }, elements: { font: { rename: 'span' } } }, 'policy.elements["font"].rename: the target "span" is removed by the policy\'s sanitizer'],
  ['rename target replaced with its children', { sanitizer: { replaceWithChildrenElements: ['span'] }, elements: { font: { rename: 'span' } } }, 'policy.elements["font"].rename: the target "span" is replaced with its children by the policy\'s sanitizer'],
  ['rename target in the safe baseline', { sanitizer: {}, elements: { 'svg:g': { rename: 'script' } } }, 'policy.elements["svg:g"].rename: the target "script" is always removed by the safe baseline'],
  ['force not an object', { elements: { a: { force: [] } } }, 'policy.elements["a"].force: expected an object'],
  ['forced value not a string', { elements: { a: { force: { rel: true } } } }, 'policy.elements["a"].force["rel"]: expected a string'],
  ['forced event handler', { elements: { a: { force: { onclick: 'x()' } } } }, 'policy.elements["a"].force["onclick"]: event handler attributes cannot be forced'],
  ['forced javascript: URL', { elements: { a: { force: { href: ' JavaScript:void(0)' } } } }, 'policy.elements["a"].force["href"]: a javascript: value cannot be forced'],
  ['forced style', { elements: { a: { force: { style: 'color:red' } } } }, 'policy.elements["a"].force["style"]: style cannot be forced'],
  ['attributes not an object', { attributes: 5 }, 'policy.attributes: expected an object'],
  ['invalid attribute key', { attributes: { 'a b': {} } }, 'policy.attributes["a b"]: invalid attribute name "a b"'],
  ['invalid namespaced attribute key', { attributes: { 'xlink:': {} } }, 'policy.attributes["xlink:"]: invalid attribute name "xlink:"'],
  ['attribute rule not an object', { attributes: { align: true } }, 'policy.attributes["align"]: expected an object'],
  ['unknown attribute rule field', { attributes: { align: { style: 'text-align' } } }, 'policy.attributes["align"].style: unknown field'],
  ['attribute drop not boolean', { attributes: { align: { drop: 'y' } } }, 'policy.attributes["align"].drop: expected a boolean'],
  ['attribute rename not a string', { elements: { a: { attributes: { href: { rename: 3 } } } } }, 'policy.elements["a"].attributes["href"].rename: expected a string'],
  ['attribute renamed to an event handler', { attributes: { 'data-x': { rename: 'onclick' } } }, 'policy.attributes["data-x"].rename: cannot rename to an event handler attribute'],
  ['attribute renamed to itself', { attributes: { 'xlink:href': { rename: 'xlink:href' } } }, 'policy.attributes["xlink:href"].rename: renames the attribute to itself'],
  ['unknown toStyle property', { attributes: { align: { toStyle: 'float' } } }, 'policy.attributes["align"].toStyle: expected one of text-align, vertical-align, background-color, color, width, height, font-family, font-size, white-space'],
  ['style moved into style', { attributes: { style: { toStyle: 'color' } } }, 'policy.attributes["style"].toStyle: the style attribute cannot be moved into itself'],
  ['toStyle with style dropped', { style: false, attributes: { align: { toStyle: 'text-align' } } }, 'policy.attributes["align"].toStyle: policy.style is false, so the declaration would be dropped'],
  ['toStyle property not allowed', { style: { properties: ['color'] }, attributes: { align: { toStyle: 'text-align' } } }, 'policy.attributes["align"].toStyle: "text-align" is not in the style property allow-list'],
  ['value rule not an object', { attributes: { dir: { value: 'ltr' } } }, 'policy.attributes["dir"].value: expected an object'],
  ['unknown value rule field', { attributes: { dir: { value: { in: ['ltr'] } } } }, 'policy.attributes["dir"].value.in: unknown field'],
  ['oneOf not strings', { attributes: { dir: { value: { oneOf: [1] } } } }, 'policy.attributes["dir"].value.oneOf: expected an array of strings'],
  ['pattern not a string', { attributes: { dir: { value: { pattern: /x/ } } } }, 'policy.attributes["dir"].value.pattern: expected a string'],
  ['invalid pattern', { attributes: { dir: { value: { pattern: '(' } } } }, /^policy\.attributes\["dir"\]\.value\.pattern: invalid regular expression \(/],
  ['maxLength negative', { attributes: { title: { value: { maxLength: -1 } } } }, 'policy.attributes["title"].value.maxLength: expected a non-negative integer'],
  ['ignoreCase not boolean', { attributes: { dir: { value: { ignoreCase: 'yes' } } } }, 'policy.attributes["dir"].value.ignoreCase: expected a boolean'],
  ['unknown url type', { attributes: { 'data-src': { url: 'href' } } }, 'policy.attributes["data-src"].url: expected "url", "srcset" or "list"'],
  ['attribute dropped and renamed', { attributes: { align: { drop: true, rename: 'data-align' } } }, 'policy.attributes["align"]: drop cannot be combined with rename, toStyle, value or url'],
  ['toStyle with a sanitizer that never keeps style', { attributes: { align: { toStyle: 'text-align' } } }, 'policy.attributes["align"].toStyle: the policy\'s sanitizer never keeps the style attribute'],
  ['toStyle with a sanitizer removing style', { sanitizer: { removeAttributes: ['style'] }, attributes: { align: { toStyle: 'text-align' } } }, 'policy.attributes["align"].toStyle: the policy\'s sanitizer never keeps the style attribute'],
  ['attribute renamed and moved to style', { sanitizer: {}, attributes: { align: { rename: 'data-align', toStyle: 'text-align' } } }, 'policy.attributes["align"]: rename and toStyle are exclusive'],
  ['attribute rename target dropped', { attributes: { 'data-a': { rename: 'title' }, title: { drop: true } } }, 'policy.attributes["data-a"].rename: the target is dropped by attributes["title"]'],
  ['per-element rename target dropped globally', { attributes: { title: { drop: true } }, elements: { abbr: { attributes: { 'data-t': { rename: 'title' } } } } }, 'policy.elements["abbr"].attributes["data-t"].rename: the target is dropped by attributes["title"]'],
  ['urls not an object', { urls: 'https' }, 'policy.urls: expected an object'],
  ['unknown urls field', { urls: { scheme: ['https'] } }, 'policy.urls.scheme: unknown field'],
  ['schemes not strings', { urls: { schemes: 'https' } }, 'policy.urls.schemes: expected an array of strings'],
  ['invalid scheme', { urls: { schemes: ['1http'] } }, 'policy.urls.schemes[0]: invalid scheme "1http"'],
  ['javascript scheme', { urls: { schemes: ['https', 'JavaScript:'] } }, 'policy.urls.schemes[1]: "javascript" is never allowed'],
  ['unknown relative mode', { urls: { relative: 'allow' } }, 'policy.urls.relative: expected "keep", "drop" or "resolve"'],
  ['base not a string', { urls: { base: 5 } }, 'policy.urls.base: expected a string'],
  ['invalid base', { urls: { base: 'nope' } }, 'policy.urls.base: invalid URL "nope"'],
  ['resolve without base', { urls: { relative: 'resolve' } }, 'policy.urls.relative: "resolve" requires policy.urls.base'],
  ['resolve without base, per kind', { urls: { kinds: { image: { relative: 'resolve' } } } }, 'policy.urls.kinds["image"].relative: "resolve" requires policy.urls.base'],
  ['dataMimeTypes not strings', { urls: { dataMimeTypes: 'image/png' } }, 'policy.urls.dataMimeTypes: expected an array of strings'],
  ['rewrite not a function', { urls: { rewrite: 'https://proxy/' } }, 'policy.urls.rewrite: expected a function'],
  ['kinds not an object', { urls: { kinds: [] } }, 'policy.urls.kinds: expected an object'],
  ['unknown URL kind', { urls: { kinds: { video: {} } } }, 'policy.urls.kinds["video"]: unknown URL kind (expected one of link, image, media, style, form, object, frame, other)'],
  ['kind rules not an object', { urls: { kinds: { image: true } } }, 'policy.urls.kinds["image"]: expected an object'],
  ['unknown kind field', { urls: { kinds: { image: { base: 'https://x/' } } } }, 'policy.urls.kinds["image"].base: unknown field'],
  ['script scheme per kind', { urls: { kinds: { image: { schemes: ['vbscript'] } } } }, 'policy.urls.kinds["image"].schemes[0]: "vbscript" is never allowed'],
  ['style of a wrong type', { style: true }, 'policy.style: expected an object or false'],
  ['unknown style field', { style: { allow: ['color'] } }, 'policy.style.allow: unknown field'],
  ['properties not strings', { style: { properties: 'color' } }, 'policy.style.properties: expected an array of strings'],
  ['invalid property name', { style: { properties: ['Color'] } }, 'policy.style.properties[0]: invalid property name "Color" (lowercase, no custom properties)'],
  ['custom property', { style: { properties: ['--x'] } }, 'policy.style.properties[0]: invalid property name "--x" (lowercase, no custom properties)'],
  ['forbidden property', { style: { properties: ['color', 'behavior'] } }, 'policy.style.properties[1]: "behavior" is never allowed'],
  ['allowImportant not boolean', { style: { allowImportant: 1 } }, 'policy.style.allowImportant: expected a boolean'],
  ['classes of a wrong type', { classes: true }, 'policy.classes: expected an object or false'],
  ['unknown classes field', { classes: { names: [] } }, 'policy.classes.names: unknown field'],
  ['classes.allow not strings', { classes: { allow: 'a' } }, 'policy.classes.allow: expected an array of strings'],
  ['invalid class name', { classes: { allow: ['a b'] } }, 'policy.classes.allow[0]: invalid class name "a b"'],
  ['empty class prefix', { classes: { prefixes: [''] } }, 'policy.classes.prefixes[0]: invalid class name ""'],
  ['ids of a wrong type', { ids: 'user-content-' }, 'policy.ids: expected an object or false'],
  ['unknown ids field', { ids: { prefix: 'u-', names: true } }, 'policy.ids.names: unknown field'],
  ['empty id prefix', { ids: { prefix: '' } }, 'policy.ids.prefix: expected a non-empty string'],
  ['id prefix with a hash', { ids: { prefix: '#u' } }, 'policy.ids.prefix: must not contain whitespace or "#"'],
  ['ids.name not boolean', { ids: { prefix: 'u-', name: 'yes' } }, 'policy.ids.name: expected a boolean'],
  ['unknown references mode', { ids: { prefix: 'u-', references: 'some' } }, 'policy.ids.references: expected "all" or "existing"'],
  ['hooks not an object', { hooks: () => 'keep' }, 'policy.hooks: expected an object'],
  ['unknown hook', { hooks: { onNode: () => {} } }, 'policy.hooks.onNode: unknown field'],
  ['onElement not a function', { hooks: { onElement: 'drop' } }, 'policy.hooks.onElement: expected a function'],
  ['onAttribute not a function', { hooks: { onAttribute: {} } }, 'policy.hooks.onAttribute: expected a function'],
  ['maxDepth zero', { maxDepth: 0 }, 'policy.maxDepth: expected a positive integer'],
  ['maxDepth fractional', { maxDepth: 1.5 }, 'policy.maxDepth: expected a positive integer'],
  ['maxDepth not a number', { maxDepth: '10' }, 'policy.maxDepth: expected a positive integer'],
];

describe('compilePolicy validation', () => {
  test.each(CASES)('%s', (_name, policy, message) => {
    let error: unknown;
    try {
      compilePolicy(bad(policy));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    if (typeof message === 'string') expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
  });

  test('every case is a distinct policy and message pair', () => {
    const seen = new Set(CASES.map(([n]) => n));
    expect(seen.size).toBe(CASES.length);
  });

  test('valid policies of every section compile', () => {
    const policy: Policy = {
      sanitizer: new Sanitizer({ elements: ['p', 'a', 'strong'] }),
      comments: true,
      processingInstructions: false,
      elements: {
        b: { rename: 'strong' },
        script: { drop: true },
        'svg:circle': { attributes: { 'xlink:href': { rename: 'href' } } },
        'math:mi': { unwrap: true },
        a: { force: { rel: 'noopener', target: '_blank' }, attributes: { href: { value: { maxLength: 2000 } } } },
      },
      attributes: { align: { toStyle: 'text-align' }, 'xml:lang': { rename: 'lang' }, dir: { value: { oneOf: ['ltr', 'rtl'], ignoreCase: true } } },
      urls: { schemes: ['https'], relative: 'resolve', base: 'https://example.org/', kinds: { image: { schemes: ['https', 'data'] } }, rewrite: (u) => u },
      style: { properties: ['color', 'text-align'], allowImportant: true },
      classes: { allow: ['note'], prefixes: ['lang-'] },
      ids: { prefix: 'user-content-', name: false, references: 'existing' },
      hooks: { onElement: () => undefined, onAttribute: () => undefined },
      maxDepth: 10,
    };
    const compiled = compilePolicy(policy);
    expect(compilePolicy(compiled)).toBe(compiled);
    expect(compiled.source).toBe(policy);
  });

  test('an empty policy is valid and uses the built-in default configuration', () => {
    expect(compilePolicy({}).sanitizer.get()).toEqual(new Sanitizer('default').get());
  });

  test('a Sanitizer is used as it is; a dictionary is converted once', () => {
    const s = new Sanitizer({ elements: ['p'] });
    expect(compilePolicy({ sanitizer: s }).sanitizer).toBe(s);
    const c = compilePolicy({ sanitizer: { elements: ['p'] } });
    expect(c.sanitizer).toBeInstanceOf(Sanitizer);
    // Converted as the safe methods do: comments default to off.
    expect(c.sanitizer.get().comments).toBe(false);
  });

  test('a frozen Sanitizer dictionary is converted once for every policy that names it; a mutable one per policy', () => {
    const frozen = Object.freeze({ elements: Object.freeze(['p', 'b']), attributes: Object.freeze(['title']) });
    const a = compilePolicy({ sanitizer: frozen, maxDepth: 3 });
    const b = compilePolicy({ sanitizer: frozen, hooks: { onElement: () => undefined } });
    expect(a).not.toBe(b);
    expect(a.sanitizer).toBe(b.sanitizer);
    expect(a.sanitizer.get()).toEqual(compilePolicy({ sanitizer: { elements: ['p', 'b'], attributes: ['title'] } }).sanitizer.get());
    const open = { elements: ['p'] };
    expect(compilePolicy({ sanitizer: open }).sanitizer).not.toBe(compilePolicy({ sanitizer: open }).sanitizer);
    // With comments or processing instructions set beside it, the dictionary is a new one: converted per policy.
    expect(compilePolicy({ sanitizer: frozen, comments: true }).sanitizer).not.toBe(a.sanitizer);
    expect(compilePolicy({ sanitizer: frozen, comments: true }).sanitizer.get().comments).toBe(true);
    // An invalid frozen dictionary fails every time, with the field named.
    const invalid = Object.freeze({ elements: ['a'], removeElements: ['b'] });
    for (let i = 0; i < 2; i++) expect(() => compilePolicy({ sanitizer: invalid })).toThrow(/^policy\.sanitizer: Sanitizer: /);
  });

  test('a frozen style rule is checked once for every policy that names it', () => {
    const style = Object.freeze({ properties: Object.freeze(['color', 'margin']) as string[] });
    const html = '<p style="color: red; position: fixed; margin: 1px">x</p>';
    const sanitizer = { elements: ['p'], attributes: ['style'] };
    const got = sanitize(html, { policy: { sanitizer, style } });
    expect(got).toBe(sanitize(html, { policy: { sanitizer, style: { properties: ['color', 'margin'] } } }));
    expect(got).toContain('color:red;margin:1px');
    expect(got).not.toContain('position');
    expect(sanitize(html, { policy: { sanitizer, style } })).toBe(got);
    const invalid = Object.freeze({ properties: Object.freeze(['--custom']) as string[] });
    for (let i = 0; i < 2; i++) expect(() => compilePolicy({ style: invalid })).toThrow(/^policy\.style\.properties\[0\]: /);
  });

  test('a frozen policy is compiled once; a mutable one every time', () => {
    const frozen = Object.freeze({ maxDepth: 3 });
    expect(compilePolicy(frozen)).toBe(compilePolicy(frozen));
    const open: Policy = { maxDepth: 3 };
    expect(compilePolicy(open)).not.toBe(compilePolicy(open));
  });
});
