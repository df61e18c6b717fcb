/**
 * "The browser ESM build has no Node imports": every module a browser loads (the `htmlsift/browser` entry, the
 * main and policies entries, the paste example's bundle) is bundled by esbuild for platform `browser`, and every
 * import that names a Node built-in (`node:fs`, `fs`, `worker_threads`...) is collected, wherever in the module
 * graph it is. The list must be empty. A control proves the check sees such an import.
 *
 * Then the bundle runs in a `vm` context holding only what browsers have (no `process`, `Buffer`, `require`,
 * `module`, `global`...), and gives the same output as the Node build for each built-in policy.
 */
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { sanitize } from '../../src/sanitize.js';
import { comment, paste, sanitizeEmail } from '../../policies/index.js';
import { repoRoot } from '../support/shared.js';

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

function isNodeBuiltin(path: string): boolean {
  return path.startsWith('node:') || BUILTINS.has(path) || BUILTINS.has(path.split('/')[0]!);
}

/** Bundles for `platform`, returning the Node built-ins imported anywhere in the graph ("importer -> specifier"). */
async function nodeImportsOf(options: BuildOptions): Promise<{ found: string[]; code: string }> {
  const found: string[] = [];
  const spy: Plugin = {
    name: 'node-import-spy',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point' || !isNodeBuiltin(args.path)) return undefined;
        found.push(`${args.importer.replace(repoRoot + '/', '')} -> ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  const r = await build({ bundle: true, format: 'esm', target: 'es2022', write: false, logLevel: 'silent', absWorkingDir: repoRoot, ...options, plugins: [spy] });
  return { found, code: r.outputFiles?.[0]?.text ?? '' };
}

const BROWSER_ENTRIES = ['src/browser/to-dom.ts', 'src/index.ts', 'policies/index.ts', 'examples/paste/app.ts'];

describe('browser ESM build', () => {
  it('the control: an import of a Node built-in anywhere in the graph is found', async () => {
    const { found } = await nodeImportsOf({
      stdin: { contents: "import './src/index.ts'; import { readFileSync } from 'node:fs'; import os from 'os'; console.log(readFileSync, os);", resolveDir: repoRoot, loader: 'ts' },
      platform: 'browser',
    });
    expect(found).toEqual(['<stdin> -> node:fs', '<stdin> -> os']);
  });

  it.each(BROWSER_ENTRIES)('%s bundles for platform browser (and neutral, as tsup builds it) with no Node import', async (entry) => {
    for (const platform of ['browser', 'neutral'] as const) {
      const { found, code } = await nodeImportsOf({ entryPoints: [join(repoRoot, entry)], platform });
      expect(found, `${entry} (${platform})`).toEqual([]);
      expect(code.length).toBeGreaterThan(10_000);
      // No CommonJS or Node globals in the output either.
      expect(code).not.toMatch(/\brequire\(|\b__dirname\b|\b__filename\b|\bBuffer\.|\bprocess\.(?:env|versions|platform|cwd)\b/);
    }
  });

  it('runs where only browser globals exist, with the same output as the Node build', async () => {
    const r = await build({
      stdin: {
        contents:
          "export { sanitize, sanitizeFragment } from './src/index.ts';\n" +
          "export { comment, paste, sanitizeEmail } from './policies/index.ts';\n" +
          "export { toDOM } from './src/browser/to-dom.ts';\n",
        resolveDir: repoRoot,
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'htmlsift',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    // What a browser (or a worker) has, and nothing of Node's.
    const sandbox = createContext({ TextDecoder, TextEncoder, URL, URLSearchParams, crypto: globalThis.crypto, console, queueMicrotask, structuredClone, atob, btoa });
    runInContext(r.outputFiles[0]!.text, sandbox, { filename: 'htmlsift.iife.js' });
    for (const g of ['process', 'Buffer', 'require', 'module', 'global', '__dirname']) expect(runInContext(`typeof ${g}`, sandbox), g).toBe('undefined');
    const html =
      '<h1 onclick="x()">T</h1><p class=MsoNormal style="mso-list:l0 level1 lfo1"><![if !supportLists]><span style="mso-list:Ignore">1.</span><![endif]>item<o:p></o:p></p>' +
      '<table><tr><td bgcolor="#eee" style="color:red;position:fixed"><img src="https://img.test/a.png">cell</td></tr></table><a href="javascript:x">l</a><script>x()</script>';
    sandbox.input = html;
    expect(runInContext('htmlsift.sanitize(input, { policy: htmlsift.comment })', sandbox)).toBe(sanitize(html, { policy: comment }));
    expect(runInContext('htmlsift.sanitize(input, { policy: htmlsift.paste })', sandbox)).toBe(sanitize(html, { policy: paste }));
    const bytes = new TextEncoder().encode('<style>p{color:red}</style>' + html);
    // Made inside the context (a Uint8Array of the page's own realm, as a browser's TextEncoder gives).
    sandbox.byteList = Array.from(bytes);
    runInContext('var bytes = Uint8Array.from(byteList)', sandbox);
    const options = { container: 'm', proxyImage: (u: string) => 'https://proxy.test/?u=' + encodeURIComponent(u) };
    sandbox.options = options;
    expect(runInContext('htmlsift.sanitizeEmail(bytes, options).html', sandbox)).toBe(sanitizeEmail(bytes, options).html);
  });
});
