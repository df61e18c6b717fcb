import { defineConfig } from 'vitest/config';

// Browser tests drive Debian's Chromium through playwright-core (see test/browser/).
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
