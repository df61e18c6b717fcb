import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      node: 'src/node.ts',
      policies: 'policies/index.ts',
      'policies.node': 'policies/node.ts',
      browser: 'src/browser/to-dom.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
  },
  {
    entry: { 'cli/htmlsift': 'src/cli/htmlsift.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
  },
]);
