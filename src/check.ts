/**
 * Argument checks of the public toolkits (`css`, `url`): a wrong argument, option or callback result is a TypeError
 * naming the function and what was wrong, before any work (the internal callers give valid ones; each check is a
 * `typeof` or two).
 */

/** How a wrong value is named in a message. */
export function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** A string. */
export function checkString(value: unknown, fn: string, what: string): void {
  if (typeof value !== 'string') throw new TypeError(`${fn}: ${what} must be a string, got ${kind(value)}`);
}

/** An array. */
export function checkList(value: unknown, fn: string, what: string): void {
  if (!Array.isArray(value)) throw new TypeError(`${fn}: ${what} must be an array, got ${kind(value)}`);
}

/** An options object (not null, not an array, not a primitive). */
export function checkObject(value: unknown, fn: string, what: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${fn}: ${what} must be an object, got ${kind(value)}`);
  }
}

/** An option that may be left out, else of this type. */
export function checkOptional(value: unknown, type: 'function' | 'boolean' | 'string', fn: string, what: string): void {
  if (value !== undefined && typeof value !== type) throw new TypeError(`${fn}: ${what} must be a ${type}, got ${kind(value)}`);
}
