/**
 * In-page half of paste-example.test.ts, bundled as a classic script and installed with `addInitScript` in the
 * paste example's page (so the page's CSP does not apply to it, and it runs before the example's own module).
 * It has no htmlsift import: what it checks is computed from Chromium's own parse of the HTML the paste event
 * delivered (`DOMParser`, scripting off), never from htmlsift's output.
 *
 *   - `prepare()` empties the editor and puts the caret in it;
 *   - `pasteSynthetic(html, text)` dispatches a paste event carrying a DataTransfer with text/html and text/plain;
 *   - `writeClipboard(html, text)` puts them on the system clipboard (for a trusted Ctrl+V paste);
 *   - `probeEditor()` inspects the editor and fires events at what landed there;
 *   - `compare()` compares what landed in the editor with what the delivered HTML says (see PasteReport).
 */
import { allElements, inspect, trigger } from './dom-probe.js';

export type StyleName = 'bold' | 'italic' | 'underline' | 'strike';

export interface PasteReport {
  /** Paste events seen (capture phase, before the example's handler), the HTML the last one carried, and whether it was trusted. */
  count: number;
  received: string;
  trusted: boolean;
  editorHtml: string;
  /** Office and Google Docs leftovers in the editor (mso- styles, classes, o:p, comments, wrappers, style/meta...). */
  residue: string[];
  /** Script-capable leftovers (handler attributes, script elements, script URLs). */
  survivors: string[];
  /** List items as "depth list-type text": expected from the delivered HTML, and found in the editor. */
  source: 'word' | 'html' | 'none';
  expectedItems: string[];
  actualItems: string[];
  /** "h2 text" of every heading of the delivered HTML, and those missing from the editor. */
  headings: string[];
  missingHeadings: string[];
  /** "href text" of every http(s)/mailto link, and those missing from the editor. */
  links: string[];
  missingLinks: string[];
  /** Words rendered bold/italic/underlined/struck in the delivered HTML (by elements and inline styles), and those that are not in the editor. */
  styled: Record<StyleName, number>;
  missingStyled: Record<StyleName, string[]>;
  /** The words a reader sees: the delivered HTML's body text (Word's list bullets left out) and the editor's innerText. */
  sourceText: string;
  editorText: string;
  events: number;
}

const received: { html: string; trusted: boolean }[] = [];
window.addEventListener(
  'paste',
  (e) => {
    if (e instanceof ClipboardEvent && e.clipboardData !== null) received.push({ html: e.clipboardData.getData('text/html'), trusted: e.isTrusted });
  },
  true,
);

const editor = (): HTMLElement => document.getElementById('editor')!;

export function prepare(): void {
  const ed = editor();
  ed.replaceChildren();
  ed.focus();
  const range = document.createRange();
  range.setStart(ed, 0);
  range.collapse(true);
  const sel = getSelection()!;
  sel.removeAllRanges();
  sel.addRange(range);
  received.length = 0;
}

export function pasteSynthetic(html: string, text: string): boolean {
  const dt = new DataTransfer();
  dt.setData('text/html', html);
  dt.setData('text/plain', text);
  const event = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true, composed: true });
  editor().dispatchEvent(event);
  return event.defaultPrevented;
}

export async function writeClipboard(html: string, text: string): Promise<void> {
  await navigator.clipboard.write([
    new ClipboardItem({ 'text/html': new Blob([html], { type: 'text/html' }), 'text/plain': new Blob([text], { type: 'text/plain' }) }),
  ]);
}

export function receivedCount(): number {
  return received.length;
}

// ---------------------------------------------------------------------------------------------------------------

const WORD_LIST = /mso-list\s*:\s*(l\d+)\s+level(\d+)\s+(lfo\d+)/i;
const IGNORE = /mso-list\s*:\s*ignore/i;
/** A numbering marker: a number, letters or a roman numeral, then "." or ")" (bullets: ·, o, §, -, •...). */
const NUMBERED = /^\(?(?:[0-9]+|[a-z]{1,3}|[ivxlcdm]+)[.)]$/i;
const INVISIBLE = new Set(['head', 'script', 'style', 'template', 'title', 'xml', 'meta', 'link', 'noscript']);
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'mark', 'q', 's',
  'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr', 'label',
]);

const norm = (s: string): string => s.replace(/[\s\u00a0]+/g, ' ').trim();
const isIgnoreSpan = (el: Element): boolean => IGNORE.test(el.getAttribute('style') ?? '');
const isList = (el: Element): boolean => el.localName === 'ul' || el.localName === 'ol';

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Text of `root` as a reader sees it: invisible elements, comments and `skip` subtrees left out, blocks separated. */
function textOf(root: Node, skip: (el: Element) => boolean): string {
  const parts: string[] = [];
  const stack: (Node | string)[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (typeof n === 'string') {
      parts.push(n);
      continue;
    }
    if (n.nodeType === Node.TEXT_NODE) {
      parts.push((n as Text).data);
      continue;
    }
    if (n.nodeType === Node.ELEMENT_NODE) {
      const el = n as Element;
      if (n !== root && (INVISIBLE.has(el.localName) || skip(el))) continue;
      if (!INLINE.has(el.localName)) {
        parts.push(' ');
        stack.push(' ');
      }
    } else if (n.nodeType !== Node.DOCUMENT_NODE && n.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) continue;
    for (let c = n.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return parts.join('');
}

/** Own text of a list item or paragraph: nested lists and Word bullets left out. */
const ownText = (el: Element): string => norm(textOf(el, (e) => isList(e) || isIgnoreSpan(e)));

function listDepth(el: Element, stop: Element | null): number {
  let d = 0;
  for (let p = el.parentElement; p !== null && p !== stop; p = p.parentElement) if (isList(p)) d++;
  return d;
}

function closestList(el: Element): string {
  for (let p = el.parentElement; p !== null; p = p.parentElement) if (isList(p)) return p.localName;
  return 'none';
}

/** Whether the inline style or element `el` decides `style` for the text inside it: true/false, or null (ask the parent). */
function decides(el: Element, style: StyleName): boolean | null {
  const css = (el as HTMLElement).style as CSSStyleDeclaration | undefined;
  const name = el.localName;
  switch (style) {
    case 'bold': {
      const w = css?.getPropertyValue('font-weight') ?? '';
      if (w !== '') return w === 'bold' || w === 'bolder' || (/^\d+$/.test(w) && parseInt(w, 10) >= 600);
      return name === 'b' || name === 'strong' ? true : null;
    }
    case 'italic': {
      const s = css?.getPropertyValue('font-style') ?? '';
      if (s !== '') return s === 'italic' || s.startsWith('oblique');
      return name === 'i' || name === 'em' ? true : null;
    }
    // Decorations are not undone by descendants: any ancestor that draws one decides.
    case 'underline':
      return /underline/.test(css?.getPropertyValue('text-decoration-line') ?? '') || name === 'u' || name === 'ins' ? true : null;
    case 'strike':
      return /line-through/.test(css?.getPropertyValue('text-decoration-line') ?? '') || name === 's' || name === 'strike' || name === 'del' ? true : null;
  }
}

function styledIn(text: Text, style: StyleName, stop: Node): boolean {
  for (let p = text.parentElement; p !== null && p !== stop; p = p.parentElement) {
    const d = decides(p, style);
    if (d !== null) return d;
  }
  return false;
}

function outputStyled(text: Text, style: StyleName): boolean {
  // (Browsers underline links: a link's own underline style needs no u element.)
  const sel = { bold: 'strong, b', italic: 'em, i', underline: 'u, a[href]', strike: 's, strike, del' }[style];
  return text.parentElement?.closest(sel) != null;
}

/** Visible text nodes under `root` (Word bullets, comments and invisible elements left out). */
function textNodes(root: Node): Text[] {
  const out: Text[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType === Node.TEXT_NODE) {
      if (/\S/.test((n as Text).data)) out.push(n as Text);
      continue;
    }
    if (n.nodeType === Node.ELEMENT_NODE && (INVISIBLE.has((n as Element).localName) || isIgnoreSpan(n as Element))) continue;
    for (let c = n.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return out;
}

function countWords(list: Iterable<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of list) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Entries of `expected` (a multiset) missing from `actual`. */
function missingFrom(expected: string[], actual: string[]): string[] {
  const have = countWords(actual);
  const out: string[] = [];
  for (const e of expected) {
    const n = have.get(e) ?? 0;
    if (n > 0) have.set(e, n - 1);
    else out.push(e);
  }
  return out;
}

function absoluteLink(href: string | null): string | null {
  if (href === null) return null;
  try {
    const u = new URL(href.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * First step after a paste: inspect the editor (leftovers, script-capable survivors) and fire every event at each
 * of its elements. Executions this causes are what the test counts.
 */
export function probeEditor(): Pick<PasteReport, 'count' | 'received' | 'trusted' | 'editorHtml' | 'editorText' | 'residue' | 'survivors' | 'events'> {
  const ed = editor();
  const last = received[received.length - 1] ?? { html: '', trusted: false };
  // Leftovers of the producing application, anywhere in the editor.
  const residue: string[] = [];
  const walker = document.createTreeWalker(ed, NodeFilter.SHOW_COMMENT);
  while (walker.nextNode() !== null) residue.push('comment: ' + (walker.currentNode as Comment).data.slice(0, 40));
  const els = allElements(ed);
  for (const el of els) {
    const n = el.localName;
    if (n.includes(':')) residue.push(`<${n}> Office element`);
    if (['style', 'meta', 'link', 'title', 'xml', 'script', 'span', 'font', 'img'].includes(n)) residue.push(`<${n}>`);
    for (const a of Array.from(el.attributes)) {
      if (a.name === 'style' || a.name === 'class') residue.push(`<${n}> ${a.name}="${a.value.slice(0, 40)}"`);
      else if (/mso-|docs-internal-guid/i.test(a.value)) residue.push(`<${n}> ${a.name}="${a.value.slice(0, 40)}"`);
    }
  }
  if (/<!\[(?:end)?if|\[if [^\]]*\]|<\/?o:p>/i.test(ed.textContent ?? '')) residue.push('conditional comment or Office markup as text');
  const survivors = inspect(els, 'editor');
  const events = trigger(els);
  return { count: received.length, received: last.html, trusted: last.trusted, editorHtml: ed.innerHTML, editorText: ed.innerText, residue, survivors, events };
}

/**
 * Second step: what the delivered HTML says should be in the editor, from Chromium's parse of it (DOMParser,
 * scripting off). Parsing markup with handler attributes in a page with a CSP makes Chromium report violations
 * although nothing runs: the test discards what this step reports.
 */
export function compare(): Omit<PasteReport, 'count' | 'received' | 'trusted' | 'editorHtml' | 'editorText' | 'residue' | 'survivors' | 'events'> {
  const ed = editor();
  const last = received[received.length - 1] ?? { html: '', trusted: false };
  const src = new DOMParser().parseFromString(last.html, 'text/html');
  const body = src.body ?? src.documentElement;

  // List items. Word: paragraphs (and headings) carrying mso-list; their level is the nesting, the bullet the type.
  const wordItems = Array.from(src.querySelectorAll('p[style], h1[style], h2[style], h3[style], h4[style], h5[style], h6[style], li[style]'))
    .map((el) => ({ el, m: WORD_LIST.exec((el.getAttribute('style') ?? '').replace(/\s+/g, ' ')) }))
    .filter((x) => x.m !== null && ownText(x.el) !== '');
  let source: PasteReport['source'] = 'none';
  let expectedItems: string[];
  if (wordItems.length > 0) {
    source = 'word';
    expectedItems = wordItems.map(({ el, m }) => {
      const ignore = Array.from(el.querySelectorAll('[style]')).find(isIgnoreSpan);
      const marker = norm(ignore?.textContent ?? '');
      return `${Math.min(9, parseInt(m![2]!, 10))} ${NUMBERED.test(marker) ? 'ol' : 'ul'} ${ownText(el)}`;
    });
  } else {
    expectedItems = Array.from(body.querySelectorAll('li'))
      .filter((li) => ownText(li) !== '')
      .map((li) => `${listDepth(li, null)} ${closestList(li)} ${ownText(li)}`);
    if (expectedItems.length > 0) source = 'html';
  }
  const actualItems = Array.from(ed.querySelectorAll('li'))
    .filter((li) => ownText(li) !== '')
    .map((li) => `${listDepth(li, ed)} ${closestList(li)} ${ownText(li)}`);

  const headingsOf = (root: ParentNode): string[] =>
    Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6'))
      .map((h) => `${h.localName} ${ownText(h)}`)
      .filter((s) => !/^h\d $/.test(s));
  const headings = headingsOf(body);
  const linksOf = (root: ParentNode): string[] =>
    Array.from(root.querySelectorAll('a[href]'))
      .map((a) => ({ href: absoluteLink(a.getAttribute('href')), text: norm(textOf(a, isIgnoreSpan)) }))
      .filter((l) => l.href !== null && l.text !== '')
      .map((l) => `${l.href} ${l.text}`);
  const links = linksOf(body);

  const styled = { bold: 0, italic: 0, underline: 0, strike: 0 };
  const missingStyled: Record<StyleName, string[]> = { bold: [], italic: [], underline: [], strike: [] };
  const srcTexts = textNodes(body);
  const outTexts = textNodes(ed);
  for (const s of ['bold', 'italic', 'underline', 'strike'] as const) {
    const want = srcTexts.filter((t) => styledIn(t, s, src)).flatMap((t) => wordsOf(t.data));
    const have = outTexts.filter((t) => outputStyled(t, s)).flatMap((t) => wordsOf(t.data));
    styled[s] = want.length;
    missingStyled[s] = missingFrom(want, have);
  }

  return {
    source,
    expectedItems,
    actualItems,
    headings,
    missingHeadings: missingFrom(headings, headingsOf(ed)),
    links,
    missingLinks: missingFrom(links, linksOf(ed)),
    styled,
    missingStyled,
    sourceText: textOf(body, isIgnoreSpan),
  };
}

declare global {
  // eslint-disable-next-line no-var
  var __pasteCheck: {
    prepare: typeof prepare;
    pasteSynthetic: typeof pasteSynthetic;
    writeClipboard: typeof writeClipboard;
    receivedCount: typeof receivedCount;
    probeEditor: typeof probeEditor;
    compare: typeof compare;
  };
}
globalThis.__pasteCheck = { prepare, pasteSynthetic, writeClipboard, receivedCount, probeEditor, compare };
