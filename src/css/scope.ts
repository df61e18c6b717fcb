/**
 * Stylesheet scoping: confine a stylesheet (e.g. an email's `<style>` elements) to one container element.
 *
 * Guarantee: every style rule in the output has a selector whose subject is the scope element or a descendant
 * of it. Each complex selector S of a top-level style rule becomes `SCOPE S` (descendant combinator); a leading
 * `html`, `body` or `:root` compound maps to `SCOPE` itself. The subject of `SCOPE S` is reached from a descendant
 * of SCOPE through descendant, child and sibling combinators only, so it stays inside SCOPE whatever the
 * pseudo-classes in S say. Anything that could break that reasoning is refused (fail closed): the column
 * combinator, `&` outside nesting, `:host`, `:host-context`, `:scope`, `::slotted`, `::part`, any pseudo-element
 * not on a short allow-list, sibling combinators right after the scope element, and anything that does not
 * parse as a plain selector (a URL, or a function that is not a known functional pseudo-class, drops the rule:
 * see FUNCTIONAL_PSEUDO_CLASSES for the nested rule Chromium would read as a declaration). Nested style rules
 * are kept only when their selector has no `&` (so they are relative to the already confined parent) and does
 * not start with `+` or `~` (the parent may be the scope element itself, whose siblings are outside). The
 * output is re-serialized from the checked tokens.
 *
 * At-rules: `@import`, `@charset`, `@namespace` are always dropped; others only survive when listed in
 * `allowAtRules` and known here: `media`, `supports`, `container` (contents scoped recursively), `font-face`
 * (descriptors filtered; remote `src` only with `remoteFonts: true`), `keyframes` (declarations filtered).
 * Note that `@font-face` and `@keyframes` names are global: allowing them lets a sheet define fonts/animations
 * that the host page could pick up by name.
 *
 * Declarations in every block go through the declaration filter (`filterDeclaration`) with the caller's options.
 */
import {
  type AtRule,
  type ComponentValue,
  Cursor,
  type Declaration,
  type Pending,
  type QualifiedRule,
  type SimpleBlock,
  declarationsOf,
  nextBlockItem,
  nextTopLevelRule,
  parseComponentValues,
  splitOnCommas,
  streamStylesheet,
} from './parser.js';
import type { CssToken } from './tokenizer.js';
import { type DeclarationFilterOptions, asciiLower, filterOne } from './declarations.js';
import { checkDeclarationOptions, checkList, checkObject, checkOptional, checkText } from './check.js';
import {
  T_LBRACE,
  T_RBRACE,
  T_SEMI,
  T_WS as WS,
  TokenWriter,
  declarationTokens,
  flattenComponentValues,
  isFlat,
  serializeComponentValues,
} from './serialize.js';

export type ScopableAtRule = 'media' | 'supports' | 'container' | 'font-face' | 'keyframes';

export interface ScopeOptions {
  /** The container's selector: one compound selector such as `.htmlsift-email-123` or `#mail`. */
  scope: string;
  /** At-rules to keep (default `['media', 'supports']`). */
  allowAtRules?: readonly ScopableAtRule[];
  /** Declaration policy applied to every declaration (style rules, @font-face, keyframes). */
  declarations: DeclarationFilterOptions;
  /** Keep `@font-face` rules whose `src` has url()s (default false: such rules are dropped). */
  remoteFonts?: boolean;
  /** Keep nested style rules (CSS nesting) when they can be kept safely (default true). */
  nesting?: boolean;
}

export interface ScopeRemoval {
  what: 'rule' | 'selector' | 'at-rule' | 'declaration';
  /** Selector text, at-rule name or property. */
  detail: string;
  reason: string;
}

export interface ScopeResult {
  css: string;
  /** What was removed, in source order. */
  removed: ScopeRemoval[];
}

const T_COMMA: CssToken = { type: 'comma' };

const BLOCKED_PSEUDO = new Set(['host', 'host-context', 'scope', 'slotted', 'part', 'deep', 'shadow']);
/**
 * The functional pseudo-classes a selector may use. No other function may appear anywhere in a selector: one
 * not right after a `:` is no selector syntax, and browsers drop a selector with an unknown pseudo-class. This is
 * also what keeps a nested rule from being read otherwise by the browser: Chromium reads `prop:value{…}` as a
 * declaration, not as the nested rule the standard makes of it, when the value holds `var()`, `env()`,
 * `attr()`, `if()` or a custom function (`p{background:var(--x,url(http://remote/z)){}}`); as a selector, such
 * a prelude has one of those as a pseudo-class (`:var(`) or after it.
 * (One string split: a name alone in a string literal, such as 'state', is one the build leaves unshortened on
 * every object, the tokenizer's own `state` included; see scripts/internal-names.ts.)
 */
const FUNCTIONAL_PSEUDO_CLASSES = new Set(
  'is where not has nth-child nth-last-child nth-of-type nth-last-of-type lang dir state -webkit-any'.split(' '),
);
/** Pseudo-elements (after `::`, or the legacy single-colon four) that stay attached to their element. */
const ALLOWED_PSEUDO_ELEMENTS = new Set([
  'before',
  'after',
  'first-line',
  'first-letter',
  'marker',
  'placeholder',
  'selection',
  'file-selector-button',
  '-webkit-input-placeholder',
  '-moz-placeholder',
  '-moz-selection',
  '-webkit-details-marker',
]);
const FONT_FACE_DESCRIPTORS = new Set([
  'font-family',
  'src',
  'font-style',
  'font-weight',
  'font-stretch',
  'font-display',
  'unicode-range',
  'font-feature-settings',
  'font-variation-settings',
  'ascent-override',
  'descent-override',
  'line-gap-override',
  'size-adjust',
]);

/** One simple selector or a combinator of a complex selector, as component values. */
interface Part {
  kind: 'simple' | 'combinator';
  /** For simple selectors: 'type' (incl. universal/namespace), 'root' (`:root`), or 'other'. */
  sort?: 'type' | 'root' | 'other';
  values: ComponentValue[];
}

/** `out.push(...items)` without spreading: a spread passes every item as an argument (200,000 overflow the stack). */
function pushAll<T>(out: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) out.push(items[i]!);
}

function isDelim(v: ComponentValue | undefined, ch: string): boolean {
  return v !== undefined && v.type === 'delim' && v.value === ch;
}

/**
 * Scan a selector's whole token tree for things that are never allowed anywhere in it: `&` (unless nesting
 * allows it), at-keywords, `{}` blocks, bad tokens, URLs, blocked pseudo-classes/elements, and any function but
 * the functional pseudo-classes (FUNCTIONAL_PSEUDO_CLASSES).
 */
function deepCheck(values: readonly ComponentValue[]): string | null {
  // (A selector without functions or blocks is its own token list.)
  const tokens = isFlat(values) ? (values as readonly CssToken[]) : flattenComponentValues(values);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'delim' && t.value === '&') return '& is not allowed here';
    if (t.type === 'at-keyword' || t.type === '{' || t.type === '}' || t.type === 'semicolon') return 'unexpected token';
    if (t.type === 'bad-string' || t.type === 'bad-url' || t.type === 'CDO' || t.type === 'CDC') return 'unexpected token';
    if (t.type === 'delim' && t.value === '\\') return 'unexpected token';
    if (t.type === 'url') return 'unexpected token';
    // (A function after `::` is a pseudo-element, which parseComplex refuses as such; its arguments are checked
    // here like any.)
    if (
      t.type === 'function' &&
      !(tokens[i - 1]?.type === 'colon' && (tokens[i - 2]?.type === 'colon' || FUNCTIONAL_PSEUDO_CLASSES.has(asciiLower(t.value))))
    ) {
      return 'unknown function';
    }
    if (t.type === 'colon') {
      const n = tokens[i + 1];
      if (n !== undefined && (n.type === 'ident' || n.type === 'function') && BLOCKED_PSEUDO.has(asciiLower(n.value))) {
        return `:${n.value} cannot be confined`;
      }
    }
  }
  return null;
}

/**
 * Split one complex selector (no top-level commas) into simple selectors and combinators, checking it is a
 * plain selector. `relative` allows a leading combinator (nested rules). Returns a reason string on failure.
 */
function parseComplex(values: readonly ComponentValue[], relative: boolean): Part[] | string {
  const parts: Part[] = [];
  let i = 0;
  const n = values.length;
  let pendingWs = false;
  while (i < n) {
    const v = values[i]!;
    if (v.type === 'whitespace') {
      pendingWs = true;
      i++;
      continue;
    }
    if (v.type === 'delim' && (v.value === '>' || v.value === '+' || v.value === '~')) {
      const prev = parts[parts.length - 1];
      if (prev === undefined ? !relative : prev.kind === 'combinator') return 'misplaced combinator';
      parts.push({ kind: 'combinator', values: [v] });
      pendingWs = false;
      i++;
      continue;
    }
    if (v.type === 'delim' && v.value === '|' && isDelim(values[i + 1], '|')) return 'column combinator';
    // A simple selector starts here; whitespace before it (after a compound) is a descendant combinator.
    if (pendingWs && parts[parts.length - 1]?.kind === 'simple') parts.push({ kind: 'combinator', values: [WS] });
    pendingWs = false;
    // Type selector or universal, with an optional namespace prefix: [ns|]name, *|name, |name.
    if (v.type === 'ident' || isDelim(v, '*') || isDelim(v, '|')) {
      if (parts[parts.length - 1]?.kind === 'simple') return 'type selector must come first in a compound';
      const start = i;
      if (!isDelim(v, '|')) i++;
      if (isDelim(values[i], '|')) {
        const nm = values[i + 1];
        if (nm === undefined || !(nm.type === 'ident' || isDelim(nm, '*'))) return 'bad namespace prefix';
        i += 2;
      }
      parts.push({ kind: 'simple', sort: 'type', values: values.slice(start, i) });
      continue;
    }
    if (v.type === 'hash') {
      if (!v.id) return 'invalid id selector';
      parts.push({ kind: 'simple', sort: 'other', values: [v] });
      i++;
      continue;
    }
    if (isDelim(v, '.')) {
      const nm = values[i + 1];
      if (nm?.type !== 'ident') return 'bad class selector';
      parts.push({ kind: 'simple', sort: 'other', values: [v, nm] });
      i += 2;
      continue;
    }
    if (v.type === 'block' && v.open === '[') {
      parts.push({ kind: 'simple', sort: 'other', values: [v] });
      i++;
      continue;
    }
    if (v.type === 'colon') {
      const a = values[i + 1];
      if (a?.type === 'colon') {
        // pseudo-element
        const b = values[i + 2];
        if (b?.type !== 'ident' || !ALLOWED_PSEUDO_ELEMENTS.has(asciiLower(b.value))) return 'pseudo-element not allowed';
        parts.push({ kind: 'simple', sort: 'other', values: [v, a, b] });
        i += 3;
        continue;
      }
      if (a?.type === 'ident') {
        const name = asciiLower(a.value);
        if (BLOCKED_PSEUDO.has(name)) return `:${name} cannot be confined`;
        parts.push({ kind: 'simple', sort: name === 'root' ? 'root' : 'other', values: [v, a] });
        i += 2;
        continue;
      }
      if (a?.type === 'func') {
        const name = asciiLower(a.name);
        if (BLOCKED_PSEUDO.has(name)) return `:${name}() cannot be confined`;
        parts.push({ kind: 'simple', sort: 'other', values: [v, a] });
        i += 2;
        continue;
      }
      return 'bad pseudo-class';
    }
    return 'unexpected token in selector';
  }
  const end = parts[parts.length - 1];
  if (end === undefined) return 'empty selector';
  if (end.kind === 'combinator') return 'trailing combinator';
  // Legacy pseudo-elements written with one colon are fine; nothing may follow a pseudo-element but
  // user-action pseudo-classes, which cannot move the subject either.
  return parts;
}

/** Failures that are about confinement rather than syntax: only the selector is dropped, not the rule. */
function isUnsafeReason(reason: string): boolean {
  return (
    reason.includes('cannot be confined') ||
    reason === 'pseudo-element not allowed' ||
    reason === '& is not allowed here' ||
    reason === 'column combinator' ||
    reason === 'sibling of the scope element' ||
    reason === 'sibling of the parent rule'
  );
}

function isRootLike(p: Part): boolean {
  if (p.kind !== 'simple') return false;
  if (p.sort === 'root') return true;
  if (p.sort === 'type') {
    const v = p.values;
    // Only un-prefixed html/body.
    if (v.length === 1 && v[0]!.type === 'ident') {
      const name = asciiLower(v[0].value);
      return name === 'html' || name === 'body';
    }
  }
  return false;
}

/** Group parts into compounds separated by combinators. */
function compounds(parts: Part[]): { compounds: Part[][]; combinators: Part[] } {
  const cs: Part[][] = [[]];
  const combs: Part[] = [];
  for (const p of parts) {
    if (p.kind === 'combinator') {
      combs.push(p);
      cs.push([]);
    } else cs[cs.length - 1]!.push(p);
  }
  return { compounds: cs, combinators: combs };
}

/** Confine one top-level complex selector to the scope. Returns the new values or a reason. */
function scopeSelector(values: readonly ComponentValue[], scope: readonly ComponentValue[]): ComponentValue[] | string {
  const deep = deepCheck(values);
  if (deep !== null) return deep;
  const parsed = parseComplex(values, false);
  if (typeof parsed === 'string') return parsed;
  const { compounds: cs, combinators } = compounds(parsed);
  // Leading compounds that name the root (html, body, :root) map to the scope element itself.
  let k = 0;
  const kept: Part[] = [];
  while (k < cs.length && cs[k]!.some(isRootLike)) {
    // Everything in a root compound except type/universal and :root stays on the scope element.
    for (const p of cs[k]!) if (p.sort === 'other') kept.push(p);
    const comb = combinators[k];
    k++;
    if (comb === undefined) break;
    const c = comb.values[0]!;
    if (c.type === 'delim' && (c.value === '+' || c.value === '~')) return 'sibling of the scope element';
    if (k < cs.length && !cs[k]!.some(isRootLike)) break;
  }
  const out: ComponentValue[] = [...scope];
  for (const p of kept) pushAll(out, p.values);
  if (k > 0 && k >= cs.length) return out; // the selector is the scope element itself
  // The combinator after the scope: descendant when nothing was mapped, else the one that followed the root.
  const first = k === 0 ? WS : combinators[k - 1]!.values[0]!;
  // The rest of the selector, from compound k on, with canonical combinators.
  for (let j = k; j < cs.length; j++) {
    const c = j === k ? first : combinators[j - 1]!.values[0]!;
    if (c.type === 'whitespace') out.push(WS);
    else out.push(WS, c, WS);
    for (const p of cs[j]!) pushAll(out, p.values);
  }
  return out;
}

/** Check a nested (relative) selector: no `&`, plain selector syntax. */
function checkNestedSelector(values: readonly ComponentValue[]): ComponentValue[] | string {
  const deep = deepCheck(values);
  if (deep !== null) return deep;
  const parsed = parseComplex(values, true);
  if (typeof parsed === 'string') return parsed;
  // `+ x` / `~ x` relative to a parent that may be the scope element itself (from `body {}`) would reach its
  // siblings: refused. Later sibling combinators start from a strict descendant and are fine.
  const lead = parsed[0]!;
  if (lead.kind === 'combinator' && lead.values[0]!.type === 'delim' && lead.values[0].value !== '>') {
    return 'sibling of the parent rule';
  }
  const out: ComponentValue[] = [];
  for (const p of parsed) {
    if (p.kind === 'combinator') {
      const c = p.values[0]!;
      if (c.type === 'whitespace') out.push(WS);
      else {
        if (out.length > 0) out.push(WS);
        out.push(c, WS);
      }
    } else pushAll(out, p.values);
  }
  return out;
}

function trim(values: readonly ComponentValue[]): ComponentValue[] {
  let a = 0;
  let b = values.length;
  while (a < b && values[a]!.type === 'whitespace') a++;
  while (b > a && values[b - 1]!.type === 'whitespace') b--;
  return values.slice(a, b);
}

/** Parse and validate the scope selector: a single compound selector. */
function parseScope(scope: string): ComponentValue[] {
  const values = trim(parseComponentValues(scope));
  const parsed = parseComplex(values, false);
  if (typeof parsed === 'string' || parsed.some((p) => p.kind === 'combinator') || deepCheck(values) !== null) {
    throw new Error(`scopeStylesheet: scope must be one compound selector, got ${JSON.stringify(scope)}`);
  }
  // Only type, class, id and attribute selectors, and at least one that is not a type selector: `*` or `div`
  // alone would match everywhere and confine nothing.
  let distinctive = false;
  for (const p of parsed) {
    if (p.values[0]?.type === 'colon') {
      throw new Error(`scopeStylesheet: scope must not use pseudo-classes or pseudo-elements`);
    }
    if (p.sort === 'other') distinctive = true;
  }
  if (!distinctive) throw new Error('scopeStylesheet: scope needs a class, id or attribute selector');
  return values;
}

function hasUrl(values: readonly ComponentValue[]): boolean {
  for (const t of flattenComponentValues(values)) {
    if (t.type === 'url' || t.type === 'bad-url') return true;
    if (t.type === 'function') {
      const n = asciiLower(t.value);
      if (n === 'url' || n === 'src') return true;
    }
  }
  return false;
}

function preludeIsClean(prelude: readonly ComponentValue[]): boolean {
  for (const t of flattenComponentValues(prelude)) {
    if (t.type === 'bad-string' || t.type === 'bad-url' || t.type === 'url') return false;
    if (t.type === '{' || t.type === '}' || t.type === 'semicolon') return false;
    if (t.type === 'delim' && t.value === '\\') return false;
    if (t.type === 'function' && asciiLower(t.value) === 'url') return false;
  }
  return true;
}

type Context = 'top' | 'style' | 'font-face' | 'keyframes' | 'keyframe';

const SCOPABLE_AT_RULES: readonly string[] = ['media', 'supports', 'container', 'font-face', 'keyframes'] satisfies ScopableAtRule[];

function checkScopeOptions(cssText: unknown, options: unknown): void {
  const fn = 'scopeStylesheet';
  checkText(cssText, fn);
  checkObject(options, fn, 'options');
  const o = options as Record<string, unknown>;
  checkText(o.scope, fn, 'options.scope');
  const at = o.allowAtRules;
  if (at !== undefined) {
    checkList(at, fn, 'options.allowAtRules');
    for (const name of at as unknown[]) {
      if (!SCOPABLE_AT_RULES.includes(name as string)) {
        throw new TypeError(`${fn}: options.allowAtRules: ${typeof name === 'string' ? JSON.stringify(name) : typeof name} is not one of ${SCOPABLE_AT_RULES.join(', ')}`);
      }
    }
  }
  checkDeclarationOptions(o.declarations, fn, 'options.declarations');
  checkOptional(o.remoteFonts, 'boolean', fn, 'options.remoteFonts');
  checkOptional(o.nesting, 'boolean', fn, 'options.nesting');
}

/** A block being written: where its items come from, its context, and which of its items it takes. */
interface Frame {
  cur: Cursor;
  ctx: Context;
  /** The sheet's own rules (not a block's contents). */
  top: boolean;
  /** Items outside this are left out without a report (a keyframe takes declarations, `@keyframes` rules). */
  take: 'all' | 'declarations' | 'rules';
}

const AT_FONT_FACE: CssToken = { type: 'at-keyword', value: 'font-face' };

/**
 * Scope a stylesheet. Throws only for an invalid `scope` option.
 *
 * The sheet is read and written in one pass, in source order: a rule's block is parsed when the rule is written,
 * one item at a time, and what is kept goes straight to the serializer, so neither the parsed rules nor the scoped
 * ones are ever held whole (a sheet of 100,000 rules keeps only its component values). Removals are reported in
 * source order.
 */
export function scopeStylesheet(cssText: string, options: ScopeOptions): ScopeResult {
  checkScopeOptions(cssText, options);
  const scope = parseScope(options.scope);
  const allowAt = new Set<string>(options.allowAtRules ?? ['media', 'supports']);
  const nesting = options.nesting !== false;
  const removed: ScopeRemoval[] = [];
  const out = new TokenWriter();
  // The declaration filter's options: the caller's, and in @font-face, its descriptors only.
  const fontFaceDeclarations: DeclarationFilterOptions = {
    ...options.declarations,
    allow: (property, value, info) => {
      if (!FONT_FACE_DESCRIPTORS.has(property)) return false;
      return property === 'src' || property === 'font-family' || property === 'unicode-range'
        ? true
        : options.declarations.allow(property, value, info);
    },
  };
  // The block of the rule the parser returned last, if it has one: read from the token stream as the rule is written
  // (Cursor.enter), or grouped when a dropped rule's block is read past.
  const pending: Pending[] = [];
  const stack: Frame[] = [{ cur: streamStylesheet(cssText), ctx: 'top', top: true, take: 'all' }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const item = frame.top ? nextTopLevelRule(frame.cur, pending) : nextBlockItem(frame.cur, pending);
    const block = pending.length > 0 ? pending.pop()!.block : null;
    // Nothing before the next item is read again.
    frame.cur.commit();
    if (item === null) {
      stack.pop();
      if (!frame.top) out.push(T_RBRACE);
      continue;
    }
    if (item.type === 'declaration') {
      if (frame.take === 'rules') continue;
      if (frame.ctx === 'top') {
        removed.push({ what: 'declaration', detail: item.name, reason: 'declaration outside a style rule' });
      } else writeDeclaration(item, frame.ctx);
      continue;
    }
    if (frame.take === 'declarations') continue;
    const inner = item.type === 'qualified-rule' ? openQualified(item, frame.ctx) : openAtRule(item, frame.ctx, block);
    if (inner !== null) {
      out.push(T_LBRACE);
      const cur = block === null ? new Cursor([]) : frame.cur.enter(block);
      stack.push({ cur: cur ?? new Cursor(block!.value), ctx: inner.ctx, top: false, take: inner.take });
    }
  }
  return { css: out.finish(), removed };

  function writeDeclaration(d: Declaration, ctx: Context): void {
    const r = filterOne(d, ctx === 'font-face' ? fontFaceDeclarations : options.declarations);
    if (r.type === 'dropped') {
      removed.push({ what: 'declaration', detail: r.removal.property, reason: r.removal.reason });
      return;
    }
    declarationTokens(r, out);
    out.push(T_SEMI);
  }

  /** Writes a kept rule's prelude; returns what its block takes, or null when the rule is dropped. */
  function openQualified(rule: QualifiedRule, ctx: Context): Pick<Frame, 'ctx' | 'take'> | null {
    const text = (): string => serializeComponentValues(trim(rule.prelude));
    if (ctx === 'keyframes') {
      // Keyframe selectors: from, to, percentages, commas.
      for (const v of rule.prelude) {
        const ok =
          v.type === 'whitespace' ||
          v.type === 'comma' ||
          v.type === 'percentage' ||
          (v.type === 'ident' && ['from', 'to'].includes(asciiLower(v.value)));
        if (!ok) {
          removed.push({ what: 'rule', detail: text(), reason: 'bad keyframe selector' });
          return null;
        }
      }
      flattenComponentValues(trim(rule.prelude), out);
      return { ctx: 'keyframe', take: 'declarations' };
    }
    if (ctx !== 'top' && ctx !== 'style') {
      removed.push({ what: 'rule', detail: text(), reason: 'rule not allowed here' });
      return null;
    }
    if (ctx === 'style' && !nesting) {
      removed.push({ what: 'rule', detail: text(), reason: 'nested rules disabled' });
      return null;
    }
    const selectors: ComponentValue[][] = [];
    for (const sel of splitOnCommas(rule.prelude)) {
      const t = trim(sel);
      const r = ctx === 'top' ? scopeSelector(t, scope) : checkNestedSelector(t);
      if (typeof r === 'string') {
        if (!isUnsafeReason(r)) {
          // A syntax error invalidates the whole selector list in browsers: drop the rule, as they would.
          removed.push({ what: 'rule', detail: text(), reason: `invalid selector (${r})` });
          return null;
        }
        removed.push({ what: 'selector', detail: serializeComponentValues(t), reason: r });
      } else selectors.push(r);
    }
    if (selectors.length === 0) {
      removed.push({ what: 'rule', detail: text(), reason: 'no selector could be confined' });
      return null;
    }
    for (let i = 0; i < selectors.length; i++) {
      if (i > 0) {
        out.push(T_COMMA);
        out.push(WS);
      }
      flattenComponentValues(selectors[i]!, out);
    }
    return { ctx: 'style', take: 'all' };
  }

  /** Writes a kept at-rule's name and prelude; returns what its block takes, or null when it is dropped or done. */
  function openAtRule(rule: AtRule, ctx: Context, block: SimpleBlock | null): Pick<Frame, 'ctx' | 'take'> | null {
    const name = asciiLower(rule.name);
    const drop = (reason: string): null => {
      removed.push({ what: 'at-rule', detail: '@' + name, reason });
      return null;
    };
    if (name === 'import' || name === 'charset' || name === 'namespace') return drop('never allowed');
    const conditional = name === 'media' || name === 'supports' || name === 'container';
    if (!allowAt.has(name as ScopableAtRule)) return drop('at-rule not allowed');
    if (block === null) return drop('at-rule without a block');
    if (!preludeIsClean(rule.prelude)) return drop('bad prelude');
    const prelude = trim(rule.prelude);
    if (conditional) {
      if (ctx !== 'top' && ctx !== 'style') return drop('at-rule not allowed here');
      writeAtKeyword(name, prelude);
      return { ctx, take: 'all' };
    }
    if (name === 'font-face') {
      if (ctx !== 'top') return drop('at-rule not allowed here');
      if (prelude.length > 0) return drop('bad prelude');
      // Its declarations, all of them first: one with a remote source drops the rule.
      const decls = declarationsOf(block.value);
      if (!options.remoteFonts && decls.some((d) => hasUrl(d.value))) return drop('remote font');
      out.push(AT_FONT_FACE);
      out.push(T_LBRACE);
      for (const d of decls) writeDeclaration(d, 'font-face');
      out.push(T_RBRACE);
      return null;
    }
    if (name === 'keyframes') {
      if (ctx !== 'top') return drop('at-rule not allowed here');
      const p = prelude;
      if (p.length !== 1 || !(p[0]!.type === 'ident' || p[0]!.type === 'string')) return drop('bad keyframes name');
      writeAtKeyword(name, p);
      return { ctx: 'keyframes', take: 'rules' };
    }
    return drop('at-rule not supported');
  }

  function writeAtKeyword(name: string, prelude: readonly ComponentValue[]): void {
    out.push({ type: 'at-keyword', value: name });
    if (prelude.length > 0) out.push(WS);
    flattenComponentValues(prelude, out);
  }
}
