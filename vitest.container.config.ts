import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:container`, a stage of `npm test` of its own (docs/development.md#checks): building the image takes
// minutes and both CPUs, which would slow the other tests and make their timings flaky if it ran beside them.
const reportDir = process.env.TEST_REPORT_DIR;

export default defineConfig({
  // The engine's packages resolve to their sources (tsconfig.base.json's paths), as in vite.config.ts.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['packages/kit-tests/container/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20 * 60_000,
    hookTimeout: 60_000,
    setupFiles: ['packages/kit-tests/setup/fail-on-console-error.ts'],
    // verbose: the test's notes (the image's size, how long it took to stop) are printed beside it.
    reporters: reportDir ? ['verbose', 'json'] : ['verbose'],
    outputFile: reportDir ? { json: join(reportDir, 'vitest-container.json') } : undefined,
  },
});
