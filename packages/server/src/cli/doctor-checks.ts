import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { WorkforceClient } from '../upstream/workforce-client.ts';
import type { UpstreamFailure } from '../upstream/upstream-outcome.ts';
import { describeDatabaseFailure } from '../start-failure.ts';
import type { DatabaseInspection } from '../store/database-inspection.ts';
import type { MigrationState } from '../store/schema-migration.ts';

export interface CheckResult {
  name: string;
  ok: boolean;
  summary: string;
  /** What to do about a failure, in one sentence. */
  nextStep?: string;
}

/** The line the report starts with: what is being checked, so a failure below reads in context. */
export function describeTarget(config: Config): string {
  const mode = config.emulatorMode
    ? 'emulator mode (no WX_API_KEY): a private emulator'
    : config.tenancy.mode === 'tenants'
      ? "tenant mode (each company's credential)"
      : 'platform mode';
  return `Checking ${mode}: token ${config.upstream.authUrl}, workers ${config.upstream.baseUrl}, tasks ${config.upstream.taskBaseUrl}`;
}

export async function checkToken(client: WorkforceClient): Promise<CheckResult> {
  const started = performance.now();
  const token = await client.tokenCache.get();
  const ms = Math.round(performance.now() - started);
  if (token.ok) return { name: 'token (spec 4.1)', ok: true, summary: `obtained a bearer token in ${ms} ms` };
  return {
    name: 'token (spec 4.1)',
    ok: false,
    summary: token.failure.detail || token.failure.kind,
    nextStep: nextStepFor(token.failure, 'WX_AUTH_URL'),
  };
}

export async function checkWorkers(client: WorkforceClient): Promise<CheckResult> {
  const outcome = await client.listWorkers();
  if (outcome.kind === 'ok') {
    return { name: 'workers (spec 4.2)', ok: true, summary: `HTTP ${outcome.status}, ${describeBody(outcome.body)}` };
  }
  return { name: 'workers (spec 4.2)', ok: false, summary: outcome.detail || outcome.kind, nextStep: nextStepFor(outcome, 'WX_BASE_URL') };
}

/**
 * docs/platform.md#the-update-endpoint needs a permission the spec does not name (5.6), and only an update shows whether the role has it. The
 * update names a task id made up here, which no platform has assigned: a 403 says the permission is missing, any
 * other answer (a 404 for the unknown task, a 2xx) that the role may update partner tasks.
 */
export async function checkUpdatePermission(client: WorkforceClient, now: number): Promise<CheckResult> {
  const name = 'partner-task permission (spec 4.3)';
  const outcome = await client.updatePartnerTask(randomUUID(), {
    taskStatus: 'ready',
    sentAt: new Date(now).toISOString(),
    partnerStatus: { label: 'Connection check', details: 'npm run doctor: a task id that does not exist' },
  });
  if (outcome.kind === 'delivered') return { name, ok: true, summary: `HTTP ${outcome.status} for a task id that does not exist` };
  if (outcome.kind === 'permanent' || outcome.kind === 'unknown_task') {
    return {
      name,
      ok: true,
      summary: `the role may update partner tasks (HTTP ${outcome.status ?? '?'} for a task id that does not exist)`,
    };
  }
  return { name, ok: false, summary: outcome.detail || outcome.kind, nextStep: nextStepFor(outcome, 'WX_TASK_BASE_URL') };
}

/**
 * The database in three checks, each naming its problem: can it be opened (DATABASE_URL), is its schema the one this
 * code expects (migrations run when the server starts, docs/decisions/004-sqlite-by-default-postgres-for-scale.md), and does it take a write (the same write
 * as GET /readyz). The schema is checked for the engine's migrations, and apart for the app's when it has its own
 * (docs/operations.md#an-apps-own-migrations).
 */
export function checkDatabase(inspection: DatabaseInspection, database: Config['database']): CheckResult[] {
  const where = database.kind === 'sqlite' ? `SQLite file ${inspection.location}` : `Postgres at ${inspection.location}`;
  if (inspection.state === 'no-file') {
    return [
      inspection.folderWritable
        ? { name: 'database', ok: true, summary: `${where} does not exist yet: the server creates it when it first starts` }
        : {
            name: 'database',
            ok: false,
            summary: `${where} does not exist and its folder cannot be written, so the server could not create it`,
            nextStep: 'Give this user write access to the folder, or set DATABASE_URL to a file in a folder it can write.',
          },
    ];
  }
  if (inspection.state === 'unreachable') {
    return [
      {
        name: 'database reachable',
        ok: false,
        summary: describeDatabaseFailure(inspection.error, database, 0),
        nextStep: 'Correct DATABASE_URL or start the database, then run `npm run doctor` again.',
      },
    ];
  }
  const results: CheckResult[] = [{ name: 'database reachable', ok: true, summary: `${where} answers` }];
  for (const state of inspection.migrations) results.push(checkMigrations(state));
  const write = inspection.write;
  if (write === 'no-tables') {
    results.push({ name: 'database writable', ok: true, summary: 'not checked yet: the server creates its tables when it starts' });
  } else if (write.ok) {
    results.push({ name: 'database writable', ok: true, summary: 'a write succeeded (the readiness heartbeat)' });
  } else {
    results.push({
      name: 'database writable',
      ok: false,
      summary: `${write.reason}: ${write.detail}`,
      nextStep:
        write.reason === 'read-only'
          ? database.kind === 'sqlite'
            ? 'Give this user write access to the SQLite file and its folder (SQLite also writes -wal and -shm files beside it).'
            : 'Point DATABASE_URL at the primary, not a read-only replica, and give its user write rights on the schema.'
          : write.reason === 'disk full'
            ? 'Free space on the disk that holds the database.'
            : 'The database stopped answering during the check: look at its logs, then run `npm run doctor` again.',
    });
  }
  return results;
}

/** One side's migrations: the engine's ("database migrations", as before apps had their own) or the app's. */
function checkMigrations({ side, pending, unknown }: MigrationState): CheckResult {
  const words =
    side === 'engine'
      ? { name: 'database migrations', migration: 'migration', version: 'this version', owner: 'server' }
      : { name: 'app migrations', migration: 'app migration', version: 'this version of the app', owner: 'app' };
  const name = words.name;
  if (unknown.length > 0) {
    return {
      name,
      ok: false,
      summary: `the database has ${words.migration}s ${words.version} does not know (${unknown.join(', ')}): a newer version migrated it`,
      nextStep: `Run the newer version of the ${words.owner} against this database, or point DATABASE_URL at another one.`,
    };
  }
  if (pending.length > 0) {
    return { name, ok: true, summary: `${pending.length} pending (${pending.join(', ')}): the server applies them when it starts` };
  }
  return { name, ok: true, summary: `current: every ${words.migration} of ${words.version} is applied` };
}

/** Updates the relay holds because the platform answered 403: the server's side of the same problem. */
export function checkHeldUpdates(held: { forbidden: number; oldestAgeMs: number }): CheckResult {
  const name = 'held updates';
  if (held.forbidden === 0) return { name, ok: true, summary: 'no update is held by a 403 from the platform' };
  return {
    name,
    ok: false,
    summary: `${held.forbidden} update(s) held by a 403 from the platform, the oldest ${Math.round(held.oldestAgeMs / 60_000)} min old`,
    nextStep: nextStepFor({ kind: 'forbidden', status: 403, detail: '' }, 'WX_TASK_BASE_URL'),
  };
}

function nextStepFor(failure: UpstreamFailure, urlVariable: string): string {
  switch (failure.kind) {
    case 'auth_failed':
      return failure.reason === 'credentials_rejected'
        ? 'Check WX_API_KEY and WX_API_SECRET: the secret is shown only once at creation (spec 2.1); create a new key if in doubt.'
        : "The token endpoint answered in a shape we do not recognise; check WX_AUTH_URL points at the token endpoint's host.";
    case 'token_rejected':
      return "The token was refused: give the key's role the worker-experience permissions (spec 4.3, 5.6).";
    case 'unknown_task':
      return `The platform answered 404: check ${urlVariable} points at the platform's partner-task endpoint (spec 4.3).`;
    case 'forbidden':
      return "The platform answered 403: the integration's role most likely lacks the permission to update partner tasks; give it the worker-experience permissions in the client settings (spec 2.2, 4.3, 5.6). Held updates then go by themselves.";
    case 'retryable':
      return failure.reason === 'network' || failure.reason === 'timeout'
        ? `Could not reach the platform: check ${urlVariable} and the network (proxy, firewall, DNS).`
        : 'The platform is failing or limiting us right now; try again in a few minutes.';
    case 'permanent':
      return `The platform refused the request (HTTP ${failure.status ?? '?'}): check ${urlVariable} and the key's permissions.`;
  }
}

function describeBody(body: unknown): string {
  if (Array.isArray(body)) return `${body.length} workers`;
  if (typeof body === 'object' && body !== null) {
    const list = Object.values(body).find(Array.isArray);
    return list ? `${list.length} workers listed` : `an object with keys ${Object.keys(body).join(', ')}`;
  }
  return `a ${typeof body} body`;
}

export function formatReport(results: CheckResult[]): string {
  const lines = results.map((result) => {
    const head = `${result.ok ? 'ok  ' : 'FAIL'} ${result.name}: ${result.summary}`;
    return result.nextStep ? `${head}\n     next step: ${result.nextStep}` : head;
  });
  const failed = results.filter((result) => !result.ok).length;
  lines.push(failed === 0 ? 'All checks passed.' : `${failed} check(s) failed.`);
  return lines.join('\n');
}
