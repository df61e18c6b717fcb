/**
 * The htmlsift Policy: a declarative, JSON-friendly description of what the engine does on top of the
 * Sanitizer API configuration (only `urls.rewrite` and `hooks` are functions).
 *
 * Names. Element keys are HTML local names (`"b"`, lowercase) or prefixed for foreign content:
 * `"svg:circle"`, `"math:mi"` (case as in the DOM, e.g. `"svg:foreignObject"`). Attribute keys are local
 * names in no namespace (`"align"`, `"viewBox"`), or the namespaced attributes the parser creates on foreign
 * elements: `"xlink:href"`, `"xml:lang"`, `"xmlns:xlink"`.
 */
import type { Attr, Element, ParentNode } from '../dom.js';
import type { SanitizerSpec } from '../sanitizer-api/sanitize.js';
import type { UrlKind } from '../url/url-policy.js';

export type { UrlKind };

/** CSS properties an attribute can be turned into (`toStyle`), each with its own strict value check. */
export type StyleTransformProperty =
  | 'text-align'
  | 'vertical-align'
  | 'background-color'
  | 'color'
  | 'width'
  | 'height'
  | 'font-family'
  | 'font-size'
  | 'white-space';

export interface Policy {
  /**
   * The Sanitizer API configuration that decides what is kept (step 3). Default: the built-in safe default. A frozen
   * dictionary is converted once for every policy that names it (see `compilePolicy`).
   */
  sanitizer?: SanitizerSpec;
  /** Keep comments (sets the sanitizer configuration's `comments`). */
  comments?: boolean;
  /** Keep processing instructions (true: all targets; false: none). */
  processingInstructions?: boolean;
  /** Structural and per-element rules, by element key (`"b"`, `"svg:circle"`). */
  elements?: Record<string, ElementRule>;
  /** Attribute rules for every element, by attribute key. A per-element rule for the same attribute wins. */
  attributes?: Record<string, AttributeRule>;
  /** URL-valued attributes and CSS `url()`s. Default: http, https, mailto, tel; relative URLs kept. */
  urls?: UrlRules;
  /** `style` attributes: a property allow-list (default: `DEFAULT_STYLE_PROPERTIES`), or false to drop them. */
  style?: StyleRules | false;
  /** `class` attributes: allowed names and prefixes (omitted: classes are left alone), or false to drop them. */
  classes?: ClassRules | false;
  /** `id`/`name` prefixing against DOM clobbering, with same-document references fixed. Omitted/false: off. */
  ids?: IdRules | false;
  hooks?: PolicyHooks;
  /** Elements deeper than this are unwrapped, their text kept (the context's children, or a document's `html`, are at depth 1). Default 256. */
  maxDepth?: number;
}

export interface ElementRule {
  /** Remove the element with its content. */
  drop?: boolean;
  /** Replace the element with its children. */
  unwrap?: boolean;
  /** Rename the element (same namespace); its attributes are kept unless `attributes` says otherwise. */
  rename?: string;
  /** Attribute rules for this element (matched by the element's name before renaming). */
  attributes?: Record<string, AttributeRule>;
  /**
   * Attributes set on every element of this (final) name after sanitizing, e.g. `a`:
   * `{ rel: 'noopener noreferrer', target: '_blank' }`. `rel` tokens are merged with the existing ones.
   */
  force?: Record<string, string>;
}

export interface AttributeRule {
  drop?: boolean;
  /** New attribute key (`"data-align"`, `"href"`); if the element already has it, the existing one wins. */
  rename?: string;
  /** Move the value into the `style` attribute as this property, when it passes the property's syntax check. */
  toStyle?: StyleTransformProperty;
  /** The value must match, or the attribute is dropped. */
  value?: ValueRule;
  /** Treat the attribute as URL-valued: one URL, a srcset, or a space-separated list of URLs. */
  url?: 'url' | 'srcset' | 'list';
}

export interface ValueRule {
  oneOf?: string[];
  /** A regular expression source, matched against the whole value. */
  pattern?: string;
  maxLength?: number;
  /** ASCII case-insensitive `oneOf` and `pattern` (default false). */
  ignoreCase?: boolean;
}

export interface UrlRewriteContext {
  /** The element's local name. */
  element: string;
  /** The attribute's qualified name (`href`, `xlink:href`, `srcset`, `style`). */
  attribute: string;
  kind: UrlKind;
  /**
   * The URL as written, entity-decoded and cleaned as the URL parser starts (leading and trailing spaces and control
   * characters, and every tab and newline, taken out), before it was parsed: for a rewrite that resolves URLs
   * against a base of its own (`http:x`, relative against an http base, is absolute without one).
   */
  written: string;
}

export interface UrlKindRules {
  schemes?: string[];
  relative?: 'keep' | 'drop' | 'resolve';
  dataMimeTypes?: string[];
}

export interface UrlRules extends UrlKindRules {
  /** Base URL for `relative: 'resolve'` (and the scheme check of relative URLs). */
  base?: string;
  /** Per kind of URL (`image`, `link`, `media`, `form`...), overriding schemes/relative/dataMimeTypes. */
  kinds?: Partial<Record<UrlKind, UrlKindRules>>;
  /** Called for every URL that passed the checks (each srcset candidate, each CSS url()): a new URL, or null to drop. */
  rewrite?: (url: string, context: UrlRewriteContext) => string | null;
}

export interface StyleRules {
  /** Allowed property names (lowercase); custom properties are never allowed. */
  properties?: string[];
  /** Keep `!important` declarations (default false). */
  allowImportant?: boolean;
}

export interface ClassRules {
  allow?: string[];
  prefixes?: string[];
}

export interface IdRules {
  /** Prefix for `id` (and `name`) values, e.g. `"user-content-"`. */
  prefix: string;
  /** Also prefix `name` on a, form, img, iframe, object, embed, map (default true). */
  name?: boolean;
  /** Which same-document references are prefixed: all (default), or only those naming an id in the output. */
  references?: 'all' | 'existing';
}

/** What a hook returns: nothing (no change), or an action. Hooks may also edit the node they are given. */
export type ElementHookResult = void | undefined | 'keep' | 'drop' | 'unwrap' | string | { rename: string };
export type AttributeHookResult = void | undefined | 'keep' | 'drop' | { rename: string };

/**
 * The context handed to hooks. One object is reused for every call: read it during the call only.
 */
export interface PolicyContext {
  /** Depth of the node (the context's children are at depth 1). */
  readonly depth: number;
  /** The parent the node is (or, if unwrapped, whose children end up) in. */
  readonly parent: ParentNode;
  /** A short CSS-like path to the node, e.g. `div:nth-child(2) > a`. */
  path(): string;
}

export interface PolicyHooks {
  /**
   * Runs in document order (pipeline step 2, before the Sanitizer API filter, so what a hook produces is still
   * filtered), after the element's declarative rule. A hook may edit the element itself (attributes, name,
   * children) but not its siblings or ancestors.
   */
  onElement?: (el: Element, ctx: PolicyContext) => ElementHookResult;
  /**
   * Runs for each attribute of a kept element, after the declarative attribute rules. The hook sees the element as
   * its earlier calls left it (dropped attributes gone, renames made). On an element with more than 32 attributes,
   * `el.attributes` is a proxy of the element's array while the hook runs (so that drops cost no more than the
   * list's length in all: they are applied when something looks at the list); the element has its own array back
   * when the last call returns.
   */
  onAttribute?: (el: Element, attr: Attr, ctx: PolicyContext) => AttributeHookResult;
}

/** One removal or change made by the policy engine. */
export interface PolicyReportEntry {
  stage: 'policy';
  action:
    | 'drop-element'
    | 'unwrap-element'
    | 'rename-element'
    | 'drop-attribute'
    | 'rename-attribute'
    | 'change-attribute'
    | 'add-attribute';
  /** The rule that acted, e.g. `elements["b"].rename`, `attributes["align"].toStyle`, `urls`, `maxDepth`. */
  rule: string;
  /** The element, as a policy key (`b`, `svg:circle`): in step-2 entries its name before any rename. */
  element: string;
  /** The attribute's qualified name, for attribute actions. */
  attribute?: string;
  /**
   * Where: a short CSS-like path, e.g. `div:nth-child(2) > a` (the last 12 steps). `:nth-child(n)` counts
   * element children as the stage reads them: children of an unwrapped element are counted in the parent they
   * move into, in its place.
   */
  path: string;
  /** Old and new values or names, when something was changed. */
  from?: string;
  to?: string;
  /** Why, when the rule has several reasons (a URL's scheme, a removed CSS property...). */
  reason?: string;
}
