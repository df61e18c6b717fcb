/**
 * The htmlsift policy engine (placeholder interface: the engine is being written; see the issue).
 */
import type { ParentNode } from '../dom.js';
import type { SanitizerSpec } from '../sanitizer-api/sanitize.js';

export interface Policy {
  sanitizer?: SanitizerSpec;
}

export interface CompiledPolicy {
  sanitizer: SanitizerSpec | undefined;
}

export interface PolicyReportEntry {
  stage: 'policy';
  action: string;
  rule: string;
}

export function compilePolicy(policy: Policy): CompiledPolicy {
  if (policy === null || typeof policy !== 'object') throw new TypeError('policy: expected an object');
  return { sanitizer: policy.sanitizer };
}

export function applyPolicyStructure(_root: ParentNode, _policy: CompiledPolicy, _report?: (e: PolicyReportEntry) => void): void {}

export function applyPolicyAttributes(_root: ParentNode, _policy: CompiledPolicy, _report?: (e: PolicyReportEntry) => void): void {}
