/**
 * `extendPolicy(base, changes)`: a new policy from a base one (e.g. a built-in policy) and a set of changes.
 *
 * Semantics, field by field:
 *  - scalars, functions (`urls.rewrite`, hooks) and `sanitizer` are replaced;
 *  - objects (`urls`, `style`, `classes`, `ids`, `hooks`, an element or attribute rule, a value rule) are merged
 *    field by field; `style`/`classes`/`ids` may be replaced by `false` (and an object replaces a `false`);
 *  - maps by name (`elements`, `attributes`, an element's `attributes` and `force`, `urls.kinds`) are merged
 *    entry by entry;
 *  - lists (`urls.schemes`, `urls.dataMimeTypes`, the same in `urls.kinds[kind]`, `style.properties`,
 *    `classes.allow`, `classes.prefixes`, `value.oneOf`) are replaced by an array, or edited with
 *    `{ remove: [...], add: [...] }` (removals first; no duplicates are added). An edit applies to the base's
 *    list, or when the base has none, to the default the engine would use (`DEFAULT_URL_SCHEMES`,
 *    `DEFAULT_DATA_MIME_TYPES`, `DEFAULT_STYLE_PROPERTIES`; for a URL kind, the top-level list);
 *  - `null` removes a field or an entry (back to the default);
 *  - setting an action replaces the previous one: on an element rule `drop`, `unwrap` and `rename` exclude one
 *    another (and `drop`/`unwrap` clear `attributes` and `force`); on an attribute rule `drop` clears the other
 *    fields, `rename` and `toStyle` clear each other and `drop`.
 * Neither argument is modified; the result shares nothing mutable with them. The result is validated (a
 * TypeError names the first problem, as `compilePolicy` does).
 */
import { DEFAULT_DATA_MIME_TYPES } from '../url/url-policy.js';
import { DEFAULT_STYLE_PROPERTIES, DEFAULT_URL_SCHEMES, compilePolicy, isCompiledPolicy, type CompiledPolicy } from './compile.js';
import type { IdRules, Policy, PolicyHooks, StyleTransformProperty, UrlKind, UrlRules, ValueRule } from './types.js';
import type { SanitizerSpec } from '../sanitizer-api/sanitize.js';

/** A list: replaced by an array, or edited. */
export type ListChange = string[] | { add?: string[]; remove?: string[] };

export interface ValueRuleChanges {
  oneOf?: ListChange | null;
  pattern?: string | null;
  maxLength?: number | null;
  ignoreCase?: boolean | null;
}

export interface AttributeRuleChanges {
  drop?: boolean | null;
  rename?: string | null;
  toStyle?: StyleTransformProperty | null;
  value?: ValueRuleChanges | ValueRule | null;
  url?: 'url' | 'srcset' | 'list' | null;
}

export interface ElementRuleChanges {
  drop?: boolean | null;
  unwrap?: boolean | null;
  rename?: string | null;
  attributes?: Record<string, AttributeRuleChanges | null>;
  force?: Record<string, string | null>;
}

export interface UrlKindRulesChanges {
  schemes?: ListChange | null;
  relative?: 'keep' | 'drop' | 'resolve' | null;
  dataMimeTypes?: ListChange | null;
}

export interface UrlRulesChanges extends UrlKindRulesChanges {
  base?: string | null;
  kinds?: Partial<Record<UrlKind, UrlKindRulesChanges | null>>;
  rewrite?: UrlRules['rewrite'] | null;
}

export interface PolicyChanges {
  sanitizer?: SanitizerSpec | null;
  comments?: boolean | null;
  processingInstructions?: boolean | null;
  elements?: Record<string, ElementRuleChanges | null>;
  attributes?: Record<string, AttributeRuleChanges | null>;
  urls?: UrlRulesChanges | null;
  style?: { properties?: ListChange | null; allowImportant?: boolean | null } | false | null;
  classes?: { allow?: ListChange | null; prefixes?: ListChange | null } | false | null;
  ids?: Partial<IdRules> | false | null;
  hooks?: { [K in keyof PolicyHooks]?: PolicyHooks[K] | null } | null;
  maxDepth?: number | null;
}

type Obj = Record<string, unknown>;
type Schema =
  | { kind: 'replace' }
  | { kind: 'list'; def: (parents: readonly Obj[]) => readonly string[] }
  | { kind: 'map'; entry: Schema }
  | { kind: 'object'; fields: Record<string, Schema>; orFalse?: boolean; clears?: Record<string, readonly string[]> };

const REPLACE: Schema = { kind: 'replace' };
const list = (def: (parents: readonly Obj[]) => readonly string[] = () => []): Schema => ({ kind: 'list', def });

const VALUE: Schema = { kind: 'object', fields: { oneOf: list(), pattern: REPLACE, maxLength: REPLACE, ignoreCase: REPLACE } };
const ATTRIBUTE: Schema = {
  kind: 'object',
  fields: { drop: REPLACE, rename: REPLACE, toStyle: REPLACE, value: VALUE, url: REPLACE },
  clears: { drop: ['rename', 'toStyle', 'value', 'url'], rename: ['drop', 'toStyle'], toStyle: ['drop', 'rename'] },
};
const ELEMENT: Schema = {
  kind: 'object',
  fields: { drop: REPLACE, unwrap: REPLACE, rename: REPLACE, attributes: { kind: 'map', entry: ATTRIBUTE }, force: { kind: 'map', entry: REPLACE } },
  clears: { drop: ['unwrap', 'rename', 'attributes', 'force'], unwrap: ['drop', 'rename', 'attributes', 'force'], rename: ['drop', 'unwrap'] },
};
// parents: [policy, urls, kinds, kind entry]
const topSchemes = (parents: readonly Obj[]): readonly string[] => (parents[1]?.schemes as string[] | undefined) ?? DEFAULT_URL_SCHEMES;
const topMime = (parents: readonly Obj[]): readonly string[] => (parents[1]?.dataMimeTypes as string[] | undefined) ?? DEFAULT_DATA_MIME_TYPES;
const URLS: Schema = {
  kind: 'object',
  fields: {
    schemes: list(() => DEFAULT_URL_SCHEMES),
    relative: REPLACE,
    base: REPLACE,
    dataMimeTypes: list(() => DEFAULT_DATA_MIME_TYPES),
    rewrite: REPLACE,
    kinds: { kind: 'map', entry: { kind: 'object', fields: { schemes: list(topSchemes), relative: REPLACE, dataMimeTypes: list(topMime) } } },
  },
};
const POLICY: Schema = {
  kind: 'object',
  fields: {
    sanitizer: REPLACE,
    comments: REPLACE,
    processingInstructions: REPLACE,
    elements: { kind: 'map', entry: ELEMENT },
    attributes: { kind: 'map', entry: ATTRIBUTE },
    urls: URLS,
    style: { kind: 'object', orFalse: true, fields: { properties: list(() => DEFAULT_STYLE_PROPERTIES), allowImportant: REPLACE } },
    classes: { kind: 'object', orFalse: true, fields: { allow: list(), prefixes: list() } },
    ids: { kind: 'object', orFalse: true, fields: { prefix: REPLACE, name: REPLACE, references: REPLACE } },
    hooks: { kind: 'object', fields: { onElement: REPLACE, onAttribute: REPLACE } },
    maxDepth: REPLACE,
  },
};

function isPlainObject(v: unknown): v is Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A copy of plain objects and arrays (functions, Sanitizer instances and the like are shared). */
function copy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copy);
  if (isPlainObject(v)) {
    const out: Obj = {};
    for (const k of Object.keys(v)) out[k] = copy(v[k]);
    return out;
  }
  return v;
}

function fail(path: string, message: string): never {
  throw new TypeError(`${path}: ${message}`);
}

function strings(v: unknown, path: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) fail(path, 'expected an array of strings');
  return v as string[];
}

function mergeList(base: unknown, change: unknown, path: string, def: readonly string[]): unknown {
  if (Array.isArray(change)) return strings(change, path).slice();
  if (!isPlainObject(change)) fail(path, 'expected an array or { add, remove }');
  for (const k of Object.keys(change)) if (k !== 'add' && k !== 'remove') fail(`${path}.${k}`, 'unknown field (expected add or remove)');
  const from = Array.isArray(base) ? (base as string[]) : def;
  const remove = new Set(change.remove === undefined ? [] : strings(change.remove, `${path}.remove`));
  const out = from.filter((x) => !remove.has(x));
  for (const x of change.add === undefined ? [] : strings(change.add, `${path}.add`)) if (!out.includes(x)) out.push(x);
  return out;
}

function merge(base: unknown, change: unknown, schema: Schema, path: string, parents: Obj[]): unknown {
  switch (schema.kind) {
    case 'replace':
      return copy(change);
    case 'list':
      return mergeList(base, change, path, schema.def(parents));
    case 'map': {
      if (!isPlainObject(change)) fail(path, 'expected an object');
      const out: Obj = isPlainObject(base) ? (copy(base) as Obj) : {};
      for (const k of Object.keys(change)) {
        const c = change[k];
        const p = `${path}[${JSON.stringify(k)}]`;
        if (c === undefined) continue;
        if (c === null) delete out[k];
        else out[k] = merge(out[k], c, schema.entry, p, parents);
      }
      return out;
    }
    case 'object': {
      if (change === false && schema.orFalse) return false;
      if (!isPlainObject(change)) fail(path, schema.orFalse ? 'expected an object or false' : 'expected an object');
      const out: Obj = isPlainObject(base) ? (copy(base) as Obj) : {};
      parents.push(out);
      for (const k of Object.keys(change)) {
        const c = change[k];
        if (c === undefined) continue;
        const fieldSchema = schema.fields[k];
        if (fieldSchema === undefined) fail(`${path}.${k}`, 'unknown field');
        if (c === null) {
          delete out[k];
          continue;
        }
        const cleared = schema.clears?.[k];
        if (cleared !== undefined && c !== false) for (const x of cleared) if (change[x] === undefined) delete out[x];
        out[k] = merge(out[k], c, fieldSchema, `${path}.${k}`, parents);
      }
      parents.pop();
      return out;
    }
  }
}

/** A new policy: `base` (a policy or a compiled one) with `changes` applied (see the module comment). */
export function extendPolicy(base: Policy | CompiledPolicy, changes: PolicyChanges): Policy {
  const from = isCompiledPolicy(base) ? base.source : base;
  compilePolicy(from); // the base must be valid itself
  if (!isPlainObject(changes)) fail('changes', 'expected an object');
  const out = merge(from, changes, POLICY, 'changes', []) as Policy;
  compilePolicy(out);
  return out;
}
