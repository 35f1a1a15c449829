import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:packed`, a stage of `npm test` of its own: the packages packed and installed into apps outside this
// repository, each built, tested and started (packages/kit-tests/packed/). It takes minutes and both CPUs, and its two
// apps run one after the other, so nothing else runs beside it.
const reportDir = process.env.TEST_REPORT_DIR;

export default defineConfig({
  // The tests' own imports of the kit's internals (packed-kit.ts) resolve to the sources, as in vitest.config.ts; the
  // apps they make install the packed packages and resolve them through their exports.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['packages/kit-tests/packed/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 20 * 60_000,
    hookTimeout: 10 * 60_000,
    setupFiles: ['packages/kit-tests/setup/fail-on-console-error.ts'],
    reporters: reportDir ? ['verbose', 'json'] : ['verbose'],
    outputFile: reportDir ? { json: join(reportDir, 'vitest-packed.json') } : undefined,
  },
});
