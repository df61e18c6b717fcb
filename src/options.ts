/**
 * The check of the option bags the public functions take, as Web IDL converts a dictionary argument: `undefined`
 * and `null` are no options, an object is read, anything else is a TypeError. Then every option of `TYPES` that is
 * present (not `undefined`) must be of its type, else a TypeError names the function and the option. One table for
 * every function (an option has the same type wherever it is taken; a function ignores the ones it does not take).
 */
const TYPES: Readonly<Record<string, string>> = {
  scripting: 'boolean',
  onError: 'function',
  transportEncoding: 'string',
  safe: 'boolean',
  onReport: 'function',
  reparseSafe: 'boolean',
  hardenUrls: 'boolean',
  roundTrip: 'boolean',
};

export function checkOptions(options: unknown, fn: string): void {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' && typeof options !== 'function') throw new TypeError(fn + ': options must be an object');
  for (const key in TYPES) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== TYPES[key]) throw new TypeError(fn + ': options.' + key + ' must be a ' + TYPES[key]);
  }
}
