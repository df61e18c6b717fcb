/**
 * `email`: HTML email for display inside a web page (a webmail's message view).
 *
 * Kept: tables and the legacy presentational attributes email relies on (`bgcolor`, `align`, `valign`, `width`,
 * `height`, `cellpadding`, `cellspacing`, `border`, `background`, `color`, `face`, `size`...), `font` and
 * `center`, classes, inline styles filtered by property (`EMAIL_STYLE_PROPERTIES`: no `position`, no custom
 * properties, no `behavior`), links (http, https, mailto, tel) opened in a new tab with
 * `rel="noopener noreferrer"`.
 * Removed: scripts, forms and their controls (a `form` is unwrapped), frames, objects/embeds, SVG/MathML,
 * `meta` (so `meta refresh`), `link`, `base`, `title`, comments (so conditional comments). Unknown elements
 * are unwrapped (a `picture` leaves its `img`, a `video` or `audio` its fallback content: their `source`s
 * dropped). Relative URLs are resolved against the message's base (`baseUrl`, and with `sanitizeEmail` the
 * message's own `<base href>`), as a browser showing the message would, then checked as absolute ones; without a
 * base they are dropped (in the page showing the message they would point at the page's own site), but for
 * scheme-relative ones (`//host/path`), taken as https.
 * Remote resources: every URL that loads something (img `src`/`srcset`, `background`, CSS `url()`) that is
 * http(s) is blocked unless a `proxyImage` callback rewrites it; `cid:` URLs are resolved by `resolveCid` or
 * blocked; raster `data:` images are kept.
 *
 * The plain policy (`sanitizeDocument(bytes, { policy: email })`) blocks every remote resource and drops
 * `<style>` elements, which cannot be made safe without a container to scope them to. `sanitizeEmail` is the
 * full treatment: callbacks, charset, and `<style>` sheets kept but scoped to a container class
 * (`scopeStylesheet`: every selector prefixed, `body`/`html` mapped to the container, `@import`, `@font-face`
 * and unknown at-rules dropped, `url()`s through the same URL rules), returned with the body's markup; the
 * body's own presentation (`bgcolor`, `text`, `link`/`vlink`/`alink`, `background`, `dir`, `style`) becomes
 * rules for the container too.
 */
import { HTML_NS, createDocumentFragment, type Element } from '../src/dom.js';
import type { CompiledPolicy, Policy, PolicyContext, UrlRewriteContext } from '../src/policy/index.js';
import { DEFAULT_STYLE_PROPERTIES, compilePolicy, withPolicyEngine } from '../src/policy/index.js';
import { sanitizeDocument, type SanitizeReportEntry } from '../src/sanitize.js';
import { serialize } from '../src/serializer.js';
import { enforceReparseSafety } from '../src/sanitizer/reparse-safety.js';
import { scopeStylesheet, type ScopeRemoval, type ScopeResult } from '../src/css/index.js';
import { serializeString } from '../src/css/serialize.js';
import { legacyColor } from '../src/policy/style-transforms.js';
import { checkUrl, tryUrl, type UrlPolicy } from '../src/url/url-policy.js';
import { isUint8Array } from '../src/encoding/encoding-sniffing.js';
import { ALWAYS_DROP, deepFreeze, optionsObject, unknownElementAction } from './shared.js';

export const EMAIL_STYLE_PROPERTIES: readonly string[] = [
  ...DEFAULT_STYLE_PROPERTIES,
  'background', 'background-image', 'background-position', 'background-repeat', 'background-size',
  'border-bottom-color', 'border-bottom-style', 'border-bottom-width', 'border-left-color', 'border-left-style',
  'border-left-width', 'border-right-color', 'border-right-style', 'border-right-width', 'border-top-color',
  'border-top-style', 'border-top-width', 'clear', 'display', 'float', 'font-stretch', 'list-style',
  'list-style-position', 'outline', 'overflow', 'table-layout', 'text-decoration-color', 'text-decoration-line',
  'text-decoration-style', 'text-overflow', 'text-shadow', 'word-wrap', 'overflow-wrap',
].filter((p, i, all) => all.indexOf(p) === i);

const ELEMENTS = [
  'html', 'head', 'body', 'div', 'span', 'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'caption',
  'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'a', 'img', 'b', 'strong', 'i', 'em', 'u', 's',
  'strike', 'small', 'big', 'sub', 'sup', 'font', 'center', 'blockquote', 'pre', 'code', 'kbd', 'samp', 'tt',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'abbr', 'address', 'cite', 'q', 'del', 'ins', 'mark', 'time', 'section',
  'article', 'header', 'footer', 'nav', 'main', 'aside', 'figure', 'figcaption', 'wbr', 'bdi', 'bdo',
];

const ATTRIBUTES = [
  'align', 'valign', 'bgcolor', 'background', 'width', 'height', 'cellpadding', 'cellspacing', 'border', 'color',
  'face', 'size', 'style', 'class', 'dir', 'lang', 'title', 'alt', 'src', 'srcset', 'href', 'colspan', 'rowspan',
  'nowrap', 'type', 'start', 'hspace', 'vspace', 'summary', 'span', 'scope', 'headers', 'abbr', 'cite',
  'datetime', 'frame', 'rules', 'char', 'charoff', 'axis', 'clear', 'noshade', 'bordercolor', 'text', 'link',
  'vlink', 'alink',
];

/** The Sanitizer configuration, deep-frozen: policies built per call share its conversion (see compilePolicy). */
const SANITIZER = Object.freeze({
  elements: Object.freeze(ELEMENTS),
  attributes: Object.freeze(ATTRIBUTES),
  comments: false,
  dataAttributes: false,
});

/** The style rule, frozen for the same reason. */
const STYLE = Object.freeze({ properties: Object.freeze(EMAIL_STYLE_PROPERTIES.slice()) as string[] });

/** The same properties, for the style sheets' declarations (a Set per message cost a tenth of a short one's time). */
const STYLE_PROPERTIES = new Set(STYLE.properties);

const allowed = new Set(ELEMENTS);
// `video` and `audio` are unwrapped: an email's video carries fallback content (a poster image linking to the video)
// for the mail clients that do not play it, which a webmail showing the message is one of.
const dropped = new Set([...ALWAYS_DROP.filter((n) => n !== 'head' && n !== 'video' && n !== 'audio'), 'style']);

export interface EmailOptions {
  /**
   * Rewrite a remote (http/https) image or background URL to your proxy; return null (or undefined) to block it.
   * Default: block. Anything else than a string, null or undefined is a TypeError.
   */
  proxyImage?: (url: string, context: UrlRewriteContext) => string | null | undefined;
  /**
   * Map a `cid:` URL's content id (without `cid:`) to a URL (e.g. a blob: or /attachments/ URL); null or undefined
   * (`attachments.get(id)` of a missing one) blocks. Default: block.
   */
  resolveCid?: (contentId: string) => string | null | undefined;
  /**
   * The message's base URL, an absolute http or https URL (the MIME part's `Content-Base`, or its
   * `Content-Location` made absolute). Relative URLs in the message are resolved against it, then go through the
   * rules absolute ones do (links kept, images and backgrounds to `proxyImage`). `sanitizeEmail` also reads the
   * message's own `<base href>`, as a browser does (the first one with an `href`, itself resolved against this).
   * Without a base, relative URLs are dropped: in a web page they would point at the page's own site.
   */
  baseUrl?: string;
}

/**
 * What the URL rewrite reads: the callbacks, and the base URL relative URLs are resolved against (null: none, and
 * then only scheme-relative URLs are kept, as https).
 */
interface EmailCall {
  proxyImage: EmailOptions['proxyImage'];
  resolveCid: EmailOptions['resolveCid'];
  base: string | null;
  /** Whether the message's base element has been read (sanitizeEmail's calls). */
  baseRead: boolean;
}

/**
 * The document base URL given by the message's first base element with an `href` (HTML, "set the frozen base
 * URL"): its `href` parsed against the fallback (`baseUrl`, else nothing: a relative one then fails); a value that
 * fails to parse, or gives a `data:` or `javascript:` URL, leaves the fallback. (What resolves against a base of
 * another scheme is kept only if it is an http or https URL, or a `mailto:` or `tel:` link.)
 */
function readBase(call: EmailCall, href: string): void {
  const u = tryUrl(href, call.base ?? undefined);
  if (u === null || u.protocol === 'data:' || u.protocol === 'javascript:') return;
  call.base = u.href;
}

/** `options.baseUrl` checked: an absolute http or https URL (its `href`), or null when not given. */
function checkedBaseUrl(options: EmailOptions, fn: string): string | null {
  const v = options.baseUrl;
  if (v === undefined) return null;
  if (typeof v !== 'string') throw new TypeError(`${fn}: options.baseUrl: expected a string, got ${v === null ? 'null' : typeof v}`);
  const base = httpUrl(v, undefined);
  if (base === null) throw new TypeError(`${fn}: options.baseUrl: expected an absolute http or https URL, got ${JSON.stringify(v)}`);
  return base;
}

/** `url` parsed (against `base`, when given) if it gives an http or https URL: its `href`; else null. */
function httpUrl(url: string, base: string | undefined): string | null {
  const u = tryUrl(url, base);
  return u !== null && (u.protocol === 'http:' || u.protocol === 'https:') ? u.href : null;
}

const SCHEME_RELATIVE = /^[\\/]{2}/;

/**
 * The URL rewrite shared by attributes and style sheets. The URL policies keep relative URLs as written (after
 * the scheme checks, made for them as https): here they are resolved against the call's base, or dropped. With a
 * base, an absolute http or https URL is parsed again against it, from what was written: `http:x.png` is relative
 * against an http base.
 */
function resourceRewrite(call: EmailCall): (url: string, context: UrlRewriteContext) => string | null {
  return (url, context) => {
    let u = String(url);
    let scheme = /^([a-z][a-z0-9+.-]*):/i.exec(u)?.[1]?.toLowerCase() ?? '';
    if (scheme === '') {
      // Without a base, a scheme-relative URL (`//host/path`) still names its site: https, as checked.
      const base = call.base ?? (SCHEME_RELATIVE.test(u) ? 'https://base.invalid/' : null);
      const resolved = base !== null ? tryUrl(u, base) : null;
      if (resolved === null) return null;
      u = resolved.href;
      scheme = resolved.protocol.slice(0, -1);
      if (scheme !== 'http' && scheme !== 'https' && !(context.kind === 'link' && (scheme === 'mailto' || scheme === 'tel'))) return null;
    } else if (call.base !== null && (scheme === 'http' || scheme === 'https')) {
      // (The same scheme as before: a URL with a scheme keeps it.)
      u = httpUrl(context.written, call.base) ?? u;
    }
    if (context.kind === 'link') return u;
    if (scheme === 'data') return u;
    if (scheme === 'cid') {
      if (call.resolveCid === undefined) return null;
      let id = u.slice(4);
      try {
        id = decodeURIComponent(id);
      } catch {
        // keep the raw form
      }
      return call.resolveCid(id.replace(/^<|>$/g, '')) ?? null;
    }
    if (scheme === 'http' || scheme === 'https') return call.proxyImage !== undefined ? (call.proxyImage(u, context) ?? null) : null;
    return null;
  };
}

function onElement(el: Element, _ctx: PolicyContext) {
  return unknownElementAction(el, allowed, dropped);
}

/**
 * The email policy with the caller's callbacks, for `sanitize`/`sanitizeDocument` (e.g. to sanitize a stored body
 * again, or a fragment). `<style>` elements are dropped: use `sanitizeEmail` to keep them scoped.
 */
export function emailPolicy(options?: EmailOptions | null): Policy {
  options = optionsObject(options, 'emailPolicy');
  for (const k of ['proxyImage', 'resolveCid'] as const) {
    if (options[k] !== undefined && typeof options[k] !== 'function') throw new TypeError(`emailPolicy: options.${k}: expected a function`);
  }
  const base = checkedBaseUrl(options, 'emailPolicy');
  return withPolicyEngine(buildPolicy({ proxyImage: options.proxyImage, resolveCid: options.resolveCid, base, baseRead: false }));
}

/**
 * The policy; with `onStyle` (sanitizeEmail's), `<style>` sheets go to it, and the message's first `<base>` with an
 * `href` sets `call.base` (the structure pass, where the hook runs, is over before the URL rules read it).
 */
function buildPolicy(call: EmailCall, onStyle?: (css: string) => void): Policy {
  return {
    sanitizer: SANITIZER,
    urls: {
      schemes: ['http', 'https', 'mailto', 'tel', 'cid', 'data'],
      relative: 'keep',
      kinds: { link: { schemes: ['http', 'https', 'mailto', 'tel'] } },
      rewrite: resourceRewrite(call),
    },
    attributes: {
      cellpadding: { value: { pattern: '[0-9]{1,3}' } },
      cellspacing: { value: { pattern: '[0-9]{1,3}' } },
      border: { value: { pattern: '[0-9]{1,3}' } },
    },
    elements: {
      a: { force: { rel: 'noopener noreferrer', target: '_blank' } },
    },
    style: STYLE,
    hooks: {
      onElement:
        onStyle === undefined
          ? onElement
          : (el, ctx) => {
              if (el.namespaceURI === HTML_NS) {
                if (el.localName === 'style') {
                  onStyle(el.textContent);
                  return 'drop';
                }
                // The document base URL (HTML, "frozen base URL"): the first base element with an href, resolved
                // against the fallback base URL; one that fails to parse leaves the fallback.
                if (el.localName === 'base' && !call.baseRead && el.hasAttribute('href')) {
                  call.baseRead = true;
                  readBase(call, el.getAttribute('href')!);
                }
              }
              return onElement(el, ctx);
            },
    },
  };
}

/** The plain email policy: remote resources and `cid:` blocked, `<style>` dropped. */
export const email: Policy = deepFreeze(buildPolicy({ proxyImage: undefined, resolveCid: undefined, base: null, baseRead: false }));

export interface SanitizeEmailOptions extends EmailOptions {
  /** The container's class (letters, digits, `-`, `_`). Default: `htmlsift-email-` and a random suffix. */
  container?: string;
  /** The transport charset (e.g. from the MIME part's Content-Type), for byte input. */
  charset?: string;
  /** Receives each removal or change made by the policy and by reparse safety (CSS removals: `cssRemoved`). */
  onReport?: (entry: SanitizeReportEntry) => void;
}

export interface SanitizedEmail {
  /** Markup for the container's innerHTML: a `<style>` element with `css` (when any) and the body's content. */
  html: string;
  /** The body's content alone. */
  body: string;
  /**
   * The style sheet ('' when none): the body's presentation as rules for the container, and the scoped sheets.
   */
  css: string;
  /** The class to put on the container element: `<div class="${container}">${html}</div>`. */
  container: string;
  /**
   * The message's language (the body's `lang`, else the `html` element's; '' when none or not shaped as a language
   * tag), for the container's `lang` attribute: CSS cannot carry it, and it picks fonts (Han characters in Japanese,
   * Chinese or Korean text), hyphenation and quotes.
   */
  lang: string;
  /** What scoping removed from the style sheets, in source order. */
  cssRemoved: ScopeRemoval[];
}

const CLASS_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;

/**
 * Random words for the default container names, drawn 64 at a time: one `getRandomValues` call cost about as much
 * as the rest of sanitizing a short message without style sheets. Each word is cleared once used.
 */
const randomWords = new Uint32Array(64);
let randomAt = randomWords.length;

function randomSuffix(): string {
  if (randomAt === randomWords.length) {
    const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
    if (c?.getRandomValues) c.getRandomValues(randomWords);
    else for (let i = 0; i < randomWords.length; i++) randomWords[i] = Math.floor(Math.random() * 0x100000000);
    randomAt = 0;
  }
  const suffix = randomWords[randomAt]!.toString(36) + randomWords[randomAt + 1]!.toString(36);
  randomWords[randomAt++] = 0;
  randomWords[randomAt++] = 0;
  return suffix;
}

/**
 * The callbacks and base URL of the `sanitizeEmail` call in progress, and the list its `<style>` sheets go to. `sanitizeEmail`'s
 * policy is compiled once (`callPolicy`) and reads them from here: compiling it per message (with scoping an empty
 * stylesheet, now skipped) was half of a paragraph-sized message's time. A callback that calls `sanitizeEmail` itself
 * finds the outer call's values back when it returns.
 */
const activeCall: EmailCall & { sheets: string[] } = {
  proxyImage: undefined,
  resolveCid: undefined,
  base: null,
  baseRead: false,
  sheets: [],
};
let callPolicy: CompiledPolicy | null = null;

/**
 * Sanitizes an HTML email (a string, or bytes decoded with `charset` or the standard's sniffing) for display in
 * a container element. See the module comment for what is kept.
 */
export function sanitizeEmail(input: string | Uint8Array, options?: SanitizeEmailOptions | null): SanitizedEmail {
  if (typeof input !== 'string' && !isUint8Array(input)) {
    throw new TypeError('sanitizeEmail: input: expected a string or a Uint8Array, got ' + (input === null ? 'null' : typeof input));
  }
  options = optionsObject(options, 'sanitizeEmail');
  for (const k of ['proxyImage', 'resolveCid'] as const) {
    if (options[k] !== undefined && typeof options[k] !== 'function') throw new TypeError(`sanitizeEmail: options.${k}: expected a function`);
  }
  const container = options.container ?? 'htmlsift-email-' + randomSuffix();
  if (typeof container !== 'string' || !CLASS_NAME.test(container)) {
    throw new TypeError('sanitizeEmail: options.container: expected a class name (letters, digits, - and _), got ' + JSON.stringify(container));
  }
  if (options.charset !== undefined && typeof options.charset !== 'string') throw new TypeError('sanitizeEmail: options.charset: expected a string');
  const report = options.onReport;
  if (report !== undefined && typeof report !== 'function') throw new TypeError('sanitizeEmail: options.onReport: expected a function');
  const base = checkedBaseUrl(options, 'sanitizeEmail');
  const sheets: string[] = [];
  const outer = { ...activeCall };
  activeCall.proxyImage = options.proxyImage;
  activeCall.resolveCid = options.resolveCid;
  activeCall.base = base;
  activeCall.baseRead = false;
  activeCall.sheets = sheets;
  try {
    return sanitizeEmailWith(input, options, container, sheets, report);
  } finally {
    Object.assign(activeCall, outer);
  }
}

function sanitizeEmailWith(
  input: string | Uint8Array,
  options: SanitizeEmailOptions,
  container: string,
  sheets: string[],
  report: SanitizeEmailOptions['onReport'],
): SanitizedEmail {
  const policy = (callPolicy ??= compilePolicy(buildPolicy(activeCall, (css) => activeCall.sheets.push(css))));
  const doc = sanitizeDocument(input, {
    policy,
    ...(options.charset !== undefined ? { transportEncoding: options.charset } : {}),
    ...(report !== undefined ? { onReport: report } : {}),
  });
  const fragment = createDocumentFragment();
  const body = doc.body;
  if (body !== null) {
    for (const c of body.childNodes) c.parentNode = fragment;
    fragment.childNodes = body.childNodes;
    body.childNodes = [];
  }
  enforceReparseSafety(fragment, { kind: 'fragment', name: 'div', namespace: HTML_NS }, report ? (r) => report({ stage: 'reparse-safety', ...r }) : undefined);
  const bodyHtml = serialize(fragment, { roundTrip: true });
  const [hints, inline, lang] = containerRules(body, doc.documentElement, '.' + container, report);
  const scoped = sheets.length > 0 ? scopeSheets(sheets, container) : null;
  const css = escapeForStyleElement(hints + (scoped !== null ? scoped.css : '') + inline);
  const html = (css.trim() !== '' ? '<style>' + css + '</style>' : '') + bodyHtml;
  return { html, body: bodyHtml, css, container, lang, cssRemoved: scoped !== null ? scoped.removed : [] };
}

/**
 * The message's `<style>` sheets scoped to the container, their URLs through the same rules as the markup's (and
 * resolved against the same base: a `<style>` element's URLs are the document's).
 */
function scopeSheets(sheets: string[], container: string): ScopeResult {
  const rewrite = resourceRewrite(activeCall);
  const urlPolicy: UrlPolicy = {
    schemes: ['http', 'https', 'cid', 'data'],
    relative: 'keep',
    rewrite: (url, context, written) => rewrite(String(url), { ...context, written }),
  };
  return scopeStylesheet(sheets.join('\n'), {
    scope: '.' + container,
    allowAtRules: ['media'],
    declarations: {
      allow: (property) => STYLE_PROPERTIES.has(property),
      rewriteUrl: (url) => checkUrl(url, urlPolicy, { element: 'style', attribute: 'style', kind: 'image' }).value,
      allowImportant: true,
    },
  });
}

/** The sheet goes in a `<style>` element: nothing in it may close that element or open a comment there. */
function escapeForStyleElement(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * The body's presentation, carried to the container that stands in for it (as the sheets' `body` selectors are):
 * its `bgcolor` and `text` colors (read as a browser reads them: `legacyColor`), `background` image (its URL as the
 * policy left it, proxied or resolved) and `dir` (else the `html` element's), in a rule that the sheets' rules
 * override, as they do presentational attributes, and its link colors; its `style` attribute (filtered by the
 * policy) in a rule after the sheets, as an inline style wins over them; and its `lang` (else the `html`
 * element's), which CSS cannot carry, for `SanitizedEmail.lang`. The body's other attributes (`class`, `id`...) are
 * dropped and reported.
 */
function containerRules(body: Element | null, root: Element | null, scope: string, report: SanitizeEmailOptions['onReport']): [string, string, string] {
  const hints: string[] = [];
  let inline = '';
  let links = '';
  let dir = root !== null ? root.getAttribute('dir') : null;
  let lang = root !== null ? root.getAttribute('lang') : null;
  if (body !== null) {
    for (const a of body.attributes) {
      let reason = 'the body is replaced by the container';
      if (a.namespaceURI === null) {
        const name = a.localName;
        const v = a.value;
        if (name === 'style') {
          inline = v;
          continue;
        }
        if (name === 'dir') {
          dir = v;
          continue;
        }
        if (name === 'lang') {
          lang = v;
          continue;
        }
        if (name === 'background') {
          if (v !== '') hints.push('background-image:url(' + serializeString(v) + ')');
          continue;
        }
        const link = LINK_COLORS.indexOf(name);
        if (name === 'bgcolor' || name === 'text' || link >= 0) {
          const color = legacyColor(v);
          if (color === null) reason = 'no color (empty or transparent)';
          else {
            if (link >= 0) links += ':where(' + scope + ' a:' + LINK_STATES[link] + '){color:' + color + '}\n';
            else hints.push((name === 'text' ? 'color:' : 'background-color:') + color);
            continue;
          }
        }
      }
      report?.({ stage: 'policy', action: 'drop-attribute', rule: 'sanitizeEmail', element: 'body', attribute: a.name, path: 'body', from: a.value, reason });
    }
  }
  dir = dir === null ? '' : dir.toLowerCase();
  if (dir === 'ltr' || dir === 'rtl') hints.push('direction:' + dir);
  return [
    (hints.length > 0 ? scope + '{' + hints.join(';') + '}\n' : '') + links,
    inline !== '' ? '\n' + scope + '{' + inline + '}' : '',
    lang !== null && LANGUAGE_TAG.test(lang) ? lang : '',
  ];
}

/** A language tag's shape (BCP 47: subtags of letters and digits), for the `lang` the caller puts on an element. */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The body's link colors and the links they color: a rule of no specificity (`:where`), so that any rule of the
 * sheets for links wins over it, as an author's rule does over these attributes.
 */
const LINK_COLORS = ['link', 'vlink', 'alink'];
const LINK_STATES = ['link', 'visited', 'active'];
