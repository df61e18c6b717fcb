/**
 * In-page half of policies-corpus.test.ts, bundled by esbuild for the browser (with htmlsift's browser ESM build:
 * the library, the built-in policies and `toDOM`) and loaded by the harness page as a module. Everything here
 * runs in Chromium.
 *
 * `runCase(kind, input)` sanitizes `input` with the policy of its corpus, in the page, and inserts the result twice
 * into the live document: as markup with innerHTML into a container, and as nodes built by `toDOM` from the
 * sanitized tree. It waits for resources, dispatches the usual events to every element, then inspects what the
 * browser built. Executions themselves are recorded by the probe (see PROBE in the test), which the page cannot see.
 */
import { parseFragment, sanitize, sanitizeDocument, sanitizeFragment, type DocumentFragment as SiftFragment, type Element as SiftElement } from '../../src/index.js';
import { comment, emailPolicy, paste, sanitizeEmail } from '../../policies/index.js';
import { toDOM } from '../../src/browser/to-dom.js';
import { allElements, inspect, trigger } from './dom-probe.js';

export type CaseKind = 'comment' | 'paste' | 'email' | 'raw';

export interface CaseResult {
  /** The innerHTML-path markup the page produced (encoded), to compare with the Node build's. */
  html: string;
  /** Elements in the two containers. */
  elements: number;
  /** Events dispatched. */
  events: number;
  /** What must not be in a sanitized DOM (elements, handler attributes, script URLs...). */
  survivors: string[];
  /** URLs the email callbacks produced (proxy and attachments), resolved against the page. */
  produced: string[];
  /** Rendered text (innerText) of the innerHTML container and of the toDOM container (encoded). */
  textInner: string;
  textDom: string;
  /** Elements outside the email's container whose computed style changes when the scoped sheet is enabled. */
  styleLeaks: string[];
  /** Images in the containers, and how many loaded. */
  images: number;
}

export const EMAIL_CONTAINER = 'htmlsift-mail';
export const PROXY = 'https://images.example/proxy?url=';

const hex4 = (c: number): string => c.toString(16).toUpperCase().padStart(4, '0');
export const enc = (s: string): string => s.replace(/[%\u0000\uD800-\uDFFF]/g, (c) => '%' + hex4(c.charCodeAt(0)));
export const dec = (s: string): string => (s.indexOf('%') < 0 ? s : s.replace(/%([0-9A-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));

/** Waits until every image has loaded or failed (bounded), then two animation frames. */
async function settle(els: readonly Element[], ms: number): Promise<number> {
  const imgs = els.filter((e): e is HTMLImageElement => e.localName === 'img');
  const pending = imgs.filter((i) => !i.complete).map((i) => new Promise<void>((r) => {
    i.addEventListener('load', () => r(), { once: true });
    i.addEventListener('error', () => r(), { once: true });
  }));
  await Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, ms))]);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return imgs.length;
}

const STYLE_PROPS = ['color', 'background-color', 'background-image', 'font-size', 'font-family', 'font-weight', 'display', 'visibility', 'margin-top', 'padding-left', 'border-top-width', 'text-align', 'line-height', 'width'];

function styleSnapshot(els: readonly Element[]): string[] {
  return els.map((e) => {
    const cs = getComputedStyle(e);
    return STYLE_PROPS.map((p) => cs.getPropertyValue(p)).join('|');
  });
}

const rawTree = (input: string): SiftFragment => parseFragment(input, { context: 'div' });

/** Sanitizes with the corpus's policy and inserts, inspects and triggers both renderings. */
export async function runCase(kind: CaseKind, encodedInput: string): Promise<CaseResult> {
  const input = dec(encodedInput);
  const stage = document.getElementById('stage')!;
  stage.replaceChildren();
  const produced: string[] = [];
  const callbacks = {
    // As examples/email-viewer.ts does.
    proxyImage: (url: string) => {
      const out = PROXY + encodeURIComponent(url);
      produced.push(out);
      return out;
    },
    resolveCid: (id: string) => {
      if (!/^[\w.@-]+$/.test(id)) return null;
      const out = 'attachments/' + encodeURIComponent(id);
      produced.push(out);
      return out;
    },
  };
  let html: string;
  let tree: SiftFragment | SiftElement;
  let containerClass: string | null = null;
  switch (kind) {
    case 'comment':
      html = sanitize(input, { policy: comment, context: 'div' });
      tree = sanitizeFragment(input, { policy: comment, context: 'div' });
      break;
    case 'paste':
      html = sanitize(input, { policy: paste, context: 'div' });
      tree = sanitizeFragment(input, { policy: paste, context: 'div' });
      break;
    case 'email': {
      const mail = sanitizeEmail(input, { container: EMAIL_CONTAINER, ...callbacks });
      html = mail.html;
      containerClass = mail.container;
      // The tree path: the email policy with the same callbacks, on the whole document; its body goes in.
      const body = sanitizeDocument(input, { policy: emailPolicy(callbacks) }).body;
      tree = body ?? rawTree('');
      break;
    }
    case 'raw':
      // The positive control: no sanitizing at all.
      html = input;
      tree = rawTree(input);
      break;
  }
  const inner = document.createElement('div');
  inner.id = 'via-innerhtml';
  if (containerClass !== null) inner.className = containerClass;
  const viaDom = document.createElement('div');
  viaDom.id = 'via-todom';
  stage.append(inner, viaDom);
  inner.innerHTML = html;
  viaDom.appendChild(toDOM(tree, document));

  const els = [...allElements(inner), ...allElements(viaDom)];
  const images = await settle(els, 3000);
  const events = trigger(els);
  await settle(els, 500);

  const survivors = [...inspect(allElements(inner), 'innerHTML'), ...inspect(allElements(viaDom), 'toDOM')];

  // Scoped CSS cannot style outside its container: the toDOM rendering holds the same markup outside the
  // container; its computed styles (and the page's) must not change when the container's sheets are switched on.
  const styleLeaks: string[] = [];
  // (The email's toDOM rendering has no style element: the email policy drops them. The raw control has one in each.)
  const sheets = Array.from(stage.querySelectorAll('style')).map((s) => s.sheet).filter((s): s is CSSStyleSheet => s !== null);
  if (sheets.length > 0) {
    const outside = [document.documentElement, document.body, stage, viaDom, ...allElements(viaDom)];
    for (const s of sheets) s.disabled = true;
    const before = styleSnapshot(outside);
    for (const s of sheets) s.disabled = false;
    const after = styleSnapshot(outside);
    for (let i = 0; i < outside.length; i++) {
      if (before[i] !== after[i]) styleLeaks.push(`<${outside[i]!.localName}${outside[i]!.id ? '#' + outside[i]!.id : ''}> ${before[i]} -> ${after[i]}`);
      if (styleLeaks.length >= 5) break;
    }
  }

  const result: CaseResult = {
    html: enc(html),
    elements: els.length,
    events,
    survivors,
    produced: produced.map((u) => new URL(u, document.baseURI).href),
    textInner: enc(inner.innerText),
    textDom: enc(viaDom.innerText),
    styleLeaks,
    images,
  };
  stage.replaceChildren();
  return result;
}

/**
 * The words a reader of the original sees: the input rendered (scripts off) in a sandboxed frame of the page's
 * width, its innerText. `dropWordBullets` removes Word's list bullets first (a rebuilt list renders its own).
 */
export async function sourceText(encodedInput: string, dropWordBullets: boolean): Promise<string> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-same-origin');
  frame.style.cssText = `width:${innerWidth}px;height:${innerHeight}px;border:0`;
  const loaded = new Promise<void>((r) => frame.addEventListener('load', () => r(), { once: true }));
  frame.srcdoc = dec(encodedInput);
  document.body.appendChild(frame);
  await Promise.race([loaded, new Promise((r) => setTimeout(r, 10_000))]);
  const doc = frame.contentDocument!;
  if (dropWordBullets) {
    for (const el of Array.from(doc.querySelectorAll('[style]'))) {
      if (/mso-list\s*:\s*ignore/i.test(el.getAttribute('style') ?? '')) el.remove();
    }
  }
  const text = (doc.body ?? doc.documentElement)?.innerText ?? '';
  frame.remove();
  return enc(text);
}

declare global {
  // eslint-disable-next-line no-var
  var __policiesCorpus: { runCase: typeof runCase; sourceText: typeof sourceText };
}
globalThis.__policiesCorpus = { runCase, sourceText };
