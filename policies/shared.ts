/**
 * Helpers shared by the built-in policies: a tolerant reader for `style` attributes (hooks run before the
 * style filter, so they see the raw attribute) and a hook that unwraps unknown elements instead of losing their text.
 */
import { ELEMENT_NODE, HTML_NS, type Element } from '../src/dom.js';
import { withPolicyEngine } from '../src/policy/compile.js';

/** The declarations of a `style` attribute as a lowercase property → lowercase value map (last one wins). */
export function readStyle(el: Element): Map<string, string> {
  const out = new Map<string, string>();
  const raw = el.getAttribute('style');
  if (raw === null) return out;
  for (const part of raw.split(';')) {
    const i = part.indexOf(':');
    if (i <= 0) continue;
    const prop = part.slice(0, i).trim().toLowerCase();
    const value = part
      .slice(i + 1)
      .replace(/!\s*important\s*$/i, '')
      .trim()
      .toLowerCase();
    if (prop !== '') out.set(prop, value);
  }
  return out;
}

/** Office-namespaced elements as the HTML parser makes them (`o:p`, `v:shape`, `w:sdt`, `st1:place`). */
export function isNamespacedName(el: Element): boolean {
  return el.namespaceURI === HTML_NS && el.localName.includes(':');
}

export function isElementNode(n: { nodeType: number }): boolean {
  return n.nodeType === ELEMENT_NODE;
}

/**
 * The decision for an element that is neither in a policy's allow-list nor in its drop-list: HTML elements
 * are unwrapped (their text stays), foreign (SVG/MathML) elements are dropped.
 */
export function unknownElementAction(el: Element, allowed: ReadonlySet<string>, dropped: ReadonlySet<string>): 'drop' | 'unwrap' | undefined {
  if (el.namespaceURI !== HTML_NS) return 'drop';
  if (allowed.has(el.localName)) return undefined;
  if (dropped.has(el.localName)) return 'drop';
  return 'unwrap';
}

/**
 * Elements no text-oriented policy keeps: scripts, embedded content, form controls, metadata. Not `picture`: it is
 * unwrapped like any element a policy does not know, so that its `img` (the image every browser shows, and its `alt`)
 * stays where the policy keeps images; its `source` elements are dropped.
 */
export const ALWAYS_DROP: readonly string[] = [
  'script', 'style', 'template', 'noscript', 'noembed', 'noframes', 'iframe', 'frame', 'frameset', 'object',
  'embed', 'applet', 'param', 'head', 'title', 'meta', 'link', 'base', 'xml', 'input', 'select', 'textarea',
  'button', 'option', 'optgroup', 'datalist', 'output', 'progress', 'meter', 'video', 'audio', 'source', 'track',
  'canvas', 'map', 'area', 'portal', 'dialog', 'slot', 'math', 'svg', 'plaintext', 'xmp',
];

/**
 * Freezes a policy object and every plain object and array in it (iteratively), so the built-ins cannot be edited.
 * The policy gets its engine first (`sanitize` does not import the policy engine: see src/policy/link.ts).
 */
export function deepFreeze<T extends object>(root: T): T {
  withPolicyEngine(root);
  const stack: object[] = [root];
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (Object.isFrozen(o)) continue;
    Object.freeze(o);
    for (const v of Object.values(o)) if (typeof v === 'object' && v !== null && (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)) stack.push(v);
  }
  return root;
}

/** A function's options: `undefined` and `null` are none (`{}`), as Web IDL reads a dictionary; a primitive is a TypeError. */
export function optionsObject<T extends object>(options: T | null | undefined, fn: string): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== 'object' && typeof options !== 'function') throw new TypeError(fn + ': options: expected an object');
  return options;
}
