import type { Assignment } from './api/assignment-schema.ts';
import { colorClass, reviewText, statusText } from './status-text.ts';
import { TimeStamp } from './time-stamp.tsx';

/** docs/platform.md#partner-task-update-record: "the latest update and the task metadata appear prominently at the top of the worker task information panel". */
export function LatestUpdate({ assignment }: { assignment: Assignment }) {
  const latest = assignment.latest?.record;
  return (
    <div className="pv-latest">
      <dl className="pv-facts">
        <div>
          <dt>Status</dt>
          <dd>
            <strong className={`pv-status pv-status-${assignment.status}`} data-testid="task-status">
              {statusText(assignment.status)}
            </strong>
          </dd>
        </div>
        <div>
          <dt>Review</dt>
          <dd data-testid="review-state">{reviewText(assignment.review)}</dd>
        </div>
      </dl>
      {latest ? (
        <section aria-labelledby="latest-title" className="pv-latest-update">
          <h3 id="latest-title">Latest update</h3>
          {latest.partnerStatus?.label !== undefined && (
            <p>
              <span className={colorClass(latest.partnerStatus.color)} data-testid="latest-label">
                {latest.partnerStatus.label}
              </span>
            </p>
          )}
          {latest.partnerStatus?.details !== undefined && <p>{latest.partnerStatus.details}</p>}
          <p className="pv-muted">
            Sent <TimeStamp iso={latest.sentAt} /> · {statusText(latest.taskStatus)}
            {latest.partnerUrl !== undefined && (
              <>
                {' · '}
                <a href={latest.partnerUrl} target="_blank" rel="noopener noreferrer">
                  More information<span className="pv-visually-hidden"> (partner page, opens in a new tab)</span>
                </a>
              </>
            )}
          </p>
        </section>
      ) : (
        <p className="pv-muted">No update from the partner yet.</p>
      )}
    </div>
  );
}
