import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import type { WorkforceClient } from '../upstream/workforce-client';
import type { UpstreamFailure } from '../upstream/upstream-outcome';

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
 * spec 4.3 needs a permission the spec does not name (5.6), and only an update shows whether the role has it. The
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
