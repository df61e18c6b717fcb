/**
 * What "sanitize core" does with one child (see sanitize.ts): keeps it, drops it, or replaces it with its children.
 *
 * Constants alone, in a module that imports nothing, so that bundles write them in place (see scripts/build.ts).
 */

export const KEEP = 0;
export const DROP = 1;
export const REPLACE = 2;
