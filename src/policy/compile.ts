/**
 * Policy validation and compilation. Every problem is a TypeError thrown here, at construction, whose message
 * starts with the path of the offending field (`policy.elements["svg:circle"].rename: expected a string`).
 * Unknown fields, wrong types and contradictions (an element both dropped and renamed, a rename target the
 * policy itself drops...) are all refused. The compiled form is a set of per-namespace maps by local name.
 */
import { HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XML_NS, XMLNS_NS } from '../dom.js';
import { Sanitizer, getSanitizerInstanceFromOptions, sanitizerState } from '../sanitizer-api/config.js';
import { BASELINE_ELEMENTS_TO_REMOVE } from '../sanitizer-api/builtins.js';
import { NameMap } from '../sanitizer-api/names.js';
import type { SanitizerSpec } from '../sanitizer-api/sanitize.js';
import type { SanitizerConfig } from '../sanitizer-api/types.js';
import { DEFAULT_DATA_MIME_TYPES, schemeOf, type UrlContext, type UrlKind, type UrlPolicy } from '../url/url-policy.js';
import { STYLE_TRANSFORM_PROPERTIES } from './style-transforms.js';
import { applyPolicyAttributes, applyPolicyStructure } from './engine.js';
import { ENGINE, INTERNALS, type PolicyEngine, isCompiledPolicy, providePolicyEngine } from './link.js';
import type {
  IdRules,
  Policy,
  PolicyHooks,
  StyleTransformProperty,
  UrlKindRules,
  UrlRules,
} from './types.js';

export const DEFAULT_MAX_DEPTH = 256;
export const DEFAULT_URL_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];
/** Presentational properties kept in `style` attributes when the policy does not list its own. */
export const DEFAULT_STYLE_PROPERTIES: readonly string[] = [
  'background-color', 'border', 'border-bottom', 'border-collapse', 'border-color', 'border-left', 'border-radius',
  'border-right', 'border-spacing', 'border-style', 'border-top', 'border-width', 'color', 'direction',
  'font', 'font-family', 'font-size', 'font-style', 'font-variant', 'font-weight', 'height', 'letter-spacing',
  'line-height', 'list-style-type', 'margin', 'margin-bottom', 'margin-left', 'margin-right', 'margin-top',
  'max-height', 'max-width', 'min-height', 'min-width', 'padding', 'padding-bottom', 'padding-left',
  'padding-right', 'padding-top', 'text-align', 'text-decoration', 'text-indent', 'text-transform',
  'vertical-align', 'white-space', 'width', 'word-break', 'word-spacing',
];
const URL_KINDS: readonly UrlKind[] = ['link', 'image', 'media', 'style', 'form', 'object', 'frame', 'other'];
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript']);
const NEVER_STYLE = new Set(['behavior', '-ms-behavior', '-moz-binding', 'binding']);

export interface CompiledAttributeRule {
  /** Where the rule came from, for reports (`attributes["align"]`). */
  readonly key: string;
  readonly drop: boolean;
  readonly rename: { namespace: string | null; localName: string; prefix: string | null } | null;
  readonly toStyle: StyleTransformProperty | null;
  readonly value: { oneOf: Set<string> | null; pattern: RegExp | null; maxLength: number; ignoreCase: boolean } | null;
  readonly url: 'url' | 'srcset' | 'list' | null;
}

export interface CompiledElementRule {
  readonly key: string;
  readonly action: 'keep' | 'drop' | 'unwrap' | 'rename';
  readonly rename: string | null;
  readonly attributes: NameMap<CompiledAttributeRule> | null;
}

export interface ForcedAttribute {
  readonly key: string;
  readonly namespace: string | null;
  readonly localName: string;
  readonly prefix: string | null;
  readonly value: string;
  /** `rel`: merge tokens instead of replacing. */
  readonly mergeTokens: boolean;
}

export interface CompiledIds {
  readonly prefix: string;
  readonly name: boolean;
  readonly references: 'all' | 'existing';
}

export { INTERNALS, isCompiledPolicy };

/** A validated policy, ready to use: pass it as `policy` to skip validation on every call. */
export interface CompiledPolicy {
  /** What the pipeline hands to the Sanitizer API (step 3): the policy's Sanitizer, comments/PIs applied. */
  readonly sanitizer: Sanitizer;
  /** The policy as given. */
  readonly source: Policy;
  readonly [INTERNALS]: PolicyInternals;
}

export interface PolicyInternals {
  readonly elements: NameMap<CompiledElementRule> | null;
  readonly attributes: NameMap<CompiledAttributeRule> | null;
  readonly force: NameMap<ForcedAttribute[]> | null;
  /** URL policy per kind. */
  readonly urls: ReadonlyMap<UrlKind, UrlPolicy>;
  /** null: drop every style attribute. */
  readonly style: { properties: ReadonlySet<string>; allowImportant: boolean } | null;
  /** undefined: leave classes alone; null: drop them. */
  readonly classes: { allow: ReadonlySet<string>; prefixes: readonly string[] } | null | undefined;
  readonly ids: CompiledIds | null;
  readonly hooks: PolicyHooks;
  readonly maxDepth: number;
  /** Whether step 2 has anything to do. */
  readonly hasStructure: boolean;
}

function fail(path: string, message: string): never {
  throw new TypeError(`${path}: ${message}`);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function checkFields(v: Record<string, unknown>, path: string, allowed: readonly string[]): void {
  for (const k of Object.keys(v)) if (!allowed.includes(k)) fail(`${path}.${k}`, 'unknown field');
}

function objectAt(v: unknown, path: string, what = 'an object'): Record<string, unknown> {
  if (!isPlainObject(v)) fail(path, `expected ${what}`);
  return v;
}

function optBoolean(v: unknown, path: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') fail(path, 'expected a boolean');
  return v;
}

function stringArray(v: unknown, path: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) fail(path, 'expected an array of strings');
  return v as string[];
}

function key(k: string): string {
  return `[${JSON.stringify(k)}]`;
}

// ---------------------------------------------------------------------------------------------
// Names

export interface ParsedName {
  namespace: string | null;
  localName: string;
  prefix: string | null;
}

const ELEMENT_PREFIXES: Record<string, string> = { html: HTML_NS, svg: SVG_NS, math: MATHML_NS };
const ATTRIBUTE_PREFIXES: Record<string, string> = { xlink: XLINK_NS, xml: XML_NS, xmlns: XMLNS_NS };
// A name the HTML tokenizer can produce: no whitespace, "/", ">", NUL, quotes, "<" or "=".
const VALID_NAME = /^[A-Za-z][^\t\n\f\r \/>\u0000"'<=]*$/;
const VALID_ATTRIBUTE_NAME = /^[^\t\n\f\r \/>\u0000"'<=]+$/;

export function parseElementKey(k: string, path: string): ParsedName {
  const colon = k.indexOf(':');
  let namespace = HTML_NS;
  let localName = k;
  if (colon >= 0) {
    const ns = ELEMENT_PREFIXES[k.slice(0, colon)];
    if (ns === undefined) fail(path, `unknown namespace prefix ${JSON.stringify(k.slice(0, colon))} (use html:, svg: or math:)`);
    namespace = ns;
    localName = k.slice(colon + 1);
  }
  if (!VALID_NAME.test(localName)) fail(path, `invalid element name ${JSON.stringify(localName)}`);
  if (namespace === HTML_NS && /[A-Z]/.test(localName)) fail(path, 'HTML element names are lowercase');
  return { namespace, localName, prefix: null };
}

export function parseAttributeKey(k: string, path: string): ParsedName {
  const colon = k.indexOf(':');
  if (k === 'xmlns') return { namespace: XMLNS_NS, localName: 'xmlns', prefix: null };
  if (colon > 0) {
    const prefix = k.slice(0, colon);
    const ns = ATTRIBUTE_PREFIXES[prefix];
    if (ns !== undefined) {
      const localName = k.slice(colon + 1);
      if (!VALID_ATTRIBUTE_NAME.test(localName) || localName.includes(':')) fail(path, `invalid attribute name ${JSON.stringify(k)}`);
      return { namespace: ns, localName, prefix };
    }
  }
  if (!VALID_ATTRIBUTE_NAME.test(k)) fail(path, `invalid attribute name ${JSON.stringify(k)}`);
  return { namespace: null, localName: k, prefix: null };
}

function isEventHandler(n: ParsedName): boolean {
  return n.namespace === null && /^on/i.test(n.localName);
}

// ---------------------------------------------------------------------------------------------
// Sections

function compileValueRule(v: unknown, path: string): CompiledAttributeRule['value'] {
  const o = objectAt(v, path);
  checkFields(o, path, ['oneOf', 'pattern', 'maxLength', 'ignoreCase']);
  const ignoreCase = optBoolean(o.ignoreCase, `${path}.ignoreCase`) ?? false;
  let oneOf: Set<string> | null = null;
  if (o.oneOf !== undefined) {
    const list = stringArray(o.oneOf, `${path}.oneOf`);
    oneOf = new Set(ignoreCase ? list.map((s) => s.toLowerCase()) : list);
  }
  let pattern: RegExp | null = null;
  if (o.pattern !== undefined) {
    if (typeof o.pattern !== 'string') fail(`${path}.pattern`, 'expected a string');
    try {
      pattern = new RegExp('^(?:' + o.pattern + ')$', ignoreCase ? 'iu' : 'u');
    } catch (e) {
      fail(`${path}.pattern`, `invalid regular expression (${(e as Error).message})`);
    }
  }
  let maxLength = Infinity;
  if (o.maxLength !== undefined) {
    if (typeof o.maxLength !== 'number' || !Number.isInteger(o.maxLength) || o.maxLength < 0) {
      fail(`${path}.maxLength`, 'expected a non-negative integer');
    }
    maxLength = o.maxLength;
  }
  return { oneOf, pattern, maxLength, ignoreCase };
}

interface StyleInfo {
  dropped: boolean;
  properties: ReadonlySet<string>;
  /** Whether the policy's Sanitizer can keep a `style` attribute on some element. */
  sanitizerKeeps: boolean;
}

/**
 * Why a Sanitizer never keeps an element of this name (it is not allowed, removed, replaced with its children, or
 * in the safe baseline), or null when it may keep it.
 */
function sanitizerRemovesElement(sanitizer: Sanitizer, namespace: string, name: string): string | null {
  // (The configuration itself, read only: get() would make a sorted deep copy.)
  const c = sanitizerState(sanitizer).config;
  const is = (n: { name: string; namespace: string | null }): boolean => n.name === name && n.namespace === namespace;
  if (BASELINE_ELEMENTS_TO_REMOVE.some(is)) return 'is always removed by the safe baseline';
  if ((c.replaceWithChildrenElements ?? []).some(is)) return "is replaced with its children by the policy's sanitizer";
  if (c.elements !== undefined ? !c.elements.some(is) : (c.removeElements ?? []).some(is)) return "is removed by the policy's sanitizer";
  return null;
}

/** Whether a Sanitizer keeps the no-namespace attribute `name` on at least one element ("sanitize core"'s rules). */
function sanitizerMayKeepAttribute(sanitizer: Sanitizer, name: string): boolean {
  const c = sanitizerState(sanitizer).config;
  const is = (n: { name: string; namespace: string | null }): boolean => n.name === name && n.namespace === null;
  const globalAllow = c.attributes !== undefined ? c.attributes.some(is) : null;
  const globalRemove = (c.removeAttributes ?? []).some(is);
  if (c.elements === undefined) return globalAllow ?? !globalRemove;
  return c.elements.some((e) => {
    if ((e.removeAttributes ?? []).some(is)) return false;
    if (globalAllow !== null) return globalAllow || (e.attributes ?? []).some(is);
    if (e.attributes !== undefined) return e.attributes.some(is);
    return !globalRemove;
  });
}

function compileAttributeRules(
  v: unknown,
  path: string,
  style: StyleInfo,
  global: NameMap<CompiledAttributeRule> | null,
): NameMap<CompiledAttributeRule> {
  const o = objectAt(v, path);
  const out = new NameMap<CompiledAttributeRule>();
  const renames: [string, ParsedName][] = [];
  for (const k of Object.keys(o)) {
    const p = `${path}${key(k)}`;
    const name = parseAttributeKey(k, p);
    const r = objectAt(o[k], p);
    checkFields(r, p, ['drop', 'rename', 'toStyle', 'value', 'url']);
    const drop = optBoolean(r.drop, `${p}.drop`) ?? false;
    let rename: ParsedName | null = null;
    if (r.rename !== undefined) {
      if (typeof r.rename !== 'string') fail(`${p}.rename`, 'expected a string');
      rename = parseAttributeKey(r.rename, `${p}.rename`);
      if (isEventHandler(rename)) fail(`${p}.rename`, 'cannot rename to an event handler attribute');
      if (rename.namespace === name.namespace && rename.localName === name.localName) fail(`${p}.rename`, 'renames the attribute to itself');
      renames.push([p, rename]);
    }
    let toStyle: StyleTransformProperty | null = null;
    if (r.toStyle !== undefined) {
      if (typeof r.toStyle !== 'string' || !STYLE_TRANSFORM_PROPERTIES.includes(r.toStyle as StyleTransformProperty)) {
        fail(`${p}.toStyle`, `expected one of ${STYLE_TRANSFORM_PROPERTIES.join(', ')}`);
      }
      toStyle = r.toStyle as StyleTransformProperty;
      if (name.namespace === null && name.localName === 'style') fail(`${p}.toStyle`, 'the style attribute cannot be moved into itself');
      if (style.dropped) fail(`${p}.toStyle`, 'policy.style is false, so the declaration would be dropped');
      if (!style.properties.has(toStyle)) fail(`${p}.toStyle`, `${JSON.stringify(toStyle)} is not in the style property allow-list`);
      if (!style.sanitizerKeeps) fail(`${p}.toStyle`, "the policy's sanitizer never keeps the style attribute");
    }
    const value = r.value === undefined ? null : compileValueRule(r.value, `${p}.value`);
    let url: CompiledAttributeRule['url'] = null;
    if (r.url !== undefined) {
      if (r.url !== 'url' && r.url !== 'srcset' && r.url !== 'list') fail(`${p}.url`, 'expected "url", "srcset" or "list"');
      url = r.url;
    }
    if (drop && (rename !== null || toStyle !== null || value !== null || url !== null)) {
      fail(p, 'drop cannot be combined with rename, toStyle, value or url');
    }
    if (rename !== null && toStyle !== null) fail(p, 'rename and toStyle are exclusive');
    out.set(name.namespace, name.localName, { key: `${path.replace(/^policy\./, '')}${key(k)}`, drop, rename, toStyle, value, url });
  }
  // A rename target the policy then drops (here, or globally when not overridden here).
  for (const [p, t] of renames) {
    const target = out.get(t.namespace, t.localName) ?? global?.get(t.namespace, t.localName);
    if (target !== undefined && target.drop) fail(`${p}.rename`, `the target is dropped by ${target.key}`);
  }
  return out;
}

function compileKindRules(o: Record<string, unknown>, path: string, base: UrlKindRules): UrlKindRules {
  const out: UrlKindRules = { ...base };
  if (o.schemes !== undefined) {
    const list = stringArray(o.schemes, `${path}.schemes`);
    list.forEach((s, i) => {
      const n = s.toLowerCase().replace(/:$/, '');
      if (!/^[a-z][a-z0-9+.-]*$/.test(n)) fail(`${path}.schemes[${i}]`, `invalid scheme ${JSON.stringify(s)}`);
      if (SCRIPT_SCHEMES.has(n)) fail(`${path}.schemes[${i}]`, `${JSON.stringify(n)} is never allowed`);
    });
    out.schemes = list.map((s) => s.toLowerCase().replace(/:$/, ''));
  }
  if (o.relative !== undefined) {
    if (o.relative !== 'keep' && o.relative !== 'drop' && o.relative !== 'resolve') {
      fail(`${path}.relative`, 'expected "keep", "drop" or "resolve"');
    }
    out.relative = o.relative;
  }
  if (o.dataMimeTypes !== undefined) out.dataMimeTypes = stringArray(o.dataMimeTypes, `${path}.dataMimeTypes`).map((s) => s.toLowerCase());
  return out;
}

function compileUrls(v: unknown): Map<UrlKind, UrlPolicy> {
  const path = 'policy.urls';
  const o = v === undefined ? {} : objectAt(v, path);
  checkFields(o, path, ['schemes', 'relative', 'base', 'dataMimeTypes', 'kinds', 'rewrite']);
  const top = compileKindRules(o, path, { schemes: [...DEFAULT_URL_SCHEMES], relative: 'keep', dataMimeTypes: [...DEFAULT_DATA_MIME_TYPES] });
  let base: string | undefined;
  if (o.base !== undefined) {
    if (typeof o.base !== 'string') fail(`${path}.base`, 'expected a string');
    try {
      new URL(o.base);
    } catch {
      fail(`${path}.base`, `invalid URL ${JSON.stringify(o.base)}`);
    }
    base = o.base;
  }
  let rewrite: UrlRules['rewrite'];
  if (o.rewrite !== undefined) {
    if (typeof o.rewrite !== 'function') fail(`${path}.rewrite`, 'expected a function');
    rewrite = o.rewrite as UrlRules['rewrite'];
  }
  const kinds = o.kinds === undefined ? {} : objectAt(o.kinds, `${path}.kinds`);
  for (const k of Object.keys(kinds)) {
    if (!URL_KINDS.includes(k as UrlKind)) fail(`${path}.kinds${key(k)}`, `unknown URL kind (expected one of ${URL_KINDS.join(', ')})`);
  }
  if (top.relative === 'resolve' && base === undefined) fail(`${path}.relative`, '"resolve" requires policy.urls.base');
  const out = new Map<UrlKind, UrlPolicy>();
  for (const kind of URL_KINDS) {
    let rules = top;
    if (kinds[kind] !== undefined) {
      const kp = `${path}.kinds${key(kind)}`;
      const ko = objectAt(kinds[kind], kp);
      checkFields(ko, kp, ['schemes', 'relative', 'dataMimeTypes']);
      rules = compileKindRules(ko, kp, top);
      if (rules.relative === 'resolve' && base === undefined) fail(`${kp}.relative`, '"resolve" requires policy.urls.base');
    }
    const policy: UrlPolicy = { schemes: rules.schemes!, relative: rules.relative!, dataMimeTypes: rules.dataMimeTypes! };
    if (base !== undefined) policy.base = base;
    if (rewrite !== undefined) {
      const user = rewrite;
      policy.rewrite = (url: URL | string, ctx: UrlContext, written: string) =>
        user(typeof url === 'string' ? url : url.href, { element: ctx.element, attribute: ctx.attribute, kind: ctx.kind, written });
    }
    out.set(kind, policy);
  }
  return out;
}

function compileStyle(v: unknown): PolicyInternals['style'] {
  if (v === false) return null;
  if (v === undefined) return { properties: new Set(DEFAULT_STYLE_PROPERTIES), allowImportant: false };
  // A frozen style rule (a constant that policies built per call share) is checked once.
  return onceIfFrozen(frozenStyles, v, () => compileStyleRule(v));
}

const frozenStyles = new WeakMap<object, NonNullable<PolicyInternals['style']>>();

function compileStyleRule(v: unknown): NonNullable<PolicyInternals['style']> {
  const path = 'policy.style';
  const o = objectAt(v, path, 'an object or false');
  checkFields(o, path, ['properties', 'allowImportant']);
  let props: readonly string[] = DEFAULT_STYLE_PROPERTIES;
  if (o.properties !== undefined) {
    props = stringArray(o.properties, `${path}.properties`);
    props.forEach((p, i) => {
      if (!/^-?[a-z][a-z0-9-]*$/.test(p)) fail(`${path}.properties[${i}]`, `invalid property name ${JSON.stringify(p)} (lowercase, no custom properties)`);
      if (NEVER_STYLE.has(p)) fail(`${path}.properties[${i}]`, `${JSON.stringify(p)} is never allowed`);
    });
  }
  return { properties: new Set(props), allowImportant: optBoolean(o.allowImportant, `${path}.allowImportant`) ?? false };
}

function compileClasses(v: unknown): PolicyInternals['classes'] {
  if (v === undefined) return undefined;
  if (v === false) return null;
  const path = 'policy.classes';
  const o = objectAt(v, path, 'an object or false');
  checkFields(o, path, ['allow', 'prefixes']);
  const check = (list: string[], p: string): string[] => {
    list.forEach((c, i) => {
      if (c === '' || /[\t\n\f\r ]/.test(c)) fail(`${p}[${i}]`, `invalid class name ${JSON.stringify(c)}`);
    });
    return list;
  };
  const allow = o.allow === undefined ? [] : check(stringArray(o.allow, `${path}.allow`), `${path}.allow`);
  const prefixes = o.prefixes === undefined ? [] : check(stringArray(o.prefixes, `${path}.prefixes`), `${path}.prefixes`);
  return { allow: new Set(allow), prefixes };
}

function compileIds(v: unknown): CompiledIds | null {
  if (v === undefined || v === false) return null;
  const path = 'policy.ids';
  const o = objectAt(v, path, 'an object or false');
  checkFields(o, path, ['prefix', 'name', 'references']);
  if (typeof o.prefix !== 'string' || o.prefix === '') fail(`${path}.prefix`, 'expected a non-empty string');
  if (/[\t\n\f\r #]/.test(o.prefix)) fail(`${path}.prefix`, 'must not contain whitespace or "#"');
  const name = optBoolean(o.name, `${path}.name`) ?? true;
  if (o.references !== undefined && o.references !== 'all' && o.references !== 'existing') {
    fail(`${path}.references`, 'expected "all" or "existing"');
  }
  return { prefix: o.prefix, name, references: (o.references as IdRules['references']) ?? 'all' };
}

function compileHooks(v: unknown): PolicyHooks {
  if (v === undefined) return {};
  const path = 'policy.hooks';
  const o = objectAt(v, path);
  checkFields(o, path, ['onElement', 'onAttribute']);
  const out: PolicyHooks = {};
  if (o.onElement !== undefined) {
    if (typeof o.onElement !== 'function') fail(`${path}.onElement`, 'expected a function');
    out.onElement = o.onElement as PolicyHooks['onElement'];
  }
  if (o.onAttribute !== undefined) {
    if (typeof o.onAttribute !== 'function') fail(`${path}.onAttribute`, 'expected a function');
    out.onAttribute = o.onAttribute as PolicyHooks['onAttribute'];
  }
  return out;
}

/**
 * The policy's Sanitizer: its `sanitizer` (default `'default'`, whatever the call's `safe` flag) with
 * `comments`/`processingInstructions` applied. A dictionary is converted once, as the safe methods convert it
 * (comments, PIs and data attributes default to off); a Sanitizer given without those two fields is used as is.
 */
function compileSanitizer(policy: Record<string, unknown>): Sanitizer {
  const spec = policy.sanitizer as SanitizerSpec | undefined;
  if (spec !== undefined && spec !== 'default' && !(spec instanceof Sanitizer) && !isPlainObject(spec)) {
    fail('policy.sanitizer', "expected a SanitizerConfig, a Sanitizer or 'default'");
  }
  const comments = optBoolean(policy.comments, 'policy.comments');
  const pis = optBoolean(policy.processingInstructions, 'policy.processingInstructions');
  let out: SanitizerSpec | undefined = spec;
  if (comments !== undefined || pis !== undefined) {
    let dict: Record<string, unknown>;
    if (spec === undefined || spec === 'default') dict = { ...new Sanitizer('default').get() };
    else if (spec instanceof Sanitizer) dict = { ...spec.get() };
    else {
      dict = { ...(spec as Record<string, unknown>) };
      if (comments !== undefined && dict.comments !== undefined && Boolean(dict.comments) !== comments) {
        fail('policy.comments', 'contradicts policy.sanitizer.comments');
      }
    }
    if (comments !== undefined) dict.comments = comments;
    if (pis === true) {
      delete dict.processingInstructions;
      dict.removeProcessingInstructions = [];
    } else if (pis === false) {
      delete dict.removeProcessingInstructions;
      dict.processingInstructions = [];
    }
    out = dict as SanitizerConfig;
  }
  if (out instanceof Sanitizer) return out;
  // Converted once, here: the pipeline then reuses one Sanitizer (and its compiled lookups) for every call. A frozen
  // dictionary (its author deep-freezes it, as for a frozen policy) is converted once for every policy that names it:
  // policies built per call around a constant configuration (emailPolicy(options), sanitizeEmail) do not pay for
  // its conversion each time.
  return onceIfFrozen(frozenSanitizers, out, () => {
    try {
      return getSanitizerInstanceFromOptions({ sanitizer: out ?? 'default' }, true);
    } catch (e) {
      fail('policy.sanitizer', (e as Error).message);
    }
  });
}

const frozenSanitizers = new WeakMap<object, Sanitizer>();

const TOP_FIELDS = [
  'sanitizer', 'comments', 'processingInstructions', 'elements', 'attributes', 'urls', 'style', 'classes', 'ids',
  'hooks', 'maxDepth',
];

/** Validates a policy and compiles it into lookups. A compiled policy is returned as it is. */
export function compilePolicy(policy: Policy | CompiledPolicy): CompiledPolicy {
  if (isCompiledPolicy(policy)) return policy;
  if (!isPlainObject(policy)) fail('policy', 'expected an object');
  // A frozen policy cannot change (its author deep-freezes it, as the built-in policies are): compile it once.
  return onceIfFrozen(frozenCache, policy, () => compileFresh(policy));
}

const frozenCache = new WeakMap<object, CompiledPolicy>();

/**
 * `compile()`'s result, kept in `cache` when `value` is a frozen object (its author deep-freezes it: it cannot change),
 * so that each frozen value is compiled once. A compile that throws caches nothing.
 */
function onceIfFrozen<V>(cache: WeakMap<object, V>, value: unknown, compile: () => V): V {
  const frozen = typeof value === 'object' && value !== null && Object.isFrozen(value);
  let compiled = frozen ? cache.get(value) : undefined;
  if (compiled === undefined) {
    compiled = compile();
    if (frozen) cache.set(value, compiled);
  }
  return compiled;
}

function compileFresh(policy: Policy): CompiledPolicy {
  const p = policy as Record<string, unknown>;
  checkFields(p, 'policy', TOP_FIELDS);

  const sanitizer = compileSanitizer(p);
  const style = compileStyle(p.style);
  const styleInfo: StyleInfo = {
    dropped: style === null,
    properties: style?.properties ?? new Set(),
    sanitizerKeeps: sanitizerMayKeepAttribute(sanitizer, 'style'),
  };
  const attributes = p.attributes === undefined ? null : compileAttributeRules(p.attributes, 'policy.attributes', styleInfo, null);

  let elements: NameMap<CompiledElementRule> | null = null;
  let force: NameMap<ForcedAttribute[]> | null = null;
  let structural = false;
  const renames: [string, ParsedName, string][] = [];
  if (p.elements !== undefined) {
    const o = objectAt(p.elements, 'policy.elements');
    elements = new NameMap();
    for (const k of Object.keys(o)) {
      const path = `policy.elements${key(k)}`;
      const name = parseElementKey(k, path);
      const r = objectAt(o[k], path);
      checkFields(r, path, ['drop', 'unwrap', 'rename', 'attributes', 'force']);
      const drop = optBoolean(r.drop, `${path}.drop`) ?? false;
      const unwrap = optBoolean(r.unwrap, `${path}.unwrap`) ?? false;
      let rename: string | null = null;
      if (r.rename !== undefined) {
        if (typeof r.rename !== 'string') fail(`${path}.rename`, 'expected a string');
        const t = parseElementKey(r.rename, `${path}.rename`);
        // A bare name renames within the element's own namespace; a prefixed one must name that namespace.
        const targetNs = r.rename.includes(':') ? t.namespace : name.namespace;
        if (targetNs !== name.namespace) fail(`${path}.rename`, 'renaming across namespaces is not supported');
        if (name.namespace === HTML_NS && /[A-Z]/.test(t.localName)) fail(`${path}.rename`, 'HTML element names are lowercase');
        if (t.localName === 'template' || name.localName === 'template') fail(`${path}.rename`, 'template elements cannot be renamed to or from');
        if (t.localName === name.localName) fail(`${path}.rename`, 'renames the element to itself');
        rename = t.localName;
        renames.push([path, { namespace: name.namespace, localName: t.localName, prefix: null }, k]);
      }
      if (Number(drop) + Number(unwrap) + Number(rename !== null) > 1) fail(path, 'drop, unwrap and rename are exclusive');
      if ((drop || unwrap) && (r.attributes !== undefined || r.force !== undefined)) {
        fail(path, `attributes and force have no effect on ${drop ? 'a dropped' : 'an unwrapped'} element`);
      }
      let attrs: NameMap<CompiledAttributeRule> | null = null;
      if (r.attributes !== undefined) {
        attrs = compileAttributeRules(r.attributes, `${path}.attributes`, styleInfo, attributes);
      }
      const action = drop ? 'drop' : unwrap ? 'unwrap' : rename !== null ? 'rename' : 'keep';
      if (action !== 'keep' || attrs !== null) structural = true;
      elements.set(name.namespace, name.localName, { key: `elements${key(k)}`, action, rename, attributes: attrs });
      if (r.force !== undefined) {
        const fo = objectAt(r.force, `${path}.force`);
        const list: ForcedAttribute[] = [];
        for (const a of Object.keys(fo)) {
          const ap = `${path}.force${key(a)}`;
          const an = parseAttributeKey(a, ap);
          if (typeof fo[a] !== 'string') fail(ap, 'expected a string');
          if (isEventHandler(an)) fail(ap, 'event handler attributes cannot be forced');
          if (an.namespace === null && (an.localName === 'style' || an.localName === 'srcdoc')) fail(ap, `${an.localName} cannot be forced`);
          const scheme = schemeOf(fo[a] as string);
          if (scheme !== null && SCRIPT_SCHEMES.has(scheme)) fail(ap, `a ${scheme}: value cannot be forced`);
          list.push({
            key: `elements${key(k)}.force${key(a)}`,
            namespace: an.namespace,
            localName: an.localName,
            prefix: an.prefix,
            value: fo[a] as string,
            mergeTokens: an.namespace === null && an.localName === 'rel',
          });
        }
        if (list.length > 0) (force ??= new NameMap()).set(name.namespace, name.localName, list);
      }
    }
    for (const [path, t] of renames) {
      const target = elements.get(t.namespace!, t.localName);
      if (target !== undefined && target.action !== 'keep') {
        fail(`${path}.rename`, `the target is ${target.action === 'rename' ? 'renamed' : target.action === 'drop' ? 'dropped' : 'unwrapped'} by policy.${target.key}`);
      }
      const why = sanitizerRemovesElement(sanitizer, t.namespace!, t.localName);
      if (why !== null) fail(`${path}.rename`, `the target ${JSON.stringify(t.localName)} ${why}`);
    }
  }

  let maxDepth = DEFAULT_MAX_DEPTH;
  if (p.maxDepth !== undefined) {
    if (typeof p.maxDepth !== 'number' || !Number.isInteger(p.maxDepth) || p.maxDepth < 1) {
      fail('policy.maxDepth', 'expected a positive integer');
    }
    maxDepth = p.maxDepth;
  }
  const hooks = compileHooks(p.hooks);
  const urls = compileUrls(p.urls);
  const classes = compileClasses(p.classes);
  const ids = compileIds(p.ids);
  return withPolicyEngine({
    sanitizer,
    source: policy as Policy,
    [INTERNALS]: {
    elements,
    attributes,
    force,
    urls,
    style,
    classes,
    ids,
    hooks,
    maxDepth,
    hasStructure: structural || attributes !== null || hooks.onElement !== undefined || hooks.onAttribute !== undefined,
    },
  });
}

/**
 * The engine `sanitize` runs policies with (see `link.ts`): compiled policies and the built-in ones carry it,
 * and it is provided for the others as soon as this module is evaluated.
 */
const POLICY_ENGINE: PolicyEngine = { compile: compilePolicy, structure: applyPolicyStructure, attributes: applyPolicyAttributes };
providePolicyEngine(POLICY_ENGINE);

/** Gives a policy object its engine (a non-enumerable property), for policies that do not otherwise import it. */
export function withPolicyEngine<T extends object>(policy: T): T {
  if (!Object.prototype.hasOwnProperty.call(policy, ENGINE)) Object.defineProperty(policy, ENGINE, { value: POLICY_ENGINE });
  return policy;
}
