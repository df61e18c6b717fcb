/**
 * The HTML fragment serializer's constants (see serializer.ts).
 *
 * Constants alone, in a module that imports nothing, so that bundles write them in place (see scripts/build.ts).
 */

/**
 * What an HTML element of a name is, for the serializer: serializes as void; a parent whose Text children are
 * serialized literally (§13.3, "If current node is a Text node"); noscript (one with scripting on); pre, textarea and
 * listing (round-trip mode's leading line feed). Other names: none of these (0).
 */
export const VOID = 1;
export const RAW = 2;
export const NOSCRIPT = 3;
export const LEADING_LF = 4;

/**
 * Characters of an escaped string after which the rope built so far is flattened (see serializer.ts's module
 * comment).
 */
export const CHUNK_CHARS = 16384;
/** Pieces of output per joined chunk (see serializer.ts's module comment). */
export const PARTS = 1024;
/** escapeString's modes: attribute mode, and round-trip mode's U+000D as `&#13;` (a literal CR would come back as LF). */
export const ESCAPE_ATTRIBUTE = 1;
export const ESCAPE_CR = 2;
