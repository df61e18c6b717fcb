/**
 * Reparse safety's constants: the kinds of child list and the flags its frames carry. A module of constants only
 * (no imports), so that a minifying bundler (esbuild) inlines them as numbers.
 */
/** Deepest element nesting that browsers build as written (see the depth check in `enforceReparseSafety`). */
export const MAX_FRAGMENT_DEPTH = 512;
export const MAX_DOCUMENT_DEPTH = MAX_FRAGMENT_DEPTH + 1;

// Insertion-mode-like kinds of child list.
export const BODY = 0; // "in body" (also caption/cell contents, select contents, integration points)
export const TABLE = 1; // children of table
export const TABLE_BODY = 2; // children of tbody/thead/tfoot
export const ROW = 3; // children of tr
export const COLUMN_GROUP = 4; // children of colgroup
export const RAW_TEXT = 5; // text only; `endTagName` must not be closed by the text ('' = none can be)
export const FOREIGN = 6; // children of an SVG or MathML element that is not an integration point
export const DOCUMENT = 7; // children of the Document
export const HTML_ELEMENT = 8; // children of the html element
export const HEAD = 9; // children of head
export const DROP_ALL = 10; // nothing may stay (e.g. a frameset context)

// Flags describing the stack of open elements as seen by a child's start tag.
export const P_IN_BUTTON_SCOPE = 1;
export const NOBR_IN_SCOPE = 2;
export const BUTTON_IN_SCOPE = 4;
export const SELECT_IN_SCOPE = 8;
export const RUBY_IN_SCOPE = 16;
export const LI_REACHABLE = 32; // the "li" start tag loop would reach an li
export const DD_DT_REACHABLE = 64; // the "dd"/"dt" start tag loop would reach a dd or dt
export const A_IN_FORMATTING_LIST = 128; // an `a` after the last marker of the active formatting elements
export const FORM_POINTER = 256; // the form element pointer is set and no template is open
export const TEMPLATE_OPEN = 512;
export const SELECT_CONTEXT = 1024; // fragment case with a select context element
// An HTML select is an ancestor (or the context element). Template contents do not reset it: our tree builder
// refills a selectedcontent inside a template inside a select too, so dropping it there is the safe choice.
export const SELECT_ANCESTOR = 2048;
/** Flags that hold for every descendant, whatever the insertion mode (the DOM ancestry, not the stack's scopes). */
export const INHERITED = FORM_POINTER | TEMPLATE_OPEN | SELECT_ANCESTOR | SELECT_CONTEXT;
export const SCOPE_FLAGS = P_IN_BUTTON_SCOPE | NOBR_IN_SCOPE | BUTTON_IN_SCOPE | SELECT_IN_SCOPE | RUBY_IN_SCOPE;
