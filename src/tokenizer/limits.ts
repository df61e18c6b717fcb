/**
 * The tokenizer's limits and sizes (see tokenizer.ts and interned-names.ts).
 *
 * Constants alone, in a module that imports nothing, so that bundles write them in place (see scripts/build.ts).
 */

/** The name cache of interned-names.ts: 2^9 slots. */
export const MASK = 511;
/**
 * Longest name interned-names.ts keeps: longer ones are sliced every time. V8 copies a substring shorter than 13 code
 * units, and makes a longer one a view of the string it was cut from: that table, which outlives the parse, would keep
 * the whole input alive through one kept name. (Names of 13 to 24 characters were 69 of 57,537 in the corpus.) It is
 * also all that the three words a name is packed into hold (see lookupPackedName): it cannot be raised alone.
 */
export const MAX_LENGTH = 12;

/** Parts of a pending text or attribute value joined at a time (see the tokenizer's `pushPart`). */
export const PARTS_JOIN = 1024;
/**
 * Tags with up to this many attributes look for a duplicate name by comparing with each (see the tokenizer's
 * `startAttribute`).
 */
export const SHORT_TAG = 12;
/** Text runs up to this long are scanned character by character in the data state; longer ones with indexOf. */
export const SHORT_RUN = 24;
