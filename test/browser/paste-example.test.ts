/**
 * The paste example (examples/paste), end to end in Chromium.
 *
 * examples/paste/app.ts is bundled as examples/README.md builds it (esbuild, ESM, for the browser) and served with
 * examples/paste/index.html (which keeps its own CSP: `script-src 'self'`) by a node:http server on 127.0.0.1.
 * Every Word and Google Docs capture of corpus/paste (picked by content: Word's Office namespace or Mso classes,
 * Google Docs' `docs-internal-guid` wrapper) is pasted into the page's editor twice:
 *   - synthetic: a `paste` ClipboardEvent carrying a DataTransfer with the capture as text/html, exactly as captured;
 *   - trusted: the capture written to the system clipboard (Chromium sanitizes what a page writes: conditional
 *     comments become comments, the markup is re-serialized) and pasted with Ctrl+V through CDP, so the event is
 *     the browser's own.
 * Then what landed in the editor is checked against Chromium's own parse of the HTML the event delivered
 * (paste-example-page.ts): Word mso-list paragraphs arrive as ul/ol items at the nesting their level gives and of
 * the type their bullet gives; Google Docs lists keep their items, nesting and types; headings, links and the
 * words shown bold/italic/underlined/struck keep that markup; no mso- style, class, Office element (o:p...),
 * comment (so conditional comment), Google Docs wrapper, style/meta/span/font element is left; ≥ 97% of the words
 * a reader sees are kept; nothing runs (handlers fired on every element, CSP violations, dialogs, errors) and
 * nothing but the page and its script is requested. The synthetic paste's editor markup also equals what the
 * Node build makes of the same HTML.
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/paste-example.test.ts
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumSkipReason, launchChromium } from './chromium.js';
import { PROBE_SCRIPT } from './dom-probe.js';
import type { PasteReport, StyleName } from './paste-example-page.js';
import { sanitizeFragment } from '../../src/sanitize.js';
import { serialize } from '../../src/serializer.js';
import { paste } from '../../policies/index.js';
import { retention } from '../policies/helpers.js';
import { repoRoot, sharedPath } from '../support/shared.js';

const SUITE = 'paste-example';
const chromiumMissing = chromiumSkipReason(SUITE);
const corpusDir = chromiumMissing === null ? sharedPath('corpus/paste', SUITE) : null;
const enabled = chromiumMissing === null && corpusDir !== null;

type Producer = 'word' | 'gdocs';
function producerOf(html: string): Producer | null {
  if (/id="docs-internal-guid-/.test(html)) return 'gdocs';
  if (/urn:schemas-microsoft-com:office:word|class=["']?Mso/i.test(html)) return 'word';
  return null;
}
const captures: { name: string; producer: Producer; html: string }[] = [];
if (corpusDir !== null) {
  for (const name of readdirSync(corpusDir).filter((f) => f.endsWith('.html')).sort()) {
    const html = readFileSync(join(corpusDir, name), 'utf8');
    const producer = producerOf(html);
    if (producer !== null) captures.push({ name, producer, html });
  }
}

let server: Server;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
const requests: string[] = [];
const nodeHits: string[] = [];

async function takeHits(): Promise<string[]> {
  return [...((await page.evaluate('window.__probeTake()')) as string[]), ...nodeHits.splice(0)];
}

beforeAll(async () => {
  if (!enabled) return;
  // As examples/README.md builds it: esbuild examples/paste/app.ts --bundle --format=esm --outdir=examples/paste/build
  const app = await build({ entryPoints: [join(repoRoot, 'examples/paste/app.ts')], bundle: true, format: 'esm', outdir: join(repoRoot, 'examples/paste/build'), write: false, logLevel: 'silent' });
  const appJs = app.outputFiles.find((f) => f.path.endsWith('app.js'))!.text;
  const indexHtml = readFileSync(join(repoRoot, 'examples/paste/index.html'), 'utf8');
  const checker = await build({ entryPoints: [join(repoRoot, 'test/browser/paste-example-page.ts')], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });

  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(indexHtml);
    } else if (path === '/build/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(appJs);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  browser = await launchChromium();
  context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  page = await context.newPage();
  await page.addInitScript(PROBE_SCRIPT);
  await page.addInitScript({ content: checker.outputFiles[0]!.text });
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    nodeHits.push('dialog ' + d.type() + ': ' + d.message());
    void d.dismiss();
  });
  page.on('popup', (p) => nodeHits.push('popup ' + p.url()));
  page.on('pageerror', (e) => nodeHits.push('page error: ' + e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') nodeHits.push('console error: ' + m.text());
  });
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame() && f.url() !== origin + '/') nodeHits.push('navigation ' + f.url());
  });
  await page.goto(origin + '/');
  await page.waitForSelector('#editor');
  cdp = await context.newCDPSession(page);
  expect(await takeHits(), 'the page itself must not trip the detectors').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

/** A rough text/plain flavour, as a clipboard carries next to text/html (the example does not use it when HTML is there). */
const plainOf = (html: string): string => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

async function pasteInto(html: string, mode: 'synthetic' | 'trusted'): Promise<{ report: PasteReport; hits: string[]; requests: string[] }> {
  const first = requests.length;
  await page.evaluate(() => globalThis.__pasteCheck.prepare());
  if (mode === 'synthetic') {
    const prevented = await page.evaluate(([h, t]) => globalThis.__pasteCheck.pasteSynthetic(h, t), [html, plainOf(html)] as const);
    expect(prevented, 'the example handles the paste itself').toBe(true);
  } else {
    await page.evaluate(([h, t]) => globalThis.__pasteCheck.writeClipboard(h, t), [html, plainOf(html)] as const);
    await page.evaluate(() => globalThis.__pasteCheck.prepare());
    const key = { key: 'v', code: 'KeyV', windowsVirtualKeyCode: 86, modifiers: 2 };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, commands: ['paste'] });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
    await page.waitForFunction(() => globalThis.__pasteCheck.receivedCount() > 0, undefined, { timeout: 10_000 });
  }
  const probed = await page.evaluate(() => globalThis.__pasteCheck.probeEditor());
  // Let anything the pasted nodes would load or run show up.
  await settle();
  const hits = await takeHits();
  const compared = await page.evaluate(() => globalThis.__pasteCheck.compare());
  // compare() parses the delivered HTML with DOMParser: Chromium reports a CSP violation for each handler
  // attribute it parses (nothing runs). Those reports are not the example's doing.
  await settle();
  await takeHits();
  return { report: { ...probed, ...compared }, hits, requests: requests.slice(first) };
}

async function settle(): Promise<void> {
  await page.evaluate(() => new Promise((r) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r)), 20)));
}

const STYLES: StyleName[] = ['bold', 'italic', 'underline', 'strike'];

describe.runIf(enabled)('paste example in Chromium', () => {
  test('positive controls: the detectors see handlers and script URLs in this page; a hostile paste runs nothing', async () => {
    // Raw markup put in the page (not through the example): its CSP blocks the handler, and the block is seen.
    await page.evaluate(async () => {
      const d = document.createElement('div');
      d.innerHTML = '<img src="data:," onerror="__ran(1)"><a href="javascript:__ran(2)">x</a>';
      document.body.appendChild(d);
      const img = d.querySelector('img')!;
      await new Promise((r) => (img.complete ? r(null) : img.addEventListener('error', r)));
      d.querySelector('a')!.click();
      await new Promise((r) => setTimeout(r, 200));
      d.remove();
    });
    const controls = (await takeHits()).join('\n');
    expect(controls).toMatch(/csp script-src-attr/);
    expect(controls).toMatch(/script URL navigation: javascript:__ran\(2\)/);
    await page.waitForTimeout(200);
    await takeHits();

    const hostile =
      '<p class=MsoNormal onmouseover="__ran(3)"><span style="font-weight:bold" onclick="__ran(4)">Bold</span>' +
      '<img src="https://evil.test/a.png" onerror="__ran(5)"><a href="javascript:__ran(6)">link</a></p><script>__ran(7)</script>' +
      '<svg><a href="javascript:__ran(8)"><text>t</text></a></svg><iframe srcdoc="<script>parent.__ran(9)</script>"></iframe>';
    const { report, hits, requests: reqs } = await pasteInto(hostile, 'synthetic');
    expect(hits).toEqual([]);
    expect(reqs).toEqual([]);
    expect(report.survivors).toEqual([]);
    expect(report.editorHtml).toBe('<p><strong>Bold</strong><a>link</a></p>');
  });

  const picked = { word: captures.filter((c) => c.producer === 'word'), gdocs: captures.filter((c) => c.producer === 'gdocs') };
  const totals = {
    synthetic: { pastes: 0, items: 0, headings: 0, links: 0, styled: 0, executions: 0, requests: 0, minWords: 1, sameAsNode: 0 },
    trusted: { pastes: 0, items: 0, headings: 0, links: 0, styled: 0, executions: 0, requests: 0, minWords: 1, sameAsNode: 0 },
  };

  for (const mode of ['synthetic', 'trusted'] as const) {
    test.each(captures.map((c) => [c.producer, c.name, c] as const))(`${mode} paste of %s capture %s`, async (_p, _n, capture) => {
      const { report, hits, requests: reqs } = await pasteInto(capture.html, mode);
      const t = totals[mode];
      t.pastes++;
      t.items += report.expectedItems.length;
      t.headings += report.headings.length;
      t.links += report.links.length;
      t.styled += STYLES.reduce((s, k) => s + report.styled[k], 0);
      t.executions += hits.length;
      t.requests += reqs.length;
      const kept = retention(report.sourceText, report.editorText);
      t.minWords = Math.min(t.minWords, kept);
      const node = serialize(sanitizeFragment(report.received, { policy: paste, context: 'div' }));
      if (node === report.editorHtml) t.sameAsNode++;

      expect(report.count, 'one paste event').toBe(1);
      expect(report.trusted, 'trusted event').toBe(mode === 'trusted');
      if (mode === 'synthetic') expect(report.received).toBe(capture.html);
      expect(hits, 'executions').toEqual([]);
      expect(reqs, 'requests').toEqual([]);
      expect(report.survivors, 'script-capable leftovers').toEqual([]);
      expect(report.residue, 'Office / Google Docs leftovers').toEqual([]);
      expect(report.actualItems, 'list items: depth, list type, text').toEqual(report.expectedItems);
      if (capture.producer === 'word' && /mso-list:\s*l\d/.test(capture.html) && /\blevel\d/.test(capture.html)) expect(report.source).toBe('word');
      expect(report.missingHeadings, 'headings').toEqual([]);
      expect(report.missingLinks, 'links').toEqual([]);
      for (const s of STYLES) expect(report.missingStyled[s], `${s} words`).toEqual([]);
      expect(kept, 'words kept').toBeGreaterThanOrEqual(0.97);
      expect(report.editorHtml, "the editor holds what the Node build makes of the delivered HTML").toBe(node);
    });
  }

  test.runIf(captures.length > 0)('counts', () => {
    for (const mode of ['synthetic', 'trusted'] as const) {
      const t = totals[mode];
      console.log(
        `[${SUITE}] ${mode}: ${t.pastes} pastes (${picked.word.length} Word, ${picked.gdocs.length} Google Docs captures); list items checked ${t.items}, ` +
          `headings ${t.headings}, links ${t.links}, styled words ${t.styled}; executions ${t.executions}; requests ${t.requests}; ` +
          `words kept min ${(t.minWords * 100).toFixed(2)}%; editor = Node build ${t.sameAsNode}/${t.pastes}`,
      );
    }
    expect(picked.word.length).toBeGreaterThan(0);
    expect(picked.gdocs.length).toBeGreaterThan(0);
  });
});
