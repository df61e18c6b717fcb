/**
 * `npm run build`: the package as published, in `dist/`.
 *
 * - ESM, one file per source module (`dist/src/…`, `dist/policies/…`, the layout of the repository), so that an
 *   application's bundler keeps only the modules its imports reach, as the package's `sideEffects` list allows.
 *   A single bundled file would carry everything one entry point shares with another (the policy engine, the
 *   parse error names, the quirks tables…) into every browser bundle of `sanitize`.
 * - ESM for Node, Deno and Bun (the `node` export condition, `dist/node/`): the three entry points bundled, what
 *   they share in chunks, so that each module is loaded once whichever entry points a program imports. Node's ESM
 *   loader takes each file through its resolve, read and link steps: from the files above, importing the package
 *   took about 30 ms and 9.5 MB of memory (60 modules); bundled, about 12 ms and 4 MB.
 * - CJS for `require`: for Node, Deno and Bun, the three entry points in one bundle (`dist/node/entries.cjs`), each
 *   entry point's file (`dist/node.cjs`, `dist/policies.node.cjs`, `dist/browser.node.cjs`) a line that takes its
 *   part, so that requiring two of them loads the code once (as two bundles: twice, 20 ms and 6.6 MB instead of 13 ms
 *   and 5 MB, and two sets of classes); elsewhere, one bundled file per entry point (`dist/*.cjs`).
 * - The CLI (`dist/cli/htmlsift.js`), bundled.
 * - Type declarations: `.d.ts` beside each ESM module (tsc); each CJS file's `.d.cts` re-exports its entry module's.
 * Internal property names are shortened in all of them, the same way (see `scripts/internal-names.ts`).
 *
 * `installPackage` (the build installed as a dependency) is what `test/published-build.test.ts` and
 * `bench/bundle-size.ts` run.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { internalNames } from './internal-names.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package's entry points: export path → source module (see package.json's `exports`). */
export const ENTRY_POINTS = {
  index: 'src/index.ts',
  node: 'src/node.ts',
  policies: 'policies/index.ts',
  'policies.node': 'policies/node.ts',
  browser: 'src/browser/to-dom.ts',
} as const;

/** The `node` condition's ESM entry points: file in `dist/node/` (without `.js`) → source module. */
export const NODE_ENTRY_POINTS = {
  index: 'src/node.ts',
  policies: 'policies/node.ts',
  browser: 'src/browser/to-dom.ts',
} as const;

/** The `node` condition's CJS files (in `dist/`) → the entry point (a `NODE_ENTRY_POINTS` name) each gives. */
const NODE_CJS_FILES = {
  'node.cjs': 'index',
  'policies.node.cjs': 'policies',
  'browser.node.cjs': 'browser',
} as const;

export interface BuildPackageOptions {
  /** Where the package's files go (`dist`'s contents); emptied first. Default: `dist` in the repository. */
  outDir?: string;
  /** Type declarations too (default true; tsc takes most of the build's time). */
  declarations?: boolean;
  /** ESM only (default false): no CJS, no CLI. */
  esmOnly?: boolean;
}

/** The TypeScript modules below `dir` (the CLI aside: it is its own bundle, and nothing imports it). */
function sourceModules(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((rel) => join(root, dir, rel))
    .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts') && !relative(root, p).split('\\').join('/').startsWith('src/cli/'))
    .sort();
}

export async function buildPackage(options: BuildPackageOptions = {}): Promise<void> {
  const outDir = resolve(options.outDir ?? join(root, 'dist'));
  const declarations = options.declarations !== false;
  rmSync(outDir, { recursive: true, force: true });
  const { mangleProps, mangleCache } = internalNames();
  const shared = { target: 'es2022', sourcemap: true, mangleProps, mangleCache, logLevel: 'warning' } as const;
  // The bundles' syntax minified (names and layout kept): esbuild then writes the sources' top-level constants (the
  // tokenizer's character codes and states, the tree builder's tag ids and modes...) in place as numbers across
  // modules. Left as the `var`s a bundle makes of them, they are module variables that V8's optimizing compiler
  // loads and checks at every use, also in the tokenizer's per-character loops: 11% more instructions for
  // sanitize() on the corpus pages under callgrind (10,191M against 9,063M, 14 rounds). esbuild does so only for the
  // constants that open a module with no imports; the sources keep theirs in such modules (char-codes.ts, states.ts,
  // serializer-constants.ts, stack-records.ts...), or at the top of one (dom.ts).
  const bundled = { ...shared, minifySyntax: true } as const;

  // ESM: each module transpiled on its own (not bundled: a bundle's top-level `const`s become `var`s, which an
  // application's bundler can no longer write in place as numbers, as it does the sources' constants), the
  // repository's layout kept (policies import ../src/…).
  await esbuild({
    ...shared,
    entryPoints: [...sourceModules('src'), ...sourceModules('policies')],
    outdir: outDir,
    outbase: root,
    bundle: false,
    format: 'esm',
    platform: 'neutral',
    absWorkingDir: root,
  });
  // ESM for Node (see above): entry points and chunks, in `dist/node/`.
  await esbuild({
    ...bundled,
    entryPoints: Object.entries(NODE_ENTRY_POINTS).map(([out, source]) => ({ in: join(root, source), out })),
    outdir: join(outDir, 'node'),
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    absWorkingDir: root,
  });
  if (options.esmOnly === true) return;

  // CJS for Node (see above): the entry points as the namespaces of one bundle, and a file per entry point.
  await esbuild({
    ...bundled,
    stdin: {
      contents: Object.entries(NODE_ENTRY_POINTS)
        .map(([name, source]) => `export * as ${name} from './${source}';\n`)
        .join(''),
      resolveDir: root,
      sourcefile: 'node-entries.ts',
      loader: 'ts',
    },
    outfile: join(outDir, 'node', 'entries.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    absWorkingDir: root,
  });
  for (const [file, name] of Object.entries(NODE_CJS_FILES)) {
    writeFileSync(
      join(outDir, file),
      `'use strict';\n// The ${name === 'index' ? 'main' : name} entry point for Node: its part of ./node/entries.cjs, which holds all three (one copy of the code).\n` +
        `const entry = require('./node/entries.cjs').${name};\n` +
        `if (entry.__esModule !== true) Object.defineProperty(entry, '__esModule', { value: true });\n` +
        `module.exports = entry;\n`,
    );
  }

  // CJS elsewhere (one file per entry point) and the CLI, through tsup, with the same renaming.
  const { build: tsup } = await import('tsup');
  const esbuildOptions = (o: { mangleProps?: RegExp; mangleCache?: Record<string, string | false>; minifySyntax?: boolean }): void => {
    o.mangleProps = mangleProps;
    o.mangleCache = { ...mangleCache };
    o.minifySyntax = true;
  };
  const absolute = (entries: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(entries).map(([name, source]) => [name, join(root, source)]));
  await tsup({
    entry: absolute({ index: ENTRY_POINTS.index, policies: ENTRY_POINTS.policies, browser: ENTRY_POINTS.browser }),
    outDir,
    format: ['cjs'],
    // (tsup picks extensions from the package.json of the working directory: say them.)
    outExtension: () => ({ js: '.cjs' }),
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'es2022',
    platform: 'neutral',
    silent: true,
    config: false,
    esbuildOptions,
  });
  await tsup({
    entry: absolute({ 'cli/htmlsift': 'src/cli/htmlsift.ts' }),
    outDir,
    format: ['esm'],
    outExtension: () => ({ js: '.js' }),
    sourcemap: true,
    clean: false,
    target: 'es2022',
    platform: 'node',
    silent: true,
    config: false,
    esbuildOptions,
  });

  if (declarations) {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir],
      { cwd: root, stdio: 'inherit' },
    );
    // The CJS files' declarations are the ESM modules' (TypeScript lets a CommonJS declaration file re-export
    // them). tsup's bundled declarations turned `export * as css` into a namespace of values that are types.
    for (const [name, source] of Object.entries(ENTRY_POINTS)) {
      writeFileSync(join(outDir, name + '.d.cts'), `export * from './${source.replace(/\.ts$/, '.js')}';\n`);
    }
  }
}

/**
 * The package as an application installs it: `<consumer>/node_modules/htmlsift` holding package.json and the build.
 * `consumer` must be outside the repository, where `htmlsift` would name the repository itself (a package can import
 * itself by its name). Returns the package's directory.
 */
export async function installPackage(consumer: string, options: Omit<BuildPackageOptions, 'outDir'> = {}): Promise<string> {
  const pkg = join(consumer, 'node_modules', 'htmlsift');
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
  await buildPackage({ ...options, outDir: join(pkg, 'dist') });
  return pkg;
}

// Run as a script (not when imported, nor when bundled into a benchmark, whose own path import.meta.url then is).
if (/(^|[\\/])scripts[\\/]build\.ts$/.test(process.argv[1] ?? '')) {
  const t0 = Date.now();
  await buildPackage();
  console.log(`dist/ built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
