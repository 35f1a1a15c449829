import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests in real Chromium against the real server in emulator mode, on a free port with a fresh SQLite file.
 * The port and database are chosen once in the runner process and inherited by the workers through the environment.
 */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_ENGINE_PORT ??= String(await freePort());
process.env.E2E_DATABASE ??= join(mkdtempSync(join(tmpdir(), 'ptk-e2e-')), 'e2e.db');
process.env.E2E_ENGINE_DATABASE ??= join(mkdtempSync(join(tmpdir(), 'ptk-e2e-engine-')), 'e2e.db');
const port = Number(process.env.E2E_PORT);
const database = process.env.E2E_DATABASE;
const engineDatabase = process.env.E2E_ENGINE_DATABASE;
const enginePort = Number(process.env.E2E_ENGINE_PORT);
const reportDir = process.env.TEST_REPORT_DIR;
/** `npm run docs:screenshots` writes the README's screenshots into docs/; a plain test run keeps them in test-results/. */
const updateDocsScreenshots = process.env.UPDATE_DOCS_SCREENSHOTS === '1';

/**
 * Playwright cannot download its browser here: use the system Chromium when present. The portal of the tests
 * (http://portal.test, answered by page.route) counts as a public site to Chromium, which blocks a public page from
 * framing a loopback one (Local Network Access). In production both are public, so the check is turned off here only.
 */
const systemChromium = '/usr/bin/chromium';
const localNetworkAccess = '--disable-features=LocalNetworkAccessChecks';
const launchOptions = existsSync(systemChromium)
  ? {
      executablePath: systemChromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        localNetworkAccess,
      ],
    }
  : { args: [localNetworkAccess] };

/** The server's environment in both apps: emulator mode, the tests' portal origin, short retries. */
function serverEnv(serverPort: number, database: string): Record<string, string> {
  return {
    PORT: String(serverPort),
    HOST: '127.0.0.1',
    DATABASE_URL: database,
    PORTAL_ORIGINS: 'http://portal.test',
    SESSION_SECRET: 'e2e-session-secret-0f3a9c7d51b24e68a1c0',
    PARTNER_URL_TEMPLATE: 'https://partner.example.com/tasks/{assignedTaskUuid}',
    LOG_LEVEL: 'warn',
    // The preview's outage test watches retries: a short backoff keeps them to seconds (README: retries).
    DELIVERY_RETRY_BASE_MS: '200',
    DELIVERY_RETRY_MAX_MS: '2000',
  };
}

/**
 * Two apps, two projects. `engine`: the engine's behaviour in the browser (resume, errors, completion, the preview's
 * own parts) on a fixture app of its own (packages/kit-tests/fixtures/app), so it holds whatever this repository's app
 * does with its examples. `app`: this repository's app, its example workflows through the preview.
 */
export default defineConfig({
  testDir: 'packages/kit-tests/e2e',
  fullyParallel: true,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  metadata: { updateDocsScreenshots },
  reporter: reportDir ? [['list'], ['json', { outputFile: join(reportDir, 'playwright.json') }]] : [['list']],
  use: {
    locale: 'en-US',
    trace: 'retain-on-failure',
    launchOptions,
  },
  projects: [
    {
      name: 'engine',
      testDir: 'packages/kit-tests/e2e/engine',
      use: { ...devices['Desktop Chrome'], launchOptions, baseURL: `http://127.0.0.1:${enginePort}` },
    },
    {
      name: 'app',
      testDir: 'packages/kit-tests/e2e/app',
      use: { ...devices['Desktop Chrome'], launchOptions, baseURL: `http://127.0.0.1:${port}` },
    },
  ],
  webServer: [
    {
      // The fixture app, built as an app builds its page and served through its own entry (runKit).
      command:
        'vite build --config packages/kit-tests/fixtures/app/vite.config.ts --logLevel warn && ' +
        'node --import tsx packages/kit-tests/fixtures/app/server.ts',
      url: `http://127.0.0.1:${enginePort}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: serverEnv(enginePort, engineDatabase),
    },
    {
      // The production artifact of this repository's app (npm start): the page and the bundled server.
      command: 'npm run build && npm run serve',
      // Readiness, not liveness: the listener answers /healthz before the app serves (docs/operations.md#start-and-stop).
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: serverEnv(port, database),
    },
  ],
});
