import { collectDefaultMetrics, Registry } from 'prom-client';
import { buildApp } from '@partner-task-kit/server/app';
import { systemClock } from '@partner-task-kit/server/clock';
import { loadConfigOrExit } from '@partner-task-kit/server/config';
import { createLogger } from '@partner-task-kit/server/logger';
import { openStore } from '@partner-task-kit/server/store/store';
import { benchFileRuleOf } from './upload-field';
import { testWorkflows } from '../helpers/test-workflows';

/**
 * The server of the upload benchmark, in a process of its own so its RSS is the server's alone: the app `main.ts`
 * serves (`buildApp`, configured from the environment, its uploads kept beside the SQLite file as by default), with
 * the benchmark's file field as its only one (packages/kit-tests/bench/upload-field.ts). A function cannot cross into a child process,
 * so this entry builds the app itself rather than through `startServer`; the relay and jobs it leaves out take no part
 * in an upload.
 */
const config = loadConfigOrExit();
const metrics = new Registry();
collectDefaultMetrics({ register: metrics });
const store = await openStore(config.database, { sqliteSynchronous: config.sqliteSynchronous });
const app = await buildApp({
  workflows: testWorkflows,
  config,
  clock: systemClock,
  store,
  metrics,
  log: createLogger(config.logLevel),
  onUpdateEnqueued: () => undefined,
  taskOptions: { uploads: { fileRuleOf: benchFileRuleOf } },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.send?.({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
