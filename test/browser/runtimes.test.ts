/**
 * The same code gives the same results in Node, Deno and Bun: one esbuild bundle of the Node entry points
 * (`src/node.ts`, `policies/node.ts`) and a driver runs in each runtime over the same inputs (the shared corpus's pages,
 * emails and pastes when present, and generated markup), and every output must be identical to Node's:
 * `parseDocument` + `serialize`, `sanitize` (default, comment and paste policies, a Sanitizer API dictionary, an SVG
 * context), `sanitizeEmail` on bytes, `parseHTMLLike`, `decodeHTMLBytes` in every legacy encoding, parse errors with
 * their positions, and a 100,000-deep document.
 *
 * Deno and Bun come from the npm registry (packages `deno` and `bun`, which carry the binaries). `.ci/run` installs them
 * into `.ci-out/runtimes` and sets HTMLSIFT_RUNTIMES_BIN; locally:
 *   npm install --no-save --prefix /tmp/runtimes deno@2 bun@1
 *   HTMLSIFT_RUNTIMES_BIN=/tmp/runtimes/node_modules/.bin npx vitest run --config vitest.browser.config.ts test/browser/runtimes.test.ts
 * It lives with the browser suites because it needs programs that `npm install` does not fetch.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import { mulberry32 } from '../support/random.js';
import { repoRoot, sharedDir } from '../support/shared.js';

const binDir = process.env.HTMLSIFT_RUNTIMES_BIN;
const runtimes = (['deno', 'bun'] as const).filter((r) => binDir !== undefined && existsSync(join(binDir, r)));
const skip =
  runtimes.length === 0
    ? '[runtimes] skipped: Deno and Bun not found; install them with `npm install --no-save --prefix /tmp/runtimes deno@2 bun@1` ' +
      'and set HTMLSIFT_RUNTIMES_BIN=/tmp/runtimes/node_modules/.bin'
    : null;
if (skip !== null) console.log(skip);

/** The driver: reads the inputs (JSON: [key, kind, base64 bytes][]), writes the outputs (JSON: {key: output}). */
const DRIVER = `
import * as h from '${join(repoRoot, 'src/node.ts').split('\\').join('/')}';
import * as p from '${join(repoRoot, 'policies/node.ts').split('\\').join('/')}';
import { readFileSync, writeFileSync } from 'node:fs';
const [inFile, outFile] = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);
const inputs = JSON.parse(readFileSync(inFile, 'utf8'));
const out = {};
const fromBase64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const run = (key, f) => { try { out[key] = f(); } catch (e) { out[key] = 'THROWS ' + (e && e.name) + ': ' + (e && e.message); } };
const ENCODINGS = ['windows-1252', 'iso-8859-2', 'koi8-u', 'ibm866', 'windows-874', 'windows-1255', 'macintosh', 'x-mac-cyrillic',
  'iso-8859-16', 'x-user-defined', 'gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr', 'utf-16le', 'replacement'];
for (const [key, bytes64] of inputs) {
  const bytes = fromBase64(bytes64);
  const text = h.decodeHTMLBytes(bytes).text;
  run(key + ' decode', () => text);
  run(key + ' parse', () => h.serialize(h.parseDocument(text)));
  run(key + ' sanitize', () => h.sanitize(text));
  run(key + ' comment', () => h.sanitize(text, { policy: p.comment }));
  run(key + ' paste', () => h.sanitize(text, { policy: p.paste }));
  run(key + ' sanitizer', () => h.sanitize(text, { sanitizer: { elements: ['p', 'a', 'b', 'table', 'tr', 'td', 'svg', 'math'], attributes: ['href', 'title'] } }));
  run(key + ' svg', () => h.sanitize(text.slice(0, 20000), { context: 'svg' }));
  run(key + ' email', () => p.sanitizeEmail(bytes, { container: 'c', proxyImage: (u) => 'https://proxy.test/' + encodeURIComponent(u), resolveCid: (c) => 'blob:' + c }).html);
  run(key + ' parseHTMLLike', () => h.serialize(h.parseHTMLLike(text)));
  run(key + ' errors', () => { const e = []; h.parseDocument(text.slice(0, 20000), { onError: (x) => e.push(x.code + '@' + x.line + ':' + x.column) }); return e.join(','); });
}
const all = new Uint8Array(4096);
for (let i = 0; i < all.length; i++) all[i] = (i * 7919 + (i >> 8)) & 255;
for (const e of ENCODINGS) run('decode ' + e, () => h.decodeHTMLBytes(all, { transportEncoding: e }).text);
run('deep', () => h.sanitize('<div>'.repeat(100000) + 'x').length + ' ' + h.serialize(h.parseDocument('<b>'.repeat(100000))).length);
writeFileSync(outFile, JSON.stringify(out));
`;

/** Generated markup: nested formatting, tables, foreign content, character references, templates. */
function generated(): [string, string][] {
  const parts = ['<p>', '</p>', '<b>', '</b>', '<i>', '<a href="javascript:x">', '</a>', '<table>', '<tr>', '<td>', 'x', '&amp;', '&notin;',
    '&#x1F600;', '<svg><foreignObject>', '<math><mi>', '</svg>', '<template>', '</template>', '<select><option>', '<!--c-->', '<?pi x?>',
    '<img src=x onerror=alert(1)>', '<style>p{}</style>', '<script>x</script>', '\u00a0', '<noscript><p>', '<textarea>\n', '\u0000'];
  const out: [string, string][] = [];
  const random = mulberry32(1);
  for (let k = 0; k < 40; k++) {
    let html = '';
    for (let i = 0; i < 200; i++) html += parts[Math.floor(random() * parts.length)];
    out.push(['generated/' + k, Buffer.from(html, 'utf8').toString('base64')]);
  }
  return out;
}

describe.skipIf(skip !== null)('Node, Deno and Bun give the same results', () => {
  const dir = mkdtempSync(join(tmpdir(), 'htmlsift-runtimes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let nodeOut: Record<string, string> | null = null;

  const runIn = (runtime: 'node' | 'deno' | 'bun', outFile: string): Record<string, string> => {
    const script = join(dir, 'driver.mjs');
    const args = runtime === 'deno' ? ['run', '-A', script, join(dir, 'inputs.json'), outFile] : [script, join(dir, 'inputs.json'), outFile];
    const bin = runtime === 'node' ? process.execPath : join(binDir!, runtime);
    execFileSync(bin, args, { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000, maxBuffer: 1 << 26 });
    return JSON.parse(readFileSync(outFile, 'utf8')) as Record<string, string>;
  };

  test('node', async () => {
    await build({ stdin: { contents: DRIVER, resolveDir: repoRoot, loader: 'js' }, bundle: true, format: 'esm', platform: 'neutral',
      external: ['node:fs'], outfile: join(dir, 'driver.mjs'), logLevel: 'error', mainFields: ['module', 'main'] });
    const inputs = generated();
    // The corpus is optional here: without it the generated inputs still compare the runtimes.
    const shared = sharedDir();
    const corpus = shared === null || !existsSync(join(shared, 'corpus')) ? null : join(shared, 'corpus');
    if (corpus !== null) {
      for (const sub of ['pages', 'email', 'paste']) {
        if (!existsSync(join(corpus, sub))) continue;
        for (const f of readdirSync(join(corpus, sub)).sort()) inputs.push([`${sub}/${f}`, readFileSync(join(corpus, sub, f)).toString('base64')]);
      }
    }
    writeFileSync(join(dir, 'inputs.json'), JSON.stringify(inputs));
    nodeOut = runIn('node', join(dir, 'node.json'));
    expect(Object.keys(nodeOut).length).toBeGreaterThan(inputs.length * 10);
    console.log(`[runtimes] ${Object.keys(nodeOut).length} results from ${inputs.length} inputs (corpus: ${corpus === null ? 'absent' : 'read'}); comparing with ${runtimes.join(', ')}`);
  });

  for (const runtime of runtimes) {
    test(runtime, () => {
      expect(nodeOut, 'the node run must come first').not.toBeNull();
      const theirs = runIn(runtime, join(dir, runtime + '.json'));
      const differing = Object.keys(nodeOut!).filter((k) => theirs[k] !== nodeOut![k]);
      expect(differing, `${runtime}: results that differ from Node's`).toEqual([]);
      expect(Object.keys(theirs).length).toBe(Object.keys(nodeOut!).length);
    });
  }
});
