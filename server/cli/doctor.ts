import { systemClock } from '../clock';
import { loadConfigOrExit, type Config } from '../config';
import { startEmulator } from '../emulator/start-emulator';
import { createWorkforceClient } from '../upstream/workforce-client';
import { checkToken, checkWorkers, describeTarget, formatReport, type CheckResult } from './doctor-checks';

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
    if (token.ok) results.push(await checkWorkers(client));
    client.close();
    process.stdout.write(`${formatReport(results)}\n`);
    return results.every((result) => result.ok) ? 0 : 1;
  } finally {
    await emulator?.close();
  }
}

function pointAt(config: Config, url: string): Config {
  return { ...config, upstream: { ...config.upstream, authUrl: url, baseUrl: url, taskBaseUrl: url } };
}

process.exitCode = await main();
