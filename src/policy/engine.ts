/**
 * The htmlsift policy engine: the two stages the pipeline (`src/sanitize.ts`) runs around the Sanitizer API.
 *
 *  - `applyPolicyStructure` (step 2, before the Sanitizer API filter): element rules (drop, unwrap, rename),
 *    the `onElement` hook, attribute rules (drop, rename, value rules, `toStyle`) and the `onAttribute` hook.
 *    Whatever this stage produces (renamed elements, a new `style` attribute, a hook's edits) is then filtered by
 *    the Sanitizer API configuration.
 *  - `applyPolicyAttributes` (step 4, after it): the depth limit, URL-valued attributes, `style` attributes,
 *    classes, `id`/`name` prefixes and same-document references, and forced attributes (which, set after the
 *    filter, are not subject to it: they are the policy author's own values).
 *
 * Each stage is one walk in document order over the tree, with explicit stacks (no recursion: 100,000-deep
 * trees are normal input). A parent's child list is rewritten in place while it is read; only a parent that
 * has a child unwrapped into it gets a new array. Unwrapped elements' children are read in their place, as
 * children of the parent they end up in, so every rule sees them there. When the policy has hooks, each child
 * list is read from a copy and rebuilt, so a hook that edits the tree around its node cannot derail the walk.
 *
 * Hooks run in document order. A hook that throws aborts the whole call with a `PolicyHookError` naming the
 * hook and the node's path (the error's `cause` is what the hook threw): nothing is returned, so nothing
 * unfiltered can escape, and a broken hook is not silently turned into missing content.
 *
 * Reports are built only when a listener is given.
 */
import {
  Attr,
  CYCLE_CHECK_DEPTH,
  ELEMENT_NODE,
  HTML_NS,
  MATHML_NS,
  SVG_NS,
  XLINK_NS,
  asciiLowercase,
  childrenOf,
  isAttrLike,
  noCycle,
  type ChildNode,
  type Element,
  type ParentNode,
} from '../dom.js';
import { checkValue, filterDeclarations, parseComponentValues, serializeComponentValues } from '../css/index.js';
// (The url namespace's checked entry points are for callers outside: the engine's policies were checked when compiled.)
import { checkUrl, checkUrlList, urlKind, type UrlContext, type UrlKind, type UrlPolicy } from '../url/url-policy.js';
import { filterSrcset } from '../url/srcset.js';
import type { CompiledAttributeRule, CompiledPolicy, ForcedAttribute, PolicyInternals } from './compile.js';
import { INTERNALS, isCompiledPolicy, policyEngineFor } from './link.js';
import { styleValueFor } from './style-transforms.js';
import type { Policy, PolicyContext, PolicyReportEntry } from './types.js';

export { isCompiledPolicy, type CompiledPolicy };
export type { Policy, PolicyReportEntry };

type Report = ((e: PolicyReportEntry) => void) | undefined;

/** Thrown when a hook throws or returns something that is not an action. */
export class PolicyHookError extends Error {
  override name = 'PolicyHookError';
  readonly hook: 'onElement' | 'onAttribute';
  readonly path: string;
  constructor(hook: 'onElement' | 'onAttribute', path: string, message: string, cause?: unknown) {
    super(`policy.hooks.${hook} ${message} at ${path === '' ? '(root)' : path}`, cause === undefined ? undefined : { cause });
    this.hook = hook;
    this.path = path;
  }
}

// ---------------------------------------------------------------------------------------------
// The walk

const KEEP = 0;
const DROP = 1;
const UNWRAP = 2;

const MAX_PATH_SEGMENTS = 12;

/**
 * What hooks see as their context: reads the walk's state. A class, not an object literal of getters and arrow
 * functions: closures kept in an object's fields were kept alive by V8's young-generation collector after the
 * walk, and with them the walk and the whole tree (see StackOfOpenElements.optionListener).
 */
class WalkContext implements PolicyContext {
  readonly #walk: Walk;
  constructor(walk: Walk) {
    this.#walk = walk;
  }
  get depth(): number {
    return this.#walk.depth;
  }
  get parent(): ParentNode {
    return this.#walk.parent;
  }
  path(): string {
    return this.#walk.path();
  }
}

/**
 * One walk over a tree. `visit` decides on each element (KEEP, DROP or UNWRAP); kept elements are descended
 * into (template contents as their children). Text, comments and the rest are kept.
 *
 * The stack of open parents ("frames") is kept as parallel arrays, and the lists being read (a parent's
 * children, then the children of elements unwrapped into it) on one shared stack: a frame's lists start at
 * `inBase[frame]`, and a frame is closed only once all of its lists are read, so the lists of deeper frames are
 * always above. No object is allocated per node or per level.
 */
abstract class Walk {
  // Frames.
  private readonly fParent: ParentNode[] = [];
  private readonly fOwner: (Element | null)[] = [];
  private readonly fNth: number[] = [];
  private readonly fList: ChildNode[][] = [];
  private readonly fW: number[] = [];
  private readonly fOut: (ChildNode[] | null)[] = [];
  private readonly fChanged: boolean[] = [];
  private readonly fCount: number[] = [];
  private readonly fBase: number[] = [];
  // Lists being read, and whose children each is (null for the root's).
  private readonly inList: ChildNode[][] = [];
  private readonly inIdx: number[] = [];
  private readonly inOwner: (Element | null)[] = [];
  /**
   * The elements whose lists are being read, once `CYCLE_CHECK_DEPTH` lists are: a hook that puts an ancestor among
   * an element's children makes a cycle, which the walk would follow until memory runs out (see `noCycle`).
   */
  private onStack: Set<unknown> | null = null;
  /** Number of open frames: the depth of the elements being visited. */
  depth = 0;
  parent!: ParentNode;
  current: Element | null = null;
  currentNth = 0;
  protected snapshot = false;
  /** What hooks see: one object per walk, reading the walk's state. */
  protected readonly context: PolicyContext;

  constructor() {
    this.context = Object.freeze(new WalkContext(this));
  }

  protected abstract visit(el: Element): number;

  path(): string {
    const segs: string[] = [];
    const cur = this.current;
    if (cur !== null) segs.push(segment(cur, this.currentNth));
    for (let d = this.depth - 1; d >= 1 && segs.length < MAX_PATH_SEGMENTS; d--) segs.push(segment(this.fOwner[d]!, this.fNth[d]!));
    const truncated = this.depth > MAX_PATH_SEGMENTS;
    segs.reverse();
    return (truncated ? '… > ' : '') + segs.join(' > ');
  }

  private open(parent: ParentNode, owner: Element | null, nth: number, list: ChildNode[]): void {
    const d = this.depth++;
    this.fParent[d] = parent;
    this.fOwner[d] = owner;
    this.fNth[d] = nth;
    this.fList[d] = list;
    this.fW[d] = 0;
    this.fOut[d] = this.snapshot ? [] : null;
    this.fChanged[d] = false;
    this.fCount[d] = 0;
    this.fBase[d] = this.inList.length;
    this.read(owner, this.snapshot ? list.slice() : list);
  }

  /** Starts reading `list`, the children of `owner` (kept or unwrapped). */
  private read(owner: Element | null, list: ChildNode[]): void {
    if (owner !== null && this.inList.length >= CYCLE_CHECK_DEPTH) this.onStack = noCycle('policy.hooks', this.inOwner, this.onStack, owner);
    this.inList.push(list);
    this.inIdx.push(0);
    this.inOwner.push(owner);
  }

  protected run(root: ParentNode): void {
    const rootList = childrenOf(root);
    if (rootList.length === 0) return;
    const inList = this.inList;
    const inIdx = this.inIdx;
    const snapshot = this.snapshot;
    this.open(root.nodeType === ELEMENT_NODE && (root as Element).content !== null ? (root as Element).content! : root, null, 0, rootList);
    while (this.depth > 0) {
      const d = this.depth - 1;
      const base = this.fBase[d]!;
      const top = inList.length - 1;
      if (top < base) {
        // Done with this parent: write its new child list.
        const out = this.fOut[d]!;
        if (out !== null) this.fParent[d]!.childNodes = out;
        else if (this.fChanged[d]) this.fList[d]!.length = this.fW[d]!;
        this.fParent[d] = this.fList[d] = undefined as never;
        this.fOwner[d] = this.fOut[d] = null;
        this.depth = d;
        continue;
      }
      const input = inList[top]!;
      const i = inIdx[top]!;
      if (i >= input.length) {
        inList.pop();
        inIdx.pop();
        const owner = this.inOwner.pop();
        if (this.onStack !== null) this.onStack.delete(owner);
        // An unwrapped element keeps no children.
        if (top > base && !snapshot) input.length = 0;
        continue;
      }
      inIdx[top] = i + 1;
      const node = input[i]!;
      const parent = this.fParent[d]!;
      let action = KEEP;
      if (node.nodeType === ELEMENT_NODE) {
        this.parent = parent;
        this.current = node as Element;
        this.currentNth = ++this.fCount[d]!;
        action = this.visit(node as Element);
        this.current = null;
      }
      if (action === KEEP) {
        const out = this.fOut[d]!;
        if (out !== null) out.push(node);
        else if (top === base) this.fList[d]![this.fW[d]!++] = node;
        else {
          const o = this.fList[d]!.slice(0, this.fW[d]!);
          o.push(node);
          this.fOut[d] = o;
        }
        node.parentNode = parent;
        if (node.nodeType === ELEMENT_NODE) {
          const el = node as Element;
          const kids = childrenOf(el);
          if (kids.length > 0) this.open(el.content ?? el, el, this.fCount[d]!, kids);
        }
      } else {
        this.fChanged[d] = true;
        node.parentNode = null;
        if (action === UNWRAP) {
          const kids = childrenOf(node as Element);
          if (kids.length > 0) {
            this.read(node as Element, snapshot ? kids.slice() : kids);
            if (snapshot) kids.length = 0;
          }
        }
      }
    }
  }
}

/** An attribute with a non-empty string name and a string value (what a hook must leave). */
function isStringAttribute(a: unknown): boolean {
  return isAttrLike(a) && a.localName !== '';
}

function segment(el: Element, nth: number): string {
  return nth > 1 ? `${el.localName}:nth-child(${nth})` : el.localName;
}

function validName(name: string, html: boolean): boolean {
  return /^[A-Za-z][^\t\n\f\r \/>\u0000"'<=]*$/.test(name) && !(html && /[A-Z]/.test(name));
}

/** Renames an element in place; a template's contents become its children. */
function renameElement(el: Element, localName: string): void {
  if (el.content !== null) {
    const kids = el.content.childNodes;
    for (const k of kids) k.parentNode = el;
    el.childNodes = el.childNodes.length === 0 ? kids : el.childNodes.concat(kids);
    el.content = null;
  }
  el.localName = localName;
}

// ---------------------------------------------------------------------------------------------
// Step 2: structure

class StructureWalk extends Walk {
  constructor(
    private readonly p: PolicyInternals,
    private readonly report: Report,
  ) {
    super();
    this.snapshot = p.hooks.onElement !== undefined || p.hooks.onAttribute !== undefined;
  }

  apply(root: ParentNode): void {
    this.run(root);
  }

  private emit(action: PolicyReportEntry['action'], rule: string, original: string, extra?: Partial<PolicyReportEntry>): void {
    this.report!({ stage: 'policy', action, rule, element: original, path: this.path(), ...extra });
  }

  protected visit(el: Element): number {
    const p = this.p;
    const report = this.report;
    const rule = p.elements !== null ? p.elements.get(el.namespaceURI, el.localName) : undefined;
    const original = report !== undefined ? elementKey(el.namespaceURI, el.localName) : '';
    if (rule !== undefined) {
      if (rule.action === 'drop') {
        if (report) this.emit('drop-element', rule.key + '.drop', original);
        return DROP;
      }
      if (rule.action === 'unwrap') {
        if (report) this.emit('unwrap-element', rule.key + '.unwrap', original);
        return UNWRAP;
      }
      if (rule.action === 'rename') {
        renameElement(el, rule.rename!);
        if (report) this.emit('rename-element', rule.key + '.rename', original, { from: original, to: el.localName });
      }
    }
    const onElement = p.hooks.onElement;
    if (onElement !== undefined) {
      const before = el.localName;
      let r: unknown;
      try {
        r = onElement(el, this.context);
      } catch (e) {
        throw new PolicyHookError('onElement', this.path(), `threw (${e instanceof Error ? e.message : String(e)})`, e);
      }
      if (r !== undefined && r !== 'keep') {
        if (r === 'drop') {
          if (report) this.emit('drop-element', 'hooks.onElement', original);
          return DROP;
        }
        if (r === 'unwrap') {
          if (report) this.emit('unwrap-element', 'hooks.onElement', original);
          return UNWRAP;
        }
        const name = typeof r === 'string' ? r : typeof r === 'object' && r !== null ? (r as { rename?: unknown }).rename : undefined;
        if (typeof name !== 'string' || !validName(name, el.namespaceURI === HTML_NS) || name === 'template') {
          throw new PolicyHookError('onElement', this.path(), `returned an invalid action (${describe(r)})`);
        }
        renameElement(el, name);
        if (report) this.emit('rename-element', 'hooks.onElement', original, { from: before, to: name });
      } else if (report && el.localName !== before) {
        this.emit('rename-element', 'hooks.onElement', original, { from: before, to: el.localName });
      }
      this.checkEdits(el, 'onElement');
    }
    if (el.attributes.length > 0) {
      if (p.attributes !== null || (rule !== undefined && rule.attributes !== null)) {
        this.attributeRules(el, rule?.attributes ?? null, original);
      }
      if (p.hooks.onAttribute !== undefined) {
        this.attributeHook(el, original);
        this.checkEdits(el, 'onAttribute');
      }
    }
    return KEEP;
  }

  /**
   * What a hook may have left on the element it edited, checked before anything reads it: a name, an attribute list,
   * and attribute names and values that are strings (a number set as a value failed later, with an error naming no
   * hook).
   */
  private checkEdits(el: Element, hook: 'onElement' | 'onAttribute'): void {
    let bad: string | null = null;
    if (typeof el.localName !== 'string' || el.localName === '') bad = 'an element name that is not a string';
    else if (!Array.isArray(el.attributes)) bad = 'attributes that are not a list';
    else if (!el.attributes.every(isStringAttribute)) bad = 'an attribute whose name or value is not a string';
    if (bad !== null) throw new PolicyHookError(hook, this.path(), 'left ' + bad);
  }

  private attributeRules(el: Element, local: PolicyInternals['attributes'], original: string): void {
    const global = this.p.attributes;
    const report = this.report;
    const attrs = el.attributes;
    let style: string | null = null;
    let w = 0;
    for (let r = 0; r < attrs.length; r++) {
      const a = attrs[r]!;
      const rule: CompiledAttributeRule | undefined =
        (local !== null ? local.get(a.namespaceURI, a.localName) : undefined) ??
        (global !== null ? global.get(a.namespaceURI, a.localName) : undefined);
      if (rule === undefined) {
        attrs[w++] = a;
        continue;
      }
      if (rule.drop) {
        if (report) this.emit('drop-attribute', rule.key + '.drop', original, { attribute: a.name });
        continue;
      }
      if (rule.value !== null && !valueMatches(a.value, rule.value)) {
        if (report) this.emit('drop-attribute', rule.key + '.value', original, { attribute: a.name, from: a.value });
        continue;
      }
      if (rule.toStyle !== null) {
        const v = styleValueFor(rule.toStyle, a.value);
        if (v === null) {
          if (report) this.emit('drop-attribute', rule.key + '.toStyle', original, { attribute: a.name, from: a.value, reason: `not a valid ${rule.toStyle} value` });
        } else {
          const decl = rule.toStyle + ':' + v;
          style = style === null ? decl : style + ';' + decl;
          if (report) this.emit('drop-attribute', rule.key + '.toStyle', original, { attribute: a.name, from: a.value, to: decl, reason: 'moved to style' });
        }
        continue;
      }
      if (rule.rename !== null) {
        const t = rule.rename;
        let exists = false;
        for (let k = 0; k < attrs.length; k++) {
          const b = attrs[k]!;
          if (k !== r && b.localName === t.localName && b.namespaceURI === t.namespace) exists = true;
        }
        const from = a.name;
        if (exists) {
          if (report) this.emit('drop-attribute', rule.key + '.rename', original, { attribute: from, reason: 'the element already has the target attribute' });
          continue;
        }
        a.localName = t.localName;
        a.namespaceURI = t.namespace;
        a.prefix = t.prefix;
        if (report) this.emit('rename-attribute', rule.key + '.rename', original, { attribute: from, from, to: a.name });
      }
      attrs[w++] = a;
    }
    attrs.length = w;
    if (style !== null) {
      let existing: Attr | null = null;
      for (const a of attrs) if (a.namespaceURI === null && a.localName === 'style') existing = a;
      // Presentational hints come first: the element's own declarations win, as they do in CSS.
      if (existing !== null) existing.value = style + ';' + existing.value;
      else attrs.push(new Attr('style', style));
    }
  }

  private attributeHook(el: Element, original: string): void {
    const hook = this.p.hooks.onAttribute!;
    const report = this.report;
    const attrs = el.attributes.slice(); // the hook may edit the list
    // Linear in the number of attributes (a tag can carry 100,000): each attribute is looked for where it should
    // be if no hook edited the list (a search only when one did), and renames check for a clash in a count of the
    // no-namespace names, rebuilt whenever the list is not the one it was counted from: another array, or another
    // length (a hook's setAttribute or removeAttribute of a new or an existing name). Not seen by the count: one
    // hook call that adds and removes as many attributes, or renames other attributes through their localName.
    // On a long list, drops wait in `lazy` until something looks at the list (see LazyDrops).
    let lazy = attrs.length > LAZY_DROPS_FROM ? new LazyDrops(el) : null;
    let expected = 0;
    let names: Map<string, number> | null = null;
    let namesOf: Attr[] | null = null;
    let namesLength = -1;
    try {
      for (const a of attrs) {
        if (positionOf(lazy !== null ? lazy.list : el.attributes, a, expected) < 0) continue;
        const from = a.name;
        let r: unknown;
        try {
          r = hook(el, a, this.context);
        } catch (e) {
          throw new PolicyHookError('onAttribute', this.path() + ` [${from}]`, `threw (${e instanceof Error ? e.message : String(e)})`, e);
        }
        if (lazy !== null && el.attributes !== lazy.proxy) {
          // The hook gave the element another list: the rest of the pass edits that one, at once.
          lazy.flush();
          lazy = null;
        }
        const list = lazy !== null ? lazy.list : el.attributes;
        let i = positionOf(list, a, expected);
        if (r === undefined || r === 'keep') {
          if (i >= 0) expected = i + 1;
          continue;
        }
        if (r === 'drop') {
          if (i >= 0) {
            // A count still in step with the list follows the drop; one the hook put out of step is dropped (the
            // splice could bring the length back to the counted one).
            if (namesOf !== list || namesLength !== lengthOf(list, lazy)) names = null;
            expected = remove(list, i, lazy);
            if (names !== null) {
              uncount(names, a);
              namesLength = lengthOf(list, lazy);
            }
          }
          if (report) this.emit('drop-attribute', 'hooks.onAttribute', original, { attribute: from });
          continue;
        }
        const name = typeof r === 'object' && r !== null ? (r as { rename?: unknown }).rename : undefined;
        if (typeof name !== 'string' || !/^[^\t\n\f\r \/>\u0000"'<=]+$/.test(name) || /^on/i.test(name)) {
          throw new PolicyHookError('onAttribute', this.path() + ` [${from}]`, `returned an invalid action (${describe(r)})`);
        }
        const local = el.namespaceURI === HTML_NS ? asciiLowercase(name) : name;
        if (names === null || namesOf !== list || namesLength !== lengthOf(list, lazy)) {
          if (lazy !== null && lazy.pending()) {
            lazy.flush(); // the count is of the list as a hook sees it
            i = positionOf(list, a, expected);
          }
          names = new Map();
          for (const b of list) if (b.namespaceURI === null) names.set(b.localName, (names.get(b.localName) ?? 0) + 1);
          namesOf = list;
          namesLength = list.length;
        }
        // Another attribute of the list already has the name (`a` itself may have it: a rename to its own name).
        const self = i >= 0 && a.namespaceURI === null && a.localName === local ? 1 : 0;
        const had = names.get(local) ?? 0;
        if (had - self > 0) {
          if (i >= 0) {
            expected = remove(list, i, lazy);
            uncount(names, a);
            namesLength = lengthOf(list, lazy);
          }
          if (report) this.emit('drop-attribute', 'hooks.onAttribute', original, { attribute: from, reason: 'the element already has the target attribute' });
          continue;
        }
        if (i >= 0) {
          expected = i + 1;
          // (A rename to its own name leaves the count as it is; otherwise uncounting `a` leaves `had` as it was.)
          if (self === 0) {
            uncount(names, a);
            names.set(local, had + 1);
          }
        }
        a.localName = local;
        a.namespaceURI = null;
        a.prefix = null;
        if (report) this.emit('rename-attribute', 'hooks.onAttribute', original, { attribute: from, from, to: local });
      }
    } finally {
      if (lazy !== null) lazy.end(el);
    }
  }
}

/** Lists longer than this defer the onAttribute hook's drops (LazyDrops); shorter ones splice at once. */
const LAZY_DROPS_FROM = 32;

/** The proxy traps that flush an element's deferred drops before they read or change the list. */
const TRAPS = [
  'get',
  'set',
  'has',
  'deleteProperty',
  'defineProperty',
  'getOwnPropertyDescriptor',
  'ownKeys',
  'preventExtensions',
  'isExtensible',
] as const;

/**
 * The onAttribute hook's drops from a long attribute list, deferred. A splice per drop moves the rest of the list,
 * so a hook that drops most of n attributes would cost n²/2 moves. Instead a dropped attribute stays in the list,
 * its index noted, and every noted one goes in one compaction when something looks at the list: during the pass
 * the element's `attributes` is a proxy of the list whose every trap compacts first, so a hook that reads or edits
 * the list (directly or through getAttribute, setAttribute, ...) sees exactly what it would see had each drop been
 * spliced at once, and a pass whose hook never looks compacts once, at the end. The element gets its own array
 * back when the pass ends.
 */
class LazyDrops {
  readonly list: Attr[];
  readonly proxy: Attr[];
  /** Indices in `list` of the dropped attributes still in it, in the order noted (see `increasing`). */
  private readonly dropped: number[] = [];
  /** Whether `dropped` is still increasing (a hook that reorders the list can break that). */
  private increasing = true;

  constructor(el: Element) {
    this.list = el.attributes;
    const handler: ProxyHandler<Attr[]> = {};
    for (const trap of TRAPS) {
      const forward = Reflect[trap] as (...args: unknown[]) => unknown;
      (handler as Record<string, unknown>)[trap] = (...args: unknown[]) => {
        this.flush();
        return forward(...args);
      };
    }
    this.proxy = new Proxy(this.list, handler);
    el.attributes = this.proxy;
  }

  pending(): number {
    return this.dropped.length;
  }

  /** Notes the drop of `list[i]`; the next attribute to look at is then at i + 1. */
  drop(i: number): number {
    const dropped = this.dropped;
    if (dropped.length > 0 && dropped[dropped.length - 1]! > i) this.increasing = false;
    dropped.push(i);
    return i + 1;
  }

  flush(): void {
    const dropped = this.dropped;
    if (dropped.length === 0) return;
    if (!this.increasing) {
      dropped.sort((x, y) => x - y);
      this.increasing = true;
    }
    const list = this.list;
    let w = dropped[0]!;
    let k = 0;
    for (let r = w; r < list.length; r++) {
      if (k < dropped.length && dropped[k] === r) k++;
      else list[w++] = list[r]!;
    }
    list.length = w;
    dropped.length = 0;
  }

  end(el: Element): void {
    this.flush();
    if (el.attributes === this.proxy) el.attributes = this.list;
  }
}

/**
 * Removes `list[i]`; returns the index of the attribute after it. With `lazy` (then `list` is `lazy.list`: the pass
 * lets go of `lazy` when a hook gives the element another list), the drop is deferred.
 */
function remove(list: Attr[], i: number, lazy: LazyDrops | null): number {
  if (lazy !== null) return lazy.drop(i);
  list.splice(i, 1);
  return i;
}

/** The length of `list` as a hook sees it (without the drops `lazy`, if any, defers from it). */
function lengthOf(list: Attr[], lazy: LazyDrops | null): number {
  return lazy !== null ? list.length - lazy.pending() : list.length;
}

/** The index of `a` in `list`: `at` when it is there (no hook moved anything), else a search; -1 when absent. */
function positionOf(list: Attr[], a: Attr, at: number): number {
  return at < list.length && list[at] === a ? at : list.indexOf(a);
}

/** Takes `a`'s name out of a count of no-namespace names (as it is now: a hook may have changed it). */
function uncount(names: Map<string, number>, a: Attr): void {
  if (a.namespaceURI !== null) return;
  const n = names.get(a.localName);
  // A name counted once leaves the map (renames would otherwise double its size: old names and new).
  if (n === 1) names.delete(a.localName);
  else if (n !== undefined && n > 0) names.set(a.localName, n - 1);
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return 'null';
  if (typeof v === 'object') {
    try {
      return JSON.stringify(v) ?? typeof v;
    } catch {
      return 'an object';
    }
  }
  return typeof v === 'function' ? 'a function' : String(v);
}

function valueMatches(value: string, rule: NonNullable<CompiledAttributeRule['value']>): boolean {
  if (value.length > rule.maxLength) return false;
  if (rule.oneOf !== null && !rule.oneOf.has(rule.ignoreCase ? value.toLowerCase() : value)) return false;
  if (rule.pattern !== null && !rule.pattern.test(value)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Step 4: attributes and depth

const URL_ATTR = 1;
const SRCSET_ATTR = 2;
const LIST_ATTR = 3;

/** URL-valued attributes in no namespace, on any HTML element (`data` only on `object`). */
const HTML_URL_ATTRIBUTES = new Map<string, number>([
  ['href', URL_ATTR],
  ['src', URL_ATTR],
  ['srcset', SRCSET_ATTR],
  ['imagesrcset', SRCSET_ATTR],
  ['action', URL_ATTR],
  ['formaction', URL_ATTR],
  ['poster', URL_ATTR],
  ['background', URL_ATTR],
  ['cite', URL_ATTR],
  ['longdesc', URL_ATTR],
  ['ping', LIST_ATTR],
  ['manifest', URL_ATTR],
  ['lowsrc', URL_ATTR],
  ['dynsrc', URL_ATTR],
  ['codebase', URL_ATTR],
  ['classid', URL_ATTR],
  ['icon', URL_ATTR],
]);

/** Attributes naming ids of the same document (space-separated lists where the attribute allows several). */
const ID_REFERENCE_ATTRIBUTES = new Set([
  'for',
  'headers',
  'list',
  'form',
  'itemref',
  'popovertarget',
  'commandfor',
  'anchor',
  'aria-activedescendant',
  'aria-controls',
  'aria-describedby',
  'aria-details',
  'aria-errormessage',
  'aria-flowto',
  'aria-labelledby',
  'aria-owns',
]);

/** HTML elements whose `name` is exposed on `document` or `window` (or targeted by `#name`/`usemap`). */
const NAMED_ELEMENTS = new Set(['a', 'form', 'img', 'iframe', 'object', 'embed', 'map', 'frame']);

/** SVG presentation attributes that reference other elements with `url(#id)`. */
const SVG_URL_REFERENCE_ATTRIBUTES = new Set([
  'fill',
  'stroke',
  'clip-path',
  'mask',
  'filter',
  'marker-start',
  'marker-mid',
  'marker-end',
  'cursor',
]);

const SPLIT_WS = /[\t\n\f\r ]+/;

interface Deferred {
  attr: Attr;
  kind: 'fragment' | 'tokens';
  element: string;
  path: string;
}

/** `id` with the policy's id prefix (unchanged when it already has it). */
function withPrefix(id: string, prefix: string): string {
  return id.startsWith(prefix) ? id : prefix + id;
}

class AttributeWalk extends Walk {
  private readonly urlCtx: UrlContext = { element: '', attribute: '', kind: 'other' };
  private readonly styleOptions: Parameters<typeof filterDeclarations>[1];
  private readonly svgRefRewrite: (url: string) => string | null;
  private readonly ids: Set<string> | null;
  private readonly deferred: Deferred[] | null;
  /** The style filter's URL context: its element is the element whose style attribute is being filtered. */
  private readonly styleCtx: UrlContext = { element: '', attribute: 'style', kind: 'image' };

  constructor(
    private readonly p: PolicyInternals,
    private readonly report: Report,
  ) {
    super();
    // These callbacks are kept in the walk's fields, so they must not capture `this` (nor anything holding the
    // tree): V8's young-generation collector kept a closure stored in a field alive after the walk, and with it
    // everything the closure reached (see StackOfOpenElements.optionListener).
    const imagePolicy = p.urls.get('image')!;
    const styleCtx = this.styleCtx;
    const props = p.style?.properties;
    this.styleOptions = {
      allow: (property) => props !== undefined && props.has(property),
      rewriteUrl: (url) => {
        const v = checkUrl(url, imagePolicy, styleCtx).value;
        return v === null || v === '' ? null : v;
      },
      allowImportant: p.style?.allowImportant ?? false,
    };
    const ids = p.ids;
    const prefix = ids !== null ? ids.prefix : '';
    this.svgRefRewrite = (url) => (url.length > 1 && url.charCodeAt(0) === 0x23 ? (ids !== null ? '#' + withPrefix(url.slice(1), prefix) : url) : null);
    const existing = ids !== null && ids.references === 'existing';
    this.ids = existing ? new Set() : null;
    this.deferred = existing ? [] : null;
  }

  apply(root: ParentNode): void {
    try {
      this.run(root);
      if (this.deferred !== null) this.patchReferences();
    } finally {
      this.styleCtx.element = '';
    }
  }

  private emit(action: PolicyReportEntry['action'], rule: string, el: Element, attribute: string, extra?: Partial<PolicyReportEntry>): void {
    this.report!({ stage: 'policy', action, rule, element: elementKey(el.namespaceURI, el.localName), attribute, path: this.path(), ...extra });
  }

  protected visit(el: Element): number {
    if (this.depth > this.p.maxDepth) {
      if (this.report) {
        this.report({ stage: 'policy', action: 'unwrap-element', rule: 'maxDepth', element: elementKey(el.namespaceURI, el.localName), path: this.path(), reason: `deeper than ${this.p.maxDepth}` });
      }
      return UNWRAP;
    }
    if (el.attributes.length > 0) this.attributes(el);
    const forced = this.p.force !== null ? this.p.force.get(el.namespaceURI, el.localName) : undefined;
    if (forced !== undefined) this.force(el, forced);
    return KEEP;
  }

  private prefixed(id: string): string {
    return withPrefix(id, this.p.ids!.prefix);
  }

  private urlType(el: Element, a: Attr): number {
    const ns = a.namespaceURI;
    const local = a.localName;
    let t = 0;
    if (ns === null) {
      if (el.namespaceURI === HTML_NS) t = local === 'data' ? (el.localName === 'object' ? URL_ATTR : 0) : (HTML_URL_ATTRIBUTES.get(local) ?? 0);
      else if (local === 'href') t = URL_ATTR;
    } else if (ns === XLINK_NS && local === 'href') t = URL_ATTR;
    if (t !== 0) return t;
    // Attributes the policy marks as URL-valued (by the element's final name).
    const own = this.p.elements?.get(el.namespaceURI, el.localName)?.attributes?.get(ns, local) ?? this.p.attributes?.get(ns, local);
    const u = own?.url ?? null;
    return u === 'url' ? URL_ATTR : u === 'srcset' ? SRCSET_ATTR : u === 'list' ? LIST_ATTR : 0;
  }

  private attributes(el: Element): void {
    const p = this.p;
    const report = this.report;
    const ids = p.ids;
    const attrs = el.attributes;
    let w = 0;
    for (let r = 0; r < attrs.length; r++) {
      const a = attrs[r]!;
      const ns = a.namespaceURI;
      const local = a.localName;
      const before = a.value;
      if (ns === null) {
        if (local === 'style') {
          if (p.style === null) {
            if (report) this.emit('drop-attribute', 'style', el, 'style', { from: before, reason: 'style attributes are not allowed' });
            continue;
          }
          this.styleCtx.element = el.localName;
          const res = filterDeclarations(before, this.styleOptions);
          if (res.css === '') {
            if (report) this.emit('drop-attribute', 'style', el, 'style', { from: before, reason: res.removed.length > 0 ? removedList(res.removed) : 'empty' });
            continue;
          }
          a.value = res.css;
          if (report && res.removed.length > 0) this.emit('change-attribute', 'style', el, 'style', { from: before, to: res.css, reason: removedList(res.removed) });
          attrs[w++] = a;
          continue;
        }
        if (local === 'class' && p.classes !== undefined) {
          const v = p.classes === null ? '' : filterClasses(before, p.classes);
          if (v === '') {
            if (report) this.emit('drop-attribute', 'classes', el, 'class', { from: before });
            continue;
          }
          if (v !== before) {
            a.value = v;
            if (report) this.emit('change-attribute', 'classes', el, 'class', { from: before, to: v });
          }
          attrs[w++] = a;
          continue;
        }
        if (ids !== null) {
          if (local === 'id' || (local === 'name' && ids.name && el.namespaceURI === HTML_NS && NAMED_ELEMENTS.has(el.localName))) {
            if (before !== '') {
              a.value = this.prefixed(before);
              if (this.ids !== null) this.ids.add(a.value);
              if (report && a.value !== before) this.emit('change-attribute', 'ids', el, local, { from: before, to: a.value });
            }
            attrs[w++] = a;
            continue;
          }
          if (ID_REFERENCE_ATTRIBUTES.has(local)) {
            this.reference(el, a, 'tokens');
            attrs[w++] = a;
            continue;
          }
          if (local === 'usemap' && before.startsWith('#')) {
            this.reference(el, a, 'fragment');
            attrs[w++] = a;
            continue;
          }
        }
      }
      if (ns === null && local === 'content' && el.localName === 'meta' && el.namespaceURI === HTML_NS && isRefresh(el)) {
        if (!this.refresh(el, a)) continue;
        attrs[w++] = a;
        continue;
      }
      const type = this.urlType(el, a);
      if (type !== 0) {
        if (ids !== null && type === URL_ATTR && local === 'href' && isFragmentReference(before)) {
          this.reference(el, a, 'fragment');
          attrs[w++] = a;
          continue;
        }
        if (!this.url(el, a, type)) continue;
        attrs[w++] = a;
        continue;
      }
      if (ns === null && el.namespaceURI === SVG_NS && SVG_URL_REFERENCE_ATTRIBUTES.has(local) && /url\(/i.test(before)) {
        const values = parseComponentValues(before);
        if (checkValue(values, local, this.svgRefRewrite) !== null) {
          if (report) this.emit('drop-attribute', 'urls', el, local, { from: before, reason: 'url() references outside the document' });
          continue;
        }
        a.value = serializeComponentValues(values).trim();
        if (report && a.value !== before && ids !== null) this.emit('change-attribute', 'ids', el, local, { from: before, to: a.value });
      }
      attrs[w++] = a;
    }
    attrs.length = w;
  }

  /** Checks a URL-valued attribute; returns false when it is to be dropped. */
  private url(el: Element, a: Attr, type: number): boolean {
    const ctx = this.urlCtx;
    const name = a.name;
    ctx.element = el.localName;
    ctx.attribute = name;
    ctx.kind = urlKind(el.localName, name) as UrlKind;
    const policy: UrlPolicy = this.p.urls.get(ctx.kind)!;
    const before = a.value;
    const report = this.report;
    if (type === URL_ATTR) {
      const d = checkUrl(before, policy, ctx);
      if (d.value === null) {
        if (report) this.emit('drop-attribute', 'urls', el, name, { from: before, reason: d.reason });
        return false;
      }
      if (d.value !== before) {
        a.value = d.value;
        if (report && d.action === 'rewrite') this.emit('change-attribute', 'urls.rewrite', el, name, { from: before, to: d.value });
      }
      return true;
    }
    if (type === SRCSET_ATTR) {
      const res = filterSrcset(before, policy, ctx);
      if (res.value === null) {
        if (report) this.emit('drop-attribute', 'urls', el, name, { from: before, reason: res.removed.length > 0 ? res.removed.map((x) => x.reason).join('; ') : 'no valid candidate' });
        return false;
      }
      if (res.value !== before) {
        a.value = res.value;
        if (report && res.removed.length > 0) this.emit('change-attribute', 'urls', el, name, { from: before, to: res.value, reason: res.removed.map((x) => `${x.url}: ${x.reason}`).join('; ') });
      }
      return true;
    }
    const v = checkUrlList(before, policy, ctx);
    if (v === null) {
      if (report) this.emit('drop-attribute', 'urls', el, name, { from: before, reason: 'no allowed URL' });
      return false;
    }
    a.value = v;
    return true;
  }

  /**
   * `<meta http-equiv=refresh content="5; url=...">` navigates: the URL goes through the policy (as a link); a
   * value that is not a delay with an optional URL is dropped.
   */
  private refresh(el: Element, a: Attr): boolean {
    const before = a.value;
    const m = /^[\t\n\f\r ]*([0-9]+(?:\.[0-9]*)?)[\t\n\f\r ]*(?:[;,][\t\n\f\r ]*(?:url[\t\n\f\r ]*=[\t\n\f\r ]*)?(.*))?$/is.exec(before);
    let value: string | null = null;
    let reason = 'not a refresh value';
    if (m !== null) {
      let url = (m[2] ?? '').replace(/[\t\n\f\r ]+$/, '');
      if (url.length >= 2 && (url[0] === '"' || url[0] === "'") && url.endsWith(url[0]!)) url = url.slice(1, -1);
      if (url === '') value = m[1]!;
      else {
        const ctx = this.urlCtx;
        ctx.element = 'meta';
        ctx.attribute = 'content';
        ctx.kind = 'link';
        const d = checkUrl(url, this.p.urls.get('link')!, ctx);
        reason = d.reason;
        if (d.value !== null && d.value !== '') value = m[1]! + ';url=' + d.value;
      }
    }
    if (value === null) {
      if (this.report) this.emit('drop-attribute', 'urls', el, 'content', { from: before, reason });
      return false;
    }
    a.value = value;
    return true;
  }

  private reference(el: Element, a: Attr, kind: 'fragment' | 'tokens'): void {
    if (this.deferred !== null) {
      this.deferred.push({ attr: a, kind, element: this.report ? elementKey(el.namespaceURI, el.localName) : '', path: this.report ? this.path() : '' });
      return;
    }
    const before = a.value;
    a.value = this.fixReference(before, kind, null);
    if (this.report && a.value !== before) this.emit('change-attribute', 'ids', el, a.name, { from: before, to: a.value });
  }

  private fixReference(value: string, kind: 'fragment' | 'tokens', existing: Set<string> | null): string {
    const fix = (id: string): string => {
      const p = this.prefixed(id);
      return existing === null || existing.has(p) ? p : id;
    };
    if (kind === 'fragment') {
      const v = value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
      return v.length > 1 ? '#' + fix(v.slice(1)) : value;
    }
    const tokens = value.split(SPLIT_WS);
    let out = '';
    for (const t of tokens) if (t !== '') out += (out === '' ? '' : ' ') + fix(t);
    return out;
  }

  private patchReferences(): void {
    for (const d of this.deferred!) {
      const before = d.attr.value;
      d.attr.value = this.fixReference(before, d.kind, this.ids);
      if (this.report && d.attr.value !== before) {
        this.report({ stage: 'policy', action: 'change-attribute', rule: 'ids', element: d.element, attribute: d.attr.name, path: d.path, from: before, to: d.attr.value });
      }
    }
  }

  private force(el: Element, forced: readonly ForcedAttribute[]): void {
    const attrs = el.attributes;
    for (const f of forced) {
      let existing: Attr | null = null;
      for (const a of attrs) if (a.localName === f.localName && a.namespaceURI === f.namespace) existing = a;
      let value = f.value;
      if (existing !== null && f.mergeTokens) {
        const have = existing.value.split(SPLIT_WS).filter((t) => t !== '');
        const lower = new Set(have.map((t) => t.toLowerCase()));
        for (const t of f.value.split(SPLIT_WS)) if (t !== '' && !lower.has(t.toLowerCase())) have.push(t);
        value = have.join(' ');
      }
      if (existing === null) {
        attrs.push(new Attr(f.localName, value, f.namespace, f.prefix));
        if (this.report) this.emit('add-attribute', f.key, el, f.prefix === null ? f.localName : f.prefix + ':' + f.localName, { to: value });
      } else if (existing.value !== value) {
        const before = existing.value;
        existing.value = value;
        if (this.report) this.emit('change-attribute', f.key, el, existing.name, { from: before, to: value });
      }
    }
  }
}

function isRefresh(el: Element): boolean {
  for (const a of el.attributes) if (a.namespaceURI === null && a.localName === 'http-equiv') return asciiLowercase(a.value.trim()) === 'refresh';
  return false;
}

function isFragmentReference(v: string): boolean {
  let i = 0;
  while (i < v.length && v.charCodeAt(i) <= 0x20) i++;
  return v.charCodeAt(i) === 0x23 && i + 1 < v.length;
}

function removedList(removed: readonly { property: string; reason: string }[]): string {
  return removed.map((r) => `${r.property}: ${r.reason}`).join('; ');
}

function filterClasses(value: string, rules: { allow: ReadonlySet<string>; prefixes: readonly string[] }): string {
  let out = '';
  for (const t of value.split(SPLIT_WS)) {
    if (t === '') continue;
    let ok = rules.allow.has(t);
    if (!ok) for (const p of rules.prefixes) if (t.startsWith(p) && t.length > p.length) ok = true;
    if (ok) out += (out === '' ? '' : ' ') + t;
  }
  return out;
}

/** The policy key of an element: `b`, `svg:circle`, `math:mi`. */
export function elementKey(namespace: string, localName: string): string {
  return namespace === HTML_NS ? localName : namespace === SVG_NS ? 'svg:' + localName : namespace === MATHML_NS ? 'math:' + localName : localName;
}

// ---------------------------------------------------------------------------------------------
// Pipeline entry points

/** A policy as given to the entry points below, compiled (by the engine `compile.ts` provides: no import cycle). */
function compiled(policy: CompiledPolicy | Policy, where: string): CompiledPolicy {
  return isCompiledPolicy(policy) ? policy : policyEngineFor(policy, where).compile(policy);
}

/** Pipeline step 2: element and attribute rules, hooks. */
export function applyPolicyStructure(root: ParentNode, policy: CompiledPolicy | Policy, report?: (e: PolicyReportEntry) => void): void {
  const p = compiled(policy, 'applyPolicyStructure')[INTERNALS];
  if (!p.hasStructure) return;
  new StructureWalk(p, report).apply(root);
}

/** Pipeline step 4: depth limit, URLs, styles, classes, ids, forced attributes. */
export function applyPolicyAttributes(root: ParentNode, policy: CompiledPolicy | Policy, report?: (e: PolicyReportEntry) => void): void {
  new AttributeWalk(compiled(policy, 'applyPolicyAttributes')[INTERNALS], report).apply(root);
}
