import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from '../../../playwright.config';

/**
 * The engine's browser tests alone, on the fixture app's server alone: for a checkout whose app cannot be built, such
 * as one with every example workflow deleted (packages/kit-tests/without-examples.sh). Playwright starts every server of
 * a config whichever projects run, so the root config's would build this repository's app too.
 */
const engineServer = Array.isArray(base.webServer) ? base.webServer[0] : base.webServer;
const engineProject = base.projects?.find((project) => project.name === 'engine');
if (!engineServer || !engineProject) throw new Error('playwright.config.ts has no server and project for the engine');

export default defineConfig({
  ...base,
  testDir: '.',
  projects: [{ ...engineProject, testDir: 'engine' }],
  // A server's command runs in its config's folder unless told otherwise: the root config's is the repository's root.
  webServer: { ...engineServer, cwd: join(import.meta.dirname, '../../..') },
});
