/**
 * htmlsift: an isomorphic HTML sanitizer and rewriter on its own WHATWG-conformant parser.
 *
 * This entry point exports the sanitizer (`sanitize`, `sanitizeFragment`, `sanitizeDocument`, the Sanitizer
 * API's `Sanitizer`), the parser (`parseDocument`, `parseFragment`), the serializer (`serialize`,
 * `serializeOuter`), encoding sniffing for byte input, and the DOM-named tree they work on. The CSS and URL
 * toolkits the policies use are exported as the `css` and `url` namespaces.
 */
export {
  sanitize,
  sanitizeFragment,
  sanitizeDocument,
  type SanitizeOptions,
  type TreeSanitizeOptions,
  type SanitizeReportEntry,
} from './sanitize.js';
export {
  Sanitizer,
  setHTMLLike,
  parseHTMLLike,
  type SanitizerConfig,
  type SanitizerElement,
  type SanitizerAttribute,
  type SanitizerElementWithAttributes,
  type SanitizerSpec,
} from './sanitizer-api/index.js';
export type { Policy, PolicyReportEntry } from './policy/engine.js';
export { compilePolicy, extendPolicy, PolicyHookError, type PolicyChanges } from './policy/index.js';
export { enforceReparseSafety, type Repair, type ReparseContext } from './sanitizer/reparse-safety.js';
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
export { installMultiByteDecoders } from './encoding/multi-byte.js';
export type { ParseError, ParseErrorHandler } from './errors.js';
export * as css from './css/index.js';
export * as url from './url/index.js';
// The tree: its classes, constants and construction helpers (not the parser's internal helpers dom.ts also holds).
export {
  HTML_NS,
  SVG_NS,
  MATHML_NS,
  XLINK_NS,
  XML_NS,
  XMLNS_NS,
  ELEMENT_NODE,
  TEXT_NODE,
  PROCESSING_INSTRUCTION_NODE,
  COMMENT_NODE,
  DOCUMENT_NODE,
  DOCUMENT_TYPE_NODE,
  DOCUMENT_FRAGMENT_NODE,
  type DocumentMode,
  type ChildNode,
  type ParentNode,
  type Node,
  Attr,
  HierarchyRequestError,
  InvalidCharacterError,
  NamespaceError,
  Document,
  DocumentFragment,
  Element,
  Text,
  Comment,
  ProcessingInstruction,
  DocumentType,
  createElement,
  createText,
  createComment,
  createProcessingInstruction,
  createDocumentFragment,
  isElement,
  isHTMLElement,
  walk,
  checkedChildrenOf as childrenOf,
} from './dom.js';
