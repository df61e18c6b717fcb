/**
 * `npm run bench:browser`: htmlsift's browser build against DOMPurify inside Chromium, on ../shared/corpus/pages.
 *
 * - htmlsift: an esbuild ESM bundle (minified, platform browser) of an entry exporting only `sanitize`;
 * - DOMPurify: its own browser build, node_modules/dompurify/dist/purify.min.js, which parses with the
 *   browser's native parser (DOMParser) and walks the real DOM;
 * - for reference (not targets): the native parser alone (template.innerHTML = s; read back innerHTML), and
 *   Chromium's own Sanitizer API (Element.setHTML, then innerHTML) when the browser has it;
 * - also for reference, in a second bundle: htmlsift's parseDocument and parse5 (parse, parse+serialize), so that
 *   the Node targets' ratios (bench/run.ts) can be read in Chromium's V8 too: a newer engine, with pointer
 *   compression, which Node 20 lacks.
 *
 * A loopback HTTP server (127.0.0.1, random port) serves a tiny page, the three scripts and the corpus as JSON;
 * Debian's Chromium (/usr/bin/chromium, or $CHROMIUM_PATH) is driven through playwright-core with
 * --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update (and
 * --js-flags=--expose-gc so the page can collect between passes when BENCH_FORCE_GC=1; by default it does not:
 * steady state, as bench/harness.ts explains). Inside the page, contenders run over all pages
 * in alternating rounds (A B C, then C B A, ...), as bench/harness.ts does in Node; the report gives each one's
 * median MB/s, min–max, and the ratio htmlsift / DOMPurify (target ≥ 5x).
 *
 * Options (environment): BROWSER_ROUNDS (default 15), BROWSER_WARMUP (default 3), HTMLSIFT_SHARED, CHROMIUM_PATH.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { readCorpus } from './harness.js';

const root = process.cwd();
const shared = process.env.HTMLSIFT_SHARED ?? resolve(root, '..', 'shared');
const pagesDir = join(shared, 'corpus', 'pages');
if (!existsSync(pagesDir)) {
  console.log(`bench:browser skipped: ${pagesDir} not found (put shared/ beside the checkout or set HTMLSIFT_SHARED).`);
  process.exit(0);
}
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.log(`bench:browser skipped: Chromium not found at ${executablePath} (apt-get install -y chromium, or set CHROMIUM_PATH).`);
  process.exit(0);
}
const rounds = Number(process.env.BROWSER_ROUNDS ?? 15);
const warmup = Number(process.env.BROWSER_WARMUP ?? 3);

const pages = readCorpus(pagesDir);
/** A minified ESM browser bundle (esbuild) of an entry module given as source, resolved from the checkout. */
async function browserBundle(contents: string, sourcefile: string): Promise<string> {
  const out = await build({
    stdin: { contents, resolveDir: root, sourcefile, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0]!.text;
}
const htmlsiftJs = await browserBundle(`export { sanitize } from './src/index.js';\n`, 'bench-browser-entry.ts');
const referenceJs = await browserBundle(
  `export { parseDocument } from './src/index.js';\nexport { parse, serialize } from 'parse5';\n`,
  'bench-browser-reference.ts',
);
const purifyJs = readFileSync(resolve(root, 'node_modules/dompurify/dist/purify.min.js'), 'utf8');
const purifyVersion = (JSON.parse(readFileSync(resolve(root, 'node_modules/dompurify/package.json'), 'utf8')) as { version: string }).version;

const INDEX = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>htmlsift bench</title>
<script src="/purify.min.js"></script>
<script type="module">import { sanitize } from '/htmlsift.mjs'; import * as ref from '/reference.mjs';
globalThis.__htmlsiftSanitize = sanitize; globalThis.__reference = ref; globalThis.__ready = true;</script>
</head><body></body></html>`;

const routes: Record<string, [string, string]> = {
  '/': ['text/html; charset=utf-8', INDEX],
  '/htmlsift.mjs': ['text/javascript; charset=utf-8', htmlsiftJs],
  '/reference.mjs': ['text/javascript; charset=utf-8', referenceJs],
  '/purify.min.js': ['text/javascript; charset=utf-8', purifyJs],
  '/corpus.json': ['application/json; charset=utf-8', JSON.stringify(pages.map((p) => p.html))],
};
const server = createServer((req, res) => {
  const route = routes[(req.url ?? '/').split('?')[0]!];
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': route[0], 'cache-control': 'no-store' }).end(route[1]);
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

interface PageResult {
  bytes: number;
  userAgent: string;
  results: { name: string; reference: boolean; samples: number[]; outputLength: number }[];
}

/** The reference group's contenders (their names are passed to inPage); bench/run.ts gives their ratios in Node. */
const PARSE_DOCUMENT = 'htmlsift parseDocument';
const PARSE5_PARSE = 'parse5.parse';
const PARSE5_PARSE_SERIALIZE = 'parse5 parse+serialize';

/** Runs inside the page (serialized by playwright; it may only use what the page has). */
async function inPage(opts: {
  rounds: number;
  warmup: number;
  origin: string;
  forceGc: boolean;
  /** The reference contenders' names (the function runs in the page: it cannot read this module's constants). */
  names: [string, string, string];
}): Promise<PageResult> {
  const g = globalThis as unknown as {
    __htmlsiftSanitize: (s: string) => string;
    __reference: { parseDocument: (s: string) => unknown; parse: (s: string) => unknown; serialize: (d: unknown) => string };
    DOMPurify: { sanitize: (s: string) => string };
    gc?: () => void;
  };
  const inputs = (await (await fetch(`${opts.origin}/corpus.json`)).json()) as string[];
  const bytes = inputs.reduce((n, s) => n + new TextEncoder().encode(s).length, 0);
  const ref = g.__reference;
  // A tree's "output" is counted as 0 characters: only the sanitizers' outputs are compared.
  const contenders: { name: string; run: (s: string) => string; reference?: true }[] = [
    { name: 'htmlsift sanitize', run: (s) => g.__htmlsiftSanitize(s) },
    { name: 'DOMPurify.sanitize', run: (s) => g.DOMPurify.sanitize(s) },
    {
      name: 'native parse+serialize (template.innerHTML)',
      run: (s) => {
        const t = document.createElement('template');
        t.innerHTML = s;
        return t.innerHTML;
      },
    },
  ];
  const el = document.createElement('div') as HTMLDivElement & { setHTML?: (s: string) => void };
  if (typeof el.setHTML === 'function') {
    contenders.push({
      name: 'native Element.setHTML (Sanitizer API)',
      run: (s) => {
        const d = document.createElement('div') as HTMLDivElement & { setHTML: (s: string) => void };
        d.setHTML(s);
        return d.innerHTML;
      },
    });
  }
  contenders.push(
    { name: opts.names[0], run: (s) => (ref.parseDocument(s), ''), reference: true },
    { name: opts.names[1], run: (s) => (ref.parse(s), ''), reference: true },
    { name: opts.names[2], run: (s) => ref.serialize(ref.parse(s)), reference: true },
  );
  let sink = 0;
  const pass = (c: { run: (s: string) => string }): number => {
    const t0 = performance.now();
    for (const s of inputs) sink += c.run(s).length;
    return performance.now() - t0;
  };
  for (let w = 0; w < opts.warmup; w++) for (const c of contenders) pass(c);
  const samples = contenders.map(() => [] as number[]);
  for (let r = 0; r < opts.rounds; r++) {
    const order = contenders.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) {
      if (opts.forceGc) g.gc?.();
      const ms = pass(contenders[i]!);
      samples[i]!.push(bytes / 1e6 / (ms / 1000));
    }
  }
  void sink;
  return {
    bytes,
    userAgent: navigator.userAgent,
    results: contenders.map((c, i) => ({
      name: c.name,
      reference: c.reference === true,
      samples: samples[i]!,
      outputLength: inputs.reduce((n, s) => n + c.run(s).length, 0),
    })),
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const browser = await chromium.launch({
  executablePath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--js-flags=--expose-gc',
  ],
});
try {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/`);
  await page.waitForFunction('globalThis.__ready === true && typeof globalThis.DOMPurify?.sanitize === "function"', undefined, { timeout: 30_000 }).catch(() => {
    throw new Error(`bench page did not load: ${errors.join('; ') || 'timeout'}`);
  });
  const out = await page.evaluate(inPage, {
    rounds,
    warmup,
    origin,
    forceGc: process.env.BENCH_FORCE_GC === '1',
    names: [PARSE_DOCUMENT, PARSE5_PARSE, PARSE5_PARSE_SERIALIZE] as [string, string, string],
  });
  console.log(
    `browser: ${out.userAgent.match(/(HeadlessChrome|Chrome)\/[\d.]+/)?.[0] ?? out.userAgent}; corpus: ${pages.length} pages, ` +
      `${(out.bytes / 1e6).toFixed(2)} MB; ${rounds} rounds after ${warmup} warm-up passes, alternating; ` +
      `htmlsift bundle ${(htmlsiftJs.length / 1024).toFixed(1)} KB minified; DOMPurify ${purifyVersion}`,
  );
  const rows = out.results.map((r) => ({ ...r, mbps: median(r.samples) }));
  const base = rows.find((r) => r.name === 'DOMPurify.sanitize')!;
  const w = Math.max(...rows.map((r) => r.name.length));
  console.log('\nSanitize in Chromium (default settings; median MB/s, min–max over rounds)');
  for (const r of rows.filter((r) => !r.reference)) {
    console.log(
      `  ${r.name.padEnd(w)}  ${r.mbps.toFixed(1).padStart(7)} MB/s  (${Math.min(...r.samples).toFixed(1)}–${Math.max(...r.samples).toFixed(1)})` +
        `  ${(r.mbps / base.mbps).toFixed(2)}x DOMPurify   output ${(r.outputLength / 1e6).toFixed(2)} MB`,
    );
  }
  const ours = rows[0]!;
  // Per-round ratio (each round has both contenders back to back), as a noise figure for the headline.
  const perRound = ours.samples.map((s, i) => s / base.samples[i]!);
  console.log(
    `\n  htmlsift sanitize vs DOMPurify (browser parser): ${(ours.mbps / base.mbps).toFixed(2)}x ` +
      `(per-round ratios ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}; target ≥ 5x)`,
  );
  // The Node targets' pairs, in this engine (for reference: the targets are measured in Node by bench/run.ts).
  const row = (name: string) => rows.find((r) => r.name === name)!;
  console.log('\nReference (not targets): the Node benchmark\'s pairs in Chromium\'s V8');
  for (const r of rows.filter((r) => r.reference)) {
    console.log(`  ${r.name.padEnd(w)}  ${r.mbps.toFixed(1).padStart(7)} MB/s  (${Math.min(...r.samples).toFixed(1)}–${Math.max(...r.samples).toFixed(1)})`);
  }
  console.log(
    `  htmlsift parseDocument vs parse5.parse: ${(row(PARSE_DOCUMENT).mbps / row(PARSE5_PARSE).mbps).toFixed(2)}x; ` +
      `htmlsift sanitize vs parse5 parse+serialize: ${(ours.mbps / row(PARSE5_PARSE_SERIALIZE).mbps).toFixed(2)}x`,
  );
} finally {
  await browser.close();
  server.close();
}
