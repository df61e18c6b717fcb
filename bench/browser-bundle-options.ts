/**
 * How htmlsift's browser bundles are built for measuring (`bench/bundle-size.ts`) and for checking what they
 * contain (`test/bundle.test.ts`): esbuild bundling, minifying and tree shaking for a browser, ESM, ES2022, as an
 * application's bundler would. Both build with these options, so the test checks the bundle the benchmark measures.
 */
import type { BuildOptions } from 'esbuild';

export const BROWSER_BUNDLE_OPTIONS = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  treeShaking: true,
  write: false,
  metafile: true,
  logLevel: 'silent',
} as const satisfies BuildOptions;
