import { ELEMENT_NODE, childrenOf, walk, type Element, type ParentNode } from '../../src/dom.js';
import { parseFragment } from '../../src/parser.js';
import { applyPolicyAttributes, applyPolicyStructure, compilePolicy, type Policy, type PolicyReportEntry } from '../../src/policy/index.js';
import { serialize } from '../../src/serializer.js';

/** Every child's parentNode is the node whose list holds it (template contents included), checked iteratively. */
export function parentLinksConsistent(root: ParentNode): boolean {
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    const owner: ParentNode = p.nodeType === ELEMENT_NODE && (p as Element).content !== null ? (p as Element).content! : p;
    for (const c of childrenOf(p)) {
      if (c.parentNode !== owner) return false;
      if (c.nodeType === ELEMENT_NODE) stack.push(c as Element);
    }
  }
  return true;
}

/** Elements of a tree in document order (pre-order; template contents included). */
export function preorder(root: ParentNode): Element[] {
  const out: Element[] = [];
  walk(root, (n) => {
    if (n.nodeType === ELEMENT_NODE) out.push(n as Element);
  });
  return out;
}

/** Greatest element depth (the root's children are at depth 1), iteratively. */
export function maxElementDepth(root: ParentNode): number {
  let max = 0;
  const stack: [ParentNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [p, d] = stack.pop()!;
    if (d > max) max = d;
    for (const c of childrenOf(p)) if (c.nodeType === ELEMENT_NODE) stack.push([c as Element, d + 1]);
  }
  return max;
}

export interface StageResult {
  html: string;
  report: PolicyReportEntry[];
}

/** Parses `html` in a body context and runs one policy stage on it (no Sanitizer API step). */
export function stage(which: 'structure' | 'attributes', html: string, policy: Policy): StageResult {
  const f = parseFragment(html);
  const report: PolicyReportEntry[] = [];
  const compiled = compilePolicy(policy);
  if (which === 'structure') applyPolicyStructure(f, compiled, (e) => report.push(e));
  else applyPolicyAttributes(f, compiled, (e) => report.push(e));
  if (!parentLinksConsistent(f)) throw new Error('parent links are inconsistent');
  return { html: serialize(f), report };
}

export const structure = (html: string, policy: Policy): string => stage('structure', html, policy).html;
export const attributes = (html: string, policy: Policy): string => stage('attributes', html, policy).html;
