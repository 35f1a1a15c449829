import type { UpstreamFailure } from '../upstream/upstream-outcome';

/** The failure as the logs and metrics name it: the reason of a retryable one, else its kind. */
export function failureName(failure: UpstreamFailure): string {
  return failure.kind === 'retryable' ? failure.reason : failure.kind;
}

/** One `error` line when a tenant's circuit opens, in the words an operator acts on. */
export function reportOpened(
  log: { error(object: object, message: string): void },
  tenant: string,
  cause: UpstreamFailure,
  probeMaxMs: number,
): void {
  if (cause.kind === 'forbidden') {
    // docs/platform.md#permissions: updates need worker-experience permissions, whose names the spec does not show.
    log.error(
      { tenant, failure: cause.kind, status: cause.status, detail: cause.detail },
      "delivery held: the platform answers 403 Forbidden to partner-task updates, so the integration's role most likely lacks the permission to update partner tasks (spec 4.3, 5.6); give the role that permission in the platform's client settings: the held updates then go by themselves",
    );
    return;
  }
  log.error(
    { tenant, failure: failureName(cause), detail: cause.detail, probeEveryMaxMs: probeMaxMs },
    'delivery paused: the platform keeps failing; sending one update at a time as a probe until one gets through',
  );
}
