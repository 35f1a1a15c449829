import { loadConfigOrExit } from '@partner-task-kit/server/config';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer } from '@partner-task-kit/server/server';
// Not from api-load.ts: that imports autocannon, which would then count in the server's RSS.
import { BARE_ROUTE } from './bare-route';
import { testWorkflows } from '../helpers/test-workflows';

/**
 * The server of the API and page benchmarks, in a process of its own so its RSS is the server's alone: `startServer`
 * as `main.ts` runs it, configured from the environment, plus one route production never has: `GET /bench/bare`, a
 * constant answered by the same Fastify instance, the floor the step endpoint is compared with.
 */
const config = loadConfigOrExit();
const server = await startServer(config, {
  workflows: testWorkflows,
  log: createLogger(config.logLevel),
  // A production build made for the page benchmark, so dist/ (used by the e2e tests) is left alone.
  ...(process.env.BENCH_PAGE_DIRECTORY ? { pageDirectory: process.env.BENCH_PAGE_DIRECTORY } : {}),
  extendApp: (app) => {
    app.get(BARE_ROUTE, async () => ({ ok: true }));
  },
});
process.send?.({ url: server.url });

process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
