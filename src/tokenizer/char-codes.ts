/**
 * The character codes the tokenizer compares with, in a module of constants only (no imports), so that a minifying
 * bundler (esbuild) inlines them as numbers.
 */
export const NUL = 0x00;
export const TAB = 0x09;
export const LF = 0x0a;
export const FF = 0x0c;
export const CR = 0x0d;
export const SPACE = 0x20;
export const BANG = 0x21;
export const DQUOTE = 0x22;
export const NUMBER_SIGN = 0x23;
export const AMPERSAND = 0x26;
export const APOSTROPHE = 0x27;
export const HYPHEN = 0x2d;
export const SOLIDUS = 0x2f;
export const SEMICOLON = 0x3b;
export const LT = 0x3c;
export const EQUALS = 0x3d;
export const GT = 0x3e;
export const QUESTION = 0x3f;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const UNDERSCORE = 0x5f;
export const GRAVE = 0x60;
