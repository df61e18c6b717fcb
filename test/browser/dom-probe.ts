/**
 * DOM probing shared by the in-page halves of the browser policy suites (policies-corpus-page.ts,
 * paste-example-page.ts): walk every element, fire the events that would run handler attributes, and list what
 * must not be in a sanitized DOM. Browser code, no htmlsift import; nothing here recurses.
 */
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Every element under `root` (template contents and shadow roots included), without recursion. */
export function allElements(root: Node): Element[] {
  const out: Element[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType === 1) {
      const el = n as Element;
      if (n !== root) out.push(el);
      if (el.shadowRoot) stack.push(el.shadowRoot);
      if (el.namespaceURI === HTML_NS && el.localName === 'template') stack.push((el as HTMLTemplateElement).content);
    }
    for (let c = n.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return out;
}

const MOUSE_EVENTS = ['click', 'dblclick', 'auxclick', 'contextmenu', 'mousedown', 'mouseup', 'mouseover', 'mouseout', 'mouseenter', 'mouseleave', 'mousemove'];
const POINTER_EVENTS = ['pointerdown', 'pointerup', 'pointerover', 'pointerenter', 'pointermove', 'pointerout', 'pointerleave'];
const FOCUS_EVENTS = ['focus', 'focusin', 'blur', 'focusout'];
const KEY_EVENTS = ['keydown', 'keyup', 'keypress'];
/** Not `paste`: the paste suite listens for that one. */
const OTHER_EVENTS = [
  'load', 'error', 'abort', 'input', 'beforeinput', 'change', 'submit', 'reset', 'invalid', 'select', 'toggle', 'beforetoggle',
  'scroll', 'scrollend', 'wheel', 'copy', 'cut', 'drag', 'dragstart', 'dragenter', 'dragover', 'drop', 'animationstart',
  'animationend', 'animationiteration', 'transitionend', 'transitionrun', 'play', 'canplay', 'loadstart', 'loadeddata', 'progress',
  'resize', 'show', 'close', 'cancel', 'search', 'beforematch', 'contentvisibilityautostatechange', 'formdata', 'command', 'message',
];

/** Dispatches every event above to every element; returns how many were dispatched. */
export function trigger(els: readonly Element[]): number {
  let n = 0;
  for (const el of els) {
    if (el.matches('a[href], area[href], [tabindex], [contenteditable], button, input, select, textarea, summary')) {
      try {
        (el as HTMLElement).focus({ preventScroll: true });
      } catch {
        // not focusable
      }
    }
    for (const t of MOUSE_EVENTS) el.dispatchEvent(new MouseEvent(t, { bubbles: true, cancelable: true, composed: true }));
    for (const t of POINTER_EVENTS) el.dispatchEvent(new PointerEvent(t, { bubbles: true, cancelable: true }));
    for (const t of FOCUS_EVENTS) el.dispatchEvent(new FocusEvent(t));
    for (const t of KEY_EVENTS) el.dispatchEvent(new KeyboardEvent(t, { bubbles: true, cancelable: true, key: 'a' }));
    for (const t of OTHER_EVENTS) el.dispatchEvent(new Event(t, { bubbles: false, cancelable: true }));
    n += MOUSE_EVENTS.length + POINTER_EVENTS.length + FOCUS_EVENTS.length + KEY_EVENTS.length + OTHER_EVENTS.length;
  }
  return n;
}

const SCRIPT_CAPABLE = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'portal', 'fencedframe', 'link']);
const SCRIPT_DATA = /^\s*(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/(?:java|ecma)script)/i;
const BAD_CSS = /expression\s*\(|javascript\s*:|vbscript\s*:|-moz-binding|behavior\s*:/i;

export function scriptUrl(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw, document.baseURI);
  } catch {
    return null;
  }
  if (u.protocol === 'javascript:' || u.protocol === 'vbscript:' || u.protocol === 'livescript:') return u.protocol;
  if (u.protocol === 'data:') {
    let body = u.pathname;
    try {
      body = decodeURIComponent(body);
    } catch {
      // keep it raw
    }
    if (SCRIPT_DATA.test(body)) return 'data:' + body.slice(0, 24);
  }
  return null;
}

/** What must not be in the sanitized DOM. */
export function inspect(els: readonly Element[], label: string): string[] {
  const found: string[] = [];
  for (const el of els) {
    const ln = el.localName;
    const where = `${label} <${el.namespaceURI === HTML_NS ? '' : el.namespaceURI === SVG_NS ? 'svg ' : 'math '}${ln}>`;
    if (SCRIPT_CAPABLE.has(ln)) found.push(where + ' element');
    if (el.namespaceURI === SVG_NS && (ln === 'use' || ln === 'animate' || ln === 'set' || ln === 'foreignObject')) found.push(where + ' element');
    if (ln === 'meta' && el.hasAttribute('http-equiv')) found.push(where + ' http-equiv=' + String(el.getAttribute('http-equiv')));
    if (ln === 'style' && BAD_CSS.test(el.textContent ?? '')) found.push(where + ' script in css');
    for (const a of Array.from(el.attributes)) {
      const n = a.localName.toLowerCase();
      if (n.startsWith('on')) {
        found.push(`${where} ${a.name}=${a.value.slice(0, 40)}`);
        continue;
      }
      if (n === 'srcdoc') found.push(where + ' srcdoc');
      if (n === 'style' && BAD_CSS.test(a.value)) found.push(`${where} style=${a.value.slice(0, 60)}`);
      const candidates = n === 'srcset' ? a.value.split(',').map((p) => p.trim().split(/\s+/)[0] ?? '') : [a.value];
      for (const v of candidates) {
        const bad = scriptUrl(v);
        if (bad !== null) found.push(`${where} ${a.name}: ${bad}`);
      }
    }
  }
  return found;
}

/**
 * For `addInitScript` (installed through CDP before any page script, so the page's CSP does not apply to it):
 * records what runs (dialog functions and a global `__ran` overridden, uncaught errors, CSP violations, clicks to
 * script URLs; every click and form submission is cancelled). `window.__probeTake()` returns and clears the hits.
 */
export const PROBE_SCRIPT = String.raw`(() => {
  const hits = [];
  const rec = (what, detail) => hits.push(what + (detail === undefined ? '' : ': ' + String(detail).slice(0, 120)));
  window.__ran = (x) => rec('__ran', x);
  window.alert = (x) => rec('alert', x);
  window.confirm = (x) => { rec('confirm', x); return false; };
  window.prompt = (x) => { rec('prompt', x); return null; };
  window.print = () => rec('print');
  window.open = (x) => { rec('open', x); return null; };
  // Resource errors do not bubble: what reaches window is a script error (a handler that threw).
  window.addEventListener('error', (e) => rec('uncaught error', e.message));
  document.addEventListener('securitypolicyviolation', (e) => rec('csp ' + e.effectiveDirective, e.blockedURI + ' ' + (e.sample || '') + ' ' + (e.target && e.target.nodeName ? '<' + e.target.nodeName.toLowerCase() + '> ' : '') + (e.sourceFile || '') + ':' + e.lineNumber));
  window.addEventListener('click', (e) => {
    const a = e.target && e.target.closest ? e.target.closest('a[href], area[href]') : null;
    if (a !== null) {
      try {
        const u = new URL(a.getAttribute('href'), document.baseURI);
        if (u.protocol === 'javascript:' || u.protocol === 'vbscript:') rec('script URL navigation', a.getAttribute('href'));
      } catch (err) {}
    }
    e.preventDefault();
  }, true);
  // A form submitted by the browser (a click on a submit button) fires a trusted submit; the harness's own
  // dispatched submit events are not.
  window.addEventListener('submit', (e) => { if (e.isTrusted) rec('form submission', e.target && e.target.action); e.preventDefault(); }, true);
  Object.defineProperty(window, '__probeTake', { value: () => hits.splice(0) });
})()`;
