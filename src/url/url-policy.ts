/**
 * URL policy for URL-valued attributes and CSS url()s.
 *
 * Values arrive already entity-decoded by the HTML tokenizer. They are cleaned the way the URL standard's basic
 * URL parser starts (strip leading/trailing C0 control or space, then remove every ASCII tab or newline), the
 * scheme is found with the parser's own "scheme start"/"scheme" state rules (so `java\tscript:`, ` JaVaScRiPt:`
 * and `\x01javascript:` are all seen as javascript), and the global WHATWG `URL` does the rest.
 *
 * Decision order: clean -> classify (absolute with a scheme, or one of the relative forms) -> scheme allow-list
 * (relative forms are checked against the base's scheme, `https` when there is no base) -> `data:` MIME type
 * allow-list -> relative handling (keep / drop / resolve against `base`) -> `rewrite` callback.
 * Absolute URLs are emitted as the `URL` parser's `href` (so what the browser gets is what was checked);
 * relative URLs kept as relative are emitted in their cleaned form. Whatever `rewrite` returns is trusted,
 * except that script-capable schemes (javascript, vbscript, livescript) are always refused and a `data:` URL must
 * have a type the `data:` allow-list holds; a result that is neither a string nor null is a TypeError.
 */
import { isAsciiAlpha } from '../dom.js';

export type UrlKind = 'link' | 'image' | 'media' | 'style' | 'form' | 'object' | 'frame' | 'other';

export interface UrlContext {
  /** Local name of the element (lowercase), e.g. "a", "img", "image" (SVG). */
  element: string;
  /** Attribute name as written, e.g. "href", "xlink:href", "srcset". */
  attribute: string;
  kind: UrlKind;
}

/** How a URL is written. */
export type UrlForm =
  | 'absolute' // has a scheme
  | 'scheme-relative' // "//host/..." (also with backslashes)
  | 'path-absolute' // "/path"
  | 'path-relative' // "path", "./path", "../path"
  | 'query' // "?q"
  | 'fragment' // "#f"
  | 'empty'; // "" (the document itself)

export interface UrlPolicy {
  /** Allowed schemes (e.g. ["http", "https", "mailto"]); compared ASCII case-insensitively, a trailing ":" is ok. */
  schemes: readonly string[];
  /** What to do with relative URLs: keep as written, drop, or resolve against `base`. */
  relative: 'keep' | 'drop' | 'resolve';
  /** Base URL for resolving (required for `relative: 'resolve'`). */
  base?: string;
  /** For `data:` URLs (when "data" is an allowed scheme): allowed MIME type essences. Default: raster images. */
  dataMimeTypes?: readonly string[];
  /**
   * Called for every URL that passed the checks, with the URL as written (cleaned); return the URL to use, or null to
   * drop it.
   */
  rewrite?(url: URL | string, context: UrlContext, written: string): string | null;
}

export interface UrlDecision {
  action: 'keep' | 'rewrite' | 'drop';
  /** The value to write back (null when dropped). */
  value: string | null;
  reason: string;
  /** The effective scheme (lowercase, no colon), when known. */
  scheme: string | null;
  form: UrlForm;
}

export const DEFAULT_DATA_MIME_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
];

/** Schemes that run script when navigated to or loaded; refused even when a rewrite returns them. */
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript']);

const DEFAULT_CONTEXT: UrlContext = { element: '', attribute: '', kind: 'other' };

/**
 * Clean an attribute value as the basic URL parser does before parsing: strip leading and trailing C0 controls
 * and spaces, then remove all ASCII tabs and newlines.
 */
export function cleanUrl(value: string): string {
  let a = 0;
  let b = value.length;
  while (a < b && value.charCodeAt(a) <= 0x20) a++;
  while (b > a && value.charCodeAt(b - 1) <= 0x20) b--;
  let out = '';
  let start = a;
  for (let i = a; i < b; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      out += value.slice(start, i);
      start = i + 1;
    }
  }
  return start === a && a === 0 && b === value.length ? value : out + value.slice(start, b);
}

/**
 * The scheme of a cleaned URL string, lowercase, or null if it has none (the URL parser's "scheme start state"
 * and "scheme state": an ASCII alpha, then ASCII alphanumerics, "+", "-", ".", up to the first ":").
 */
export function urlScheme(clean: string): string | null {
  if (clean.length === 0 || !isAsciiAlpha(clean.charCodeAt(0))) return null;
  for (let i = 1; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    if (c === 0x3a) return clean.slice(0, i).toLowerCase();
    if (!isSchemeCodePoint(c)) return null;
  }
  return null;
}

/** A code point of a scheme after its first: ASCII alphanumeric, "+", "-" or ".". */
function isSchemeCodePoint(c: number): boolean {
  return isAsciiAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
}

/**
 * `urlScheme(cleanUrl(value))` without building the cleaned string: reads only as far as the scheme's colon,
 * skipping the leading C0 controls and spaces and the tabs and newlines that cleaning removes.
 */
export function schemeOf(value: string): string | null {
  const n = value.length;
  let start = 0;
  while (start < n && value.charCodeAt(start) <= 0x20) start++;
  if (start === n || !isAsciiAlpha(value.charCodeAt(start))) return null;
  // Whether the scheme holds tabs or newlines to remove (rare: the common scheme is one slice).
  let removed = false;
  for (let i = start + 1; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x3a) {
      const scheme = value.slice(start, i);
      return (removed ? scheme.replace(/[\t\n\r]/g, '') : scheme).toLowerCase();
    }
    if (c === 0x09 || c === 0x0a || c === 0x0d) removed = true;
    else if (!isSchemeCodePoint(c)) return null;
  }
  return null;
}

/** Which relative form a scheme-less cleaned URL has (backslash counts as slash, as for special schemes). */
export function relativeForm(clean: string): UrlForm {
  if (clean.length === 0) return 'empty';
  const c0 = clean.charCodeAt(0);
  if (c0 === 0x2f || c0 === 0x5c) {
    const c1 = clean.charCodeAt(1);
    return c1 === 0x2f || c1 === 0x5c ? 'scheme-relative' : 'path-absolute';
  }
  if (c0 === 0x3f) return 'query';
  if (c0 === 0x23) return 'fragment';
  return 'path-relative';
}

const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The MIME type essence of a `data:` URL (Fetch's "data: URL processor", enough of it to name the type), or
 * null if it has no comma (not a valid data: URL). The input is the URL's href.
 */
export function dataUrlMimeType(href: string): string | null {
  const body = href.slice(5); // after "data:"
  const comma = body.indexOf(',');
  if (comma < 0) return null;
  let mime = body.slice(0, comma).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  // A trailing ";base64" (with optional spaces around "=" -free name) is not part of the MIME type.
  mime = mime.replace(/;[ ]*base64$/i, '');
  if (mime.startsWith(';')) mime = 'text/plain' + mime;
  const semi = mime.indexOf(';');
  const essence = (semi < 0 ? mime : mime.slice(0, semi)).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '').toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0 || !HTTP_TOKEN.test(essence.slice(0, slash)) || !HTTP_TOKEN.test(essence.slice(slash + 1))) {
    return 'text/plain'; // unparsable MIME type: the processor falls back to text/plain
  }
  return essence;
}

/** "HTTPS:" -> "https". */
function normalizeScheme(s: string): string {
  const t = s.toLowerCase();
  return t.endsWith(':') ? t.slice(0, -1) : t;
}

/** The WHATWG `URL` of `input` (against `base`, when given), or null where the URL parser fails. */
export function tryUrl(input: string, base?: string): URL | null {
  try {
    return base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
}

function drop(reason: string, form: UrlForm, scheme: string | null): UrlDecision {
  return { action: 'drop', value: null, reason, scheme, form };
}

/** Check one URL attribute value (already entity-decoded) against a policy. */
export function checkUrl(value: string, policy: UrlPolicy, context: UrlContext = DEFAULT_CONTEXT): UrlDecision {
  const clean = cleanUrl(value);
  const scheme = urlScheme(clean);
  const allowed = (s: string): boolean => policy.schemes.some((x) => normalizeScheme(x) === s);
  let form: UrlForm;
  let parsed: URL | null = null;
  let out: string;
  let effectiveScheme: string | null;
  if (scheme !== null) {
    form = 'absolute';
    effectiveScheme = scheme;
    if (!allowed(scheme)) return drop(`scheme not allowed: ${scheme}`, form, scheme);
    parsed = tryUrl(clean, policy.base !== undefined && tryUrl(policy.base) ? policy.base : undefined);
    if (parsed === null) return drop('invalid URL', form, scheme);
    out = parsed.href;
  } else {
    form = relativeForm(clean);
    const base = policy.base !== undefined ? tryUrl(policy.base) : null;
    if (policy.base !== undefined && base === null) return drop('invalid base URL', form, null);
    effectiveScheme = base !== null ? base.protocol.slice(0, -1) : 'https';
    if (!allowed(effectiveScheme)) return drop(`scheme not allowed: ${effectiveScheme}`, form, effectiveScheme);
    if (policy.relative === 'drop') return drop('relative URL', form, effectiveScheme);
    const resolved = tryUrl(clean, base !== null ? base.href : 'https://base.invalid/');
    if (resolved === null) return drop('invalid URL', form, effectiveScheme);
    if (policy.relative === 'resolve') {
      if (base === null) return drop('relative URL with no base', form, effectiveScheme);
      parsed = resolved;
      out = resolved.href;
    } else {
      out = clean;
    }
  }
  if (effectiveScheme === 'data' && parsed !== null) {
    const refused = refusedDataType(parsed.href, policy);
    if (refused === '') return drop('invalid data: URL', form, effectiveScheme);
    if (refused !== null) return drop(`data: MIME type not allowed: ${refused}`, form, effectiveScheme);
  }
  if (policy.rewrite) {
    const r: unknown = policy.rewrite(parsed ?? out, context, clean);
    if (r === null) return drop('refused by rewrite', form, effectiveScheme);
    if (typeof r !== 'string') throw new TypeError(`urls.rewrite: expected a string or null, got ${r === undefined ? 'undefined' : typeof r} for ${JSON.stringify(value)}`);
    const rc = cleanUrl(r);
    const rs = urlScheme(rc);
    if (rs !== null && SCRIPT_SCHEMES.has(rs)) return drop(`rewrite returned a ${rs}: URL`, form, effectiveScheme);
    // The policy's own data: rule holds for what a rewrite returns (a data:text/html link runs script when followed).
    const refused = rs === 'data' ? refusedDataType(rc, policy) : null;
    if (refused !== null) return drop(`rewrite returned a data: URL of a type not allowed: ${refused || 'invalid'}`, form, effectiveScheme);
    if (rc !== out) return { action: 'rewrite', value: rc, reason: 'rewritten', scheme: rs ?? effectiveScheme, form };
  }
  return { action: 'keep', value: out, reason: 'allowed', scheme: effectiveScheme, form };
}

/** For a `data:` URL: null when the policy's `data:` types allow it, else its MIME type ('' when it has none: invalid). */
function refusedDataType(href: string, policy: UrlPolicy): string | null {
  const mime = dataUrlMimeType(href);
  if (mime === null) return '';
  return (policy.dataMimeTypes ?? DEFAULT_DATA_MIME_TYPES).includes(mime) ? null : mime;
}

/** A `rewriteUrl` for the CSS declaration filter: CSS url()s checked with this policy and context. */
export function cssUrlRewriter(
  policy: UrlPolicy,
  context: UrlContext = { element: 'style', attribute: '', kind: 'style' },
): (url: string) => string | null {
  return (url) => checkUrl(url, policy, context).value;
}

/** Check a space-separated list of URLs (e.g. `ping`): kept URLs joined by one space, or null if none. */
export function checkUrlList(value: string, policy: UrlPolicy, context: UrlContext = DEFAULT_CONTEXT): string | null {
  const kept: string[] = [];
  for (const part of value.split(/[\t\n\f\r ]+/)) {
    if (part === '') continue;
    const d = checkUrl(part, policy, context);
    if (d.value !== null && d.value !== '') kept.push(d.value.replace(/[\t\n\f\r ]/g, encodeURIComponent));
  }
  return kept.length > 0 ? kept.join(' ') : null;
}

/**
 * The kind of URL an attribute holds (for `rewrite` contexts and per-kind policies). `element` is the local
 * name, `attribute` the qualified name (`xlink:href`).
 */
export function urlKind(element: string, attribute: string): UrlKind {
  const el = element.toLowerCase();
  const at = attribute.toLowerCase();
  switch (at) {
    case 'action':
    case 'formaction':
      return 'form';
    case 'poster':
    case 'background':
    case 'lowsrc':
    case 'dynsrc':
      return 'image';
    case 'srcset':
    case 'imagesrcset':
      return 'image';
    case 'cite':
    case 'longdesc':
    case 'ping':
      return 'link';
    case 'data':
    case 'codebase':
    case 'archive':
    case 'classid':
      return 'object';
    case 'manifest':
    case 'icon':
      return 'other';
  }
  if (at === 'src') {
    if (el === 'img' || el === 'input' || el === 'image') return 'image';
    if (el === 'video' || el === 'audio' || el === 'source' || el === 'track') return 'media';
    if (el === 'iframe' || el === 'frame') return 'frame';
    if (el === 'embed' || el === 'object') return 'object';
    if (el === 'script') return 'other';
    return 'other';
  }
  if (at === 'href' || at === 'xlink:href') {
    if (el === 'a' || el === 'area') return 'link';
    if (el === 'link') return 'style';
    if (el === 'image' || el === 'feimage') return 'image';
    if (el === 'use') return 'object';
    return 'link';
  }
  return 'other';
}
