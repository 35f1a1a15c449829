import { systemClock } from '../clock.ts';
import { EMULATOR_MODE_CREDENTIAL, loadConfigOrExit, readEnvironment, type ApiCredential, type Config } from '../config.ts';
import { DevToolsMissing, EMULATOR_MODE, loadDevTools } from '../dev-tools/dev-tools.ts';
import { createWorkforceClient } from '../upstream/workforce-client.ts';
import { heldForPermission } from '../store/outbox-status.repository.ts';
import { openStore } from '../store/store.ts';
import { openCompanyCredentials } from '../tenants/company-credentials.ts';
import { inspectDatabase } from '../store/database-inspection.ts';
import {
  checkDatabase,
  checkHeldUpdates,
  checkToken,
  checkUpdatePermission,
  checkWorkers,
  describeTarget,
  formatReport,
  type CheckResult,
} from './doctor-checks.ts';
import { checkUploadStore } from './doctor-upload-store.ts';
import { checkKitVersionsForDoctor } from './doctor-kit-versions.ts';
import type { CheckedKitApp } from '../kit-app.ts';

/**
 * `npm run doctor`: checks the kit's installed versions, the configuration, the database (reachable, migrations current, writable) and the upload store, obtains a token, lists workers, and says what to do about each failure;
 * in tenant mode it does so for every tenant's credential and names the failing ones. In emulator mode it starts a
 * private emulator, so it passes without the server running.
 */
export async function doctorCommand(_argv: string[], kit: CheckedKitApp): Promise<number> {
  let config = loadConfigOrExit();
  const emulator = config.emulatorMode ? await privateEmulator() : undefined;
  if (emulator === null) return 1;
  if (emulator) config = pointAt(config, emulator.url);
  try {
    process.stdout.write(`${describeTarget(config)}\n`);
    const database = checkDatabase(await inspectDatabase(config.database, systemClock.now(), kit.migrations), config.database);
    const results: CheckResult[] = [
      checkKitVersionsForDoctor(process.cwd(), readEnvironment()),
      ...database,
      await checkUploadStore(config.uploads.store),
    ];
    const databaseUsable = database.every((result) => result.ok);
    for (const { label, credential } of await credentialsToCheck(config, results)) {
      const client = createWorkforceClient({ upstream: { ...config.upstream, credential }, clock: systemClock });
      const named = (result: CheckResult): CheckResult => (label ? { ...result, name: `${label}: ${result.name}` } : result);
      const token = await checkToken(client);
      results.push(named(token));
      if (token.ok) results.push(named(await checkWorkers(client)), named(await checkUpdatePermission(client, systemClock.now())));
      client.close();
    }
    if (!config.emulatorMode && databaseUsable) results.push(await checkHeld(config));
    process.stdout.write(`${formatReport(results)}\n`);
    return results.every((result) => result.ok) ? 0 : 1;
  } finally {
    await emulator?.close();
  }
}

/** Emulator mode's emulator, on a port of its own; null, said why, when the dev tools are not installed. */
async function privateEmulator(): Promise<{ url: string; close(): Promise<void> } | null> {
  try {
    const devTools = await loadDevTools(EMULATOR_MODE);
    return await devTools.startEmulator({ port: 0, credentials: [{ ...EMULATOR_MODE_CREDENTIAL }] });
  } catch (error) {
    if (!(error instanceof DevToolsMissing)) throw error;
    process.stderr.write(`${error.message}\n`);
    return null;
  }
}

/** The single credential, or each tenant's (labelled by company and key, never the Secret). */
async function credentialsToCheck(config: Config, results: CheckResult[]): Promise<Array<{ label: string; credential: ApiCredential }>> {
  if (config.tenancy.mode === 'single') return [{ label: '', credential: config.tenancy.credential }];
  try {
    const store = await openStore(config.database);
    try {
      const credentials = await openCompanyCredentials(config.tenancy, store);
      const tenants = credentials.tenants();
      if (tenants.length === 0) {
        results.push({
          name: 'tenants',
          ok: false,
          summary: 'no tenant yet: every session is refused (unknown_company)',
          nextStep: 'Add each client company with `npm run tenants -- add --company <uuid> --key <key>` (the Secret on standard input).',
        });
      }
      return tenants.map((tenant) => ({ label: `company ${tenant.tenant} (key ${tenant.credential.key})`, credential: tenant.credential }));
    } finally {
      await store.close();
    }
  } catch (error) {
    results.push({
      name: 'tenants',
      ok: false,
      summary: error instanceof Error ? error.message : String(error),
      nextStep: 'Start with the CREDENTIALS_KEY the tenants were added with, and check DATABASE_URL.',
    });
    return [];
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
