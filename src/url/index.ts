/**
 * URL policy and srcset handling for URL-valued attributes and CSS url()s: the package's `url` namespace. Each
 * function checks what it is given (a TypeError naming the function and the argument or policy field) and calls
 * the implementation in url-policy.ts or srcset.ts, which the policy engine calls directly with policies it checked
 * when it compiled them.
 */
import * as policy from './url-policy.js';
import * as srcset from './srcset.js';
import type { UrlContext, UrlDecision, UrlForm, UrlKind, UrlPolicy } from './url-policy.js';
import type { SrcsetCandidate, SrcsetFilterResult, SrcsetParseResult } from './srcset.js';
import { checkList, checkObject, checkOptional, checkString, kind } from '../check.js';

export type { UrlContext, UrlDecision, UrlForm, UrlKind, UrlPolicy, SrcsetCandidate, SrcsetFilterResult, SrcsetParseResult };
export const DEFAULT_DATA_MIME_TYPES = policy.DEFAULT_DATA_MIME_TYPES;

function checkStrings(v: unknown, fn: string, what: string): void {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new TypeError(`${fn}: ${what} must be an array of strings, got ${kind(v)}`);
}

const RELATIVE = ['keep', 'drop', 'resolve'];

function checkPolicy(p: unknown, fn: string): void {
  checkObject(p, fn, 'policy');
  const o = p as Record<string, unknown>;
  checkStrings(o.schemes, fn, 'policy.schemes');
  if (!RELATIVE.includes(o.relative as string)) {
    throw new TypeError(`${fn}: policy.relative must be one of ${RELATIVE.join(', ')}, got ${typeof o.relative === 'string' ? JSON.stringify(o.relative) : kind(o.relative)}`);
  }
  checkOptional(o.base, 'string', fn, 'policy.base');
  if (o.dataMimeTypes !== undefined) checkStrings(o.dataMimeTypes, fn, 'policy.dataMimeTypes');
  checkOptional(o.rewrite, 'function', fn, 'policy.rewrite');
}

function checkContext(c: unknown, fn: string): void {
  if (c === undefined) return;
  checkObject(c, fn, 'context');
  const o = c as Record<string, unknown>;
  checkString(o.element, fn, 'context.element');
  checkString(o.attribute, fn, 'context.attribute');
  checkString(o.kind, fn, 'context.kind');
}

/** Check one URL attribute value (already entity-decoded) against a policy. */
export function checkUrl(value: string, urlPolicy: UrlPolicy, context?: UrlContext): UrlDecision {
  checkString(value, 'checkUrl', 'the URL');
  checkPolicy(urlPolicy, 'checkUrl');
  checkContext(context, 'checkUrl');
  return policy.checkUrl(value, urlPolicy, context);
}

/** Check a space-separated list of URLs (e.g. `ping`): kept URLs joined by one space, or null if none. */
export function checkUrlList(value: string, urlPolicy: UrlPolicy, context?: UrlContext): string | null {
  checkString(value, 'checkUrlList', 'the URL list');
  checkPolicy(urlPolicy, 'checkUrlList');
  checkContext(context, 'checkUrlList');
  return policy.checkUrlList(value, urlPolicy, context);
}

/** A `rewriteUrl` for the CSS declaration filter: CSS url()s checked with this policy and context. */
export function cssUrlRewriter(urlPolicy: UrlPolicy, context?: UrlContext): (url: string) => string | null {
  checkPolicy(urlPolicy, 'cssUrlRewriter');
  checkContext(context, 'cssUrlRewriter');
  return policy.cssUrlRewriter(urlPolicy, context);
}

/** Clean an attribute value as the basic URL parser does before parsing. */
export function cleanUrl(value: string): string {
  checkString(value, 'cleanUrl', 'the URL');
  return policy.cleanUrl(value);
}

/** The scheme of a cleaned URL (lowercase, no colon), or null when it has none. */
export function urlScheme(clean: string): string | null {
  checkString(clean, 'urlScheme', 'the URL');
  return policy.urlScheme(clean);
}

/** How a cleaned URL without a scheme is written. */
export function relativeForm(clean: string): UrlForm {
  checkString(clean, 'relativeForm', 'the URL');
  return policy.relativeForm(clean);
}

/** The MIME type essence of a `data:` URL, or null when it is not a valid one. */
export function dataUrlMimeType(href: string): string | null {
  checkString(href, 'dataUrlMimeType', 'the URL');
  return policy.dataUrlMimeType(href);
}

/** The kind of URL an attribute holds. */
export function urlKind(element: string, attribute: string): UrlKind {
  checkString(element, 'urlKind', 'the element name');
  checkString(attribute, 'urlKind', 'the attribute name');
  return policy.urlKind(element, attribute);
}

/** "Parse a srcset attribute". */
export function parseSrcset(input: string): SrcsetParseResult {
  checkString(input, 'parseSrcset', 'the srcset');
  return srcset.parseSrcset(input);
}

/** Make a URL safe to stand in a srcset. */
export function srcsetSafeUrl(url: string): string {
  checkString(url, 'srcsetSafeUrl', 'the URL');
  return srcset.srcsetSafeUrl(url);
}

/** Serialize srcset candidates. */
export function serializeSrcset(candidates: readonly SrcsetCandidate[]): string {
  checkList(candidates, 'serializeSrcset', 'the candidates');
  for (const c of candidates) {
    if (typeof c !== 'object' || c === null || typeof c.url !== 'string' || !Array.isArray(c.descriptors)) {
      throw new TypeError('serializeSrcset: each candidate must be an object with a string url and an array of descriptors');
    }
  }
  return srcset.serializeSrcset(candidates);
}

/** Parse a srcset, pass each candidate URL through the policy, and serialize what is left. */
export function filterSrcset(value: string, urlPolicy: UrlPolicy, context?: UrlContext): SrcsetFilterResult {
  checkString(value, 'filterSrcset', 'the srcset');
  checkPolicy(urlPolicy, 'filterSrcset');
  checkContext(context, 'filterSrcset');
  return srcset.filterSrcset(value, urlPolicy, context ?? { element: '', attribute: 'srcset', kind: 'image' });
}
