/**
 * The check of the option bags the public functions take, as Web IDL converts a dictionary argument: `undefined`
 * and `null` are no options, an object is read, anything else is a TypeError. Then every option of `TYPES` that is
 * present (not `undefined`) must be of its type, else a TypeError names the function and the option. One table for
 * every function (an option has the same type wherever it is taken; a function ignores the ones it does not take).
 */
const TYPES: Readonly<Record<string, unknown>> = {
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
  // The options given, not every option there is: most calls give none, one or two.
  for (const key in options) {
    const type = TYPES[key];
    const value = (options as Record<string, unknown>)[key];
    // (A string: a key inherited from Object.prototype, `toString`, finds a function here.)
    if (typeof type === 'string' && value !== undefined && typeof value !== type) throw new TypeError(fn + ': options.' + key + ' must be a ' + type);
  }
}
