/**
 * Canonical names and the small set/map over them that the Sanitizer API's algorithms use.
 *
 * A canonical element or attribute name is `{ name, namespace }` (Sanitizer API, "canonicalize a sanitizer
 * name"); list membership compares both members ("contains"). `NameMap` answers that question in O(1)
 * without building a string key per lookup: namespace → local name → value.
 */

export interface SanitizerName {
  name: string;
  namespace: string | null;
}

/**
 * Map from a canonical (namespace, name) pair to a value.
 * @internal
 */
export class NameMap<V> {
  private readonly byNamespace = new Map<string | null, Map<string, V>>();
  private count = 0;
  // The last namespace looked up and its map: lookups come in runs of one namespace (HTML elements,
  // no-namespace attributes), which then cost one hash lookup instead of two.
  private lastNamespace: string | null | undefined = undefined;
  private lastMap: Map<string, V> | undefined = undefined;

  get size(): number {
    return this.count;
  }

  private mapFor(namespace: string | null): Map<string, V> | undefined {
    if (namespace === this.lastNamespace) return this.lastMap;
    this.lastNamespace = namespace;
    return (this.lastMap = this.byNamespace.get(namespace));
  }

  get(namespace: string | null, name: string): V | undefined {
    const m = this.mapFor(namespace);
    return m === undefined ? undefined : m.get(name);
  }

  has(namespace: string | null, name: string): boolean {
    const m = this.mapFor(namespace);
    return m !== undefined && m.has(name);
  }

  /** Sets the value; returns false when the pair was already present (the value is replaced). */
  set(namespace: string | null, name: string, value: V): boolean {
    let m = this.mapFor(namespace);
    if (m === undefined) this.byNamespace.set(namespace, (m = this.lastMap = new Map()));
    const fresh = !m.has(name);
    m.set(name, value);
    if (fresh) this.count++;
    return fresh;
  }
}

/**
 * A set of canonical names.
 * @internal
 */
export class NameSet extends NameMap<true> {
  /** Adds the name; returns false when it was already present. */
  add(namespace: string | null, name: string): boolean {
    return this.set(namespace, name, true);
  }

  static of(list: readonly SanitizerName[]): NameSet {
    const s = new NameSet();
    for (const n of list) s.add(n.namespace, n.name);
    return s;
  }
}

/** Sanitizer API "contains": some entry has the same name and namespace. */
export function containsName(list: readonly SanitizerName[], item: SanitizerName): boolean {
  for (const e of list) if (e.name === item.name && e.namespace === item.namespace) return true;
  return false;
}

/** Sanitizer API "remove" (an item from a list, in place): returns whether something was removed. */
export function removeName(list: SanitizerName[] | undefined, item: SanitizerName): boolean {
  if (list === undefined) return false;
  let w = 0;
  for (let r = 0; r < list.length; r++) {
    const e = list[r]!;
    if (e.name !== item.name || e.namespace !== item.namespace) list[w++] = e;
  }
  if (w === list.length) return false;
  list.length = w;
  return true;
}

/** Sanitizer API "add": appends unless already contained. */
export function addName(list: SanitizerName[], item: SanitizerName): void {
  if (!containsName(list, item)) list.push(item);
}

/** Sanitizer API "remove duplicates": a new list keeping the first of each name. */
export function withoutDuplicates<T extends SanitizerName>(list: readonly T[]): T[] {
  const seen = new NameSet();
  const out: T[] = [];
  for (const e of list) if (seen.add(e.namespace, e.name)) out.push(e);
  return out;
}

/** The first entry of `list` that occurs more than once, or null ("has duplicates"). */
export function firstDuplicate(list: readonly SanitizerName[]): SanitizerName | null {
  const seen = new NameSet();
  for (const e of list) if (!seen.add(e.namespace, e.name)) return e;
  return null;
}

/** The first entry of `a` that `b` contains, or null (a non-empty "intersection"). */
export function firstCommon(a: readonly SanitizerName[], b: readonly SanitizerName[]): SanitizerName | null {
  if (a.length === 0 || b.length === 0) return null;
  const inB = NameSet.of(b);
  for (const e of a) if (inB.has(e.namespace, e.name)) return e;
  return null;
}

/** Sanitizer API "less than item": null namespace first, then namespace, then name, by code units. */
export function compareNames(a: SanitizerName, b: SanitizerName): number {
  if (a.namespace !== b.namespace) {
    if (a.namespace === null) return -1;
    if (b.namespace === null) return 1;
    return a.namespace < b.namespace ? -1 : 1;
  }
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * A custom data attribute as the sanitizer tests it: no namespace and a local name starting with `data-`
 * (the prefix test of "sanitize core"; Chromium applies the same test in the configuration rules).
 */
export function isDataAttributeName(namespace: string | null, localName: string): boolean {
  return namespace === null && localName.startsWith('data-');
}

/** Readable form of a name for error messages: `name` or `{namespace}name`. */
export function describeName(n: SanitizerName): string {
  return n.namespace === null ? JSON.stringify(n.name) : JSON.stringify(`{${n.namespace}}${n.name}`);
}
