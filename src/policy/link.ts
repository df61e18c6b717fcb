/**
 * How the pipeline (`src/sanitize.ts`) reaches the policy engine without importing it.
 *
 * The engine (compilation, the two walks, the CSS parser and the URL rules under them) is most of what a
 * bundle with policies costs, and a bundle that calls `sanitize(html)` without one should not carry it. So
 * `sanitize` imports only this module, and runs a policy through the engine that came with it:
 *  - a compiled policy (`compilePolicy`) and the built-in policies (`htmlsift/policies`) carry their engine;
 *  - any other policy object (a literal, an `extendPolicy` result) is compiled by the engine loaded in the
 *    program: `compile.ts` provides it when it is evaluated, which it is whenever anything that compiles or
 *    extends a policy is imported (and always through the package's main entry, unbundled).
 * A tree-shaken bundle that imports nothing of the policy engine and still passes a policy literal gets a
 * TypeError saying so, never a silently ignored policy.
 */
import type { ParentNode } from '../dom.js';
import type { CompiledPolicy } from './compile.js';
import type { Policy, PolicyReportEntry } from './types.js';

/** Where a compiled policy keeps its lookups (a symbol, so a CompiledPolicy still type-checks as a Policy). */
export const INTERNALS: unique symbol = Symbol('htmlsift.CompiledPolicy');

/** Where a policy object made by htmlsift keeps its engine (a non-enumerable property). */
export const ENGINE: unique symbol = Symbol('htmlsift.PolicyEngine');

export interface PolicyEngine {
  /** Validates and compiles a policy (a compiled one is returned as it is); throws a TypeError naming the field. */
  compile(policy: Policy | CompiledPolicy): CompiledPolicy;
  /** Pipeline step 2 (see `engine.ts`). */
  structure(root: ParentNode, policy: CompiledPolicy, report?: (e: PolicyReportEntry) => void): void;
  /** Pipeline step 4 (see `engine.ts`). */
  attributes(root: ParentNode, policy: CompiledPolicy, report?: (e: PolicyReportEntry) => void): void;
}

let loaded: PolicyEngine | null = null;

/** Called by `compile.ts` when it is evaluated. */
export function providePolicyEngine(engine: PolicyEngine): void {
  loaded = engine;
}

export function isCompiledPolicy(p: unknown): p is CompiledPolicy {
  return typeof p === 'object' && p !== null && (p as { [INTERNALS]?: unknown })[INTERNALS] !== undefined;
}

/** The engine that runs `policy` (see the module comment). Throws a TypeError naming `where` when there is none. */
export function policyEngineFor(policy: unknown, where: string): PolicyEngine {
  const own = typeof policy === 'object' && policy !== null ? (policy as { [ENGINE]?: PolicyEngine })[ENGINE] : undefined;
  const engine = own ?? loaded;
  if (engine === undefined || engine === null) {
    // (A bundle that imports nothing of the engine: it is in every bundle that imports compilePolicy.)
    throw new TypeError(`${where}: options.policy: the policy engine is not loaded; pass compilePolicy(policy)`);
  }
  return engine;
}
