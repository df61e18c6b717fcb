/**
 * What "sanitize core" does with one child (see sanitize.ts): keeps it, drops it, or replaces it with its children.
 *
 * Constants only, in a module that imports nothing: a bundler writes a module's top-level constants in place as
 * numbers only where they open a module with no imports (esbuild; see scripts/build.ts), and V8 loads and checks
 * a constant left as a module variable at every use.
 */

export const KEEP = 0;
export const DROP = 1;
export const REPLACE = 2;
