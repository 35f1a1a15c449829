import { loadConfigOrExit } from './config.ts';
import type { FutureFlags } from './future-flags.ts';
import { createLogger, logDestination } from './logger.ts';
import { startServer } from './server.ts';
import type { CheckedKitApp } from './kit-app.ts';
import { describeStartFailure } from './start-failure.ts';
import { STOP_SIGNALS, stopOnSignals } from './stop-on-signals.ts';

/**
 * Runs the server: the only module that reads the environment at start and handles signals. `future` is the app's
 * flags as runKit resolved them.
 */
export async function serve(kit: CheckedKitApp, future: FutureFlags): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel, await logDestination(config.logFormat, process.stdout.isTTY === true));
  for (const warning of config.warnings) log.warn(warning);
  // A stop asked for while the server still waits for its database: nothing is in flight yet, so it just ends.
  const stopWhileStarting = (signal: NodeJS.Signals) => {
    log.info({ signal }, 'shutting down before the start completed');
    process.exit(0);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stopWhileStarting);
  const server = await startServer(config, {
    log,
    workflows: kit.workflows,
    future,
    ...(kit.extendApp ? { extendApp: kit.extendApp } : {}),
    ...(kit.pageDirectory === undefined ? {} : { pageDirectory: kit.pageDirectory }),
    ...(kit.migrations ? { store: { appMigrations: kit.migrations } } : {}),
  }).catch((error: unknown) => {
    // One line a person can act on (a port in use, a database that never came, a wrong CREDENTIALS_KEY), not a stack
    // trace; the error itself only at debug, for whoever asks with LOG_LEVEL=debug.
    log.debug({ err: error }, 'start failure in detail');
    log.fatal(`could not start: ${describeStartFailure(error, config)}`);
    process.exit(1);
  });
  const { url } = server;

  if (config.emulatorMode) {
    log.warn(
      { emulator: server.config.upstream.authUrl },
      'EMULATOR MODE: no WX_API_KEY is set, so updates go to the built-in emulator of the platform, not to the real one',
    );
  }
  // The address a newcomer opens first. localhost, not 127.0.0.1: the preview frames the task page from the other
  // name, so the two are different origins as in production.
  const preview = config.previewEnabled ? ` · preview portal: ${url.replace('127.0.0.1', 'localhost')}/preview` : '';
  log.info(`task page: ${url}/${preview}`);
  if (server.metricsUrl !== undefined) log.info(`metrics, for operators only: ${server.metricsUrl}/metrics`);

  for (const signal of STOP_SIGNALS) process.off(signal, stopWhileStarting);
  stopOnSignals(server, { graceMs: config.shutdownGraceMs, log, exit: (code) => process.exit(code) });
}
