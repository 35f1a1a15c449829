import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
// By its source, not the package's name, which resolves to its dist/: a test runs without `npm run build:packages`.
import { serverWorkflowsModule } from './packages/vite-plugin/src/workflows-plugin.ts';

// .ci/run sets TEST_REPORT_DIR so the CI can sum every test that ran into one line.
const reportDir = process.env.TEST_REPORT_DIR;

export default defineConfig({
  // The engine's packages resolve to their sources (tsconfig.base.json's paths), as in vite.config.ts.
  resolve: { tsconfigPaths: true },
  // `virtual:partner-task-kit/workflows`, the app's workflows as its server receives them, for the tests that check them.
  plugins: [serverWorkflowsModule()],
  test: {
    include: [
      'packages/kit-tests/unit/**/*.test.ts',
      'packages/kit-tests/integration/**/*.test.ts',
      'packages/kit-tests/app-checks/**/*.test.ts',
      'tests/app/**/*.test.ts',
    ],
    environment: 'node',
    // The AWS SDK's own switch for its notice that its releases after January 2027 need Node 22: every test process
    // that makes an S3 client would print it, and it says nothing of the code under test.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Tests build their own apps, emulators and databases; files run in parallel processes.
    pool: 'forks',
    setupFiles: ['packages/kit-tests/setup/fail-on-console-error.ts'],
    reporters: reportDir ? ['default', 'json'] : ['default'],
    outputFile: reportDir ? { json: join(reportDir, 'vitest.json') } : undefined,
  },
});
