import { defineConfig } from '@playwright/test';
import base from '../../../playwright.config';

/**
 * The browser tests that complete one task of each example, run against an app installed from the packed packages
 * (packed-app.test.ts) instead of this repository's: the same specs and fixtures, with the server started by
 * `npm start` in that app's folder (PACKED_APP_DIR), on the port, SQLite file and settings the root config chose.
 */
const appDir = process.env.PACKED_APP_DIR;
if (!appDir) throw new Error('PACKED_APP_DIR names the installed app to test');
// The root config's server of this repository's app (its `app` project): the installed app takes its place.
const appServer = Array.isArray(base.webServer) ? base.webServer.at(-1) : base.webServer;
const appProject = base.projects?.find((project) => project.name === 'app');
if (!appServer || !appProject) throw new Error("playwright.config.ts has no server and project for this repository's app");

export default defineConfig({
  ...base,
  // The id of a copy of the availability example that its spec launches in its place (workflow-folder-copy.test.ts).
  metadata: { ...base.metadata, availabilityWorkflow: process.env.PACKED_WORKFLOW_ID },
  testDir: '../e2e',
  // Its report is packed-app.test.ts's, not the browser stage's playwright.json.
  reporter: [['list']],
  outputDir: process.env.PACKED_OUTPUT_DIR ?? 'test-results',
  // The same steps as in the browser stage, on a machine that may be busy with the app's build and install: the time
  // limits are for a step that never ends, not for a slow one. One retry absorbs a slow moment, reported as flaky.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  retries: 1,
  // One project, the app's browser and address, over both folders of specs: the engine's task completion runs the
  // safety training the app has as an example too.
  projects: [{ ...appProject, name: 'packed', testDir: '../e2e' }],
  webServer: { ...appServer, command: 'npm start', cwd: appDir, timeout: 240_000 },
});
