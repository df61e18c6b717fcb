/**
 * The layout of the stack of open elements' per-position records (see stack-of-open-elements.ts).
 *
 * Constants alone, in a module that imports nothing, so that bundles write them in place (see scripts/build.ts).
 */

/** The fields of a position's record in `records`. */
export const PREV_SAME = 0;
export const SPECIAL_BOUND = 1;
export const SCOPE_BOUND = 2;
export const LIST_BOUND = 3;
export const BUTTON_BOUND = 4;
export const TABLE_BOUND = 5;
export const ID = 6;
/** Records start at position × 8 (field 7 is unused padding: a record is 32 bytes). */
export const RECORD = 8;
