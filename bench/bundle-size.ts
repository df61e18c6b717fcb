/**
 * `npm run bench:size`: what htmlsift costs a browser page.
 *
 * The package is built as published (`scripts/build.ts`, ESM: one module per source module, internal property names
 * shortened) into a temporary `node_modules/htmlsift`, and esbuild bundles (minify, ESM, platform browser,
 * tree shaking) small entries that import from `htmlsift`, through the package's `exports`, as an application does:
 *   - sanitize: imports only `sanitize` and calls it, so the default configuration, the parser and the
 *     serializer are in (target: ≤ 40 KB gzipped);
 *   - parser: `parseDocument` + `parseFragment` only;
 *   - parser+serializer: the above plus `serialize`.
 * For each it prints the minified and gzipped (node:zlib, level 9) sizes, and for the sanitize bundle the
 * biggest contributors by file and by folder (from the esbuild metafile: bytes each input adds to the minified
 * output).
 *
 * BUNDLE_OUT=dir writes the bundles there.
 * Node built-ins are marked external, so a bundle that reaches one still builds; the script then exits 1,
 * naming each built-in and the file that imports it. Set SIZE_TOP to change how many files are listed (20).
 */
import { builtinModules } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { BROWSER_BUNDLE_OPTIONS } from './browser-bundle-options.js';
import { installPackage } from '../scripts/build.js';

const root = process.cwd();
// The package as an application installs it (in a temporary directory: see installPackage).
const consumer = mkdtempSync(join(tmpdir(), 'htmlsift-size-'));
process.on('exit', () => rmSync(consumer, { recursive: true, force: true }));
const pkg = await installPackage(consumer, { declarations: false, esmOnly: true });
const top = Number(process.env.SIZE_TOP ?? 20);
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const isBuiltin = (p: string): boolean => builtins.has(p) || p.startsWith('node:');

interface Built {
  name: string;
  code: string;
  minified: number;
  gzipped: number;
  metafile: Metafile;
  nodeImports: { builtin: string; importer: string }[];
}

async function bundle(name: string, contents: string, resolveDir = consumer): Promise<Built> {
  const result = await build({
    ...BROWSER_BUNDLE_OPTIONS,
    stdin: { contents, resolveDir, sourcefile: `bench-size-${name}.ts`, loader: 'ts' },
    external: [...builtins],
  });
  const out = result.outputFiles[0]!;
  const code = out.text;
  // BUNDLE_OUT=dir writes each bundle there, to read where the bytes are.
  if (process.env.BUNDLE_OUT) writeFileSync(join(process.env.BUNDLE_OUT, name + '.js'), code);
  const nodeImports: { builtin: string; importer: string }[] = [];
  // Which inputs import a built-in (the metafile's inputs list each import with `external: true`)…
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const imp of input.imports) if (imp.external && isBuiltin(imp.path)) nodeImports.push({ builtin: imp.path, importer: file });
  }
  // …and whether the output still imports it after tree shaking (that is what breaks a browser).
  const outImports = Object.values(result.metafile.outputs)[0]!.imports.filter((i) => isBuiltin(i.path)).map((i) => i.path);
  for (const b of outImports) if (!nodeImports.some((x) => x.builtin === b)) nodeImports.push({ builtin: b, importer: '(output)' });
  return {
    name,
    code,
    minified: Buffer.byteLength(code),
    gzipped: gzipSync(code, { level: 9 }).length,
    metafile: result.metafile,
    nodeImports: outImports.length > 0 ? nodeImports.filter((x) => outImports.includes(x.builtin)) : [],
  };
}

const kb = (b: number): string => `${(b / 1024).toFixed(1)} KB`;

const entries: [string, string][] = [
  ['sanitize', `import { sanitize } from 'htmlsift';\nexport const run = (s: string): string => sanitize(s);\n`],
  ['parser', `export { parseDocument, parseFragment } from 'htmlsift';\n`],
  ['parser+serializer', `export { parseDocument, parseFragment, serialize } from 'htmlsift';\n`],
];

const built: Built[] = [];
for (const [name, contents] of entries) built.push(await bundle(name, contents));
// For reference: the same entry bundled from the sources (no renaming), as sessions before the published build measured.
const fromSources = await bundle('sanitize-from-src', `import { sanitize } from './src/index.js';\nexport const run = (s: string): string => sanitize(s);\n`, root);

console.log(`browser bundles of the package as published (esbuild ${(await import('esbuild')).version}, minify, ESM, platform browser, es2022; gzip level 9)`);
for (const b of built) {
  const target = b.name === 'sanitize' ? `   target ≤ 40 KB (40960 B) gzipped: ${b.gzipped <= 40 * 1024 ? 'met' : 'NOT met'}` : '';
  console.log(`  ${b.name.padEnd(18)} minified ${kb(b.minified).padStart(9)}   gzipped ${kb(b.gzipped).padStart(8)} (${b.gzipped} B)${target}`);
}
console.log(`  (reference: sanitize bundled from src/, internal names not shortened: gzipped ${fromSources.gzipped} B)`);

// Where the sanitize bundle's bytes come from.
const s = built[0]!;
const inputs = Object.entries(Object.values(s.metafile.outputs)[0]!.inputs)
  .map(([file, info]) => ({ file: relative(join(pkg, 'dist'), resolve(root, file)).split('\\').join('/'), bytes: info.bytesInOutput }))
  .filter((x) => x.bytes > 0 && !x.file.includes('bench-size-'))
  .sort((a, b) => b.bytes - a.bytes);
const total = inputs.reduce((n, x) => n + x.bytes, 0);
console.log(`\nsanitize bundle: ${inputs.length} files contribute; biggest (minified bytes in output, share):`);
for (const x of inputs.slice(0, top)) {
  console.log(`  ${kb(x.bytes).padStart(9)}  ${((100 * x.bytes) / total).toFixed(1).padStart(5)}%  ${x.file}`);
}
const byDir = new Map<string, number>();
for (const x of inputs) byDir.set(dirname(x.file), (byDir.get(dirname(x.file)) ?? 0) + x.bytes);
console.log('by folder:');
for (const [dir, bytes] of [...byDir].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${kb(bytes).padStart(9)}  ${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${dir}/`);
}

let failed = false;
for (const b of built) {
  if (b.nodeImports.length === 0) continue;
  failed = true;
  console.error(`\n${b.name} bundle imports Node built-ins (it would not load in a browser):`);
  for (const x of b.nodeImports) console.error(`  ${x.builtin}  imported by ${x.importer}`);
}
if (failed) process.exit(1);
console.log('\nno Node built-in imports in any bundle');
