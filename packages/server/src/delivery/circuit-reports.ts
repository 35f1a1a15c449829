import type { OutboxLane } from '../store/outbox.table.ts';
import { metricsLabelOf } from '../tenants/company-credentials.ts';
import type { UpstreamFailure } from '../upstream/upstream-outcome.ts';

/** The failure as the logs and metrics name it: the reason of a retried one, else its kind. */
export function failureName(failure: UpstreamFailure): string {
  return failure.kind === 'retryable' ? failure.reason : failure.kind;
}

/**
 * A tenant as a relay's lines name it: the label of its series in /metrics (docs/operations.md#metrics), `default`
 * or `company-` and a hash, never a company UUID (enough to open sessions for that company's tasks).
 */
export const tenantLabelOf = metricsLabelOf;

/** Who each lane delivers to, and what. */
const RECEIVERS: Record<OutboxLane, { receiver: string; rows: string; row: string }> = {
  platform: { receiver: 'the platform', rows: 'updates', row: 'update' },
  partner: { receiver: "the partner's endpoint", rows: 'events', row: 'event' },
};

interface ErrorLog {
  error(object: object, message: string): void;
}

/** One `error` line when a tenant's circuit opens, in the words an operator acts on. */
export function reportOpened(log: ErrorLog, lane: OutboxLane, tenant: string, cause: UpstreamFailure, probeMaxMs: number): void {
  const label = tenantLabelOf(tenant);
  if (cause.kind === 'forbidden') {
    // docs/platform.md#permissions: updates need worker-experience permissions, whose names the spec does not show.
    log.error(
      { tenant: label, failure: cause.kind, status: cause.status, detail: cause.detail },
      "delivery held: the platform answers 403 Forbidden to partner-task updates, so the integration's role most likely lacks the permission to update partner tasks (spec 4.3, 5.6); give the role that permission in the platform's client settings: the held updates then go by themselves",
    );
    return;
  }
  const { receiver, row } = RECEIVERS[lane];
  log.error(
    { tenant: label, failure: failureName(cause), detail: cause.detail, probeEveryMaxMs: probeMaxMs },
    `delivery paused: ${receiver} keeps failing; sending one ${row} at a time as a probe until one gets through`,
  );
}

/** One `info` line when a tenant's circuit closes again. */
export function reportResumed(
  log: { info(object: object, message: string): void },
  lane: OutboxLane,
  tenant: string,
  resumed: { broughtForward: number; pausedForMs: number; cause: UpstreamFailure },
): void {
  const { receiver, rows } = RECEIVERS[lane];
  log.info(
    {
      tenant: tenantLabelOf(tenant),
      [rows]: resumed.broughtForward,
      pausedForMs: resumed.pausedForMs,
      failure: failureName(resumed.cause),
    },
    `delivery resumed: ${receiver} answers again; sending the held ${rows} now`,
  );
}
