/**
 * `paste`: clipboard `text/html` from Word, Google Docs, LibreOffice, Safari and Firefox, cleaned down to
 * document structure.
 *
 * Kept: headings, paragraphs, lists, tables (`colspan`/`rowspan`), links (http, https, mailto; other `href`s
 * dropped, the `a` and its text kept), b/strong, i/em, u, s, sub, sup, br, blockquote, pre/code, hr, div.
 * Presentational spans become semantic elements: `font-weight:bold|bolder|600..900` → strong,
 * `font-style:italic|oblique` → em, `text-decoration(-line)` underline → u, line-through → s,
 * `vertical-align:super|sub` → sup/sub (nested in that order when several apply); other spans are unwrapped.
 * `strike`/`del` become `s`, `ins` becomes `u`.
 * Removed: every style and class (so every `mso-*` style and `Mso*` class), comments (so conditional
 * comments, and the `<![if ...]>` markers the parser reads as comments), `meta`/`style`/`link`/`title`,
 * Office namespaced elements (`o:p`, `w:sdt`, `st1:place`... are unwrapped, their text kept), Google Docs'
 * `docs-internal-guid` `<b>` wrapper (and any `b` with `font-weight:normal`), images and media, form controls
 * (a `form` itself is unwrapped: a selection from a web page may sit inside one, and keeps its text).
 * `pastePolicy({ images: true })` keeps images (`<img src alt width height>`; see `PastePolicyOptions`).
 *
 * Word lists. Word writes a list as sibling paragraphs (`class=MsoListParagraphCxSpFirst`, `style="mso-list:l0
 * level2 lfo1"`), each starting with its bullet in a `<span style="mso-list:Ignore">` inside
 * `<![if !supportLists]>`. The `onElement` hook turns each run of such paragraphs (headings too) into real
 * nested `ul`/`ol` elements: the level gives the nesting (a skipped level gets an empty `li` holder), the
 * `l<n>`/`lfo<n>` pair separates lists, the bullet decides `ol` (numbers, letters, roman numerals) or `ul`,
 * and the bullet itself is removed (the list renders it). The pass over sibling paragraphs runs in the hook of
 * their parent element (its own children), and for the fragment's top level in the hook of the first
 * top-level element; it never recurses, and only ever rewrites paragraphs not yet visited (the first of a run
 * becomes the list, the rest are emptied and dropped when the walk reaches them).
 */
import { HTML_NS, TEXT_NODE, COMMENT_NODE, ELEMENT_NODE, childrenOf, createElement, type ChildNode, type Element, type ParentNode } from '../src/dom.js';
import type { Policy, PolicyContext, UrlRewriteContext } from '../src/policy/index.js';
import { ALWAYS_DROP, deepFreeze, isNamespacedName, optionsObject, readStyle, unknownElementAction } from './shared.js';

const KEPT = [
  'p', 'br', 'hr', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code',
  'b', 'strong', 'i', 'em', 'u', 's', 'sub', 'sup', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr',
];

/** Paragraphs already merged into a list built from an earlier sibling: dropped when visited. */
const consumed = new WeakSet<Element>();
/** Parents (fragments, documents) whose children were already grouped into lists. */
const grouped = new WeakSet<object>();

const LIST_STYLE = /(?:^|;)\s*mso-list\s*:\s*(l\d+)\s+level(\d+)\s+(lfo\d+)/i;
const ORDERED_MARKER = /^\(?(?:[0-9]{1,4}|[a-z]{1,2}|[ivxlcdm]{1,8})[.)]\s*$/i;

interface ListItemInfo {
  el: Element;
  level: number;
  list: string;
  ordered: boolean;
}

function listInfo(node: ChildNode): ListItemInfo | null {
  if (node.nodeType !== ELEMENT_NODE) return null;
  const el = node as Element;
  if (el.namespaceURI !== HTML_NS || !/^(?:p|h[1-6])$/.test(el.localName) || consumed.has(el)) return null;
  const style = el.getAttribute('style');
  if (style === null) return null;
  const m = LIST_STYLE.exec(style.replace(/[\r\n]+/g, ' '));
  if (m === null) return null;
  const level = Math.min(9, Math.max(1, parseInt(m[2]!, 10)));
  return { el, level, list: (m[1]! + ' ' + m[3]!).toLowerCase(), ordered: ORDERED_MARKER.test(markerText(el)) };
}

/** The bullet text of a Word list paragraph: the text of its first `mso-list:Ignore` span (iteratively). */
function markerText(el: Element): string {
  const stack: ChildNode[] = [...childrenOf(el)].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType !== ELEMENT_NODE) continue;
    const e = n as Element;
    if (isIgnoreSpan(e)) return e.textContent.replace(/[\s\u00a0]+/g, ' ').trim();
    const kids = childrenOf(e);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return '';
}

function isIgnoreSpan(el: Element): boolean {
  const s = el.getAttribute('style');
  return s !== null && /mso-list\s*:\s*ignore/i.test(s);
}

function isSkippable(node: ChildNode): boolean {
  if (node.nodeType === COMMENT_NODE) return true;
  return node.nodeType === TEXT_NODE && /^[\t\n\f\r ]*$/.test((node as { data: string }).data);
}

function moveChildren(from: Element, to: Element): void {
  const kids = from.childNodes;
  for (const k of kids) {
    k.parentNode = to;
    to.childNodes.push(k);
  }
  from.childNodes = [];
}

/**
 * Groups runs of Word list paragraphs in `children` into nested lists. The array's membership is not changed
 * (the walk may be reading a copy of it): the first paragraph of a run becomes the outer list in place, the
 * others are emptied into it and marked consumed.
 */
function groupListParagraphs(children: readonly ChildNode[]): void {
  for (let i = 0; i < children.length; i++) {
    const first = listInfo(children[i]!);
    if (first === null) continue;
    const run: ListItemInfo[] = [first];
    let j = i + 1;
    for (; j < children.length; j++) {
      const n = children[j]!;
      if (isSkippable(n)) continue;
      const info = listInfo(n);
      if (info === null || (info.level === 1 && info.list !== first.list && run.length > 0 && info.list !== run[run.length - 1]!.list)) break;
      run.push(info);
    }
    buildList(run);
    i = j - 1;
  }
}

function buildList(run: ListItemInfo[]): void {
  const host = run[0]!.el;
  // Contents of every paragraph, taken before the host is turned into the list.
  const items = run.map((info) => {
    const li = createElement('li');
    if (info.el.localName === 'p') moveChildren(info.el, li);
    else {
      const h = createElement(info.el.localName);
      moveChildren(info.el, h);
      h.parentNode = li;
      li.childNodes.push(h);
    }
    return { li, level: info.level, ordered: info.ordered };
  });
  for (let k = 1; k < run.length; k++) consumed.add(run[k]!.el);
  host.localName = items[0]!.ordered ? 'ol' : 'ul';
  host.attributes = [];
  host.childNodes = [];
  // Open lists by level: stack[d] is the list at level d+1. A list opened for a skipped level (an item of level 3
  // right after one of level 1) takes the type of the item that opened it until an item of its own level says
  // otherwise: decided[d] is false until then.
  const stack: Element[] = [host];
  const decided: boolean[] = [items[0]!.level <= 1];
  const lastItem: (Element | null)[] = [null];
  for (const item of items) {
    const level = Math.max(1, item.level);
    while (stack.length > level) {
      stack.pop();
      decided.pop();
      lastItem.pop();
    }
    while (stack.length < level) {
      const d = stack.length - 1;
      let holder = lastItem[d]!;
      if (holder === null) {
        holder = createElement('li');
        append(stack[d]!, holder);
        lastItem[d] = holder;
      }
      const list = createElement(item.ordered ? 'ol' : 'ul');
      append(holder, list);
      stack.push(list);
      decided.push(stack.length === level);
      lastItem.push(null);
    }
    const top = stack.length - 1;
    if (!decided[top]) {
      stack[top]!.localName = item.ordered ? 'ol' : 'ul';
      decided[top] = true;
    }
    append(stack[top]!, item.li);
    lastItem[top] = item.li;
  }
}

function append(parent: Element, child: Element): void {
  child.parentNode = parent;
  parent.childNodes.push(child);
}

const SEMANTIC_ORDER = ['strong', 'em', 'u', 's', 'sup', 'sub'] as const;

/** The semantic elements a presentational span stands for, outermost first. */
function semanticsOf(style: Map<string, string>): string[] {
  const out = new Set<string>();
  const weight = style.get('font-weight');
  if (weight !== undefined && (/^(?:bold|bolder)$/.test(weight) || (/^[0-9]+$/.test(weight) && parseInt(weight, 10) >= 600))) out.add('strong');
  const fs = style.get('font-style');
  if (fs === 'italic' || fs === 'oblique') out.add('em');
  const deco = (style.get('text-decoration') ?? '') + ' ' + (style.get('text-decoration-line') ?? '');
  if (/\bunderline\b/.test(deco)) out.add('u');
  if (/\bline-through\b/.test(deco)) out.add('s');
  const va = style.get('vertical-align');
  if (va === 'super') out.add('sup');
  else if (va === 'sub') out.add('sub');
  return SEMANTIC_ORDER.filter((x) => out.has(x));
}

const allowed = new Set([...KEPT, 'a', 'td', 'th', 'span', 'font', 'b', 'strike', 'del', 'ins']);
// A `form` is unwrapped (a selection from a web page may sit inside one): its controls are dropped, its text kept.
const dropped = new Set([...ALWAYS_DROP, 'img']);
const allowedWithImages = new Set([...allowed, 'img']);
const droppedWithImages = new Set(ALWAYS_DROP);

function onElement(el: Element, ctx: PolicyContext): 'drop' | 'unwrap' | { rename: string } | undefined {
  return pasteElement(el, ctx, allowed, dropped);
}

function onElementWithImages(el: Element, ctx: PolicyContext): 'drop' | 'unwrap' | { rename: string } | undefined {
  return pasteElement(el, ctx, allowedWithImages, droppedWithImages);
}

function pasteElement(el: Element, ctx: PolicyContext, allowed: ReadonlySet<string>, dropped: ReadonlySet<string>): 'drop' | 'unwrap' | { rename: string } | undefined {
  // The fragment's (or document's) top level has no element whose hook could group it: do it once, here.
  const parent: ParentNode = ctx.parent;
  if (parent.nodeType !== ELEMENT_NODE && !grouped.has(parent)) {
    grouped.add(parent);
    groupListParagraphs(childrenOf(parent));
  }
  if (consumed.has(el)) return 'drop';
  if (el.namespaceURI !== HTML_NS) return 'drop';
  if (isNamespacedName(el)) {
    groupListParagraphs(childrenOf(el));
    return 'unwrap';
  }
  const name = el.localName;
  if (name === 'span' || name === 'font') {
    if (isIgnoreSpan(el)) return 'drop';
    const sem = semanticsOf(readStyle(el));
    if (sem.length === 0) {
      groupListParagraphs(childrenOf(el));
      return 'unwrap';
    }
    // The span becomes the outermost element; the others wrap its children, innermost last.
    let inner: Element = el;
    const kids = el.childNodes;
    el.childNodes = [];
    for (let k = 1; k < sem.length; k++) {
      const w = createElement(sem[k]!);
      append(inner, w);
      inner = w;
    }
    for (const c of kids) {
      c.parentNode = inner;
      inner.childNodes.push(c);
    }
    el.attributes = [];
    return { rename: sem[0]! };
  }
  if (name === 'b') {
    const id = el.getAttribute('id');
    const weight = readStyle(el).get('font-weight');
    if ((id !== null && id.startsWith('docs-internal-guid')) || weight === 'normal' || weight === '400') {
      groupListParagraphs(childrenOf(el));
      return 'unwrap';
    }
  }
  if (name === 'strike' || name === 'del') return { rename: 's' };
  if (name === 'ins') return { rename: 'u' };
  const action = unknownElementAction(el, allowed, dropped);
  if (action !== 'drop') groupListParagraphs(childrenOf(el));
  return action;
}

export interface PastePolicyOptions {
  /** Keep images: `<img src alt width height>` (default false). */
  images?: boolean;
  /**
   * With `images`: every image's `src`, as written, goes through this first (`file:` URLs too, which Word writes for
   * the images it copies, and relative ones): return the URL to use (say, the image uploaded from the clipboard's
   * files), or null or undefined to remove the `src`. What it returns is still refused if script-capable, or a
   * `data:` URL of a type other than a raster image. Without it, http, https, `blob:` (Safari's pasted images) and
   * raster `data:` sources are kept and the others removed; an `img` without a `src` stays, showing its `alt`.
   */
  rewriteImage?: (url: string) => string | null | undefined;
}

/**
 * The paste policy, optionally with images. Each call returns a new, deeply frozen policy object (extend it with
 * `extendPolicy`).
 */
export function pastePolicy(options?: PastePolicyOptions | null): Policy {
  options = optionsObject(options, 'pastePolicy');
  const images = options.images ?? false;
  if (typeof images !== 'boolean') throw new TypeError('pastePolicy: options.images: expected a boolean');
  const rewriteImage = options.rewriteImage;
  if (rewriteImage !== undefined) {
    if (typeof rewriteImage !== 'function') throw new TypeError('pastePolicy: options.rewriteImage: expected a function');
    if (!images) throw new TypeError('pastePolicy: options.rewriteImage: needs images: true');
  }
  const imageSchemes = ['http', 'https', 'blob', 'data', ...(rewriteImage !== undefined ? ['file'] : [])];
  return deepFreeze({
    sanitizer: {
      elements: [
        ...KEPT,
        { name: 'a', attributes: ['href', 'title'] },
        { name: 'td', attributes: ['colspan', 'rowspan'] },
        { name: 'th', attributes: ['colspan', 'rowspan', 'scope'] },
        ...(images ? [{ name: 'img', attributes: ['src', 'alt', 'width', 'height'] }] : []),
      ],
      attributes: ['dir', 'lang'],
      comments: false,
      dataAttributes: false,
    },
    urls: {
      schemes: ['http', 'https', 'mailto'],
      relative: 'drop',
      ...(images ? { kinds: { image: { schemes: imageSchemes, relative: rewriteImage !== undefined ? 'keep' : 'drop' } } } : {}),
      ...(rewriteImage !== undefined
        ? { rewrite: (url: string, context: UrlRewriteContext) => (context.kind === 'image' ? (rewriteImage(context.written) ?? null) : url) }
        : {}),
    },
    attributes: {
      colspan: { value: { pattern: '[0-9]{1,3}' } },
      rowspan: { value: { pattern: '[0-9]{1,4}' } },
      lang: { value: { pattern: '[A-Za-z0-9-]{1,35}' } },
      dir: { value: { oneOf: ['ltr', 'rtl', 'auto'], ignoreCase: true } },
      ...(images ? { width: { value: { pattern: '[0-9]{1,4}' } }, height: { value: { pattern: '[0-9]{1,4}' } } } : {}),
    },
    style: false,
    classes: false,
    hooks: { onElement: images ? onElementWithImages : onElement },
  } satisfies Policy);
}

/** The paste policy without images. */
export const paste: Policy = pastePolicy();
