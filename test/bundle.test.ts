/**
 * What a browser bundle of htmlsift carries (the sizes themselves are `npm run bench:size`'s business).
 *
 * Bundles are built as `bench/bundle-size.ts` builds them (esbuild: bundle, minify, ESM, platform browser, tree
 * shaking, the package's `sideEffects: false`) and checked by their inputs, and some are run:
 *  - `sanitize(html)` alone must not pull in the policy engine, the CSS toolkit, the URL policy rules, the
 *    Sanitizer class's methods, the parse error names, or the document-only parts (quirks-mode tables,
 *    encoding sniffing);
 *  - the engine must come with every way of getting a policy (a built-in one, compilePolicy, extendPolicy, a
 *    literal next to an import of compilePolicy), and a bundle without it must refuse a literal policy loudly.
 */
import { relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { BROWSER_BUNDLE_OPTIONS } from '../bench/browser-bundle-options.js';
import { describe, expect, test } from 'vitest';
import { modulesSanitizeMustNotCarry } from './support/bundle-modules.js';
import { repoRoot } from './support/shared.js';

interface Bundle {
  code: string;
  inputs: string[];
}

async function bundle(contents: string): Promise<Bundle> {
  const result = await build({
    ...BROWSER_BUNDLE_OPTIONS,
    stdin: { contents, resolveDir: repoRoot, sourcefile: 'bundle-test-entry.ts', loader: 'ts' },
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.entries(output.inputs)
    .filter(([, info]) => info.bytesInOutput > 0)
    .map(([file]) => relative(repoRoot, resolve(repoRoot, file)).split('\\').join('/'));
  return { code: result.outputFiles[0]!.text, inputs };
}

/** Imports a bundle (ESM) and returns its exports. */
async function load(code: string): Promise<Record<string, unknown>> {
  return (await import('data:text/javascript;base64,' + Buffer.from(code).toString('base64'))) as Record<string, unknown>;
}

const run = async (b: Bundle, html: string): Promise<string> => ((await load(b.code)).run as (s: string) => string)(html);

describe('browser bundles', () => {
  test('sanitize(html) alone carries no policy engine, CSS, URL policy, Sanitizer methods, error names or document-only tables', async () => {
    const b = await bundle(`import { sanitize } from './src/index.js';\nexport const run = (s: string): string => sanitize(s);\n`);
    expect(modulesSanitizeMustNotCarry(b.inputs)).toEqual([]);
    // The Sanitizer class (its method names survive minification).
    expect(b.code).not.toContain('replaceElementWithChildren');
    // Parse error names (sanitize reports no parse errors).
    expect(b.code).not.toContain('eof-in-tag');
    expect(await run(b, '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">there</a>')).toBe(
      '<p>Hi <a>there</a></p>',
    );
  });

  test('a literal policy in a bundle without the engine is refused, not ignored', async () => {
    const b = await bundle(
      `import { sanitize } from './src/index.js';\nexport const run = (s: string): string => sanitize(s, { policy: { elements: { b: { unwrap: true } } } });\n`,
    );
    await expect(run(b, '<b>x</b>')).rejects.toThrow(/policy engine is not loaded; pass compilePolicy/);
  });

  test('the engine comes with a built-in policy', async () => {
    const b = await bundle(
      `import { sanitize } from './src/index.js';\nimport { comment } from './policies/index.js';\n` +
        `export const run = (s: string): string => sanitize(s, { policy: comment });\n`,
    );
    expect(b.inputs).toContain('src/policy/engine.ts');
    expect(await run(b, '<h1>T</h1><a href="http://x/">l</a><div>d</div>')).toBe(
      '<h3>T</h3><a href="http://x/" rel="nofollow ugc noopener noreferrer">l</a>d',
    );
  });

  test('the engine comes with compilePolicy and extendPolicy, and then compiles literals too', async () => {
    const b = await bundle(
      `import { sanitize, compilePolicy, extendPolicy } from './src/index.js';\n` +
        `const compiled = compilePolicy({ elements: { b: { rename: 'strong' } }, sanitizer: { elements: ['strong', 'i', 'p'] } });\n` +
        `const extended = extendPolicy({ sanitizer: { elements: ['p', 'i'] } }, { elements: { i: { unwrap: true } } });\n` +
        `export const run = (s: string): string => [\n` +
        `  sanitize(s, { policy: compiled }),\n` +
        `  sanitize(s, { policy: extended }),\n` +
        `  sanitize(s, { policy: { elements: { p: { drop: true } } } }),\n` +
        `].join('|');\n`,
    );
    expect(await run(b, '<p><b>x</b><i>y</i></p>')).toBe('<p><strong>x</strong><i>y</i></p>|<p>y</p>|');
  });
});
