/**
 * Browser helpers: turn a sanitized htmlsift tree into real DOM nodes, and a Trusted Types policy whose
 * `createHTML` is htmlsift. No Node imports: this module runs in browsers, Deno, Bun and Node (with jsdom).
 *
 * `toDOM(tree, document)` builds the nodes with `createElementNS`/`setAttributeNS`, so names and namespaces are
 * exactly those of the tree, with no HTML re-parse (no mutation XSS window between sanitizing and inserting).
 * It walks iteratively (100,000-deep trees are fine). Template contents go into the real template's
 * `content`. Documented skips: doctypes (not allowed in a fragment), and attributes or processing instructions
 * the DOM refuses (an invalid XML name, which the HTML parser can produce for junk attributes such as `a"b`).
 * Each skip is passed to `onSkip` when given.
 */
import { sanitize, type SanitizeOptions } from '../sanitize.js';
import {
  COMMENT_NODE,
  DOCUMENT_TYPE_NODE,
  ELEMENT_NODE,
  PROCESSING_INSTRUCTION_NODE,
  TEXT_NODE,
  walk,
  type Document as SiftDocument,
  type DocumentFragment as SiftFragment,
  type Element as SiftElement,
} from '../dom.js';

export interface ToDOMOptions {
  /** Told about each node or attribute the DOM refused and that was left out. */
  onSkip?: (what: { kind: 'attribute' | 'processing-instruction' | 'doctype'; name: string; reason: string }) => void;
}

/** Builds a DOM `DocumentFragment` in `doc` from an htmlsift fragment, document or element's children. */
export function toDOM(tree: SiftFragment | SiftDocument | SiftElement, doc: Document, options: ToDOMOptions = {}): DocumentFragment {
  if (doc === null || typeof doc !== 'object' || typeof (doc as Document).createElementNS !== 'function') {
    throw new TypeError('toDOM: the second argument must be a DOM Document');
  }
  if (tree === null || typeof tree !== 'object' || !Array.isArray((tree as SiftFragment).childNodes)) {
    throw new TypeError('toDOM: the first argument must be an htmlsift tree (sanitizeFragment or sanitizeDocument result)');
  }
  const out = doc.createDocumentFragment();
  const skip = options.onSkip;
  // The DOM parent of the nodes at each depth of the walk (tree order: an element's entry is set before its
  // children are visited).
  const parents: Node[] = [out];
  walk(tree, (node, depth) => {
    const parent = parents[depth]!;
    switch (node.nodeType) {
      case TEXT_NODE:
        parent.appendChild(doc.createTextNode((node as { data: string }).data));
        break;
      case COMMENT_NODE:
        parent.appendChild(doc.createComment((node as { data: string }).data));
        break;
      case PROCESSING_INSTRUCTION_NODE: {
        const pi = node as { target: string; data: string };
        try {
          parent.appendChild(doc.createProcessingInstruction(pi.target, pi.data));
        } catch (e) {
          skip?.({ kind: 'processing-instruction', name: pi.target, reason: (e as Error).message });
        }
        break;
      }
      case DOCUMENT_TYPE_NODE:
        skip?.({ kind: 'doctype', name: (node as { name: string }).name, reason: 'a fragment cannot hold a doctype' });
        break;
      case ELEMENT_NODE: {
        const el = node as SiftElement;
        const qname = el.prefix === null ? el.localName : el.prefix + ':' + el.localName;
        const real = doc.createElementNS(el.namespaceURI, qname);
        for (const a of el.attributes) {
          try {
            real.setAttributeNS(a.namespaceURI, a.name, a.value);
          } catch (e) {
            skip?.({ kind: 'attribute', name: a.name, reason: (e as Error).message });
          }
        }
        parent.appendChild(real);
        // The walk goes on into childrenOf(el): a template's contents, which go into the real template's content.
        parents[depth + 1] = el.content !== null && 'content' in real ? (real as HTMLTemplateElement).content : real;
        break;
      }
    }
  });
  return out;
}

/** The part of the Trusted Types API used here (not in TypeScript's DOM library). */
export interface TrustedHTMLLike {
  toString(): string;
}
interface TrustedTypePolicyFactoryLike {
  createPolicy(name: string, rules: { createHTML: (input: string) => string }): { createHTML(input: string): TrustedHTMLLike };
}

export interface TrustedSanitizer {
  /** The Trusted Types policy's name. */
  readonly name: string;
  /** Sanitizes `html` and returns it as `TrustedHTML` (a plain string where Trusted Types is not supported). */
  sanitize(html: string): TrustedHTMLLike | string;
}

/**
 * Creates a Trusted Types policy named `name` whose `createHTML` is `sanitize(html, options)`. Add the name to
 * your CSP's `trusted-types` directive. Where the browser has no Trusted Types, `sanitize` returns the string.
 * `createPolicy` throws when the CSP does not allow the name (or it exists and duplicates are not allowed): that
 * error is passed on, naming the policy.
 */
export function createTrustedSanitizer(name: string, options: SanitizeOptions = {}, factory?: TrustedTypePolicyFactoryLike): TrustedSanitizer {
  if (typeof name !== 'string' || name === '') throw new TypeError('createTrustedSanitizer: name must be a non-empty string');
  const tt = factory ?? (globalThis as { trustedTypes?: TrustedTypePolicyFactoryLike }).trustedTypes;
  const run = (html: string): string => sanitize(html, options);
  if (tt === undefined) return { name, sanitize: run };
  let policy: { createHTML(input: string): TrustedHTMLLike };
  try {
    policy = tt.createPolicy(name, { createHTML: run });
  } catch (e) {
    throw new Error(`createTrustedSanitizer: the Trusted Types policy '${name}' could not be created (${(e as Error).message})`, { cause: e });
  }
  return { name, sanitize: (html: string) => policy.createHTML(html) };
}
