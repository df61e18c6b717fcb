/**
 * The Sanitizer API's "sanitize" and "sanitize core" on htmlsift's tree.
 *
 * The draft's "sanitize core" recurses; here one explicit work stack of parents replaces the recursion (a
 * 100,000-deep tree is normal input), and each parent's child list is filtered in one pass. An element
 * replaced with its children has its children spliced into that same pass, so they are judged as children of
 * the parent they end up in, which gives the draft's result (the draft sanitizes them inside the element
 * first, then moves them; each decision depends only on the node itself).
 *
 * A configuration is compiled once into hash lookups (`compileConfig`); a `Sanitizer` caches its compiled
 * forms until it is modified.
 */
import {
  COMMENT_NODE,
  DOCUMENT_FRAGMENT_NODE,
  ELEMENT_NODE,
  HTML_NS,
  MATHML_NS,
  PROCESSING_INSTRUCTION_NODE,
  SVG_NS,
  XLINK_NS,
  type Attr,
  type ChildNode,
  type DocumentFragment,
  type Element,
  type ParentNode,
  type ProcessingInstruction,
  workList,
} from '../dom.js';
import { ANIMATING_URL_ATTRIBUTES, NAVIGATING_URL_ATTRIBUTES } from './builtins.js';
import {
  cloneConfig,
  sanitizerHandleFromOptions,
  removeUnsafeFromConfig,
  type Sanitizer,
  type SanitizerHandle,
  sanitizerState,
} from './config.js';
import { schemeOf } from '../url/url-policy.js';
import { DROP, KEEP, REPLACE } from './actions.js';
import { isDataAttributeName, NameMap, NameSet } from './names.js';
import type { CanonicalSanitizerConfig, SanitizerConfig, SanitizerPreset } from './types.js';

/** An element's own attribute lists, from the `elements` allow-list. */
interface ElementRule {
  allow: NameSet | null;
  remove: NameSet | null;
}

const NO_RULE: ElementRule = { allow: null, remove: null };

/** A canonical configuration turned into lookups, plus the safe flavour's `javascript:` URL handling. */
export interface CompiledConfig {
  readonly elements: NameMap<ElementRule> | null;
  readonly removeElements: NameSet | null;
  readonly replaceWithChildren: NameSet | null;
  readonly processingInstructions: ReadonlySet<string> | null;
  readonly removeProcessingInstructions: ReadonlySet<string> | null;
  readonly attributes: NameSet | null;
  readonly removeAttributes: NameSet | null;
  readonly comments: boolean;
  readonly dataAttributes: boolean;
  readonly handleJavascriptNavigationUrls: boolean;
}

/** Compiles a canonical configuration (used as it is: apply "remove unsafe" first for the safe flavour). */
export function compileConfig(c: CanonicalSanitizerConfig, handleJavascriptNavigationUrls: boolean): CompiledConfig {
  let elements: NameMap<ElementRule> | null = null;
  if (c.elements !== undefined) {
    elements = new NameMap<ElementRule>();
    for (const e of c.elements) {
      const allow = e.attributes === undefined ? null : NameSet.of(e.attributes);
      // An empty local remove-list removes nothing: share the empty rule.
      const remove = e.removeAttributes === undefined || e.removeAttributes.length === 0 ? null : NameSet.of(e.removeAttributes);
      elements.set(e.namespace, e.name, allow === null && remove === null ? NO_RULE : { allow, remove });
    }
  }
  const targets = (list: ReadonlyArray<{ target: string }> | undefined): Set<string> | null =>
    list === undefined ? null : new Set(list.map((p) => p.target));
  return {
    elements,
    removeElements: c.removeElements === undefined ? null : NameSet.of(c.removeElements),
    replaceWithChildren:
      c.replaceWithChildrenElements === undefined || c.replaceWithChildrenElements.length === 0
        ? null
        : NameSet.of(c.replaceWithChildrenElements),
    processingInstructions: targets(c.processingInstructions),
    removeProcessingInstructions: targets(c.removeProcessingInstructions),
    attributes: c.attributes === undefined ? null : NameSet.of(c.attributes),
    removeAttributes: c.removeAttributes === undefined ? null : NameSet.of(c.removeAttributes),
    comments: c.comments,
    dataAttributes: c.dataAttributes === true,
    handleJavascriptNavigationUrls,
  };
}

// Built-in navigating URL attributes list, as element name → attribute names.
const NAVIGATING = new NameMap<NameSet>();
for (const [el, attr] of NAVIGATING_URL_ATTRIBUTES) {
  let s = NAVIGATING.get(el.namespace, el.name);
  if (s === undefined) NAVIGATING.set(el.namespace, el.name, (s = new NameSet()));
  s.add(attr.namespace, attr.name);
}
// Built-in animating URL attributes list: every pair names the no-namespace attributeName attribute (a test checks
// it), so the elements are enough.
const ANIMATING = new NameSet();
for (const [el] of ANIMATING_URL_ATTRIBUTES) ANIMATING.add(el.namespace, el.name);

/**
 * "contains a javascript: URL": whether the basic URL parser, run on the value without a base, yields a URL
 * whose scheme is "javascript". Once a scheme has been read the parser cannot fail for a non-special scheme,
 * so this is the parser's cleaning and scheme states (shared with the URL policy), without a full parse.
 */
export function containsJavascriptUrl(value: string): boolean {
  return schemeOf(value) === 'javascript';
}

/** Whether "sanitize core" keeps `attr` on an element that is kept (the attribute steps, in order). */
function keepAttribute(el: Element, attr: Attr, rule: ElementRule, c: CompiledConfig, nav: NameSet | undefined): boolean {
  const ns = attr.namespaceURI;
  const local = attr.localName;
  // The element's own remove-list wins.
  if (rule.remove !== null && rule.remove.has(ns, local)) return false;
  if (c.attributes !== null) {
    // Global allow-list: allowed globally, or locally, or as a data attribute when those are allowed.
    if (!c.attributes.has(ns, local) && !(rule.allow !== null && rule.allow.has(ns, local)) && !(c.dataAttributes && isDataAttributeName(ns, local))) {
      return false;
    }
  } else {
    // Global remove-list: a local allow-list (even an empty one) is exhaustive; otherwise the global list removes.
    if (rule.allow !== null) {
      if (!rule.allow.has(ns, local)) return false;
    } else if (c.removeAttributes !== null && c.removeAttributes.has(ns, local)) {
      return false;
    }
  }
  if (c.handleJavascriptNavigationUrls === true) {
    // Navigating URL attributes must not hold javascript: URLs.
    if (nav !== undefined && nav.has(ns, local) && containsJavascriptUrl(attr.value)) return false;
    // Any MathML element can be a link: href or xlink:href.
    if (el.namespaceURI === MATHML_NS && local === 'href' && (ns === null || ns === XLINK_NS) && containsJavascriptUrl(attr.value)) {
      return false;
    }
    // SVG animation must not target href.
    if (ns === null && local === 'attributeName' && ANIMATING.has(el.namespaceURI, el.localName)) {
      if (attr.value === 'href' || attr.value === 'xlink:href') return false;
    }
  }
  return true;
}

/**
 * A check run after the configuration's on each attribute it keeps; true removes the attribute too. htmlsift's
 * URL hardening (`sanitize()`) runs this way, in the same pass.
 */
export type AttributeCheck = (el: Element, attr: Attr) => boolean;

/** Filters a kept element's attribute list in place (no copy). */
function sanitizeAttributes(el: Element, c: CompiledConfig, extra: AttributeCheck | null, urlsChecked: boolean): void {
  const attrs = el.attributes;
  const n = attrs.length;
  if (n === 0) return;
  // (The rule actionFor found for this element just before: each kept element is judged, then its attributes.)
  const rule = (c.elements !== null ? keptRule : undefined) ?? NO_RULE;
  // The element's navigating URL attributes, looked up once for all its attributes (unless `extra` removes their
  // javascript: URLs anyway: see takeChildListFilter).
  const nav = c.handleJavascriptNavigationUrls === true && urlsChecked !== true ? NAVIGATING.get(el.namespaceURI, el.localName) : undefined;
  let w = 0;
  for (let r = 0; r < n; r++) {
    const a = attrs[r]!;
    if (keepAttribute(el, a, rule, c, nav) && (extra === null || !extra(el, a))) attrs[w++] = a;
  }
  // (pop, not a store to `length`, which is a runtime call.)
  while (attrs.length > w) attrs.pop();
}

/** The `elements` rule of the element actionFor last judged, for sanitizeAttributes (one lookup for both). */
let keptRule: ElementRule | undefined;

/** What "sanitize core" does with one child. */
function actionFor(node: ChildNode, c: CompiledConfig): number {
  switch (node.nodeType) {
    case ELEMENT_NODE: {
      const el = node as Element;
      const ns = el.namespaceURI;
      const name = el.localName;
      if (c.replaceWithChildren !== null && c.replaceWithChildren.has(ns, name)) return REPLACE;
      if (c.elements !== null) return (keptRule = c.elements.get(ns, name)) !== undefined ? KEEP : DROP;
      return c.removeElements !== null && c.removeElements.has(ns, name) ? DROP : KEEP;
    }
    case COMMENT_NODE:
      return c.comments ? KEEP : DROP;
    case PROCESSING_INSTRUCTION_NODE: {
      const target = (node as ProcessingInstruction).target;
      if (c.processingInstructions !== null) return c.processingInstructions.has(target) ? KEEP : DROP;
      return c.removeProcessingInstructions !== null && c.removeProcessingInstructions.has(target) ? DROP : KEEP;
    }
    default:
      // Text and DocumentType stay.
      return KEEP;
  }
}

/**
 * "sanitize core" on `root` with a compiled configuration: filters `root`'s children and, below every kept
 * element, its children and template contents. `root` itself is not judged. An HTML `template` root has its
 * contents sanitized too.
 *
 * Its scratch arrays are its own (in its ChildListFilter): an `extra` check may report to a callback that sanitizes
 * something else before this walk is done. (They were once module arrays shared by every walk, and a walk started
 * there took over the rest of the list the outer walk was filtering, which lost its later children.)
 */
export function sanitizeCore(root: ParentNode, c: CompiledConfig, extra: AttributeCheck | null = null): void {
  // (Not an array literal: see workList.)
  const work = workList<ParentNode>();
  const filter = new ChildListFilter(c, extra, work);
  work.push(root);
  if (root.nodeType === ELEMENT_NODE && (root as Element).content !== null) work.push((root as Element).content!);
  while (work.length > 0) filter.filter(work.pop()!);
}

/**
 * "sanitize core" one child list at a time: `filter(parent)` judges `parent`'s children (dropping, keeping, or
 * replacing each with its own children, which are judged in its place) and filters the attributes of the elements
 * it keeps; the kept elements' own children are left as they are, for a later call (sanitizeCore pushes those
 * parents on `descend`). Reparse safety, given one as its list filter, calls it on each child list just before it
 * walks that list, so that `sanitize()` walks the tree once for both (see sanitize.ts).
 * @internal
 */
export class ChildListFilter {
  private scratchOut = workList<ChildNode>();
  private readonly inputLists = workList<ChildNode[]>();
  private readonly inputIndex = workList<number>();

  /**
   * `descend`: where kept elements with children (and template contents) are pushed, if given. `urlsChecked`: `extra`
   * removes every `javascript:` URL of the navigating URL attributes, whose step is then skipped (takeChildListFilter).
   */
  constructor(
    readonly c: CompiledConfig,
    readonly extra: AttributeCheck | null,
    private readonly descend: ParentNode[] | null = null,
    private readonly urlsChecked = false,
  ) {}

  /**
   * Lets go of the nodes the last `filter` call kept (scratchOut): a new list, not `length = 0`, which TurboFan leaves
   * to a runtime call (0.6% of sanitizing a comment-sized input).
   */
  clear(): void {
    this.scratchOut = workList();
  }

  filter(parent: ParentNode): void {
    const list = parent.childNodes;
    const n = list.length;
    const c = this.c;
    // Most lists keep every child where it is: they are read once, with no scratch list and no store.
    let first = 0;
    for (let node; first < n && actionFor((node = list[first]!), c) === KEEP; first++) {
      if (node.nodeType === ELEMENT_NODE) this.keepElement(node as Element);
    }
    if (first === n) return;
    const scratchOut = this.scratchOut;
    const inputLists = this.inputLists;
    const inputIndex = this.inputIndex;
    // Children list[0..first) stay; the others kept are scratchOut[0..kept) (a count, not `length`, which is a
    // runtime call to reset).
    let kept = 0;
    inputLists.push(list);
    inputIndex.push(first);
    // One pass over the rest, with the children of replaced elements read in their place.
    while (inputLists.length > 0) {
      const top = inputLists.length - 1;
      const input = inputLists[top]!;
      const i = inputIndex[top]!;
      if (i >= input.length) {
        inputLists.pop();
        inputIndex.pop();
        // A replaced element ends up with no children.
        if (input !== list) input.length = 0;
        continue;
      }
      inputIndex[top] = i + 1;
      const node = input[i]!;
      const action = actionFor(node, c);
      if (action === KEEP) {
        scratchOut[kept++] = node;
        node.parentNode = parent;
        if (node.nodeType === ELEMENT_NODE) this.keepElement(node as Element);
      } else {
        node.parentNode = null;
        // Replace with children: read its children next, in place. A replaced template's children are its
        // template contents, as in Chromium, which sanitizes while parsing (whatwg/html#12756: content that
        // would go into a replaced element goes to its nearest kept ancestor); sanitizing the parsed tree as the
        // WICG draft does would drop them. They are read first, then any child nodes the template has.
        // (An empty list is pushed too: it is popped at once.)
        if (action === REPLACE) {
          const el = node as Element;
          inputLists.push(el.childNodes);
          inputIndex.push(0);
          if (el.content !== null) {
            inputLists.push(el.content.childNodes);
            inputIndex.push(0);
          }
        }
      }
    }
    for (let k = 0; k < kept; ) list[first++] = scratchOut[k++]!;
    list.length = first;
  }

  /**
   * A kept element: its attributes are filtered; its children and, for templates, its template contents go to be
   * sanitized in turn.
   */
  private keepElement(el: Element): void {
    sanitizeAttributes(el, this.c, this.extra, this.urlsChecked);
    const work = this.descend;
    if (work !== null) {
      if (el.childNodes.length > 0) work.push(el);
      if (el.content !== null && el.content.childNodes.length > 0) work.push(el.content);
    }
  }
}

/**
 * The filter last given back (see takeChildListFilter). It also keeps the filter's object shape alive between calls,
 * holding no tree: V8 drops a shape no object has at a full collection, and with it the optimized code of the walks
 * that use it (test/map-anchor.test.ts; see `mapAnchor` in parser.ts). It is made from a walk's own configuration and
 * check (one made at load, with other values in its fields, did not keep the walks' code), and holds nothing a caller
 * passed (no report callback).
 */
let spareChildListFilter: ChildListFilter | null = null;

/**
 * A ChildListFilter for `c` and `extra`: the one last given back (releaseChildListFilter) when it was made for the
 * same, else a new one. For a walk that calls nothing of the caller's (no report): a filter is not shared by two
 * walks at once. (Making its object and three lists per call cost comment-sized inputs about 0.6%.) `extra`, when not
 * null, is URL hardening (`sanitize()`), which removes every script-capable URL from every URL-valued attribute: the
 * filter then skips the navigating URL step, whose `javascript:` URLs it removes anyway (the step read each link's
 * scheme a second time and looked up each element's navigating attributes: 2% of `sanitize()`'s instructions).
 */
export function takeChildListFilter(c: CompiledConfig, extra: AttributeCheck | null): ChildListFilter {
  const f = spareChildListFilter;
  spareChildListFilter = null;
  return f !== null && f.c === c && f.extra === extra ? f : new ChildListFilter(c, extra, null, extra !== null);
}

/** Gives a filter back once its walk is done, holding no node (see takeChildListFilter). */
export function releaseChildListFilter(f: ChildListFilter): void {
  f.clear();
  spareChildListFilter = f;
}

/**
 * "sanitize" with a canonical configuration: for `safe`, "remove unsafe" is applied to a copy of the
 * configuration and `javascript:` navigation URLs are removed; then "sanitize core".
 */
export function sanitizeNode(root: ParentNode, config: CanonicalSanitizerConfig, safe: boolean): void {
  let c = config;
  if (safe) {
    c = cloneConfig(config);
    removeUnsafeFromConfig(c);
  }
  sanitizeCore(root, compileConfig(c, safe));
}

/**
 * The compiled form of a Sanitizer's configuration for one flavour, cached in its state (the `compiled` slot) until
 * the Sanitizer changes.
 */
export function compiledSanitizer(sanitizer: SanitizerHandle, safe: boolean): CompiledConfig {
  const st = sanitizerState(sanitizer);
  let cache = st.compiled;
  if (cache === null || cache.revision !== st.revision) st.compiled = cache = { revision: st.revision, safe: null, unsafe: null };
  if (safe) {
    if (cache.safe === null) {
      const c = cloneConfig(st.config);
      removeUnsafeFromConfig(c);
      cache.safe = compileConfig(c, true);
    }
    return cache.safe;
  }
  return (cache.unsafe ??= compileConfig(st.config, false));
}

/** "sanitize" with a Sanitizer; `extra` (see AttributeCheck) is htmlsift's, not the draft's. */
export function sanitizeWith(root: ParentNode, sanitizer: SanitizerHandle, safe: boolean, extra: AttributeCheck | null = null): void {
  sanitizeCore(root, compiledSanitizer(sanitizer, safe), extra);
}

/** What setHTML-like methods accept as `options.sanitizer`. */
export type SanitizerSpec = Sanitizer | SanitizerConfig | SanitizerPreset;

/**
 * The part of "set and filter HTML" after parsing: get the sanitizer instance from the options (the default is
 * "default" when `safe`, `{}` otherwise; a dictionary is validated and throws a TypeError when invalid), then
 * sanitize `fragment` in place. `fragment` is the result of parsing `html` with the context element, as setHTML
 * does. Returns `fragment`.
 *
 * Also the caller's job, from "set and filter HTML" step 1: with `safe` and a `script` context element (HTML
 * or SVG namespace), setHTML inserts nothing at all (see `setHTMLSkipsContext`).
 */
export function sanitizeFragmentLikeSetHTML(
  fragment: DocumentFragment,
  sanitizer: SanitizerSpec | undefined,
  safe: boolean,
): DocumentFragment {
  if (fragment.nodeType !== DOCUMENT_FRAGMENT_NODE) throw new TypeError('sanitizeFragmentLikeSetHTML: not a DocumentFragment');
  sanitizeWith(fragment, sanitizerHandleFromOptions({ sanitizer }, safe), safe);
  return fragment;
}

/** "set and filter HTML" step 1: whether setHTML (safe) on this context element does nothing. */
export function setHTMLSkipsContext(contextLocalName: string, contextNamespace: string | null, safe: boolean): boolean {
  return safe && contextLocalName === 'script' && (contextNamespace === HTML_NS || contextNamespace === SVG_NS);
}
