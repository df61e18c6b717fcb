import { readFileSync } from 'node:fs';
import { COMMENT_NODE, ELEMENT_NODE, TEXT_NODE, childrenOf, walk, type ChildNode, type Element, type ParentNode } from '../../src/dom.js';
import { corpusPaths } from '../support/shared.js';

/** The corpus files of one folder (sorted), or [] after a skip line when the shared corpus is absent. */
export function corpusFiles(folder: string, suite: string): { name: string; path: string }[] {
  return corpusPaths('corpus/' + folder, suite) ?? [];
}

export function readCorpus(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Elements in document order (template contents included), via the tree's own non-recursive `walk`. */
export function elements(root: ParentNode): Element[] {
  const out: Element[] = [];
  walk(root, (n) => {
    if (n.nodeType === ELEMENT_NODE) out.push(n as Element);
  });
  return out;
}

/** Every node in document order (template contents included). */
export function nodes(root: ParentNode): ChildNode[] {
  const out: ChildNode[] = [];
  walk(root, (n) => {
    out.push(n);
  });
  return out;
}

/**
 * Text a reader sees: text nodes outside `head` and outside elements that never render text (script, style,
 * template, noscript, title, xml, svg/math...). Comments, so conditional comments and Word's `<![if ...]>`
 * markers, are not text. `skip` excludes further subtrees (e.g. Word's list bullets, which a list renders itself).
 */
const INVISIBLE = new Set(['head', 'script', 'style', 'template', 'noscript', 'title', 'xml', 'meta', 'link', 'iframe', 'object', 'textarea', 'select', 'option', 'svg', 'math']);
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'mark',
  'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr', 'label',
]);
export function visibleText(root: ParentNode, skip: (el: Element) => boolean = () => false): string {
  const parts: string[] = [];
  const stack: ChildNode[] = [...childrenOf(root)].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType === TEXT_NODE) {
      parts.push((n as { data: string }).data);
      continue;
    }
    if (n.nodeType === COMMENT_NODE || n.nodeType !== ELEMENT_NODE) continue;
    const el = n as Element;
    if (INVISIBLE.has(el.localName) || skip(el)) continue;
    // Block boundaries separate words; inline elements (span, b, a...) do not.
    if (!INLINE.has(el.localName)) parts.push(' ');
    const kids = childrenOf(el);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return parts.join('');
}

/** The words (letters and digits) of a text, as a multiset. */
export function words(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Share (0..1) of the input's words found in the output (multiset intersection); 1 when the input has none. */
export function retention(input: string, output: string): number {
  const a = words(input);
  const b = words(output);
  let total = 0;
  let kept = 0;
  for (const [w, n] of a) {
    total += n;
    kept += Math.min(n, b.get(w) ?? 0);
  }
  return total === 0 ? 1 : kept / total;
}
