/**
 * Declaration filtering for `style` attributes and style rule bodies.
 *
 * Every declaration is parsed with the CSS Syntax 3 parser, checked, and re-serialized from tokens, so what the
 * browser reads is exactly what was checked. Rules applied to every declaration, before and after `allow`:
 *  - always dropped: `behavior`, `-ms-behavior`, `-moz-binding`; values containing `expression()`, `element()`,
 *    `-moz-element()`, a bad-string or bad-url token, an unmatched `)`/`]`/`}`, a lone `\\`, or a `{}` block;
 *  - URLs: url tokens, `url("...")`/`src("...")` functions and the bare strings of `image()`, `image-set()`,
 *    `-webkit-image-set()`, `cross-fade()`, `-webkit-cross-fade()` go through `rewriteUrl`; without `rewriteUrl`,
 *    or when it returns null, the declaration is dropped. Substitution functions (`var()`, `env()`, `attr()`,
 *    `if()`, custom `--f()`) inside those functions drop the declaration, since what they substitute would
 *    bypass `rewriteUrl`, and so does any other string inside them but that of `type()` (one in a block or in
 *    another function is none of their arguments, and is not left unchecked).
 * Property names are ASCII-lowercased (and serialized lowercased). Custom properties (`--x`) keep their
 * case-sensitive name and are handed to `allow` like any property (info.custom = true); they are dropped unless
 * `allow` accepts them, and their URLs are checked like any other since `var()` can carry them anywhere.
 */
import { type ComponentValue, type Declaration, parseComponentValues, parseDeclarationList } from './parser.js';
import { flattenComponentValues, isFlat, serializeComponentValues, serializeDeclarations } from './serialize.js';
import { checkDeclarationOptions, checkList, checkObject, checkOptional, checkText } from './check.js';

export interface DeclarationInfo {
  important: boolean;
  custom: boolean;
}

export type UrlContext = 'url' | 'image';

export interface DeclarationFilterOptions {
  /**
   * Decide on one declaration: true keeps it, false drops it, a string replaces its value (the replacement is
   * parsed and checked like the original). `property` is lowercased unless it is a custom property. `value` is as
   * written: its URLs have not been through `rewriteUrl` yet.
   */
  allow(property: string, value: readonly ComponentValue[], info: DeclarationInfo): boolean | string;
  /**
   * Rewrite or refuse (null) a URL found in a value; called only for a declaration `allow` keeps (and for the URLs
   * of a replacement it returns). Without it, declarations holding URLs are dropped.
   */
  rewriteUrl?(url: string, info: { property: string; context: UrlContext }): string | null;
  /** Keep `!important` (default true); when false, important declarations are dropped. */
  allowImportant?: boolean;
}

export interface Removal {
  property: string;
  reason: string;
  /** The declaration's value as it was parsed (serialized). */
  value: string;
}

export interface DeclarationFilterResult {
  /** Serialized kept declarations, `a:b;c:d`. */
  css: string;
  declarations: Declaration[];
  removed: Removal[];
}

const DENIED_PROPERTIES = new Set(['behavior', '-ms-behavior', '-moz-binding', 'binding']);
const DENIED_FUNCTIONS = new Set(['expression', '-ms-expression', 'element', '-moz-element', '-webkit-element']);
const URL_FUNCTIONS = new Set(['url', 'src']);
const SUBSTITUTION_FUNCTIONS = new Set(['var', 'env', 'attr', 'if', 'inherit', 'random-item']);
const IMAGE_FUNCTIONS = new Set(['image', 'image-set', '-webkit-image-set', 'cross-fade', '-webkit-cross-fade']);

/** ASCII lowercase (CSS names are ASCII case-insensitive; non-ASCII letters must stay as they are). */
export function asciiLower(s: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      out += s.slice(start, i) + String.fromCharCode(c + 32);
      start = i + 1;
    }
  }
  return start === 0 ? s : out + s.slice(start);
}

/** Copy a component value tree (blocks and functions; tokens are immutable and shared), iteratively. */
export function cloneValues(values: readonly ComponentValue[]): ComponentValue[] {
  // Most values (`red`, `0 4px`) hold no block or function: a copy of the list is the whole clone.
  if (isFlat(values)) return values.slice();
  const root: ComponentValue[] = [];
  const stack: { src: readonly ComponentValue[]; dst: ComponentValue[] }[] = [{ src: values, dst: root }];
  while (stack.length > 0) {
    const { src, dst } = stack.pop()!;
    for (const v of src) {
      if (v.type === 'block') {
        const b: ComponentValue = { type: 'block', open: v.open, value: [] };
        dst.push(b);
        stack.push({ src: v.value, dst: b.value });
      } else if (v.type === 'func') {
        const f: ComponentValue = { type: 'func', name: v.name, value: [] };
        dst.push(f);
        stack.push({ src: v.value, dst: f.value });
      } else dst.push(v);
    }
  }
  return root;
}

/** Whether checkValue could rewrite something in `values`: a url token, or anything inside a function. */
function mayHoldUrl(values: readonly ComponentValue[]): boolean {
  for (let i = 0; i < values.length; i++) {
    const type = values[i]!.type;
    if (type === 'url' || type === 'func' || type === 'block') return true;
  }
  return false;
}

/** True if some function with one of these (lowercase) names occurs anywhere in the values. */
export function containsFunction(values: readonly ComponentValue[], names: readonly string[]): boolean {
  checkList(values, 'containsFunction', 'the component values');
  checkList(names, 'containsFunction', 'the names');
  for (const t of flattenComponentValues(values)) {
    if (t.type === 'function' && names.includes(asciiLower(t.value))) return true;
  }
  return false;
}

/** filterOne's first check of a value: every URL kept as written, and counted (`urlsSeen`). */
let urlsSeen = 0;
function keepUrl(url: string): string {
  urlsSeen++;
  return url;
}

/** What `rewriteUrl` gave for `url`: a string or null, else a TypeError. */
function rewritten(r: unknown, url: string): string | null {
  if (r === null || typeof r === 'string') return r;
  throw new TypeError(`rewriteUrl: expected a string or null, got ${r === undefined ? 'undefined' : typeof r} for ${JSON.stringify(url)}`);
}

/**
 * Check a value and pass its URLs through `rewriteUrl`, in place. Returns null when the value is acceptable,
 * otherwise the reason to drop it. Iterative over nesting.
 */
export function checkValue(
  value: ComponentValue[],
  property: string,
  rewriteUrl: DeclarationFilterOptions['rewriteUrl'],
): string | null {
  checkList(value, 'checkValue', 'the value');
  checkOptional(rewriteUrl, 'function', 'checkValue', 'rewriteUrl');
  // Stack entries: a list, the lowercased name of the function owning it ('' when not a function), and whether
  // it is inside a URL-taking function.
  const stack: { list: ComponentValue[]; fn: string; inUrl: boolean }[] = [{ list: value, fn: '', inUrl: false }];
  while (stack.length > 0) {
    const { list, fn, inUrl } = stack.pop()!;
    let urlArgs = 0;
    for (let i = 0; i < list.length; i++) {
      const v = list[i]!;
      switch (v.type) {
        case 'bad-string':
        case 'bad-url':
          return 'invalid token';
        case ')':
        case ']':
        case '}':
          return 'unmatched closing token';
        case 'delim':
          // A lone backslash can only be written before a newline: it would not round-trip inside a block.
          if (v.value === '\\') return 'stray backslash';
          break;
        case 'block':
          if (v.open === '{') return '{} block in value';
          stack.push({ list: v.value, fn: '', inUrl });
          break;
        case 'func': {
          const name = asciiLower(v.name);
          if (DENIED_FUNCTIONS.has(name)) return `${name}() is not allowed`;
          // var()/env()/attr()/if() or a custom function could substitute a string that then acts as a URL
          // without passing through rewriteUrl (e.g. `src(var(--u))`, `image-set(var(--u) 1x)`).
          if (inUrl && (SUBSTITUTION_FUNCTIONS.has(name) || name.startsWith('--'))) return `${name}() inside a URL function`;
          const urlish = URL_FUNCTIONS.has(name) || IMAGE_FUNCTIONS.has(name);
          stack.push({ list: v.value, fn: name, inUrl: inUrl || urlish });
          break;
        }
        case 'url': {
          const r = rewriteUrl ? rewritten(rewriteUrl(v.value, { property, context: 'url' }), v.value) : null;
          if (r === null) return rewriteUrl ? 'url refused' : 'urls not allowed';
          list[i] = { type: 'url', value: r };
          break;
        }
        case 'string': {
          const isUrl = URL_FUNCTIONS.has(fn);
          if (!isUrl && !IMAGE_FUNCTIONS.has(fn)) {
            // Inside a URL-taking function only type() takes a string that is no URL; one in a block or another
            // function there is none of its arguments (`image-set(("http://x") 1x)`): refused, not left unchecked.
            if (inUrl && fn !== 'type') return 'string inside a URL function';
            break;
          }
          if (isUrl && ++urlArgs > 1) return 'malformed url()';
          const r = rewriteUrl ? rewritten(rewriteUrl(v.value, { property, context: isUrl ? 'url' : 'image' }), v.value) : null;
          if (r === null) return rewriteUrl ? 'url refused' : 'urls not allowed';
          list[i] = { type: 'string', value: r };
          break;
        }
        default:
          break;
      }
    }
    if (URL_FUNCTIONS.has(fn) && urlArgs === 0) return 'malformed url()';
  }
  return null;
}

/**
 * Filter parsed declarations. Kept declarations are returned (names normalized, URLs rewritten); the rest are
 * reported with a reason.
 */
export function filterDeclarationList(
  decls: readonly Declaration[],
  options: DeclarationFilterOptions,
): { kept: Declaration[]; removed: Removal[] } {
  checkList(decls, 'filterDeclarationList', 'the declarations');
  checkDeclarationOptions(options, 'filterDeclarationList');
  return filterList(decls, options);
}

/** filterDeclarationList, with its arguments already checked. */
function filterList(decls: readonly Declaration[], options: DeclarationFilterOptions): { kept: Declaration[]; removed: Removal[] } {
  const kept: Declaration[] = [];
  const removed: Removal[] = [];
  for (const d of decls) {
    const r = filterOne(d, options);
    if (r.type === 'declaration') kept.push(r);
    else removed.push(r.removal);
  }
  return { kept, removed };
}

/** What filterDeclaration gives for a declaration it drops. */
export interface Dropped {
  type: 'dropped';
  removal: Removal;
}

/** Filter one parsed declaration: the declaration to keep (names normalized, URLs rewritten), or why it is dropped. */
export function filterDeclaration(d: Declaration, options: DeclarationFilterOptions): Declaration | Dropped {
  checkObject(d, 'filterDeclaration', 'the declaration');
  checkDeclarationOptions(options, 'filterDeclaration');
  return filterOne(d, options);
}

/** filterDeclaration, with its options already checked. */
export function filterOne(d: Declaration, options: DeclarationFilterOptions): Declaration | Dropped {
  const custom = d.name.startsWith('--');
  const property = custom ? d.name : asciiLower(d.name);
  let value = d.value;
  let reason: string | null = null;
  if (DENIED_PROPERTIES.has(property)) reason = 'property is never allowed';
  else if (d.important && options.allowImportant === false) reason = '!important not allowed';
  else {
    // checkValue rewrites URLs in place: a value that may hold one is copied, so the caller's tree stays as parsed.
    // `allow` decides on the value as written, and only the URLs of a declaration it keeps go to `rewriteUrl` (a
    // proxy callback is not asked for the URL of a property the policy drops): the first check keeps every URL.
    const urls = options.rewriteUrl !== undefined && mayHoldUrl(d.value);
    if (urls) value = cloneValues(d.value);
    const seen = urlsSeen;
    reason = checkValue(value, property, urls ? keepUrl : options.rewriteUrl);
    const rewrite = urlsSeen !== seen;
    if (reason === null) {
      const verdict: unknown = options.allow(property, value, { important: d.important, custom });
      if (verdict !== true && verdict !== false && typeof verdict !== 'string') {
        throw new TypeError(`allow: expected true, false or a string, got ${verdict === null ? 'null' : typeof verdict} for ${JSON.stringify(property)}`);
      }
      if (verdict === false) reason = 'property not allowed';
      else if (verdict === true) {
        if (rewrite) reason = checkValue(value, property, options.rewriteUrl);
      } else {
        value = parseComponentValues(verdict);
        while (value.length > 0 && value[0]!.type === 'whitespace') value.shift();
        while (value.length > 0 && value[value.length - 1]!.type === 'whitespace') value.pop();
        reason = checkValue(value, property, options.rewriteUrl);
        if (reason === null && value.some((v) => v.type === 'semicolon' || (v.type === 'delim' && v.value === '!'))) {
          reason = 'replacement is not a single value';
        }
        if (reason !== null) reason = 'replacement: ' + reason;
      }
    }
    if (reason === null && value.length === 0 && !custom) reason = 'empty value';
  }
  if (reason !== null) return { type: 'dropped', removal: { property, reason, value: serializeComponentValues(d.value) } };
  if (property === d.name && value === d.value) return d;
  return { type: 'declaration', name: property, value, important: d.important };
}

/** Filter a `style` attribute's text ("parse a list of declarations", then filter and re-serialize). */
export function filterDeclarations(styleText: string, options: DeclarationFilterOptions): DeclarationFilterResult {
  checkText(styleText, 'filterDeclarations');
  checkDeclarationOptions(options, 'filterDeclarations');
  const { kept, removed } = filterList(parseDeclarationList(styleText), options);
  return { css: serializeDeclarations(kept), declarations: kept, removed };
}
