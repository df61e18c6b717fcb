/**
 * The tree builder's insertion modes (13.2.4.1) and token kinds. A module of constants only (no imports), so that a
 * minifying bundler (esbuild) inlines them as numbers; `tree-builder.ts` re-exports the insertion modes.
 */
// Insertion modes (13.2.4.1).
export const INITIAL = 0;
export const BEFORE_HTML = 1;
export const BEFORE_HEAD = 2;
export const IN_HEAD = 3;
export const IN_HEAD_NOSCRIPT = 4;
export const AFTER_HEAD = 5;
export const IN_BODY = 6;
export const TEXT_MODE = 7;
export const IN_TABLE = 8;
export const IN_TABLE_TEXT = 9;
export const IN_CAPTION = 10;
export const IN_COLUMN_GROUP = 11;
export const IN_TABLE_BODY = 12;
export const IN_ROW = 13;
export const IN_CELL = 14;
export const IN_TEMPLATE = 15;
export const AFTER_BODY = 16;
export const IN_FRAMESET = 17;
export const AFTER_FRAMESET = 18;
export const AFTER_AFTER_BODY = 19;
export const AFTER_AFTER_FRAMESET = 20;

// Token kinds.
export const START_TAG = 0;
export const END_TAG = 1;
export const CHARACTERS = 2;
export const NULL_CHARACTER = 3;
export const COMMENT = 4;
export const PROCESSING_INSTRUCTION = 5;
export const DOCTYPE = 6;
export const EOF = 7;
