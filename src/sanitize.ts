/**
 * The sanitizer's public entry points: `sanitize` (string in, string out), `sanitizeFragment` and
 * `sanitizeDocument` (trees out).
 *
 * The pipeline, in order:
 *   1. parse: the fragment parsing algorithm in the given context (default `body`), or a whole document;
 *   2. the htmlsift policy's structural rules, if a policy is given (rename, drop, unwrap, hooks);
 *   3. the Sanitizer API configuration (WICG Sanitizer API "sanitize", as Chromium's setHTML does): the
 *      given `sanitizer`, else the policy's own, else the built-in safe default — in safe mode the safe
 *      baseline (script-capable elements, event handlers, `javascript:` navigation URLs) is removed whatever
 *      the configuration says;
 *   4. the policy's attribute rules (URLs, styles, classes, forced attributes, id prefixes) and depth limit;
 *      without a policy, in safe mode, URL hardening instead (`hardenUrls`, on for `sanitize()`: see
 *      sanitizer/url-hardening.ts), which runs inside step 3's attribute pass;
 *   5. reparse safety (strings only): the tree is repaired so that its serialization reparses to it, in the
 *      same context, in our parser and in browsers, with scripting on or off;
 *   6. serialization in round-trip mode.
 *
 * Without a policy or an `onReport` callback, steps 3 and 5 of a fragment (outside an `html` context) run in one
 * walk of the tree: reparse safety runs step 3's filter on each child list just before it reads it
 * (`ChildListFilter`), which leaves the tree the two walks leave (test/sanitizer-api/one-walk.test.ts).
 *
 * `sanitizeFragment`/`sanitizeDocument` stop after step 4 by default (so that, with a SanitizerConfig, the
 * tree is exactly what Chromium's `setHTML` builds); `reparseSafe: true` adds step 5 for callers who will
 * serialize the tree themselves.
 */
import { type Document, type DocumentFragment, Element, HTML_NS } from './dom.js';
// Bundlers lay modules out in import order. The sanitizer's own modules come before the parser: their name tables
// then sit within gzip's 32 KB window of the tree builder's tag and attribute names, which they repeat (reparse
// safety imports those tables first), a smaller gzipped bundle (npm run bench:size).
import { type SanitizerHandle, sanitizerHandleFromOptions } from './sanitizer-api/config.js';
import {
  type AttributeCheck,
  compiledSanitizer,
  releaseChildListFilter,
  sanitizeWith,
  setHTMLSkipsContext,
  type SanitizerSpec,
  takeChildListFilter,
} from './sanitizer-api/sanitize.js';
import { htmlRawTextParent, serializeWith } from './serializer.js';
import { urlHardening } from './sanitizer/url-hardening.js';
import { type Repair, enforceFragmentReparseSafety, enforceReparseSafety } from './sanitizer/reparse-safety.js';
import { contextElement, parseDocumentWith, parseFragmentWith, type FragmentContext } from './parser.js';
import { isUint8Array } from './encoding/encoding-sniffing.js';
import { checkOptions } from './options.js';
import type { Policy, PolicyReportEntry } from './policy/types.js';
import { policyEngineFor } from './policy/link.js';

export interface SanitizeOptions {
  /** The Sanitizer API configuration: a `Sanitizer`, a `SanitizerConfig` dictionary, or `'default'`. */
  sanitizer?: SanitizerSpec;
  /** htmlsift's richer policy (see `policy/`); composes with `sanitizer`. */
  policy?: Policy;
  /** The element the fragment is parsed in (and will be inserted into): a tag name or `{ name, namespace }`. Default `body`. */
  context?: FragmentContext;
  /** Safe mode (default true): the safe baseline is removed whatever the configuration allows, as `setHTML` does. */
  safe?: boolean;
  /**
   * The parser's scripting flag. Default: disabled, as Chromium's setHTML parses (so `noscript` content is
   * markup, and is sanitized as such); enabled only for `safe: false` with neither sanitizer nor policy, which
   * parses like innerHTML (setHTMLUnsafe without a sanitizer).
   */
  scripting?: boolean;
  /**
   * Receives each removal or change made by the policy, by URL hardening and by reparse safety, as it is made. It may
   * sanitize something else meanwhile (the call in progress keeps its own state).
   */
  onReport?: (entry: SanitizeReportEntry) => void;
}

export interface TreeSanitizeOptions extends SanitizeOptions {
  /** Also repair the tree so that its serialization reparses to it (step 5). Default false. */
  reparseSafe?: boolean;
  /**
   * In safe mode without a policy, also remove script-capable URLs (`javascript:`, `vbscript:`, script-capable
   * `data:`) from every URL-valued attribute, not only from the navigation attributes the Sanitizer API checks.
   * Default: true for `sanitize()`, false for the tree functions (whose default is exactly `setHTML`).
   */
  hardenUrls?: boolean;
}

/** One entry of the removal report. */
export type SanitizeReportEntry =
  | PolicyReportEntry
  | ({ stage: 'reparse-safety' } & Repair)
  | { stage: 'url-hardening'; action: 'drop-attribute'; element: string; attribute: string; reason: string };

/** Sanitizes an HTML fragment and returns the safe markup, ready for the context element's innerHTML. */
export function sanitize(input: string, options?: SanitizeOptions): string {
  // (The flags are arguments: a spread copy of `options` with them was a slow object, a tenth of a small call.)
  const root = sanitizeFragmentWith(input, options, true, true, 'sanitize', true);
  // The output must reparse to the same tree with scripting on or off (reparse safety sees to it); written for a
  // browser, with scripting on. The tree is let go of as it is written (see serializeWith), unless a policy's hooks
  // or a report callback have seen its nodes (and may keep them).
  return serializeWith(root, { roundTrip: true, scripting: true }, options?.policy == null && options?.onReport === undefined);
}

/** Sanitizes an HTML fragment and returns the tree. */
export function sanitizeFragment(input: string, options?: TreeSanitizeOptions): DocumentFragment {
  return sanitizeFragmentWith(input, options, options?.reparseSafe === true, options?.hardenUrls === true, 'sanitizeFragment', false) as DocumentFragment;
}

/**
 * The sanitized fragment; with `forSerialization` (sanitize()), in a raw text context element (e.g. style) the
 * context element holding the fragment's children instead, so that their text is written as that element writes its
 * own (with scripting on, as sanitize() writes).
 */
function sanitizeFragmentWith(
  input: string,
  options: SanitizeOptions | undefined,
  reparseSafe: boolean,
  hardenUrls: boolean,
  fn: string,
  forSerialization: boolean,
): DocumentFragment | Element {
  checkInput(input, fn);
  // (Null options are no options, as Web IDL reads a dictionary.)
  checkOptions(options, fn);
  options ??= {};
  const safe = options.safe !== false;
  // The context element as the parser takes it (an HTML name lower-cased, an SVG one adjusted), made once for both.
  const ctx = contextElement(options.context ?? 'body');
  const ctxName = ctx.localName;
  const ctxNamespace = ctx.namespaceURI;
  // The policy engine is not imported: it comes with the policy (see policy/link.ts).
  const engine = options.policy == null ? null : policyEngineFor(options.policy, fn);
  const policy = engine === null ? null : engine.compile(options.policy!);
  const sanitizer = sanitizerFor(options.sanitizer !== undefined ? options.sanitizer : policy?.sanitizer, safe);
  const fragment = parseFragmentWith(input, ctx, { scripting: parseScripting(options, safe, ctxName === 'template' && ctxNamespace === HTML_NS) }, null);
  // setHTML on a script element inserts nothing.
  if (setHTMLSkipsContext(ctxName, ctxNamespace, safe)) {
    fragment.childNodes.length = 0;
    return fragment;
  }
  const report = options.onReport;
  const extra = hardeningFor(policy === null && safe && hardenUrls, report);
  if (reparseSafe && policy === null && report === undefined && !(ctxNamespace === HTML_NS && ctxName === 'html')) {
    // Steps 3 and 5 in one walk of the tree: reparse safety runs the Sanitizer API's filter on each child list just
    // before it reads it (see ChildListFilter), which gives the tree the two walks give. With a report callback the
    // two walks run as before: the report lists their entries in their order, URL hardening's included for subtrees
    // that reparse safety then drops.
    const compiled = compiledSanitizer(sanitizer, safe);
    // (`extra` is URL hardening's shared check here, holding nothing of the caller's, or null: takeChildListFilter
    // relies on it to skip the Sanitizer API's navigating URL step.)
    const filter = takeChildListFilter(compiled, extra);
    enforceFragmentReparseSafety(fragment, { kind: 'fragment', name: ctxName, namespace: ctxNamespace }, undefined, filter);
    releaseChildListFilter(filter);
    return forSerialization ? serializationRoot(fragment, ctx) : fragment;
  }
  if (policy !== null) engine!.structure(fragment, policy, report);
  sanitizeWith(fragment, sanitizer, safe, extra);
  if (policy !== null) engine!.attributes(fragment, policy, report);
  if (reparseSafe) {
    enforceFragmentReparseSafety(
      fragment,
      { kind: 'fragment', name: ctxName, namespace: ctxNamespace },
      report ? (r) => report({ stage: 'reparse-safety', ...r }) : undefined,
    );
  }
  return forSerialization ? serializationRoot(fragment, ctx) : fragment;
}

/** sanitize()'s root: the fragment, or in a raw text context element that element, given the fragment's children. */
function serializationRoot(fragment: DocumentFragment, ctx: Element): DocumentFragment | Element {
  if (ctx.namespaceURI !== HTML_NS || !htmlRawTextParent(ctx.localName, true)) return fragment;
  ctx.childNodes = fragment.childNodes;
  return ctx;
}

/** Sanitizes a whole document (e.g. an email); bytes are decoded with the standard's encoding sniffing. */
export function sanitizeDocument(
  input: string | Uint8Array,
  options?: Omit<TreeSanitizeOptions, 'context'> & { transportEncoding?: string },
): Document {
  if (typeof input !== 'string' && !isUint8Array(input)) {
    throw new TypeError('sanitizeDocument: input must be a string or a Uint8Array, got ' + describe(input));
  }
  checkOptions(options, 'sanitizeDocument');
  options ??= {};
  const safe = options.safe !== false;
  const engine = options.policy == null ? null : policyEngineFor(options.policy, 'sanitizeDocument');
  const policy = engine === null ? null : engine.compile(options.policy!);
  const sanitizer = sanitizerFor(options.sanitizer !== undefined ? options.sanitizer : policy?.sanitizer, safe);
  const doc = parseDocumentWith(
    input,
    {
      scripting: options.scripting ?? false,
      ...(options.transportEncoding !== undefined ? { transportEncoding: options.transportEncoding } : {}),
    },
    null,
  );
  const report = options.onReport;
  if (policy !== null) engine!.structure(doc, policy, report);
  sanitizeWith(doc, sanitizer, safe, hardeningFor(policy === null && safe && options.hardenUrls === true, report));
  if (policy !== null) engine!.attributes(doc, policy, report);
  if (options.reparseSafe) {
    enforceReparseSafety(doc, { kind: 'document' }, report ? (r) => report({ stage: 'reparse-safety', ...r }) : undefined);
  }
  return doc;
}

// The built-in configurations never change, so their handles (and the compiled form each caches) are made
// once: building and compiling the default configuration costs milliseconds.
let defaultSafe: SanitizerHandle | null = null;
let defaultUnsafe: SanitizerHandle | null = null;

/**
 * "get a sanitizer instance from options", with the built-in default (safe) and `{}` (unsafe) cached. A handle,
 * not a Sanitizer: `sanitize()` does not construct Sanitizers (see `sanitizerHandleFromOptions`).
 */
function sanitizerFor(spec: SanitizerSpec | undefined, safe: boolean): SanitizerHandle {
  if (safe && (spec === undefined || spec === 'default')) return (defaultSafe ??= sanitizerHandleFromOptions({ sanitizer: 'default' }, true));
  if (spec === undefined) return (defaultUnsafe ??= sanitizerHandleFromOptions(undefined, false));
  // (Unsafe 'default' too: the default configuration, kept as it is.)
  return sanitizerHandleFromOptions({ sanitizer: spec }, safe);
}

/** The scripting flag the parse uses (see `SanitizeOptions.scripting`). */
function parseScripting(options: SanitizeOptions, safe: boolean, template: boolean): boolean {
  if (options.scripting !== undefined) return options.scripting;
  // As setHTMLUnsafe without a sanitizer: scripting on, except into a template (an inert document's contents).
  return !safe && options.sanitizer === undefined && options.policy == null && !template;
}

/** The URL hardening check without a report, made once. */
let quietHardening: AttributeCheck | null = null;

/**
 * The URL hardening check for the Sanitizer API's attribute pass, or null when it is off (it runs in safe mode
 * without a policy, whose URL rules replace it).
 */
function hardeningFor(on: boolean, report: ((entry: SanitizeReportEntry) => void) | undefined): AttributeCheck | null {
  if (!on) return null;
  if (report === undefined) return (quietHardening ??= urlHardening());
  return urlHardening((el, attribute) =>
    report({ stage: 'url-hardening', action: 'drop-attribute', element: el.localName, attribute, reason: 'script-capable-url' }),
  );
}

function checkInput(input: unknown, fn: string): asserts input is string {
  if (typeof input !== 'string') throw new TypeError(fn + ': input must be a string, got ' + describe(input));
}

function describe(v: unknown): string {
  return v === null ? 'null' : typeof v;
}
