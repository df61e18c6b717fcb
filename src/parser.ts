/**
 * Parser entry points: parsing a document (WHATWG HTML, "13.2 Parsing HTML documents") and parsing a
 * fragment ("13.4 Parsing HTML fragments").
 *
 * Parse errors are reported through `onError`. Tokenizer errors carry the standard's codes
 * (`eof-in-tag`, ...); tree-construction errors have no codes in the standard, so they use stable
 * kebab-case codes in the style of html5lib (`unexpected-start-tag`, `expected-doctype-but-got-start-tag`,
 * `end-tag-too-early`, ...).
 */
import { Document, DocumentFragment, DocumentType, Element, HTML_NS, MATHML_NS, SVG_NS, asciiLowercase } from './dom.js';
import { type ParseErrorHandler, type ParseErrorSink, parseErrorReporter } from './errors.js';
import { Tokenizer } from './tokenizer/tokenizer.js';
import { TreeBuilder } from './tree-builder/tree-builder.js';
import { adjustSvgTagName } from './tree-builder/foreign-content.js';
import { documentModeFromDoctype } from './tree-builder/quirks-mode.js';
import { decodeHTMLBytes, isUint8Array } from './encoding/encoding-sniffing.js';
import { checkOptions } from './options.js';

export interface ParseOptions {
  /** The scripting flag (affects `noscript`). Default true, as in browsers. */
  scripting?: boolean;
  /** Called for every parse error. */
  onError?: ParseErrorHandler;
}

export interface DocumentParseOptions extends ParseOptions {
  /** The transport-layer character encoding label (e.g. from Content-Type), for byte input. */
  transportEncoding?: string;
}

/** A context element: a tag name (an HTML element) or a name with a namespace URI. */
export type FragmentContext = string | { name: string; namespace?: string };

export interface FragmentParseOptions extends ParseOptions {
  /** The context element. Default 'body'. */
  context?: FragmentContext;
}

/**
 * Objects of one small parse, kept for the life of the module. V8 holds an object shape (a "map": the hidden class
 * that optimized code checks) only as long as some object has it, and throws away optimized code whose maps died.
 * Between two parses no parser object is alive, so a full garbage collection then (a server between requests, a
 * benchmark between contenders) took every map of the tree builder, tokenizer, stacks and nodes with it, and the
 * next parses ran unoptimized until V8 recompiled them: 2-4x slower (bench/README, "Map anchor"). The anchor's
 * objects have those shapes, so the maps, and the code, stay.
 */
let mapAnchor: unknown = null;

function runParser(
  document: Document,
  input: string,
  options: ParseOptions | undefined,
  onError: ParseErrorSink | null,
  context: Element | null,
  documentMode?: typeof documentModeFromDoctype,
): Element | null {
  if (mapAnchor === null) {
    const anchor = newParser(new Document(), undefined, null, undefined);
    // A node of every class and shape the parser makes (a template has its contents, a namespaced attribute its
    // namespace and prefix), and the list of active formatting elements' entries through the adoption agency.
    // (A doctype would need the quirks tables, which fragment-only bundles leave out: it is made directly.)
    // Plain attributes come first: V8 sizes a class's objects by the fields its first seven instances used
    // ("slack tracking"), and an early namespaced attribute made every attribute 56 bytes instead of 40.
    anchor.tokenizer.run('<b a b c d e f><i></b>x<!----><template></template><svg a xmlns=x xlink:href=x>');
    mapAnchor = [anchor, new DocumentType('html')];
  }
  const builder = newParser(document, options, onError, documentMode);
  const root = context === null ? null : builder.initFragment(context);
  builder.tokenizer.run(input);
  return root;
}

function newParser(
  document: Document,
  options: ParseOptions | undefined,
  onError: ParseErrorSink | null,
  documentMode: typeof documentModeFromDoctype | undefined,
): TreeBuilder {
  const builder = new TreeBuilder(document, {
    scripting: options?.scripting ?? true,
    reportErrors: onError !== null,
    documentMode,
  });
  builder.tokenizer = new Tokenizer(builder, onError);
  return builder;
}

/** The sink that reports parse errors to `options.onError` (null when there is none). */
function errorSink(options: ParseOptions | undefined): ParseErrorSink | null {
  const onError = options?.onError;
  return onError === undefined ? null : parseErrorReporter(onError);
}

/** Parses a whole document. Byte input is decoded with the encoding sniffing algorithm. Sets `document.mode`. */
export function parseDocument(input: string | Uint8Array, options?: DocumentParseOptions): Document {
  checkOptions(options, 'parseDocument');
  return parseDocumentWith(input, options, errorSink(options));
}

/**
 * `parseDocument` with its parse errors going to `onError` as codes (null: not reported) instead of
 * `options.onError`, which is ignored: for callers that need no error names (which it does not import). The
 * options are not checked: the callers check what their own callers gave (see `checkOptions`).
 */
export function parseDocumentWith(input: string | Uint8Array, options: DocumentParseOptions | undefined, onError: ParseErrorSink | null): Document {
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else if (isUint8Array(input)) {
    const te = options?.transportEncoding;
    text = decodeHTMLBytes(input, te === undefined ? undefined : { transportEncoding: te }).text;
  } else {
    throw new TypeError('parseDocument: input must be a string or a Uint8Array');
  }
  const document = new Document();
  // Only the document case reads a DOCTYPE (fragment parsing never runs the "initial" insertion mode).
  runParser(document, text, options, onError, null, documentModeFromDoctype);
  return document;
}

function isValidContextName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c <= 0x20 || c === 0x2f /* / */ || c === 0x3e /* > */ || c === 0x3c /* < */ || c === 0x7f) return false;
  }
  return true;
}

/** The context element of the fragment parsing algorithm for `options.context` (checked: a TypeError names what is wrong). */
export function contextElement(context: unknown): Element {
  let name: unknown;
  let ns: unknown = HTML_NS;
  if (typeof context === 'string') {
    name = context;
  } else if (typeof context === 'object' && context !== null) {
    name = (context as { name?: unknown }).name;
    const n = (context as { namespace?: unknown }).namespace;
    if (n !== undefined) ns = n;
  } else {
    throw new TypeError('parseFragment: options.context must be a tag name or { name, namespace }');
  }
  if (typeof name !== 'string' || !isValidContextName(name)) {
    throw new TypeError('parseFragment: options.context has an empty or invalid element name');
  }
  if (ns !== HTML_NS && ns !== SVG_NS && ns !== MATHML_NS) {
    throw new TypeError('parseFragment: options.context.namespace must be the HTML, SVG or MathML namespace URI');
  }
  if (ns === HTML_NS) return new Element(asciiLowercase(name), HTML_NS, []);
  if (ns === SVG_NS) return new Element(adjustSvgTagName(name), SVG_NS, []);
  return new Element(name, MATHML_NS, []);
}

/** Parses a fragment in the context of an element (default `body`), as `innerHTML` does. */
export function parseFragment(input: string, options?: FragmentParseOptions): DocumentFragment {
  if (typeof input !== 'string') throw new TypeError('parseFragment: input must be a string');
  checkOptions(options, 'parseFragment');
  return parseFragmentWith(input, contextElement(options?.context ?? 'body'), options, errorSink(options));
}

/**
 * `parseFragment` in `context`, the context element `contextElement` made (callers that read its name first make it
 * once), with its parse errors going to `onError` as codes, as `parseDocumentWith` does. Neither the input nor the
 * options are checked (the callers check what their own callers gave); `options.context` is not read.
 */
export function parseFragmentWith(input: string, context: Element, options: ParseOptions | undefined, onError: ParseErrorSink | null): DocumentFragment {
  const document = new Document();
  const root = runParser(document, input, options, onError, context)!;
  const fragment = new DocumentFragment();
  const kids = root.childNodes;
  for (let i = 0; i < kids.length; i++) kids[i]!.parentNode = fragment;
  fragment.childNodes = kids;
  root.childNodes = [];
  return fragment;
}
