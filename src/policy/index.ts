/**
 * The htmlsift policy engine: policies, their compilation and extension, and the pipeline stages.
 *
 * A `Policy` (see `types.ts`) is declarative and JSON-friendly except for `urls.rewrite` and `hooks`:
 *
 *   sanitize(html, { policy: {
 *     sanitizer: { elements: [...], attributes: ['href', 'style', ...] },   // what is kept (Sanitizer API)
 *     elements: { b: { rename: 'strong' }, center: { unwrap: true }, marquee: { drop: true },
 *                 font: { rename: 'span', attributes: { color: { toStyle: 'color' } } },
 *                 a: { force: { rel: 'noopener noreferrer', target: '_blank' } } },
 *     attributes: { align: { toStyle: 'text-align' }, 'xlink:href': { rename: 'href' } },
 *     urls: { schemes: ['https', 'mailto'], relative: 'resolve', base: 'https://site/',
 *             kinds: { image: { schemes: ['https', 'data'] } }, rewrite: (url, { kind }) => ... },
 *     style: { properties: ['color', 'text-align'] }, classes: { prefixes: ['lang-'] },
 *     ids: { prefix: 'user-content-' }, hooks: { onElement, onAttribute }, maxDepth: 256,
 *   } })
 *
 * Where each rule acts (see `src/sanitize.ts` for the pipeline):
 *  - step 2, before the Sanitizer API filter: element drop/unwrap/rename, `onElement`, attribute
 *    drop/rename/value/toStyle, `onAttribute`. Whatever they produce is then filtered by the sanitizer, so a
 *    rename target or a `style` made by `toStyle` must be kept by it (a rename target or a `toStyle` that the
 *    policy's own sanitizer can never keep is refused at compile time);
 *  - step 4, after it: `maxDepth`, URL-valued attributes (also `meta` refresh, SVG `url(#id)` references and
 *    CSS `url()`s), `style` (always parsed and re-serialized when a policy is given: `DEFAULT_STYLE_PROPERTIES`
 *    unless `style` says otherwise), `classes`, `ids` and their references, `force`.
 *
 * Decisions worth knowing:
 *  - `sanitizer` omitted means the built-in default configuration, whatever the call's `safe` flag; a
 *    dictionary is converted once (as the safe methods convert it) into a Sanitizer kept by the compiled
 *    policy; `comments`/`processingInstructions` are applied to it (a Sanitizer given is then copied, not
 *    modified). `sanitize(html, { sanitizer })` still overrides the policy's sanitizer for that call.
 *  - a rename applies once (a rename target with its own drop/unwrap/rename rule is refused); attribute rules of
 *    an element rule are matched by the element's input name, `force` by its final name.
 *  - hooks run after the declarative rules of the node, in document order; returning nothing means no
 *    change. A hook that throws (or returns a non-action) aborts the call with a `PolicyHookError` naming the
 *    hook and the node's path; nothing is returned, so nothing unfiltered escapes.
 *  - same-document fragment links (`#x`) are references when `ids` is on: prefixed, not rewritten.
 *  - the report gets removals and changes; pure re-serializations (a URL's `href` form, CSS whitespace) are not
 *    reported. Reports are built only when a listener is given.
 *  - compile once: `compilePolicy(policy)` returns a `CompiledPolicy` that `sanitize` accepts as `policy`; a
 *    frozen policy object is compiled once and cached, and so are a frozen `sanitizer` dictionary and a frozen
 *    `style` rule for every policy that names them (a policy built per call around constants, as `sanitizeEmail`
 *    builds its own, compiles only the rest). Compiled policies naming the same frozen dictionary share one
 *    Sanitizer: to change what a policy keeps, give it another `sanitizer` (`extendPolicy` replaces it) instead of
 *    calling the shared Sanitizer's methods.
 *  - `extendPolicy(base, changes)` deep-merges (see `extend.ts` for the list `{ add, remove }` edits and `null`).
 */
export type * from './types.js';
export {
  type CompiledPolicy,
  DEFAULT_MAX_DEPTH,
  DEFAULT_STYLE_PROPERTIES,
  DEFAULT_URL_SCHEMES,
  compilePolicy,
  isCompiledPolicy,
  withPolicyEngine,
} from './compile.js';
export { PolicyHookError, applyPolicyAttributes, applyPolicyStructure } from './engine.js';
export {
  type AttributeRuleChanges,
  type ElementRuleChanges,
  type ListChange,
  type PolicyChanges,
  type UrlRulesChanges,
  extendPolicy,
} from './extend.js';
export { STYLE_TRANSFORM_PROPERTIES, styleValueFor } from './style-transforms.js';
