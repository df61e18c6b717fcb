/**
 * setHTML / setHTMLUnsafe / parseHTML / parseHTMLUnsafe on htmlsift's parser: "set and filter HTML" and the
 * Document parse methods of the Sanitizer API, returning the sanitized nodes instead of inserting them.
 *
 * Differences from a browser's parsing for these methods, all consequences of the tree having no shadow roots
 * and of sanitizing after parsing rather than while parsing:
 * - Declarative shadow roots: browsers parse setHTML(Unsafe)/parseHTML(Unsafe) input with declarative shadow
 *   roots allowed, so `<template shadowrootmode="open">` under an eligible host becomes that host's shadow
 *   root (and leaves the light tree) when the sanitizer keeps `template` and `shadowrootmode`. Here it stays an
 *   ordinary template element, whose contents are sanitized like any template's. The built-in default
 *   configuration does not allow `template`, so with it both agree (the template is removed).
 * - Chromium sanitizes while parsing (whatwg/html "sanitize while parsing"); this walks the parsed tree as the
 *   WICG draft's "sanitize" does. Results differ only where the tree builder would have acted differently on
 *   the sanitized tree: replaced or removed formatting elements that the adoption agency algorithm or the
 *   reconstruction of active formatting elements clones, and attributes merged into `html`/`body` by later
 *   start tags (parseHTML).
 */
import {
  DocumentFragment,
  ELEMENT_NODE,
  HTML_NS,
  asciiLowercase,
  walk,
  type Document,
  type Element,
  type ParentNode,
} from '../dom.js';
import { contextElement, parseDocumentWith, parseFragmentWith, type FragmentContext } from '../parser.js';
import { checkOptions } from '../options.js';
import { Sanitizer, canonicalizeConfig, sanitizerHandleFromOptions } from './config.js';
import { sanitizeWith, setHTMLSkipsContext, type SanitizerSpec } from './sanitize.js';

export interface SetHTMLLikeOptions {
  /** `options.sanitizer` of setHTML: a Sanitizer, a SanitizerConfig or "default". */
  sanitizer?: SanitizerSpec;
  /** The element whose setHTML is called (the fragment parsing context). Default `body`. */
  context?: FragmentContext;
  /** true for setHTML (the default), false for setHTMLUnsafe. */
  safe?: boolean;
}

/**
 * What `context.setHTML(html, { sanitizer })` (or setHTMLUnsafe with `safe: false`) would put into the
 * element: "set and filter HTML" without the final "replace all". Throws a TypeError for an invalid sanitizer
 * configuration, before parsing.
 */
export function setHTMLLike(html: string, options?: SetHTMLLikeOptions): DocumentFragment {
  if (typeof html !== 'string') throw new TypeError('setHTMLLike: html must be a string');
  // As Web IDL reads the options dictionary: null options are no options, a primitive is a TypeError.
  checkOptions(options, 'setHTMLLike');
  options ??= {};
  const safe = options.safe ?? true;
  // The context element as the parser takes it (an HTML name lower-cased, an SVG one adjusted), made once for both.
  const ctx = contextElement(options.context ?? 'body');
  const name = ctx.localName;
  const namespace = ctx.namespaceURI;
  // Step 1: setHTML on a script element does nothing. Web IDL has converted `options` before the algorithm runs,
  // though, so a bogus preset or a dictionary that does not convert (a list that is not a sequence, an entry
  // without a name) throws even here; validity is only checked in step 2.
  if (setHTMLSkipsContext(name, namespace, safe)) {
    convertSanitizerOption(options.sanitizer);
    return new DocumentFragment();
  }
  // Step 2: the sanitizer (a TypeError here for an invalid configuration).
  const sanitizer = sanitizerHandleFromOptions({ sanitizer: options.sanitizer }, safe);
  // Steps 3-5: parse in the context element. Chromium (156) parses with the scripting flag disabled whenever it
  // sanitizes (setHTML, and setHTMLUnsafe given a sanitizer): the fragment is built in an inert document, as
  // whatwg/html#12756 ("sanitize while parsing") specifies, so `<noscript>` content is markup, not raw text.
  // setHTMLUnsafe without a sanitizer parses like innerHTML: scripting enabled, except into a template, whose
  // contents belong to an inert document (Chromium 156 parses `<noscript>` there as markup too).
  const template = name === 'template' && namespace === HTML_NS;
  const scripting = !safe && options.sanitizer === undefined && !template;
  const fragment = parseFragmentWith(html, ctx, { scripting }, null);
  // Step 6: sanitize.
  sanitizeWith(fragment, sanitizer, safe);
  return fragment;
}

/** The Web IDL conversion of `options.sanitizer` alone (throws the TypeError Web IDL would throw). */
function convertSanitizerOption(spec: SanitizerSpec | undefined): void {
  if (spec === undefined || spec instanceof Sanitizer) return;
  if (typeof spec === 'object' || typeof spec === 'function') {
    canonicalizeConfig(spec, true);
    return;
  }
  // Anything else converts to the SanitizerPresets enumeration, whose only value is "default".
  if (typeof spec === 'symbol' || String(spec) !== 'default') {
    throw new TypeError(`Sanitizer: ${typeof spec === 'symbol' ? 'a symbol' : JSON.stringify(String(spec))} is not a SanitizerPresets value`);
  }
}

/** What `Document.parseHTML(html, { sanitizer })` (or parseHTMLUnsafe with `safe: false`) returns. */
export function parseHTMLLike(html: string, options?: { sanitizer?: SanitizerSpec; safe?: boolean }): Document {
  if (typeof html !== 'string') throw new TypeError('parseHTMLLike: html must be a string');
  checkOptions(options, 'parseHTMLLike');
  options ??= {};
  const safe = options.safe ?? true;
  // A document without a browsing context: scripting is disabled (Chromium 156 agrees).
  const document = parseDocumentWith(html, { scripting: false }, null);
  sanitizeWith(document, sanitizerHandleFromOptions({ sanitizer: options.sanitizer }, safe), safe);
  return document;
}

// Elements that can host a shadow root besides autonomous custom elements (DOM, "attach a shadow root").
const SHADOW_HOSTS = new Set([
  'article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main',
  'nav', 'p', 'section', 'span',
]);
const RESERVED_CUSTOM_ELEMENT_NAMES = new Set([
  'annotation-xml', 'color-profile', 'font-face', 'font-face-src', 'font-face-uri', 'font-face-format',
  'font-face-name', 'missing-glyph',
]);

/** A parsed HTML local name that is a valid custom element name (lower-case start, a hyphen, not reserved). */
function isCustomElementName(name: string): boolean {
  const c = name.charCodeAt(0);
  return c >= 0x61 && c <= 0x7a && name.includes('-') && !RESERVED_CUSTOM_ELEMENT_NAMES.has(name);
}

/**
 * The templates of a sanitized setHTML-like result that a browser would have turned into declarative shadow
 * roots (parsing with declarative shadow roots allowed, as setHTML does): an HTML `template` whose
 * `shadowrootmode` is "open" or "closed" (ASCII case-insensitive), child of an element (not of the fragment,
 * not of template contents) that can host a shadow root, and the first such template of its host. In the
 * browser these are not in the light tree (their contents are the host's shadow root), so a comparison with
 * `el.innerHTML` must leave them out. Chromium decides on the sanitized attributes, so run this after sanitizing.
 */
export function declarativeShadowRootTemplates(root: ParentNode): Element[] {
  const found: Element[] = [];
  const hosts = new Set<Element>();
  walk(root, (node) => {
    if (node.nodeType !== ELEMENT_NODE) return;
    const el = node as Element;
    if (el.localName !== 'template' || el.namespaceURI !== HTML_NS) return;
    const mode = el.getAttributeNS(null, 'shadowrootmode');
    if (mode === null) return;
    const m = asciiLowercase(mode);
    if (m !== 'open' && m !== 'closed') return;
    const host = el.parentNode;
    if (host === null || host.nodeType !== ELEMENT_NODE || host === root) return;
    const h = host as Element;
    if (h.namespaceURI !== HTML_NS || !(SHADOW_HOSTS.has(h.localName) || isCustomElementName(h.localName))) return;
    if (hosts.has(h)) return;
    hosts.add(h);
    found.push(el);
  });
  return found;
}
