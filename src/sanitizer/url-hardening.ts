/**
 * URL hardening: htmlsift's addition to the Sanitizer API's safe default, applied by `sanitize()` when no
 * policy is given (a policy's URL rules replace it).
 *
 * The Sanitizer API's safe mode removes `javascript:` URLs from the attributes a browser navigates with
 * (`a href`, `form action`, SVG `href`...). A string sanitizer's output also meets consumers other than
 * today's Chromium (older browsers, mail clients, scripts that follow `cite` or `longdesc`), so every
 * URL-valued attribute loses a value whose scheme runs script (`javascript:`, `vbscript:`, `livescript:`) or
 * that is a `data:` URL of a type that can hold script (anything but the raster image types). The scheme is
 * found as the URL parser finds it (leading/trailing C0 controls and spaces stripped, tabs and newlines
 * removed, case-insensitive); entities were already decoded by the tokenizer.
 */
import type { Attr, Element } from '../dom.js';
import { DEFAULT_DATA_MIME_TYPES, cleanUrl, dataUrlMimeType, schemeOf } from '../url/url-policy.js';

/** Attributes whose value is a URL (or, for srcset/ping/archive, a list of URLs), on any element. */
const URL_ATTRIBUTES = new Set([
  'href', 'src', 'action', 'formaction', 'cite', 'data', 'poster', 'background', 'longdesc', 'codebase', 'classid',
  'usemap', 'manifest', 'icon', 'lowsrc', 'dynsrc', 'profile', 'ping', 'archive', 'srcset', 'imagesrcset', 'itemtype',
  'xlink:href', 'definitionURL',
]);
/** Those whose value is a list of URLs. */
const LIST_ATTRIBUTES = new Set(['srcset', 'imagesrcset', 'ping', 'archive']);
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript']);
const SAFE_DATA_TYPES = new Set(DEFAULT_DATA_MIME_TYPES);

/** Whether a single URL value is script-capable (see the module comment). */
export function isScriptCapableUrl(value: string): boolean {
  const scheme = schemeOf(value);
  if (scheme === null) return false;
  if (SCRIPT_SCHEMES.has(scheme)) return true;
  if (scheme === 'data') {
    const mime = dataUrlMimeType(cleanUrl(value));
    return mime === null || !SAFE_DATA_TYPES.has(mime);
  }
  return false;
}

/**
 * Whether a list of URLs (srcset, imagesrcset, ping, archive) holds a script-capable one. The value is split at
 * ASCII whitespace, each run at commas, and every piece is checked as a URL together with the comma that followed
 * it. A URL that "parse a srcset attribute" takes starts after whitespace or a comma, so it starts a piece, and
 * what decides the verdict (its scheme; for data:, the type before its first comma) lies in that piece and its
 * comma. So every script-capable candidate is found, including those the parser drops for invalid descriptors;
 * the other pieces (descriptors, the text after a comma inside a URL) can only remove more. Linear in the length.
 */
function isScriptCapableList(value: string): boolean {
  for (const chunk of value.split(/[\t\n\f\r ]+/)) {
    const pieces = chunk.split(',');
    for (let i = 0; i < pieces.length; i++) {
      if (pieces[i] !== '' && isScriptCapableUrl(i < pieces.length - 1 ? pieces[i] + ',' : pieces[i]!)) return true;
    }
  }
  return false;
}

/**
 * The hardening of one attribute, as a check for the Sanitizer API pass (`sanitizeWith`'s AttributeCheck):
 * true (and a call to `onRemove`) when `attr` is URL-valued and holds a script-capable URL.
 */
export function urlHardening(onRemove?: (element: Element, attribute: string) => void): (el: Element, attr: Attr) => boolean {
  return (el, a) => {
    // The qualified name; parsed attribute names are already in their final case (lower case, or MathML's
    // definitionURL).
    const name = a.name;
    if (!URL_ATTRIBUTES.has(name)) return false;
    if (!(LIST_ATTRIBUTES.has(name) ? isScriptCapableList(a.value) : isScriptCapableUrl(a.value))) return false;
    if (onRemove) onRemove(el, name);
    return true;
  };
}
