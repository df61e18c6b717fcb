/**
 * Built-in policies on the shared corpora, run in Chromium: nothing the sanitized output holds may run.
 *
 * Every file of corpus/email (email policy, with the image proxy and cid: callbacks of examples/email-viewer.ts),
 * corpus/paste (paste policy) and corpus/pages (comment policy) is sanitized *in the page* by htmlsift's browser
 * ESM build (policies-corpus-page.ts, bundled for platform browser) and inserted into the live document twice: as
 * markup with innerHTML into a container, and as nodes built by `toDOM` from the sanitized tree. Then the page
 * waits for images, focuses what is focusable, dispatches ~70 kinds of events (load, error, focus, mouse, pointer,
 * key, animation...) to every element so that any handler attribute would fire, and inspects the DOM Chromium
 * built.
 *
 * Detectors (a positive control proves each one sees unsanitized markup):
 *   - executions: alert/confirm/prompt/print/open and a global `__ran` overridden by an init script; uncaught
 *     errors (a handler that throws); page errors, dialogs, popups, navigations; clicks to `javascript:` URLs
 *     (every click is cancelled); `securitypolicyviolation` events of the page's report-only CSP
 *     (`script-src 'self'`, so any inline script or handler that runs is also reported, and `img-src` limited to
 *     the proxy);
 *   - requests: every request goes through `page.route`; the harness serves its page and bundle, the email proxy
 *     and attachment URLs get a 1x1 GIF, anything else is aborted and counted. A request passes only when an
 *     email callback produced that URL;
 *   - survivors in the browser's DOM: an `on*` attribute, script/iframe/frame/frameset/object/embed/applet/base/link
 *     elements, `meta http-equiv`, SVG use/animation, a `javascript:`/`vbscript:`/script-capable `data:` URL in any
 *     attribute (as Chromium's URL parser reads it), `srcdoc`, script in CSS;
 *   - email, scoped CSS: the computed style of the page and of the toDOM rendering (the same markup, outside the
 *     container) must not change when the container's sheets are switched on.
 * Also measured: words a reader sees (innerText of the original rendered with scripts off in a sandboxed frame,
 * Word's list bullets removed, against innerText of each rendering; ≥ 97% required for email and paste), and the
 * browser build's output equals the Node build's.
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/policies-corpus.test.ts
 *   HTMLSIFT_CORPUS_FILTER=gdocs ...   # only files whose name contains the string
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumSkipReason, launchChromium } from './chromium.js';
import { PROBE_SCRIPT } from './dom-probe.js';
import { EMAIL_CONTAINER, PROXY, dec, enc, type CaseKind, type CaseResult } from './policies-corpus-page.js';
import { sanitize } from '../../src/sanitize.js';
import { comment, paste, sanitizeEmail } from '../../policies/index.js';
import { retention, words } from '../policies/helpers.js';
import { repoRoot, sharedPath } from '../support/shared.js';

const SUITE = 'policies-corpus';
const ORIGIN = 'http://htmlsift.test';
const FILTER = process.env.HTMLSIFT_CORPUS_FILTER ?? '';
const CSP_REPORT_ONLY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https://images.example",
  "font-src 'self'",
  "media-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');
const HARNESS = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>htmlsift policies corpus</title>
<script type="module" src="/bundle.js"></script></head><body><div id="stage"></div></body></html>`;
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');


const CORPORA: { folder: string; kind: CaseKind; wordsRequired: boolean }[] = [
  { folder: 'email', kind: 'email', wordsRequired: true },
  { folder: 'paste', kind: 'paste', wordsRequired: true },
  { folder: 'pages', kind: 'comment', wordsRequired: false },
];

const chromiumMissing = chromiumSkipReason(SUITE);
const corpusDir = chromiumMissing === null ? sharedPath('corpus', SUITE) : null;
const enabled = chromiumMissing === null && corpusDir !== null;

function filesOf(folder: string): string[] {
  if (corpusDir === null) return [];
  return readdirSync(join(corpusDir, folder))
    .filter((f) => f.endsWith('.html') && (FILTER === '' || f.includes(FILTER)))
    .sort();
}

/** What the Node build makes of the same input (the page's output must be identical). */
function nodeOutput(kind: CaseKind, input: string): string {
  if (kind === 'comment') return sanitize(input, { policy: comment, context: 'div' });
  if (kind === 'paste') return sanitize(input, { policy: paste, context: 'div' });
  return sanitizeEmail(input, {
    container: EMAIL_CONTAINER,
    proxyImage: (u) => PROXY + encodeURIComponent(u),
    resolveCid: (id) => (/^[\w.@-]+$/.test(id) ? 'attachments/' + encodeURIComponent(id) : null),
  }).html;
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let sourceContext: BrowserContext;
let sourcePage: Page;
/** Requests other than the harness's own, in order. */
const requests: string[] = [];
/** Every URL an email callback produced so far: a request for one of these is the caller's choice. */
const produced = new Set<string>();
/** Hits recorded on the Node side (dialogs, popups, navigations, page errors). */
const nodeHits: string[] = [];

async function takeHits(): Promise<string[]> {
  const inPage = (await page.evaluate('window.__probeTake()')) as string[];
  return [...inPage, ...nodeHits.splice(0)];
}

async function runCase(kind: CaseKind, input: string): Promise<{ r: CaseResult; hits: string[]; requests: string[] }> {
  const firstRequest = requests.length;
  const r = (await page.evaluate(([k, i]) => globalThis.__policiesCorpus.runCase(k as CaseKind, i), [kind, enc(input)] as const)) as CaseResult;
  for (const u of r.produced) produced.add(u);
  return { r, hits: await takeHits(), requests: requests.slice(firstRequest) };
}

beforeAll(async () => {
  if (!enabled) return;
  const bundled = await build({
    entryPoints: [join(repoRoot, 'test', 'browser', 'policies-corpus-page.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bundle = bundled.outputFiles[0]!.text;
  browser = await launchChromium();

  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === ORIGIN + '/') {
      return route.fulfill({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy-report-only': CSP_REPORT_ONLY }, body: HARNESS });
    }
    if (url === ORIGIN + '/bundle.js') return route.fulfill({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8' }, body: bundle });
    if (url === ORIGIN + '/favicon.ico') return route.fulfill({ status: 404, body: '' });
    requests.push(url);
    if (produced.has(url)) return route.fulfill({ status: 200, headers: { 'content-type': 'image/gif' }, body: GIF });
    return route.abort();
  });
  page = await context.newPage();
  await page.addInitScript(PROBE_SCRIPT);
  page.on('dialog', (d) => {
    nodeHits.push('dialog ' + d.type() + ': ' + d.message());
    void d.dismiss();
  });
  page.on('popup', (p) => nodeHits.push('popup ' + p.url()));
  page.on('pageerror', (e) => nodeHits.push('page error: ' + e.message));
  page.on('framenavigated', (f) => {
    if (f.url() !== ORIGIN + '/') nodeHits.push('navigation ' + f.url());
  });
  await page.goto(ORIGIN + '/');
  await page.waitForFunction('globalThis.__policiesCorpus !== undefined');
  expect(await takeHits(), 'the harness itself must not trip the detectors').toEqual([]);

  // The originals are rendered apart, every request but the harness's aborted (and not counted).
  sourceContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await sourceContext.route('**/*', (route) => {
    const url = route.request().url();
    if (url === ORIGIN + '/') return route.fulfill({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: HARNESS });
    if (url === ORIGIN + '/bundle.js') return route.fulfill({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8' }, body: bundle });
    return route.abort();
  });
  sourcePage = await sourceContext.newPage();
  await sourcePage.goto(ORIGIN + '/');
  await sourcePage.waitForFunction('globalThis.__policiesCorpus !== undefined');
});

afterAll(async () => {
  await browser?.close();
});

describe.runIf(enabled)('policies on the corpora, in Chromium', () => {
  test('positive control: unsanitized markup is seen running, requesting and surviving', async () => {
    const { r, hits, requests: reqs } = await runCase(
      'raw',
      '<img src="https://evil.test/x.png" onerror="__ran(1)"><p onmouseover="__ran(2)">x</p>' +
        '<a href="javascript:__ran(3)">j</a><script>__ran(4)</script><div onclick="undefinedFunction()">y</div>',
    );
    const summary = hits.join('\n');
    expect(summary).toMatch(/__ran: 1/); // onerror (innerHTML and toDOM)
    expect(summary).toMatch(/__ran: 2/); // dispatched mouseover
    expect(summary).toMatch(/script URL navigation: javascript:__ran\(3\)/);
    expect(summary).toMatch(/__ran: 4/); // a script built with createElementNS runs when inserted
    expect(summary).toMatch(/uncaught error: .*undefinedFunction/);
    expect(summary).toMatch(/csp script-src-attr/);
    expect(summary).toMatch(/csp script-src-elem/);
    expect(summary).toMatch(/csp img-src: https:\/\/evil\.test/);
    expect(reqs).toContain('https://evil.test/x.png');
    expect(produced.has('https://evil.test/x.png')).toBe(false);
    const survivors = r.survivors.join('\n');
    for (const s of ['innerHTML <img> onerror', 'toDOM <p> onmouseover', 'innerHTML <a> href: javascript:', 'toDOM <script> element']) expect(survivors).toContain(s);
    // Scoped CSS control: an unscoped sheet restyles the page, and the leak detector sees it.
    const leak = await runCase('raw', '<style>div{color:rgb(1,2,3)}</style>');
    expect(leak.r.styleLeaks.length).toBeGreaterThan(0);
  });

  for (const corpus of CORPORA) {
    const files = filesOf(corpus.folder);
    const totals = { files: 0, elements: 0, events: 0, images: 0, executions: 0, requests: 0, allowedRequests: 0, blockedRequests: 0, survivors: 0, styleLeaks: 0, mismatches: 0, words: 0, wordless: 0 };
    const kept: { inner: number; dom: number; name: string }[] = [];

    test.each(files)(`${corpus.folder}/%s (${corpus.kind} policy): nothing runs, nothing unapproved loads, nothing dangerous survives`, async (name) => {
      const input = readFileSync(join(corpusDir!, corpus.folder, name), 'utf8');
      const { r, hits, requests: reqs } = await runCase(corpus.kind, input);
      const unapproved = reqs.filter((u) => !produced.has(u));
      totals.files++;
      totals.elements += r.elements;
      totals.events += r.events;
      totals.images += r.images;
      totals.executions += hits.length;
      totals.requests += reqs.length;
      totals.allowedRequests += reqs.length - unapproved.length;
      totals.blockedRequests += unapproved.length;
      totals.survivors += r.survivors.length;
      totals.styleLeaks += r.styleLeaks.length;
      const sameAsNode = dec(r.html) === nodeOutput(corpus.kind, input);
      if (!sameAsNode) totals.mismatches++;

      const source = dec((await sourcePage.evaluate(([i, b]) => globalThis.__policiesCorpus.sourceText(i, b), [enc(input), corpus.kind === 'paste'] as const)) as string);
      const sourceWords = words(source);
      totals.words += [...sourceWords.values()].reduce((a, b) => a + b, 0);
      if (sourceWords.size === 0) totals.wordless++;
      const inner = retention(source, dec(r.textInner));
      const dom = retention(source, dec(r.textDom));
      kept.push({ inner, dom, name });

      expect(hits, 'executions').toEqual([]);
      expect(unapproved, 'requests no callback produced').toEqual([]);
      // Only the email callbacks produce URLs (a late request of an earlier email's CSS background may still
      // arrive during a later case: it is one of those).
      if (corpus.kind !== 'email') expect(r.produced).toEqual([]);
      expect(r.survivors, 'survivors').toEqual([]);
      expect(r.styleLeaks, 'styles outside the container').toEqual([]);
      expect(sameAsNode, 'browser build output equals the Node build output').toBe(true);
      if (corpus.wordsRequired) {
        expect(inner, 'words kept (innerHTML rendering)').toBeGreaterThanOrEqual(0.97);
        expect(dom, 'words kept (toDOM rendering)').toBeGreaterThanOrEqual(0.97);
      }
    });

    test.runIf(files.length > 0)(`${corpus.folder}: counts`, () => {
      const pct = (x: number): string => (x * 100).toFixed(2) + '%';
      const min = (k: 'inner' | 'dom'): { v: number; name: string } => kept.reduce((m, x) => (x[k] < m.v ? { v: x[k], name: x.name } : m), { v: 1, name: '' });
      const mean = (k: 'inner' | 'dom'): number => kept.reduce((s, x) => s + x[k], 0) / Math.max(1, kept.length);
      console.log(
        `[${SUITE}] ${corpus.folder} (${corpus.kind}): ${totals.files} files, ${totals.elements} elements inspected, ${totals.events} events dispatched, ` +
          `${totals.images} images; executions ${totals.executions}; requests ${totals.requests} (${totals.allowedRequests} produced by the callbacks, ` +
          `${totals.blockedRequests} unapproved); survivors ${totals.survivors}; style leaks ${totals.styleLeaks}; browser≠Node outputs ${totals.mismatches}; ` +
          `${totals.words} words in the originals (${totals.wordless} files without any), words kept innerHTML min ${pct(min('inner').v)}${min('inner').name ? ` (${min('inner').name})` : ''} mean ${pct(mean('inner'))}, toDOM min ${pct(min('dom').v)} mean ${pct(mean('dom'))}`,
      );
      expect(totals.files).toBe(files.length);
    });
  }
});
