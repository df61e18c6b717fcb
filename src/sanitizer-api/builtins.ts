/**
 * The Sanitizer API's built-ins, expanded from the compact generated tables (`builtins.generated.ts`) and
 * completed with the three small lists the standard writes inline.
 */
import { HTML_NS, MATHML_NS, SVG_NS, XLINK_NS } from '../dom.js';
import {
  BASELINE_REMOVE_ATTRIBUTES,
  BASELINE_REMOVE_ELEMENTS,
  DEFAULT_ATTRIBUTES,
  DEFAULT_COMMENTS,
  DEFAULT_DATA_ATTRIBUTES,
  DEFAULT_ELEMENTS,
  DEFAULT_PROCESSING_INSTRUCTIONS,
  EVENT_HANDLER_CONTENT_ATTRIBUTES,
} from './builtins.generated.js';
import type { SanitizerName } from './names.js';
import type { CanonicalSanitizerConfig, CanonicalElement } from './types.js';

function words(s: string): string[] {
  return s === '' ? [] : s.split(' ');
}

function names(groups: ReadonlyArray<readonly [string | null, string]>): SanitizerName[] {
  const out: SanitizerName[] = [];
  for (const [namespace, list] of groups) for (const name of words(list)) out.push({ name, namespace });
  return out;
}

/** A fresh copy of the built-in safe default configuration, in canonical form (callers may mutate it). */
export function builtinSafeDefaultConfig(): CanonicalSanitizerConfig {
  const elements: CanonicalElement[] = [];
  for (const [namespace, list] of DEFAULT_ELEMENTS) {
    for (const entry of words(list)) {
      const eq = entry.indexOf('=');
      const name = eq < 0 ? entry : entry.slice(0, eq);
      const attributes = eq < 0 ? [] : entry.slice(eq + 1).split(',').map((a) => ({ name: a, namespace: null }));
      elements.push({ name, namespace, attributes });
    }
  }
  return {
    elements,
    processingInstructions: words(DEFAULT_PROCESSING_INSTRUCTIONS).map((target) => ({ target })),
    attributes: names(DEFAULT_ATTRIBUTES),
    comments: DEFAULT_COMMENTS,
    dataAttributes: DEFAULT_DATA_ATTRIBUTES,
  };
}

/**
 * Elements the HTML Standard's built-in safe baseline removes beyond the WICG draft's list (the generated tables):
 * `base` became "unsafe" in whatwg/html#12664, and Chromium 156's removeUnsafe() removes it too.
 */
const HTML_BASELINE_ADDITIONS: ReadonlyArray<readonly [string, string]> = [[HTML_NS, 'base']];

/** Built-in safe baseline configuration, "removeElements". */
export const BASELINE_ELEMENTS_TO_REMOVE: readonly SanitizerName[] = Object.freeze(
  names([...BASELINE_REMOVE_ELEMENTS, ...HTML_BASELINE_ADDITIONS]),
);

/** Built-in safe baseline configuration, "removeAttributes". */
export const BASELINE_ATTRIBUTES_TO_REMOVE: readonly SanitizerName[] = Object.freeze(names(BASELINE_REMOVE_ATTRIBUTES));

/**
 * Event handler content attributes that Chromium 156 defines beyond HTML's index and removes in "remove unsafe"
 * (the standard leaves such user-agent extensions to the user agent): exactly the names Chromium's
 * `new Sanitizer({}).removeUnsafe()` lists that HTML's index does not (checked by
 * test/browser/sanitizer-parity.test.ts). Pointer, touch, animation and transition events, focusin/focusout,
 * legacy WebKit-prefixed events and Blink-specific ones. Any browser that runs the sanitized markup may honour
 * these, so the safe methods must drop them.
 */
const USER_AGENT_EVENT_HANDLERS =
  'onabort onactivate onanimationcancel onanimationend onanimationiteration onanimationstart onautofill ' +
  'onbeforecopy onbeforecut onbeforefilter onbeforepaste onbegin oncommand oncontentvisibilityautostatechange onend ' +
  'onfocusin onfocusout ongotpointercapture oninstallresult onlocation onlostpointercapture onmousewheel onmove ' +
  'onorientationchange onpointercancel onpointerdown onpointerenter onpointerleave onpointermove ' +
  'onpointerout onpointerover onpointerrawupdate onpointerup onpromptaction onpromptdismiss onrepeat ' +
  'onscrollsnapchange onscrollsnapchanging onsearch onselectionchange onselectstart onshow onstream ' +
  'ontimezonechange ontouchcancel ontouchend ontouchmove ontouchstart ontransitionend onvalidationstatuschange ' +
  'onwebkitanimationend onwebkitanimationiteration onwebkitanimationstart onwebkitfullscreenchange ' +
  'onwebkitfullscreenerror onwebkittransitionend';

/** The event handler content attributes "remove unsafe" removes: HTML's list, then the user agent's extras. */
export const EVENT_HANDLER_ATTRIBUTES: readonly SanitizerName[] = Object.freeze(
  [...words(EVENT_HANDLER_CONTENT_ATTRIBUTES), ...words(USER_AGENT_EVENT_HANDLERS)].map((name) => ({
    name,
    namespace: null,
  })),
);

/** Built-in non-replaceable elements list: never valid in replaceWithChildrenElements. */
export const NON_REPLACEABLE_ELEMENTS: readonly SanitizerName[] = Object.freeze([
  { name: 'html', namespace: HTML_NS },
  { name: 'svg', namespace: SVG_NS },
  { name: 'math', namespace: MATHML_NS },
]);

/** Built-in navigating URL attributes list: [element, attribute] pairs whose `javascript:` URLs are unsafe. */
export const NAVIGATING_URL_ATTRIBUTES: ReadonlyArray<readonly [SanitizerName, SanitizerName]> = Object.freeze([
  [{ name: 'a', namespace: HTML_NS }, { name: 'href', namespace: null }],
  [{ name: 'area', namespace: HTML_NS }, { name: 'href', namespace: null }],
  [{ name: 'base', namespace: HTML_NS }, { name: 'href', namespace: null }],
  [{ name: 'button', namespace: HTML_NS }, { name: 'formaction', namespace: null }],
  [{ name: 'form', namespace: HTML_NS }, { name: 'action', namespace: null }],
  [{ name: 'input', namespace: HTML_NS }, { name: 'formaction', namespace: null }],
  [{ name: 'a', namespace: SVG_NS }, { name: 'href', namespace: null }],
  [{ name: 'a', namespace: SVG_NS }, { name: 'href', namespace: XLINK_NS }],
] as const);

/** Built-in animating URL attributes list: SVG animation elements whose `attributeName` must not target href. */
export const ANIMATING_URL_ATTRIBUTES: ReadonlyArray<readonly [SanitizerName, SanitizerName]> = Object.freeze([
  [{ name: 'animate', namespace: SVG_NS }, { name: 'attributeName', namespace: null }],
  [{ name: 'animateTransform', namespace: SVG_NS }, { name: 'attributeName', namespace: null }],
  [{ name: 'set', namespace: SVG_NS }, { name: 'attributeName', namespace: null }],
] as const);
