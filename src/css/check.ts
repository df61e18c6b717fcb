/**
 * The CSS toolkit's checks of what its public functions are given: a wrong argument, option or callback result is a
 * TypeError naming the function and what was wrong, before any work (the internal callers give valid ones; each
 * check is a `typeof` or two).
 */

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** CSS text: a string. */
export function checkText(value: unknown, fn: string, what = 'the CSS text'): void {
  if (typeof value !== 'string') throw new TypeError(`${fn}: ${what} must be a string, got ${kind(value)}`);
}

/** A list of tokens, component values, declarations or rules: an array. */
export function checkList(value: unknown, fn: string, what: string): void {
  if (!Array.isArray(value)) throw new TypeError(`${fn}: ${what} must be an array, got ${kind(value)}`);
}

/** An options object (not null, not a primitive). */
export function checkObject(value: unknown, fn: string, what: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${fn}: ${what} must be an object, got ${kind(value)}`);
  }
}

/** An option that may be left out, else of this type. */
export function checkOptional(value: unknown, type: 'function' | 'boolean' | 'string', fn: string, what: string): void {
  if (value !== undefined && typeof value !== type) throw new TypeError(`${fn}: ${what} must be a ${type}, got ${kind(value)}`);
}

/** The declaration filter's options: `allow` a function, `rewriteUrl` a function or left out, `allowImportant` a boolean. */
export function checkDeclarationOptions(options: unknown, fn: string, what = 'options'): void {
  checkObject(options, fn, what);
  const o = options as Record<string, unknown>;
  if (typeof o.allow !== 'function') throw new TypeError(`${fn}: ${what}.allow must be a function, got ${kind(o.allow)}`);
  checkOptional(o.rewriteUrl, 'function', fn, what + '.rewriteUrl');
  checkOptional(o.allowImportant, 'boolean', fn, what + '.allowImportant');
}
