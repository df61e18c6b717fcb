/**
 * XSS corpus: every vector of xss-vectors.ts, in every context, is sanitized with the default
 * (`sanitize(vector, { context })`) and the output is run in Chromium, in a page that records any execution.
 *
 * For each (vector, context) the page:
 *   - live, scripting on: inserts `out` with innerHTML into a *connected* element of that context (template: also a
 *     connected clone of its content), so that handlers would fire;
 *   - live, scripting off: parses `out` with innerHTML on a context element of a DOMParser document (scripting off:
 *     noscript content is markup), then moves the result into a connected element of the same context;
 *   - document, scripting on: writes `out`, wrapped in the context's markup (`<table><tbody><tr><td>…`, `<svg>…`,
 *     `<style>…`), as a full document with document.write into an iframe whose window is probed too;
 *   - document, scripting off: the same into a sandboxed (allow-same-origin only) iframe, which parses with the
 *     scripting flag off.
 * Then it focuses every element that has attributes (an element without any has no handler to run and no URL to
 * follow), dispatches the usual events to it (clicks are intercepted: a click that would navigate to a javascript: URL
 * or submit to one is recorded as an execution and cancelled), waits for load, error and animation events (two
 * animation frames and a bounded wait per batch), and inspects the live DOMs.
 *
 * Executions: calls to alert/confirm/prompt/print/open/fetch/XMLHttpRequest/sendBeacon/__pwned in any of the page's
 * windows, dialogs, popups, and clicks or submissions that would navigate to a javascript: URL (recorded, then
 * cancelled so that the harness survives). Survivors: an `on*` attribute; a script, iframe, frame, frameset,
 * object, embed, applet, base, link, portal, fencedframe, svg use/handler/listener element; a meta with http-equiv; an
 * SVG animation element targeting href; a `javascript:`/`vbscript:`/`livescript:` URL or a script-capable `data:` URL
 * (text/html, xml, svg, javascript) in a URL-valued attribute, as the browser's URL parser reads it; a srcdoc; a
 * `style` attribute or style element with `expression(`, `url(javascript:`, `-moz-binding` or `behavior:`; an `id` or
 * `name` that clobbers a property of document, window, forms or elements (`cookie`, `getElementById`, `attributes`).
 * Reparse: our sanitized tree (sanitizeFragment, reparseSafe) must equal Chromium's innerHTML parse of `out` in the
 * same context, with scripting on and off (html5lib dump comparison).
 *
 * The run fails on any execution, survivor or reparse difference, known hole or not (vectors with `knownHole` are
 * listed separately in the output).
 *
 * A positive control runs first: unsanitized markup must be seen executing and surviving, or the detectors are broken.
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/xss-corpus.test.ts
 *   HTMLSIFT_XSS_FILTER=ns- ...      # only vectors whose id contains the string
 *   HTMLSIFT_XSS_BATCH=100 HTMLSIFT_XSS_WAIT=300 HTMLSIFT_XSS_VERBOSE=1   # cases per batch, wait per batch (ms), progress
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  HTML_NS,
  PAGE_SCRIPT,
  chromiumParseAll,
  chromiumSkipReason,
  encodeUnits,
  launchChromium,
  parseContextLabel,
  type BrowserCase,
  type ContextSpec,
} from './chromium.js';
import { XSS_VECTORS, type XssVector } from './xss-vectors.js';
import { sanitize, sanitizeFragment } from '../../src/sanitize.js';
import { dumpTree } from '../support/dump.js';
import { ELEMENT_NODE, type ParentNode } from '../../src/dom.js';

const SUITE = 'xss-corpus';
const ORIGIN = 'http://htmlsift.test';
const BATCH = Number(process.env.HTMLSIFT_XSS_BATCH ?? 100);
const WAIT_MS = Number(process.env.HTMLSIFT_XSS_WAIT ?? 300);
const FILTER = process.env.HTMLSIFT_XSS_FILTER ?? '';
/** Chromium's parser flattens trees deeper than 512 levels: an output deeper than that cannot parse back to our tree. */
const CHROMIUM_MAX_DEPTH = 512;

/** Every vector runs in all of these, plus the contexts it names. */
export const CONTEXTS = [
  'body',
  'td',
  'select',
  'template',
  'textarea',
  'style',
  'noscript',
  'svg svg',
  'math math',
  'math annotation-xml',
];

/** Full-document wrappers: the markup that puts `out` in the context element, and the markup that closes it. The
 * harness's own elements carry `data-xss-harness` (the default drops data attributes) and are not inspected. */
const DOC_WRAP: Record<string, [string, string]> = {
  body: ['', ''],
  div: ['<div data-xss-harness>', '</div>'],
  td: ['<table data-xss-harness><tbody data-xss-harness><tr data-xss-harness><td data-xss-harness>', '</td></tr></tbody></table>'],
  tr: ['<table data-xss-harness><tbody data-xss-harness><tr data-xss-harness>', '</tr></tbody></table>'],
  table: ['<table data-xss-harness>', '</table>'],
  select: ['<select data-xss-harness>', '</select>'],
  template: ['<template data-xss-harness>', '</template>'],
  textarea: ['<textarea data-xss-harness>', '</textarea>'],
  style: ['<style data-xss-harness>', '</style>'],
  title: ['<title data-xss-harness>', '</title>'],
  noscript: ['<noscript data-xss-harness>', '</noscript>'],
  xmp: ['<xmp data-xss-harness>', '</xmp>'],
  iframe: ['<iframe data-xss-harness>', '</iframe>'],
  noembed: ['<noembed data-xss-harness>', '</noembed>'],
  noframes: ['<noframes data-xss-harness>', '</noframes>'],
  plaintext: ['<plaintext data-xss-harness>', ''],
  script: ['<script data-xss-harness>', '</script>'],
  'svg svg': ['<svg data-xss-harness>', '</svg>'],
  'svg foreignObject': ['<svg data-xss-harness><foreignObject data-xss-harness>', '</foreignObject></svg>'],
  'math math': ['<math data-xss-harness>', '</math>'],
  'math mi': ['<math data-xss-harness><mi data-xss-harness>', '</mi></math>'],
  'math annotation-xml': ['<math data-xss-harness><annotation-xml data-xss-harness>', '</annotation-xml></math>'],
};

interface Case {
  vector: XssVector;
  context: string;
  spec: ContextSpec;
  out: string;
  ours: string;
  depth: number;
  error: string | null;
}

/** Element nesting depth (a text node under the deepest element does not count: browsers' limit is on elements). */
function treeDepth(root: ParentNode): number {
  let max = 0;
  const stack: [ParentNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    for (const child of node.childNodes) {
      if (child.nodeType === ELEMENT_NODE) {
        if (d + 1 > max) max = d + 1;
        const el = child as unknown as ParentNode & { content: ParentNode | null };
        stack.push([el, d + 1]);
        if (el.content) stack.push([el.content, d + 2]);
      }
    }
  }
  return max;
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  for (const vector of XSS_VECTORS) {
    if (FILTER !== '' && !vector.id.includes(FILTER)) continue;
    const contexts = [...CONTEXTS];
    for (const c of vector.contexts ?? []) if (!contexts.includes(c)) contexts.push(c);
    for (const context of contexts) {
      const spec = parseContextLabel(context);
      const ctx = spec.namespace === undefined ? spec.name : { name: spec.name, namespace: spec.namespace };
      let out = '';
      let ours = '';
      let depth = 0;
      let error: string | null = null;
      try {
        out = sanitize(vector.html, { context: ctx });
        const tree = sanitizeFragment(vector.html, { context: ctx, reparseSafe: true, hardenUrls: true });
        ours = dumpTree(tree);
        depth = treeDepth(tree);
      } catch (e) {
        error = String(e);
      }
      cases.push({ vector, context, spec, out, ours, depth, error });
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------------------------
// In-page code (plain JavaScript text).

const XSS_PAGE_SCRIPT = String.raw`(() => {
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
  const hits = [];
  let current = -1;
  const record = (what, detail) => { hits.push({ c: current, w: what + (detail === undefined ? '' : ': ' + String(detail).slice(0, 80)) }); };
  function urlOf(raw, doc) {
    try { return new URL(raw, doc.baseURI); } catch (e) { return null; }
  }
  const SCRIPT_PROTOCOLS = ['javascript:', 'vbscript:', 'livescript:'];
  const SCRIPT_DATA = /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript)/i;
  function dangerousUrl(raw, doc, imageOnly) {
    const u = urlOf(raw, doc);
    if (u === null) return null;
    if (SCRIPT_PROTOCOLS.includes(u.protocol)) return u.protocol;
    if (u.protocol === 'data:' && !imageOnly) {
      let body = u.pathname;
      try { body = decodeURIComponent(body); } catch (e) {}
      const m = SCRIPT_DATA.exec(body);
      if (m) return 'data:' + m[1];
    }
    return null;
  }
  // listen: also add the click/submit interceptors (document.open erases listeners, so documents get them after it).
  function probe(w, listen) {
    try {
      w.alert = (x) => record('alert', x);
      w.confirm = (x) => { record('confirm', x); return false; };
      w.prompt = (x) => { record('prompt', x); return null; };
      w.print = () => record('print');
      w.open = (x) => { record('open', x); return null; };
      w.__pwned = (x) => record('__pwned', x);
      w.fetch = (x) => { record('fetch', x); return new Promise(() => {}); };
      w.XMLHttpRequest.prototype.open = function (m, u) { record('xhr', u); };
      w.XMLHttpRequest.prototype.send = function () { record('xhr-send'); };
      w.navigator.sendBeacon = (u) => { record('beacon', u); return true; };
      if (listen) {
        w.addEventListener('click', (e) => {
          for (const n of e.composedPath()) {
            if (!(n instanceof w.Element)) continue;
            const ln = n.localName;
            if ((ln === 'a' || ln === 'area') && (n.hasAttribute('href') || n.hasAttributeNS('http://www.w3.org/1999/xlink', 'href'))) {
              const raw = n.getAttribute('href') ?? n.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
              // Only javascript: runs script in the page; the other dangerous URLs are survivors (inspect()).
              const u = urlOf(raw, n.ownerDocument);
              if (u !== null && u.protocol === 'javascript:') record('javascript: navigation', raw);
              e.preventDefault();
              return;
            }
          }
        }, true);
        w.addEventListener('submit', (e) => {
          const form = e.target;
          const submitter = e.submitter;
          const raw = (submitter && submitter.getAttribute('formaction')) ?? form.getAttribute('action') ?? '';
          const u = urlOf(raw, form.ownerDocument);
          if (u !== null && u.protocol === 'javascript:') record('javascript: form submission', raw);
          e.preventDefault();
        }, true);
      }
    } catch (e) {
      record('probe-failed', e);
    }
  }
  probe(window, true);

  // ---- context elements
  function makeEl(doc, name, ns) {
    return ns === HTML_NS ? doc.createElement(name) : doc.createElementNS(ns, name);
  }
  // Builds, under parent, the ancestors a context element needs to be where it would be (td in a table row...),
  // returns the context element.
  function connectedContext(parent, ctx) {
    const doc = parent.ownerDocument;
    if (ctx.ns === HTML_NS) {
      const chain = { td: ['table', 'tbody', 'tr'], th: ['table', 'tbody', 'tr'], tr: ['table', 'tbody'], tbody: ['table'],
        thead: ['table'], tfoot: ['table'], caption: ['table'], colgroup: ['table'], option: ['select'], optgroup: ['select'] }[ctx.name] || [];
      let p = parent;
      for (const n of chain) { const e = doc.createElement(n); e.__harness = true; p.appendChild(e); p = e; }
      const el = doc.createElement(ctx.name);
      el.__harness = true;
      p.appendChild(el);
      return el;
    }
    if (ctx.ns === SVG_NS) {
      let p = parent;
      if (ctx.name !== 'svg') { const s = doc.createElementNS(SVG_NS, 'svg'); s.__harness = true; p.appendChild(s); p = s; }
      const el = doc.createElementNS(SVG_NS, ctx.name);
      el.__harness = true;
      p.appendChild(el);
      return el;
    }
    let p = parent;
    if (ctx.name !== 'math') { const m = doc.createElementNS(MATHML_NS, 'math'); m.__harness = true; p.appendChild(m); p = m; }
    const el = doc.createElementNS(MATHML_NS, ctx.name);
    el.__harness = true;
    p.appendChild(el);
    return el;
  }
  const isTemplate = (el) => el.namespaceURI === HTML_NS && el.localName === 'template';
  let noScriptDoc = null;
  const pool = [];
  function frameFor(i, sandboxed) {
    const key = 2 * i + (sandboxed ? 1 : 0);
    while (pool.length <= key) {
      const f = document.createElement('iframe');
      if (pool.length % 2 === 1) f.setAttribute('sandbox', 'allow-same-origin');
      document.getElementById('frames').appendChild(f);
      pool.push(f);
    }
    return pool[key];
  }

  // ---- trigger and inspect
  const EVENTS = ['mouseover', 'mouseenter', 'mousedown', 'mouseup', 'dblclick', 'contextmenu', 'focus', 'focusin', 'blur',
    'focusout', 'error', 'load', 'toggle', 'beforetoggle', 'animationstart', 'animationend', 'transitionend', 'begin', 'end',
    'repeat', 'pointerover', 'pointerenter', 'pointerdown', 'input', 'change', 'invalid', 'scroll', 'wheel', 'keydown', 'copy',
    'paste', 'select', 'close', 'cancel', 'search', 'show', 'beforematch', 'contentvisibilityautostatechange', 'DOMActivate',
    'submit', 'reset', 'formdata', 'command'];
  function* allElements(root) {
    const stack = [root];
    while (stack.length > 0) {
      const n = stack.pop();
      if (n.nodeType === 1) {
        yield n;
        if (n.shadowRoot) stack.push(n.shadowRoot);
        if (isTemplate(n) && n.content) stack.push(n.content);
      }
      for (let c = n.lastChild; c !== null; c = c.previousSibling) stack.push(c);
    }
  }
  // Only elements with attributes: without one there is no handler to run and no URL to follow (and dispatching
  // dozens of events along a 600-level path is what would make the deep vectors slow).
  function trigger(root) {
    for (const el of allElements(root)) {
      if (el.attributes.length === 0) continue;
      try { if (typeof el.focus === 'function') el.focus(); } catch (e) {}
      for (const t of EVENTS) { try { el.dispatchEvent(new Event(t)); } catch (e) {} }
      try { el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true })); } catch (e) {}
      try { if (el.localName === 'details' && !el.open) el.open = true; } catch (e) {}
      try { if (typeof el.beginElement === 'function') el.beginElement(); } catch (e) {}
    }
  }
  const BAD_ELEMENTS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'link', 'portal',
    'fencedframe', 'handler', 'listener']);
  const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'data', 'codebase', 'background', 'poster', 'cite', 'ping',
    'lowsrc', 'dynsrc', 'longdesc', 'usemap', 'manifest', 'icon', 'profile', 'classid', 'archive', 'code', 'itemtype',
    'xmlns', 'value', 'values', 'to', 'from', 'by', 'content']);
  const ANIMATION = new Set(['animate', 'set', 'animateMotion', 'animateTransform', 'animatemotion', 'animatetransform', 'discard']);
  const BAD_CSS = /expression\s*\(|url\s*\(\s*['"]?\s*(?:javascript|vbscript|data\s*:\s*text\/html)|@import\s*['"]\s*(?:javascript|vbscript):|-moz-binding|behavior\s*:/i;
  function inspect(root, label) {
    const found = [];
    for (const el of allElements(root)) {
      if (el.__harness === true || el.hasAttribute('data-xss-harness')) continue;
      const ln = el.localName;
      const where = label + ' <' + (el.namespaceURI === SVG_NS ? 'svg ' : el.namespaceURI === MATHML_NS ? 'math ' : '') + ln + '>';
      if (BAD_ELEMENTS.has(ln) && (el.namespaceURI === HTML_NS || ln === 'script' || ln === 'handler' || ln === 'listener')) found.push(where + ' element');
      if (el.namespaceURI === SVG_NS && ln === 'use') found.push(where + ' element');
      if (ln === 'meta' && el.hasAttribute('http-equiv')) found.push(where + ' http-equiv=' + el.getAttribute('http-equiv'));
      if (el.namespaceURI === SVG_NS && ANIMATION.has(ln)) {
        const target = (el.getAttribute('attributeName') || '').toLowerCase();
        if (target === 'href' || target === 'xlink:href' || target === '') found.push(where + ' animation of ' + (target || '(none)'));
      }
      if (ln === 'style' && BAD_CSS.test(el.textContent)) found.push(where + ' css ' + el.textContent.slice(0, 60));
      for (const a of el.attributes) {
        const n = a.localName.toLowerCase();
        if (n.startsWith('on')) found.push(where + ' ' + a.name + '=' + a.value.slice(0, 40));
        else if ((n === 'id' || n === 'name') && a.namespaceURI === null && a.value !== '' &&
          (a.value in document || a.value in window || a.value in HTMLFormElement.prototype || a.value in Element.prototype)) {
          found.push(where + ' DOM clobbering ' + a.name + '=' + a.value);
        }
        else if (n === 'srcdoc') found.push(where + ' srcdoc');
        else if (n === 'style' && BAD_CSS.test(a.value)) found.push(where + ' style=' + a.value.slice(0, 60));
        else if (n === 'srcset' || n === 'imagesrcset') {
          for (const part of a.value.split(',')) {
            const bad = dangerousUrl(part.trim().split(/\s+/)[0] || '', el.ownerDocument, true);
            if (bad) found.push(where + ' ' + a.name + ' ' + bad);
          }
        } else if (URL_ATTRS.has(n)) {
          if ((n === 'value' || n === 'content') && ln !== 'param' && ln !== 'meta') continue;
          if ((n === 'values' || n === 'to' || n === 'from' || n === 'by') && !ANIMATION.has(ln)) continue;
          const vals = n === 'values' ? a.value.split(';') : n === 'content' ? [a.value.replace(/^[^;]*;\s*url\s*=\s*/i, '')] : [a.value];
          const imageOnly = ln === 'img' && n === 'src';
          for (const v of vals) {
            const bad = dangerousUrl(v, el.ownerDocument, imageOnly);
            if (bad) found.push(where + ' ' + a.name + ' ' + bad + ' (' + JSON.stringify(a.value.slice(0, 40)) + ')');
          }
        }
      }
    }
    return found;
  }

  // ---- one batch
  // cases: [{ o: encoded output, c: { name, ns }, w: [open, close] }]. Returns per-case survivor lists.
  async function runBatch(cases, waitMs) {
    const dec = globalThis.__htmlsift.dec;
    const root = document.getElementById('root');
    const roots = [];
    for (let i = 0; i < cases.length; i++) {
      current = i;
      const k = cases[i];
      const out = dec(k.o);
      const rs = [];
      // live, scripting on
      try {
        const box = document.createElement('div');
        root.appendChild(box);
        const ctx = connectedContext(box, k.c);
        ctx.innerHTML = out;
        rs.push(['live', box]);
        if (isTemplate(ctx)) {
          const clone = document.createElement('div');
          root.appendChild(clone);
          clone.appendChild(document.importNode(ctx.content, true));
          rs.push(['live template clone', clone]);
        }
      } catch (e) { record('harness-error live', e); }
      // live, parsed with scripting off then moved in
      try {
        if (noScriptDoc === null) noScriptDoc = new DOMParser().parseFromString('<!DOCTYPE html>', 'text/html');
        const off = makeEl(noScriptDoc, k.c.name, k.c.ns);
        off.innerHTML = out;
        const box = document.createElement('div');
        root.appendChild(box);
        const ctx = connectedContext(box, k.c);
        const from = isTemplate(off) ? off.content : off;
        const into = isTemplate(ctx) ? box : ctx;
        while (from.firstChild) into.appendChild(document.adoptNode(from.firstChild));
        rs.push(['live (parsed scripting-off)', box]);
      } catch (e) { record('harness-error live-off', e); }
      // documents, in a pool of iframes reused from batch to batch (creating them is what costs)
      for (const sandboxed of [false, true]) {
        try {
          const f = frameFor(i, sandboxed);
          const w = f.contentWindow;
          const d = f.contentDocument;
          probe(w, false);
          d.open();
          probe(w, true);
          d.write('<!DOCTYPE html><html><head><title>x</title></head><body>' + k.w[0] + out + k.w[1]);
          d.close();
          rs.push([sandboxed ? 'document (scripting off)' : 'document', d]);
        } catch (e) { record('harness-error document', e); }
      }
      roots.push(rs);
    }
    // trigger
    for (let i = 0; i < roots.length; i++) {
      current = i;
      for (const [, r] of roots[i]) { try { trigger(r); } catch (e) { record('harness-error trigger', e); } }
    }
    current = -2;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await new Promise((r) => setTimeout(r, waitMs));
    const survivors = roots.map((rs) => {
      const found = [];
      for (const [label, r] of rs) found.push(...inspect(r, label));
      return found;
    });
    root.textContent = '';
    return survivors;
  }
  function takeHits() { const h = hits.splice(0); return h; }
  globalThis.__xss = { runBatch, takeHits, probe };
})()`;

const HARNESS_HTML =
  '<!DOCTYPE html><html><head><title>xss corpus</title></head><body><div id=root></div><div id=frames></div></body></html>';

// ---------------------------------------------------------------------------------------------------------------

const skipBrowser = chromiumSkipReason(SUITE) !== null;

interface Hit {
  c: number;
  w: string;
}

describe.skipIf(skipBrowser)('XSS corpus in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const pageEvents: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === ORIGIN + '/') {
        await route.fulfill({ status: 200, contentType: 'text/html', body: HARNESS_HTML });
        return;
      }
      requests.push(url);
      await route.fulfill({ status: 404, contentType: 'text/plain', body: '' });
    });
    page.on('dialog', (d) => {
      pageEvents.push('dialog ' + d.type() + ': ' + d.message());
      void d.dismiss().catch(() => {});
    });
    page.on('popup', (p) => {
      pageEvents.push('popup ' + p.url());
      void p.close().catch(() => {});
    });
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame() && f.url() !== ORIGIN + '/') pageEvents.push('main frame navigated to ' + f.url());
    });
    await page.goto(ORIGIN + '/');
    await page.evaluate(PAGE_SCRIPT);
    await page.evaluate(XSS_PAGE_SCRIPT);
    console.log(`[${SUITE}] ${browser.version()}`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const wire = (c: Case) => ({
    o: encodeUnits(c.out),
    c: { name: c.spec.name, ns: c.spec.namespace ?? HTML_NS },
    w: DOC_WRAP[c.context] ?? ['', ''],
  });
  const runBatch = async (batch: Case[]): Promise<{ surv: string[][]; hits: Hit[]; events: string[] }> => {
    const before = pageEvents.length;
    const surv = (await page.evaluate(`__xss.runBatch(${JSON.stringify(batch.map(wire))}, ${WAIT_MS})`)) as string[][];
    const hits = (await page.evaluate('__xss.takeHits()')) as Hit[];
    return { surv, hits, events: pageEvents.slice(before) };
  };

  // Positive control: the detectors must see unsanitized markup execute and survive (else a pass means nothing).
  test('the harness detects executions and survivors in unsanitized markup', async () => {
    // [context, markup, executes]
    const raw: [string, string, boolean][] = [
      ['body', '<img src=x onerror=alert(1)>', true],
      ['body', '<a href="java&#x09;script:alert(1)">x</a>', true],
      ['body', '<svg><a href="javascript:alert(1)"><text y=20>x</text></a></svg>', true],
      ['body', '<input autofocus onfocus=__pwned(1)>', true],
      ['body', '<details open ontoggle=alert(1)>', true],
      ['body', '<svg onload=alert(1)>', true],
      ['body', '<iframe src="javascript:parent.__pwned(1)"></iframe>', true],
      ['body', '<form action="javascript:alert(1)"><button>x</button></form>', true],
      ['td', '<div onmouseover=alert(1)>x</div>', true],
      ['svg svg', '<rect onclick=alert(1) width=9 height=9></rect>', true],
      ['body', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', true],
      ['body', '<div style="animation:x 1ms" onanimationstart=alert(1)>x</div><style>@keyframes x{}</style>', true],
      ['body', '<form name=getElementById></form><img name=cookie>', false],
    ];
    const found: string[] = [];
    for (const [context, html, executes] of raw) {
      const spec = parseContextLabel(context);
      const c: Case = { vector: { id: 'raw', category: 'raw', html }, context, spec, out: html, ours: '', depth: 0, error: null };
      const r = await runBatch([c]);
      const exec = r.hits.filter((h) => !h.w.startsWith('harness-error')).length + r.events.length;
      const surv = r.surv[0]!.length;
      found.push(`${exec > 0 ? 'EXEC' : executes ? 'MISS' : '----'} ${surv > 0 ? 'SURV' : 'MISS'} <${context}> ${html}`);
    }
    console.log(`[${SUITE}] positive control (unsanitized markup):\n  ` + found.join('\n  '));
    // Every raw vector must be caught surviving, and executing when it can.
    expect(found.filter((f) => f.includes('MISS'))).toEqual([]);
  });

  test('no vector executes, survives or reparses differently', async () => {
    const t0 = Date.now();
    requests.length = 0;
    const cases = buildCases();
    const vectors = new Set(cases.map((c) => c.vector.id)).size;
    const contexts = new Set(cases.map((c) => c.context)).size;

    // 1. Execution and survivors, in batches.
    const executions: { c: Case; what: string }[] = [];
    const survivors: { c: Case; what: string }[] = [];
    const errors: { c: Case; what: string }[] = [];
    for (const c of cases) if (c.error !== null) errors.push({ c, what: c.error });

    const tBuilt = Date.now();
    const VERBOSE = process.env.HTMLSIFT_XSS_VERBOSE === '1';
    for (let i = 0; i < cases.length; i += BATCH) {
      const batch = cases.slice(i, i + BATCH);
      const tb = Date.now();
      const r = await runBatch(batch);
      if (VERBOSE) console.log(`batch ${i / BATCH}: ${Date.now() - tb} ms, ${r.hits.length} hits, ${r.events.length} events`);
      r.surv.forEach((list, j) => {
        for (const what of list) survivors.push({ c: batch[j]!, what });
      });
      const harness = r.hits.filter((h) => h.w.startsWith('harness-error') || h.w.startsWith('probe-failed'));
      for (const h of harness) errors.push({ c: batch[Math.max(0, h.c)]!, what: h.w });
      const real = r.hits.filter((h) => !harness.includes(h));
      // Hits during insertion and triggering carry their case; later ones (load/error/animation events, navigations)
      // are attributed by re-running the batch case by case.
      for (const h of real) if (h.c >= 0) executions.push({ c: batch[h.c]!, what: h.w });
      if (!real.some((h) => h.c < 0) && r.events.length === 0) continue;
      for (const c of batch) {
        const one = await runBatch([c]);
        for (const h of one.hits) if (h.c < 0) executions.push({ c, what: h.w + ' (async)' });
        for (const e of one.events) executions.push({ c, what: e });
      }
    }

    const tRun = Date.now();
    // 2. Reparse: our tree vs Chromium's parse of `out`, scripting on and off.
    // Outputs deeper than Chromium's parser limit are compared too: reparse safety promises the same tree in browsers.
    const compared = cases.filter((c) => c.error === null);
    const deep = cases.filter((c) => c.error === null && c.depth > CHROMIUM_MAX_DEPTH);
    const mismatches: { c: Case; scripting: boolean; chromium: string }[] = [];
    for (const scripting of [true, false]) {
      const browserCases: BrowserCase[] = compared.map((c) => ({ input: c.out, context: c.spec, scripting }));
      const results = await chromiumParseAll(page, browserCases, 200);
      results.forEach((r, j) => {
        const c = compared[j]!;
        if (r.dump !== c.ours) mismatches.push({ c, scripting, chromium: r.dump });
      });
    }

    // 3. Report.
    const show = (s: string, n = 160) => JSON.stringify(s.length > n ? s.slice(0, n) + '…' : s);
    const label = (c: Case) =>
      `${c.vector.id} in <${c.context}>${c.depth > CHROMIUM_MAX_DEPTH ? ' (depth ' + c.depth + ')' : ''}` +
      `${c.vector.knownHole ? ' [knownHole]' : ''}`;
    const lines: string[] = [];
    lines.push(
      `[${SUITE}] ${vectors} vectors x contexts = ${cases.length} cases (${contexts} contexts), 4 runs each; ` +
        `executions: ${executions.length}; survivors: ${survivors.length}; reparse mismatches: ${mismatches.length} ` +
        `(${compared.length} compared x 2 scripting modes, ${deep.length} of them deeper than ${CHROMIUM_MAX_DEPTH}); ` +
        `errors: ${errors.length}; network requests: ${requests.length}; ` +
        `${((Date.now() - t0) / 1000).toFixed(1)} s (sanitize ${((tBuilt - t0) / 1000).toFixed(1)} s, ` +
        `browser runs ${((tRun - tBuilt) / 1000).toFixed(1)} s, reparse ${((Date.now() - tRun) / 1000).toFixed(1)} s)`,
    );
    const group = <T extends { c: Case }>(title: string, list: T[], fmt: (x: T) => string, max = 40) => {
      if (list.length === 0) return;
      lines.push(`-- ${title} (${list.length}):`);
      const seen = new Set<string>();
      let shown = 0;
      for (const x of list) {
        const key = x.c.vector.id + '|' + x.c.context + '|' + fmt(x);
        if (seen.has(key)) continue;
        seen.add(key);
        if (shown++ >= max) {
          lines.push('   …');
          break;
        }
        lines.push(`   ${label(x.c)}: ${fmt(x)}\n      vector ${show(x.c.vector.html)}\n      output ${show(x.c.out)}`);
      }
    };
    group('EXECUTIONS', executions, (x) => x.what);
    if (survivors.length > 0) {
      // One line per vector: the contexts and the findings (whatever the run mode that saw them).
      const MODES = /^(live template clone|live \(parsed scripting-off\)|live|document \(scripting off\)|document) /;
      const byVector = new Map<string, { c: Case; contexts: Set<string>; whats: Set<string>; n: number }>();
      for (const x of survivors) {
        const e = byVector.get(x.c.vector.id) ?? { c: x.c, contexts: new Set<string>(), whats: new Set<string>(), n: 0 };
        e.contexts.add(x.c.context);
        e.whats.add(x.what.replace(MODES, ''));
        e.n++;
        byVector.set(x.c.vector.id, e);
      }
      lines.push(`-- SURVIVORS (${survivors.length} findings, ${byVector.size} vectors):`);
      for (const [id, e] of byVector) {
        lines.push(
          `   ${id}${e.c.vector.knownHole ? ' [knownHole]' : ''} in ${[...e.contexts].join(', ')}: ${[...e.whats].slice(0, 3).join('; ')}` +
            `\n      vector ${show(e.c.vector.html)}`,
        );
      }
    }
    group('REPARSE MISMATCHES', mismatches, (x) => `scripting ${x.scripting ? 'on' : 'off'}\n${firstDifference(x.c.ours, x.chromium)}`, 25);
    group('ERRORS', errors, (x) => x.what);
    if (deep.length > 0) {
      const ids = [...new Set(deep.map((c) => c.vector.id))];
      lines.push(`-- outputs deeper than ${CHROMIUM_MAX_DEPTH} (Chromium's parser flattens them): ${deep.length} cases, vectors ${ids.join(' ')}`);
    }
    const ran = new Set(cases.map((c) => c.vector.id));
    const holes = XSS_VECTORS.filter((v) => v.knownHole !== undefined && ran.has(v.id));
    if (holes.length > 0) {
      lines.push(`-- knownHole vectors (${holes.length}; the run fails on them all the same):`);
      const byNote = new Map<string, string[]>();
      for (const v of holes) byNote.set(v.knownHole!, [...(byNote.get(v.knownHole!) ?? []), v.id]);
      for (const [note, ids] of byNote) lines.push(`   ${ids.join(' ')}: ${note}`);
    }
    if (requests.length > 0) lines.push(`-- network requests (${requests.length}): ${[...new Set(requests)].slice(0, 10).join(' ')}`);
    console.log(lines.join('\n'));

    expect(errors.map((e) => label(e.c) + ': ' + e.what)).toEqual([]);
    expect(executions.map((e) => label(e.c) + ': ' + e.what)).toEqual([]);
    expect(survivors.map((e) => label(e.c) + ': ' + e.what)).toEqual([]);
    expect(mismatches.map((e) => label(e.c) + ` scripting ${e.scripting ? 'on' : 'off'}`)).toEqual([]);
  });
});

/** The first line where two dumps differ, with a line of context either side. */
function firstDifference(ours: string, chromium: string): string {
  const a = ours.split('\n');
  const b = chromium.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // A dump line is '| ' + two spaces per level + the node: shown as 'level N: node'.
  const cut = (l: string | undefined) => {
    if (l === undefined) return '(end)';
    const body = l.slice(2).trimStart();
    return `level ${(l.length - 2 - body.length) / 2 + 1}: ${JSON.stringify(body.slice(0, 100))}`;
  };
  return (
    `      first difference at dump line ${i + 1} (ours ${a.length} lines, chromium ${b.length}):\n` +
    `      ours     ${cut(a[i - 1])} / ${cut(a[i])}\n` +
    `      chromium ${cut(b[i - 1])} / ${cut(b[i])}`
  );
}
