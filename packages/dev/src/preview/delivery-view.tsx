import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createApiClient } from '@partner-task-kit/page/internal';
import { taskUpdatesQueryOptions } from '@partner-task-kit/page/internal';
import type { TaskContext } from '@partner-task-kit/workflow/contract';
import type { TaskUpdateView } from '@partner-task-kit/workflow/contract';
import { colorClass, statusText } from './status-text.ts';
import { TimeStamp } from './time-stamp.tsx';
import { untilText } from './time-text.ts';

/**
 * What our own server holds for this task: each update (docs/platform.md#partner-task-update-record) and its delivery state in the outbox. It reads
 * GET /api/task/updates with its own session, as the task page does; nothing here comes from the platform.
 */
export function DeliveryView({
  context,
  workflow,
  children,
}: {
  context: TaskContext;
  /**
   * The launch URL's workflow, sent with this view's own session as the task page sends it: whichever of the two
   * sessions arrives first creates the task, and it must run the workflow the link names either way.
   */
  workflow: string | undefined;
  children?: ReactNode;
}) {
  const [client] = useState(() => createApiClient({ context, workflow }));
  const updates = useQuery({
    ...taskUpdatesQueryOptions(client),
    // Faster while something waits, so a developer sees each retry as it happens.
    refetchInterval: (query) => (query.state.data?.updates.some((update) => update.delivery.state === 'pending') ? 1000 : 3000),
  });
  const list = updates.data?.updates ?? [];
  const count = (state: string) => list.filter((update) => update.delivery.state === state).length;
  return (
    <section className="pv-card" aria-labelledby="delivery-title">
      <h2 id="delivery-title">Delivery from our server</h2>
      {updates.isError && <p className="pv-error">Could not read the updates: {updates.error.message}</p>}
      {list.length === 0 ? (
        <p className="pv-muted">{updates.isPending ? 'Loading…' : 'No update yet: the task page sends “ready” when it opens.'}</p>
      ) : (
        <>
          <p data-testid="delivery-summary">
            {count('delivered')} delivered · {count('pending')} waiting · {count('dead')} dead letters
          </p>
          <ol className="pv-deliveries" aria-label="Updates, oldest first">
            {list.map((update, index) => (
              <li key={update.id} data-state={deliveryState(update)}>
                <DeliveryLine update={update} position={index + 1} now={updates.dataUpdatedAt} />
              </li>
            ))}
          </ol>
        </>
      )}
      {children}
    </section>
  );
}

function deliveryState(update: TaskUpdateView): 'delivered' | 'pending' | 'retrying' | 'dead' {
  const { state, attempts } = update.delivery;
  return state === 'pending' && attempts > 0 ? 'retrying' : state;
}

/**
 * `position`: the update's place in this task's list, from 1. Not its outbox id, which the task's events to the
 * partner's backend share, so a task's updates would read #2, #3, #5; the id shows where it is needed, in the command
 * that retries a dead letter. `now`: when the list was read, so "in 3 s" is relative to the data shown (render stays pure).
 */
function DeliveryLine({ update, position, now }: { update: TaskUpdateView; position: number; now: number }) {
  const { record, delivery } = update;
  const state = deliveryState(update);
  return (
    <>
      <span className="pv-delivery-head">
        <span className={`pv-tag pv-tag-${state}`}>{state === 'dead' ? 'dead letter' : state}</span>{' '}
        <strong>{statusText(record.taskStatus)}</strong>{' '}
        {record.partnerStatus?.label !== undefined && (
          <span className={colorClass(record.partnerStatus.color)}>{record.partnerStatus.label}</span>
        )}
      </span>
      <span className="pv-muted pv-small">
        <span>Update {position}</span> · sentAt <TimeStamp iso={record.sentAt} />
        {state === 'delivered' && delivery.deliveredAt !== null && (
          <>
            {' '}
            · delivered <TimeStamp iso={delivery.deliveredAt} />
            {delivery.attempts > 0 && ` after ${delivery.attempts} failed attempt${delivery.attempts === 1 ? '' : 's'}`}
          </>
        )}
        {state === 'retrying' && delivery.nextAttemptAt !== null && (
          <>
            {' '}
            · {delivery.attempts} failed · next attempt <TimeStamp iso={delivery.nextAttemptAt} /> ({untilText(delivery.nextAttemptAt, now)}
            )
          </>
        )}
      </span>
      {state === 'retrying' && delivery.lastError !== null && <span className="pv-small">Last error: {delivery.lastError}</span>}
      {state === 'dead' && (
        <span className="pv-small">
          Reason: {delivery.deadReason ?? 'not shown here'}. Put it back in line with <code>npm run outbox -- retry {update.id}</code>.
        </span>
      )}
    </>
  );
}
