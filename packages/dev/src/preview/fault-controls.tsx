import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { faultsQueryOptions, useClearFaults, useInjectFault, type Fault } from './api/faults.ts';
import { Button } from '@partner-task-kit/page/screens';
import { Notice } from '@partner-task-kit/page/screens';

/**
 * Emulator faults on the partner-task endpoint (docs/platform.md#the-update-endpoint) for this task's updates only, so a developer can watch the
 * relay retry: an outage (N answers 503), a 429 with Retry-After, and an expired token (a 401 the relay answers by
 * renewing the token, docs/platform.md#token). Updates of other tasks are not affected.
 */
export function FaultControls({ controlPath, assignedTaskUuid }: { controlPath: string; assignedTaskUuid: string }) {
  const [count, setCount] = useState(5);
  const countId = useId();
  const faults = useQuery(faultsQueryOptions(controlPath));
  const inject = useInjectFault(controlPath);
  const clear = useClearFaults(controlPath, assignedTaskUuid);
  const active = (faults.data ?? []).filter((fault) => fault.assignedTaskUuid === assignedTaskUuid);
  const target = { endpoint: 'partnerTask', assignedTaskUuid } as const;
  return (
    <section aria-labelledby="faults-title" className="pv-faults">
      <h3 id="faults-title">Inject platform faults</h3>
      <p className="pv-muted pv-small">They hit this task’s next updates only; watch the deliveries above retry.</p>
      <div className="pv-inline-field">
        <label htmlFor={countId}>Outage length (failed calls)</label>
        <input
          id={countId}
          type="number"
          min={1}
          max={1000}
          value={count}
          onChange={(event) => setCount(Math.max(1, Math.min(1000, Number(event.target.value) || 1)))}
        />
      </div>
      <div className="pv-actions">
        <Button variant="secondary" onClick={() => inject.mutate({ ...target, kind: 'status', status: 503, count })}>
          Start outage (503 × {count})
        </Button>
        <Button variant="secondary" onClick={() => inject.mutate({ ...target, kind: 'rateLimit', count: 1, retryAfterSeconds: 2 })}>
          Rate limit (429)
        </Button>
        <Button variant="secondary" onClick={() => inject.mutate({ ...target, kind: 'expireToken', count: 1 })}>
          Expire the token
        </Button>
        {active.length > 0 && (
          <Button variant="secondary" busy={clear.isPending} busyText="Clearing…" onClick={() => clear.mutate()}>
            End the faults
          </Button>
        )}
      </div>
      <p className="pv-muted pv-small" role="status" data-testid="active-faults">
        {active.length === 0 ? 'No fault waiting.' : `Waiting: ${active.map(faultText).join(', ')}.`}
      </p>
      <Notice tone="error">{inject.isError ? inject.error.message : clear.isError ? clear.error.message : undefined}</Notice>
    </section>
  );
}

function faultText(fault: Fault): string {
  const what =
    fault.kind === 'status'
      ? `${fault.status ?? 503}`
      : fault.kind === 'rateLimit'
        ? '429'
        : fault.kind === 'expireToken'
          ? 'expired token'
          : fault.kind;
  return `${what} × ${fault.remaining}`;
}
