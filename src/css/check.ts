/** The CSS toolkit's argument checks (see src/check.ts): CSS text, and the declaration filter's options. */
import { checkObject, checkOptional, checkString, kind } from '../check.js';

export { checkList, checkObject, checkOptional } from '../check.js';

/** CSS text: a string. */
export function checkText(value: unknown, fn: string, what = 'the CSS text'): void {
  checkString(value, fn, what);
}

/** The declaration filter's options: `allow` a function, `rewriteUrl` a function or left out, `allowImportant` a boolean. */
export function checkDeclarationOptions(options: unknown, fn: string, what = 'options'): void {
  checkObject(options, fn, what);
  const o = options as Record<string, unknown>;
  if (typeof o.allow !== 'function') throw new TypeError(`${fn}: ${what}.allow must be a function, got ${kind(o.allow)}`);
  checkOptional(o.rewriteUrl, 'function', fn, what + '.rewriteUrl');
  checkOptional(o.allowImportant, 'boolean', fn, what + '.allowImportant');
}
