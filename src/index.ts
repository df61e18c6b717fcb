/**
 * htmlsift: an isomorphic HTML sanitizer and rewriter on its own WHATWG-conformant parser.
 *
 * This entry point exports the parser (`parseDocument`, `parseFragment`), the serializer (`serialize`,
 * `serializeOuter`), encoding sniffing for byte input, and the DOM-named tree they work on.
 */
export {
  parseDocument,
  parseFragment,
  type ParseOptions,
  type DocumentParseOptions,
  type FragmentParseOptions,
  type FragmentContext,
} from './parser.js';
export { serialize, serializeOuter, type SerializeOptions } from './serializer.js';
export { decodeHTMLBytes, sniffEncoding } from './encoding/encoding-sniffing.js';
export type { ParseError, ParseErrorHandler } from './errors.js';
export * from './dom.js';
