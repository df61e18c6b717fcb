/**
 * The Sanitizer API's configuration: conversion of a `SanitizerConfig` dictionary, canonicalization, the
 * validity rules, the `Sanitizer` class and its modifier methods.
 *
 * Algorithms follow the WICG Sanitizer API draft (index.bs, 2026-04, since upstreamed into the HTML Standard)
 * as Chromium implements it; step names in comments are the draft's. Invalid configurations throw a
 * `TypeError` whose message names the offending member, in the places Chromium throws: the `Sanitizer`
 * constructor and "get a sanitizer instance from options" (setHTML and friends). Chromium's own message is a
 * generic "Invalid Sanitizer configuration."; ours says which rule failed.
 */
import { HTML_NS } from '../dom.js';
import {
  BASELINE_ATTRIBUTES_TO_REMOVE,
  BASELINE_ELEMENTS_TO_REMOVE,
  EVENT_HANDLER_ATTRIBUTES,
  NON_REPLACEABLE_ELEMENTS,
  builtinSafeDefaultConfig,
} from './builtins.js';
import {
  addName,
  compareNames,
  containsName,
  describeName,
  firstCommon,
  firstDuplicate,
  isDataAttributeName,
  NameSet,
  removeName,
  withoutDuplicates,
  type SanitizerName,
} from './names.js';
import type { CompiledConfig } from './sanitize.js';
import type {
  CanonicalElement,
  CanonicalProcessingInstruction,
  CanonicalSanitizerConfig,
  SanitizerAttribute,
  SanitizerConfig,
  SanitizerElement,
  SanitizerElementWithAttributes,
  SanitizerPreset,
  SanitizerProcessingInstruction,
} from './types.js';

// ---------------------------------------------------------------------------------------------
// Conversion of JavaScript values (what Web IDL does before the algorithms run)

function fail(what: string): never {
  throw new TypeError(`Sanitizer: ${what}`);
}

/** Web IDL DOMString conversion: ToString, which throws for symbols. */
function toDOMString(v: unknown, field: string): string {
  if (typeof v === 'symbol') fail(`${field} cannot be a symbol`);
  return String(v);
}

/** Web IDL sequence conversion: any iterable object. */
function toSequence(v: unknown, field: string): unknown[] {
  if ((typeof v !== 'object' && typeof v !== 'function') || v === null) fail(`"${field}" must be a sequence`);
  const iter = (v as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  if (typeof iter !== 'function') fail(`"${field}" must be a sequence`);
  return Array.from(v as Iterable<unknown>);
}

function isDictionaryValue(v: unknown): v is Record<string, unknown> | null | undefined {
  // A union of DOMString and a dictionary takes null, undefined and objects as the dictionary.
  return v === null || v === undefined || typeof v === 'object' || typeof v === 'function';
}

/** "canonicalize a sanitizer name", on a `DOMString or dictionary` value. */
function toName(v: unknown, defaultNamespace: string | null, field: string): SanitizerName {
  if (!isDictionaryValue(v)) return { name: toDOMString(v, field), namespace: defaultNamespace };
  const d = (v ?? {}) as Record<string, unknown>;
  const rawName = d.name;
  if (rawName === undefined) fail(`${field}.name is required`);
  const name = toDOMString(rawName, `${field}.name`);
  const rawNs = d.namespace;
  let namespace = rawNs === undefined ? defaultNamespace : rawNs === null ? null : toDOMString(rawNs, `${field}.namespace`);
  // Step 4: an empty namespace is no namespace.
  if (namespace === '') namespace = null;
  return { name, namespace };
}

/** "canonicalize a sanitizer element". */
export function canonicalizeElement(v: SanitizerElement | unknown, field = 'element'): SanitizerName {
  return toName(v, HTML_NS, field);
}

/** "canonicalize a sanitizer attribute". */
export function canonicalizeAttribute(v: SanitizerAttribute | unknown, field = 'attribute'): SanitizerName {
  return toName(v, null, field);
}

function attributeList(v: unknown, field: string): SanitizerName[] {
  return toSequence(v, field).map((a, i) => canonicalizeAttribute(a, `${field}[${i}]`));
}

/** "canonicalize a sanitizer element with attributes". */
export function canonicalizeElementWithAttributes(
  v: SanitizerElementWithAttributes | unknown,
  field = 'element',
): CanonicalElement {
  // Step 1: the name, in the HTML namespace by default.
  const result: CanonicalElement = toName(v, HTML_NS, field);
  // Step 2: a dictionary's own attribute lists, canonicalized.
  if (isDictionaryValue(v) && v != null) {
    if (v.attributes !== undefined) result.attributes = attributeList(v.attributes, `${field}.attributes`);
    if (v.removeAttributes !== undefined) {
      result.removeAttributes = attributeList(v.removeAttributes, `${field}.removeAttributes`);
    }
  }
  // Step 3: neither list means an empty remove-list.
  if (result.attributes === undefined && result.removeAttributes === undefined) result.removeAttributes = [];
  return result;
}

/** "canonicalize a sanitizer processing instruction". */
export function canonicalizeProcessingInstruction(
  v: SanitizerProcessingInstruction | unknown,
  field = 'processing instruction',
): CanonicalProcessingInstruction {
  if (!isDictionaryValue(v)) return { target: toDOMString(v, field) };
  const t = (v ?? {}).target;
  if (t === undefined) fail(`${field}.target is required`);
  return { target: toDOMString(t, `${field}.target`) };
}

/** The configuration's lists, in the order they are canonicalized, with the canonicalization of an item. */
const LISTS: readonly [keyof CanonicalSanitizerConfig, (v: unknown, field: string) => unknown][] = [
  ['elements', canonicalizeElementWithAttributes],
  ['removeElements', canonicalizeElement],
  ['replaceWithChildrenElements', canonicalizeElement],
  ['processingInstructions', canonicalizeProcessingInstruction],
  ['removeProcessingInstructions', canonicalizeProcessingInstruction],
  ['attributes', canonicalizeAttribute],
  ['removeAttributes', canonicalizeAttribute],
];

/**
 * Converts a `SanitizerConfig` value and runs "canonicalize the configuration" on it. Throws a TypeError for
 * values Web IDL would reject (not a dictionary, a list that is not a sequence, a missing `name`); does not
 * check validity (see `configValidityError`).
 */
export function canonicalizeConfig(
  input: SanitizerConfig | null | undefined | unknown,
  allowCommentsPIsAndDataAttributes: boolean,
): CanonicalSanitizerConfig {
  if (input !== null && input !== undefined && typeof input !== 'object' && typeof input !== 'function') {
    fail('the configuration must be a dictionary');
  }
  const d = (input ?? {}) as Record<string, unknown>;
  const has = (k: string): boolean => d[k] !== undefined;
  const out: CanonicalSanitizerConfig = { comments: false };

  // Steps 4-10: canonicalize every list that exists.
  for (const [key, canonicalize] of LISTS) {
    if (has(key)) (out as unknown as Record<string, unknown>)[key] = toSequence(d[key], key).map((v, i) => canonicalize(v, `${key}[${i}]`));
  }

  // Step 1: neither elements list means an empty remove-list.
  if (out.elements === undefined && out.removeElements === undefined) out.removeElements = [];
  // Step 2: neither PI list: keep them all (unsafe flavour) or none (safe flavour).
  if (out.processingInstructions === undefined && out.removeProcessingInstructions === undefined) {
    if (allowCommentsPIsAndDataAttributes) out.removeProcessingInstructions = [];
    else out.processingInstructions = [];
  }
  // Step 3: neither attributes list means an empty remove-list.
  if (out.attributes === undefined && out.removeAttributes === undefined) out.removeAttributes = [];
  // Step 11: comments default to the flavour (Web IDL boolean conversion is ToBoolean).
  out.comments = has('comments') ? Boolean(d.comments) : allowCommentsPIsAndDataAttributes;
  // Step 12: dataAttributes defaults to the flavour, but only with an attributes allow-list.
  if (has('dataAttributes')) out.dataAttributes = Boolean(d.dataAttributes);
  else if (out.attributes !== undefined) out.dataAttributes = allowCommentsPIsAndDataAttributes;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Validity

function duplicateTarget(list: readonly CanonicalProcessingInstruction[]): string | null {
  const seen = new Set<string>();
  for (const p of list) {
    if (seen.has(p.target)) return p.target;
    seen.add(p.target);
  }
  return null;
}

/** First custom data attribute in `list`, or null. */
function firstDataAttribute(list: readonly SanitizerName[] | undefined): SanitizerName | null {
  if (list !== undefined) for (const a of list) if (isDataAttributeName(a.namespace, a.name)) return a;
  return null;
}

/**
 * "valid", for a canonical configuration: null when valid, else a message naming the member and the rule
 * that fails (checked in the draft's order).
 */
export function configValidityError(config: CanonicalSanitizerConfig): string | null {
  const c = config;
  // Steps 2, 4, 6: one of each allow/remove pair, not both.
  if (c.elements !== undefined && c.removeElements !== undefined) {
    return '"elements" and "removeElements" cannot both be given';
  }
  if (c.processingInstructions !== undefined && c.removeProcessingInstructions !== undefined) {
    return '"processingInstructions" and "removeProcessingInstructions" cannot both be given';
  }
  if (c.attributes !== undefined && c.removeAttributes !== undefined) {
    return '"attributes" and "removeAttributes" cannot both be given';
  }
  // Steps 8-11: no duplicates within a global list.
  const dup = (key: string, list: readonly SanitizerName[] | undefined, at?: () => string): string | null => {
    const d = list === undefined ? null : firstDuplicate(list);
    return d === null ? null : `"${at ? at() : ''}${key}" lists ${describeName(d)} twice`;
  };
  let e =
    (c.elements !== undefined ? dup('elements', c.elements) : dup('removeElements', c.removeElements)) ??
    dup('replaceWithChildrenElements', c.replaceWithChildrenElements);
  if (e !== null) return e;
  const pis = c.processingInstructions ?? c.removeProcessingInstructions ?? [];
  const t = duplicateTarget(pis);
  if (t !== null) {
    const key = c.processingInstructions !== undefined ? 'processingInstructions' : 'removeProcessingInstructions';
    return `"${key}" lists the target ${JSON.stringify(t)} twice`;
  }
  e = c.attributes !== undefined ? dup('attributes', c.attributes) : dup('removeAttributes', c.removeAttributes);
  if (e !== null) return e;
  // Step 12: replaceWithChildrenElements holds no non-replaceable element and no element of the other lists.
  if (c.replaceWithChildrenElements !== undefined) {
    for (const el of c.replaceWithChildrenElements) {
      if (containsName(NON_REPLACEABLE_ELEMENTS, el)) {
        return `"replaceWithChildrenElements" cannot contain ${describeName(el)}`;
      }
    }
    const other = c.elements !== undefined ? 'elements' : 'removeElements';
    const common = firstCommon(c.elements ?? c.removeElements ?? [], c.replaceWithChildrenElements);
    if (common !== null) return `${describeName(common)} is in both "${other}" and "replaceWithChildrenElements"`;
  }
  // Steps 13 (a global attribute allow-list) and 14 (a global remove-list), element by element.
  const allowList = c.attributes !== undefined;
  const globalKey = allowList ? 'attributes' : 'removeAttributes';
  const global = c.attributes ?? c.removeAttributes ?? [];
  const inGlobal = NameSet.of(global);
  if (c.elements !== undefined) {
    for (let i = 0; i < c.elements.length; i++) {
      const el = c.elements[i]!;
      // (Built only for a message: a valid configuration, checked on every conversion, needs none.)
      const at = (): string => `elements[${i}] (${describeName(el)})`;
      if (!allowList && el.attributes !== undefined && el.removeAttributes !== undefined) {
        return `"${at()}" cannot have both "attributes" and "removeAttributes" when "removeAttributes" is global`;
      }
      e = dup('.attributes', el.attributes, at) ?? dup('.removeAttributes', el.removeAttributes, at);
      if (e !== null) return e;
      let common = firstCommon(global, el.attributes ?? []);
      if (common !== null) return `${describeName(common)} is in both "${globalKey}" and "${at()}.attributes"`;
      if (allowList) {
        for (const a of el.removeAttributes ?? []) {
          if (!inGlobal.has(a.namespace, a.name)) {
            return `"${at()}.removeAttributes" lists ${describeName(a)}, which "attributes" does not allow`;
          }
        }
        const data = c.dataAttributes === true ? firstDataAttribute(el.attributes) : null;
        if (data !== null) return `"${at()}.attributes" lists the data attribute ${describeName(data)} while "dataAttributes" is true`;
      } else {
        common = firstCommon(global, el.removeAttributes ?? []);
        if (common !== null) return `${describeName(common)} is in both "removeAttributes" and "${at()}.removeAttributes"`;
      }
    }
  }
  if (allowList) {
    const data = c.dataAttributes === true ? firstDataAttribute(global) : null;
    if (data !== null) return `"attributes" lists the data attribute ${describeName(data)} while "dataAttributes" is true`;
  } else if (c.dataAttributes !== undefined) {
    return '"dataAttributes" requires an "attributes" allow-list';
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Copies and the get() form

function copyNames(list: readonly SanitizerName[]): SanitizerName[] {
  return list.map((n) => ({ name: n.name, namespace: n.namespace }));
}

function copyElement(e: CanonicalElement): CanonicalElement {
  const out: CanonicalElement = { name: e.name, namespace: e.namespace };
  if (e.attributes !== undefined) out.attributes = copyNames(e.attributes);
  if (e.removeAttributes !== undefined) out.removeAttributes = copyNames(e.removeAttributes);
  return out;
}

/** A deep copy of a canonical configuration. */
export function cloneConfig(c: CanonicalSanitizerConfig): CanonicalSanitizerConfig {
  const out: CanonicalSanitizerConfig = { ...c };
  for (const [key] of LISTS) {
    const list = c[key] as object[] | undefined;
    if (list === undefined) continue;
    // Names and processing instructions are flat; elements have attribute lists.
    (out as unknown as Record<string, unknown>)[key] = key === 'elements' ? c.elements!.map(copyElement) : list.map((x) => ({ ...x }));
  }
  return out;
}

function sortedNames(list: readonly SanitizerName[]): SanitizerName[] {
  return copyNames(list).sort(compareNames);
}

function sortedTargets(list: readonly CanonicalProcessingInstruction[]): CanonicalProcessingInstruction[] {
  return list.map((p) => ({ target: p.target })).sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
}

/**
 * The value `get()` returns: a deep copy with every list sorted as the draft's get() sorts it, and members
 * in the order Web IDL gives a dictionary converted to JavaScript (inherited members first, each dictionary's
 * own members in lexicographic order), so that `JSON.stringify` matches Chromium's.
 */
export function configForGet(c: CanonicalSanitizerConfig): SanitizerConfigResult {
  const out: SanitizerConfigResult = {};
  if (c.attributes !== undefined) out.attributes = sortedNames(c.attributes);
  out.comments = c.comments;
  if (c.dataAttributes !== undefined) out.dataAttributes = c.dataAttributes;
  if (c.elements !== undefined) {
    out.elements = c.elements
      .map((e) => {
        const r: CanonicalElement = { name: e.name, namespace: e.namespace };
        if (e.attributes !== undefined) r.attributes = sortedNames(e.attributes);
        if (e.removeAttributes !== undefined) r.removeAttributes = sortedNames(e.removeAttributes);
        return r;
      })
      .sort(compareNames);
  }
  if (c.processingInstructions !== undefined) out.processingInstructions = sortedTargets(c.processingInstructions);
  if (c.removeAttributes !== undefined) out.removeAttributes = sortedNames(c.removeAttributes);
  if (c.removeElements !== undefined) out.removeElements = sortedNames(c.removeElements);
  if (c.removeProcessingInstructions !== undefined) {
    out.removeProcessingInstructions = sortedTargets(c.removeProcessingInstructions);
  }
  if (c.replaceWithChildrenElements !== undefined) out.replaceWithChildrenElements = sortedNames(c.replaceWithChildrenElements);
  return out;
}

/** What `Sanitizer.get()` returns: a canonical configuration (all members optional, as in the dictionary). */
export type SanitizerConfigResult = Partial<CanonicalSanitizerConfig>;

// ---------------------------------------------------------------------------------------------
// Modifications shared by the methods and by "remove unsafe"

function sameNameSet(a: readonly SanitizerName[] | undefined, b: readonly SanitizerName[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  const inB = NameSet.of(b);
  for (const n of a) if (!inB.has(n.namespace, n.name)) return false;
  return true;
}

function difference(a: readonly SanitizerName[], b: readonly SanitizerName[]): SanitizerName[] {
  const inB = NameSet.of(b);
  return a.filter((n) => !inB.has(n.namespace, n.name));
}

function intersection(a: readonly SanitizerName[], b: readonly SanitizerName[]): SanitizerName[] {
  const inB = NameSet.of(b);
  return a.filter((n) => inB.has(n.namespace, n.name));
}

/** "remove an element" from a configuration. Returns whether the configuration changed. */
export function removeElementFromConfig(configuration: CanonicalSanitizerConfig, element: SanitizerName): boolean {
  // Step 3: it stops being replaced with its children.
  const modified = removeName(configuration.replaceWithChildrenElements, element);
  // Step 4: a global allow-list loses it (with its own attribute lists).
  if (configuration.elements !== undefined) {
    if (containsName(configuration.elements, element)) {
      removeName(configuration.elements, element);
      return true;
    }
    return modified;
  }
  // Step 5: a global remove-list gains it.
  const remove = (configuration.removeElements ??= []);
  if (containsName(remove, element)) return modified;
  addName(remove, element);
  return true;
}

/** "remove an attribute" from a configuration. Returns whether the configuration changed. */
export function removeAttributeFromConfig(configuration: CanonicalSanitizerConfig, attribute: SanitizerName): boolean {
  if (configuration.attributes !== undefined) {
    // Step 3: a global allow-list loses it, and so do the per-element lists.
    let modified = removeName(configuration.attributes, attribute);
    for (const element of configuration.elements ?? []) {
      if (element.attributes !== undefined && removeName(element.attributes, attribute)) modified = true;
      if (element.removeAttributes !== undefined) removeName(element.removeAttributes, attribute);
    }
    return modified;
  }
  // Step 4: a global remove-list gains it; per-element lists drop it.
  const remove = (configuration.removeAttributes ??= []);
  if (containsName(remove, attribute)) return false;
  for (const element of configuration.elements ?? []) {
    if (element.attributes !== undefined) removeName(element.attributes, attribute);
    if (element.removeAttributes !== undefined) removeName(element.removeAttributes, attribute);
  }
  remove.push(attribute);
  return true;
}

/**
 * "remove unsafe": removes the built-in safe baseline's elements and attributes and every event handler
 * content attribute from `configuration` (in place). Returns whether it changed.
 *
 * The draft removes one name at a time ("remove an element", "remove an attribute" for each of the ~170 names), each
 * pass walking every list of the configuration: for a configuration listing elements with their own attribute
 * lists that was O(names x elements x attributes), half a millisecond for the email policy's, on every call that
 * compiles a configuration. Here each list is filtered once against a set of the names, which gives the same lists,
 * in the same order, and the same result.
 */
export function removeUnsafeFromConfig(configuration: CanonicalSanitizerConfig): boolean {
  // The baseline's elements; its attributes (empty today), then the event handler content attributes.
  const [elements, attributes, attributeSet] = (unsafeNames ??= unsafeNameLookups());
  // Step 4, "remove an element" for each: it stops being replaced with its children, and a global allow-list loses
  // it, or a global remove-list gains it.
  let result = filterNames(configuration.replaceWithChildrenElements, elements);
  if (
    configuration.elements !== undefined
      ? filterNames(configuration.elements, elements)
      : addNames((configuration.removeElements ??= []), BASELINE_ELEMENTS_TO_REMOVE).length > 0
  ) {
    result = true;
  }
  // Steps 5-6, "remove an attribute" for each: a global allow-list loses them, and so do the per-element lists; a
  // global remove-list gains those it does not hold yet, and the per-element lists lose those (and only those).
  let gone: NameSet;
  if (configuration.attributes !== undefined) {
    gone = attributeSet;
    if (filterNames(configuration.attributes, gone)) result = true;
  } else {
    gone = NameSet.of(addNames((configuration.removeAttributes ??= []), attributes));
    if (gone.size > 0) result = true;
  }
  for (const element of configuration.elements ?? []) {
    // (With a remove-list, a per-element change implies an addition: the result is already true.)
    if (filterNames(element.attributes, gone)) result = true;
    filterNames(element.removeAttributes, gone);
  }
  return result;
}

let unsafeNames: [NameSet, SanitizerName[], NameSet] | undefined;

function unsafeNameLookups(): [NameSet, SanitizerName[], NameSet] {
  const attributes = [...BASELINE_ATTRIBUTES_TO_REMOVE, ...EVENT_HANDLER_ATTRIBUTES];
  return [NameSet.of(BASELINE_ELEMENTS_TO_REMOVE), attributes, NameSet.of(attributes)];
}

/** Removes from `list` (in place, order kept) every name in `names`; returns whether it removed any. */
function filterNames(list: SanitizerName[] | undefined, names: NameSet): boolean {
  if (list === undefined) return false;
  let w = 0;
  for (const n of list) if (!names.has(n.namespace, n.name)) list[w++] = n;
  if (w === list.length) return false;
  list.length = w;
  return true;
}

/**
 * Appends to `list` a copy of each of `names` it does not contain yet (the configuration may be changed later: it
 * must not share the built-in entries); returns the names appended.
 */
function addNames(list: SanitizerName[], names: readonly SanitizerName[]): SanitizerName[] {
  const held = NameSet.of(list);
  const added = names.filter((n) => held.add(n.namespace, n.name));
  for (const n of added) list.push({ ...n });
  return added;
}

// ---------------------------------------------------------------------------------------------
// The Sanitizer

export interface SanitizerState {
  config: CanonicalSanitizerConfig;
  /** Bumped on every modification; lets sanitize.ts cache a compiled form. */
  revision: number;
  /** sanitize.ts's slot: the compiled forms of `config` and the revision they were made from. */
  compiled: { revision: number; safe: CompiledConfig | null; unsafe: CompiledConfig | null } | null;
}

/**
 * The state of each Sanitizer. Being in this map is what makes an object a Sanitizer (Web IDL's "platform object
 * implementing Sanitizer"): an object that merely inherits from `Sanitizer.prototype` is not one, and is converted
 * as a dictionary.
 */
const states = new WeakMap<object, SanitizerState>();

/**
 * A configuration that `sanitizerHandleFromOptions` made, held without a Sanitizer, for one call. Not in `states`:
 * with a WeakMap entry per call, converting a ten-element dictionary took twice as long (11 µs against 5, a third
 * of it in the garbage collector against a fifteenth), and a handle never reaches the caller.
 * @internal
 */
class ConfigHandle {
  constructor(readonly state: SanitizerState) {}
}

/** A Sanitizer, or a handle standing for a configuration that `sanitizerHandleFromOptions` made: what `sanitizeWith` runs. */
export type SanitizerHandle = Sanitizer | object;

function stateOf(s: SanitizerHandle): SanitizerState {
  const st = s instanceof ConfigHandle ? s.state : states.get(s);
  if (st === undefined) throw new TypeError('Sanitizer: not a Sanitizer instance');
  return st;
}

/** The state of a Sanitizer or handle: its canonical configuration (live; do not mutate), revision and compiled slot. */
export function sanitizerState(s: SanitizerHandle): SanitizerState {
  return stateOf(s);
}

function newState(config: CanonicalSanitizerConfig): SanitizerState {
  return { config, revision: 0, compiled: null };
}

/**
 * The state for a preset (only "default": Web IDL rejects other enum values) or, by "set a configuration", for a
 * dictionary: canonicalized and checked for validity. Throws the TypeError the callers would throw for an unknown
 * preset or an invalid configuration.
 */
function configuredState(input: SanitizerConfig | SanitizerPreset | null | undefined | unknown, allowCommentsPIsAndDataAttributes: boolean): SanitizerState {
  if (typeof input === 'string') {
    if (input !== 'default') fail(`unknown preset ${JSON.stringify(input)}`);
    return newState(builtinSafeDefaultConfig());
  }
  const config = canonicalizeConfig(input, allowCommentsPIsAndDataAttributes);
  const problem = configValidityError(config);
  if (problem !== null) fail(`invalid configuration: ${problem}`);
  return newState(config);
}

export class Sanitizer {
  /**
   * `new Sanitizer()` and `new Sanitizer('default')` hold the built-in safe default configuration; a
   * `SanitizerConfig` is canonicalized (comments, PIs and data attributes default to allowed) and must be valid.
   */
  constructor(configuration: SanitizerConfig | SanitizerPreset | null = 'default') {
    // Step 1 (a preset), or steps 2-3: set a configuration with allowCommentsPIsAndDataAttributes = true.
    states.set(this, configuredState(configuration, true));
  }

  /** The configuration, as a canonical dictionary with sorted lists. */
  get(): SanitizerConfigResult {
    return configForGet(stateOf(this).config);
  }

  /** Allows an element (optionally with its own attribute lists). Returns whether the configuration changed. */
  allowElement(element: SanitizerElementWithAttributes): boolean {
    const st = stateOf(this);
    const configuration = st.config;
    // Step 3: canonicalize.
    const el = canonicalizeElementWithAttributes(element);
    let changed: boolean;
    if (configuration.elements !== undefined) {
      // Step 4.1: it stops being replaced with its children.
      const modified = removeName(configuration.replaceWithChildrenElements, el);
      if (configuration.attributes !== undefined) {
        // Step 4.3: with a global allow-list, local allows must not repeat it, local removes must be in it.
        if (el.attributes !== undefined) {
          el.attributes = difference(withoutDuplicates(el.attributes), configuration.attributes);
          if (configuration.dataAttributes === true) {
            el.attributes = el.attributes.filter((a) => !isDataAttributeName(a.namespace, a.name));
          }
        }
        if (el.removeAttributes !== undefined) {
          el.removeAttributes = intersection(withoutDuplicates(el.removeAttributes), configuration.attributes);
        }
      } else {
        // Step 4.4: with a global remove-list, local lists must not repeat it, and not both local lists.
        const globalRemove = configuration.removeAttributes ?? [];
        if (el.attributes !== undefined) {
          el.attributes = difference(withoutDuplicates(el.attributes), el.removeAttributes ?? []);
          delete el.removeAttributes;
          el.attributes = difference(el.attributes, globalRemove);
        }
        if (el.removeAttributes !== undefined) {
          el.removeAttributes = difference(withoutDuplicates(el.removeAttributes), globalRemove);
        }
      }
      const i = configuration.elements.findIndex((e) => e.name === el.name && e.namespace === el.namespace);
      if (i < 0) {
        // Step 4.5: a new entry in the allow-list.
        configuration.elements.push(el);
        changed = true;
      } else {
        // Steps 4.7-4.10: replace the entry unless it is equal.
        const current = configuration.elements[i]!;
        if (sameNameSet(current.attributes, el.attributes) && sameNameSet(current.removeAttributes, el.removeAttributes)) {
          changed = modified;
        } else {
          configuration.elements.splice(i, 1);
          configuration.elements.push(el);
          changed = true;
        }
      }
    } else {
      // Step 5.1: a global remove-list cannot express per-element attribute lists.
      if (el.attributes !== undefined || (el.removeAttributes !== undefined && el.removeAttributes.length > 0)) {
        return false;
      }
      // Steps 5.2-5.6: stop replacing it; take it off the remove-list.
      const modified = removeName(configuration.replaceWithChildrenElements, el);
      changed = removeName(configuration.removeElements, el) || modified;
    }
    if (changed) st.revision++;
    return changed;
  }

  /** Removes (drops) an element. Returns whether the configuration changed. */
  removeElement(element: SanitizerElement): boolean {
    const st = stateOf(this);
    const changed = removeElementFromConfig(st.config, canonicalizeElement(element));
    if (changed) st.revision++;
    return changed;
  }

  /** Replaces an element with its children. Returns whether the configuration changed. */
  replaceElementWithChildren(element: SanitizerElement): boolean {
    const st = stateOf(this);
    const configuration = st.config;
    const el = canonicalizeElement(element);
    // Steps 4-5: never html/svg/math, and nothing to do when already there.
    if (containsName(NON_REPLACEABLE_ELEMENTS, el)) return false;
    if (configuration.replaceWithChildrenElements !== undefined && containsName(configuration.replaceWithChildrenElements, el)) {
      return false;
    }
    // Steps 6-8: out of the other element lists, into this one.
    removeName(configuration.removeElements, el);
    removeName(configuration.elements, el);
    addName((configuration.replaceWithChildrenElements ??= []), el);
    st.revision++;
    return true;
  }

  /** Allows processing instructions with this target. Returns whether the configuration changed. */
  allowProcessingInstruction(pi: SanitizerProcessingInstruction): boolean {
    const st = stateOf(this);
    const configuration = st.config;
    const { target } = canonicalizeProcessingInstruction(pi);
    let changed: boolean;
    if (configuration.processingInstructions !== undefined) {
      // Step 4: add to the allow-list.
      changed = !configuration.processingInstructions.some((p) => p.target === target);
      if (changed) configuration.processingInstructions.push({ target });
    } else {
      // Step 5: take off the remove-list.
      const list = configuration.removeProcessingInstructions ?? [];
      const i = list.findIndex((p) => p.target === target);
      changed = i >= 0;
      if (changed) list.splice(i, 1);
    }
    if (changed) st.revision++;
    return changed;
  }

  /** Removes processing instructions with this target. Returns whether the configuration changed. */
  removeProcessingInstruction(pi: SanitizerProcessingInstruction): boolean {
    const st = stateOf(this);
    const configuration = st.config;
    const { target } = canonicalizeProcessingInstruction(pi);
    let changed: boolean;
    if (configuration.processingInstructions !== undefined) {
      // Step 4: take off the allow-list.
      const i = configuration.processingInstructions.findIndex((p) => p.target === target);
      changed = i >= 0;
      if (changed) configuration.processingInstructions.splice(i, 1);
    } else {
      // Step 5: add to the remove-list.
      const list = (configuration.removeProcessingInstructions ??= []);
      changed = !list.some((p) => p.target === target);
      if (changed) list.push({ target });
    }
    if (changed) st.revision++;
    return changed;
  }

  /** Allows an attribute on all elements. Returns whether the configuration changed. */
  allowAttribute(attribute: SanitizerAttribute): boolean {
    const st = stateOf(this);
    const configuration = st.config;
    const attr = canonicalizeAttribute(attribute);
    let changed: boolean;
    if (configuration.attributes !== undefined) {
      // Step 4: add to the global allow-list, unless data attributes already cover it or it is there.
      if (configuration.dataAttributes === true && isDataAttributeName(attr.namespace, attr.name)) return false;
      if (containsName(configuration.attributes, attr)) return false;
      // Step 4.5: per-element allow-lists must not repeat it.
      for (const element of configuration.elements ?? []) {
        if (element.attributes !== undefined) removeName(element.attributes, attr);
      }
      configuration.attributes.push(attr);
      changed = true;
    } else {
      // Step 5: take it off the global remove-list.
      changed = removeName(configuration.removeAttributes, attr);
    }
    if (changed) st.revision++;
    return changed;
  }

  /** Removes an attribute from all elements. Returns whether the configuration changed. */
  removeAttribute(attribute: SanitizerAttribute): boolean {
    const st = stateOf(this);
    const changed = removeAttributeFromConfig(st.config, canonicalizeAttribute(attribute));
    if (changed) st.revision++;
    return changed;
  }

  /** Keeps or drops comments. Returns whether the configuration changed. */
  setComments(allow: boolean): boolean {
    const st = stateOf(this);
    const value = Boolean(allow);
    if (st.config.comments === value) return false;
    st.config.comments = value;
    st.revision++;
    return true;
  }

  /**
   * Keeps or drops custom data attributes (only meaningful with an attributes allow-list; returns false
   * otherwise). Returns whether the configuration changed.
   */
  setDataAttributes(allow: boolean): boolean {
    const st = stateOf(this);
    const configuration = st.config;
    const value = Boolean(allow);
    // Steps 3-4.
    if (configuration.attributes === undefined) return false;
    if (configuration.dataAttributes === value) return false;
    // Step 5: allowing all data attributes makes listing them redundant.
    if (value) {
      const notData = (a: SanitizerName): boolean => !isDataAttributeName(a.namespace, a.name);
      configuration.attributes = configuration.attributes.filter(notData);
      for (const element of configuration.elements ?? []) {
        if (element.attributes !== undefined) element.attributes = element.attributes.filter(notData);
      }
    }
    configuration.dataAttributes = value;
    st.revision++;
    return true;
  }

  /** Removes script-executing markup from the configuration. Returns whether the configuration changed. */
  removeUnsafe(): boolean {
    const st = stateOf(this);
    const changed = removeUnsafeFromConfig(st.config);
    if (changed) st.revision++;
    return changed;
  }
}

/** The options of setHTML-like methods. */
export interface SetHTMLOptions {
  sanitizer?: Sanitizer | SanitizerConfig | SanitizerPreset;
}

/**
 * "get a sanitizer instance from options": a Sanitizer as given, the built-in safe default for "default", or
 * a new Sanitizer from a dictionary (comments, PIs and data attributes default to allowed only when `safe` is
 * false). The default is "default" for the safe methods and `{}` for the unsafe ones. Throws a TypeError for an
 * invalid dictionary.
 */
export function getSanitizerInstanceFromOptions(options: SetHTMLOptions | undefined, safe: boolean): Sanitizer {
  const spec = sanitizerOption(options, safe);
  if (isSanitizer(spec)) return spec;
  if (typeof spec === 'string') return new Sanitizer(spec as SanitizerPreset);
  // A new Sanitizer whose dictionary defaults follow the flavour (the constructor always uses true).
  const sanitizer = Object.create(Sanitizer.prototype) as Sanitizer;
  states.set(sanitizer, configuredState(spec, !safe));
  return sanitizer;
}

/**
 * The options' sanitizer member, defaulted. Only a missing member takes the default ("default" for the safe
 * methods, `{}` for the unsafe ones): Web IDL converts null to the union's dictionary (an empty configuration),
 * as Chromium 156 does (`setHTML(html, { sanitizer: null })` keeps custom elements).
 */
function sanitizerOption(options: SetHTMLOptions | undefined, safe: boolean): unknown {
  const given: unknown = options?.sanitizer;
  return given === undefined ? (safe ? 'default' : {}) : given === null ? {} : given;
}

function isSanitizer(spec: unknown): spec is Sanitizer {
  return typeof spec === 'object' && spec !== null && states.has(spec);
}

/**
 * "get a sanitizer instance from options" for callers that only sanitize with the result (`sanitize()` and the
 * tree functions): the same configuration, defaults and TypeErrors as `getSanitizerInstanceFromOptions`, but a
 * configuration made from a preset or a dictionary is held by a bare handle rather than a new Sanitizer. It does
 * not reference the `Sanitizer` class, so a bundle that never constructs a Sanitizer does not carry it.
 */
export function sanitizerHandleFromOptions(options: SetHTMLOptions | undefined, safe: boolean): SanitizerHandle {
  const spec = sanitizerOption(options, safe);
  if (isSanitizer(spec)) return spec;
  // (A preset's state is the one `new Sanitizer(spec)` gets.)
  return new ConfigHandle(configuredState(spec, !safe));
}
