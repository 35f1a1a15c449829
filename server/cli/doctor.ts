import { systemClock } from '../clock';
import { loadConfigOrExit, type Config } from '../config';
import { startEmulator } from '../emulator/start-emulator';
import { createWorkforceClient } from '../upstream/workforce-client';
import { heldForPermission } from '../store/outbox.repository';
import { openStore } from '../store/store';
import {
  checkHeldUpdates,
  checkToken,
  checkUpdatePermission,
  checkWorkers,
  describeTarget,
  formatReport,
  type CheckResult,
} from './doctor-checks';

/**
 * `npm run doctor`: checks the configuration, obtains a token, lists workers, and says what to do about each failure.
 * In emulator mode it starts a private emulator, so it passes without the server running.
 */
async function main(): Promise<number> {
  let config = loadConfigOrExit();
  const emulator = config.emulatorMode ? await startEmulator({ port: 0 }) : undefined;
  if (emulator) config = pointAt(config, emulator.url);
  try {
    const client = createWorkforceClient({ upstream: config.upstream, clock: systemClock });
    process.stdout.write(`${describeTarget(config)}\n`);
    const results: CheckResult[] = [];
    const token = await checkToken(client);
    results.push(token);
    if (token.ok) results.push(await checkWorkers(client), await checkUpdatePermission(client, systemClock.now()));
    client.close();
    if (!config.emulatorMode) results.push(await checkHeld(config));
    process.stdout.write(`${formatReport(results)}\n`);
    return results.every((result) => result.ok) ? 0 : 1;
  } finally {
    await emulator?.close();
  }
}

/** The server's own record of 403s, from its database (skipped with the reason when the database is not reachable). */
async function checkHeld(config: Config): Promise<CheckResult> {
  try {
    const store = await openStore(config.database);
    try {
      return checkHeldUpdates(await heldForPermission(store.db, systemClock.now()));
    } finally {
      await store.close();
    }
  } catch (error) {
    return {
      name: 'held updates',
      ok: false,
      summary: `could not read the outbox: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function pointAt(config: Config, url: string): Config {
  return { ...config, upstream: { ...config.upstream, authUrl: url, baseUrl: url, taskBaseUrl: url } };
}

process.exitCode = await main();
