import type { Assignment, TrailEntry } from './api/assignment-schema.ts';
import { colorClass, statusText } from './status-text.ts';
import { TimeStamp } from './time-stamp.tsx';

const actionText: Record<string, string> = {
  approve: 'Admin approved the task',
  reject: 'Admin rejected the task',
  reset: 'Admin reset the task',
  complete: 'Worker pressed the portal’s “Task Completed” button',
  start: 'Worker started the task in the portal',
};

/**
 * docs/platform.md#partner-task-update-record: "earlier partner updates appear in an audit trail section"; docs/platform.md#statuses-and-transitions / 4.3 rule 4: an update older than one
 * already applied is ignored, and the trail marks it so (the emulator also marks an exact replay as a duplicate).
 */
export function AuditTrail({ assignment }: { assignment: Assignment }) {
  const entries = [...assignment.trail].reverse();
  return (
    <section aria-labelledby="trail-title">
      <h3 id="trail-title">Audit trail</h3>
      {entries.length === 0 ? (
        <p className="pv-muted">Nothing yet.</p>
      ) : (
        <ol className="pv-trail" aria-label="Audit trail, newest first" data-testid="audit-trail">
          {entries.map((entry, index) => (
            <li key={`${entry.at}-${index}`} className={entry.kind === 'partner' && entry.outcome !== 'applied' ? 'pv-ignored' : undefined}>
              <TrailLine entry={entry} />
            </li>
          ))}
        </ol>
      )}
      {assignment.trailDropped > 0 && <p className="pv-muted">{assignment.trailDropped} older entries are no longer kept.</p>}
    </section>
  );
}

function TrailLine({ entry }: { entry: TrailEntry }) {
  if (entry.kind !== 'partner') {
    return (
      <>
        <TimeStamp iso={entry.at} /> {actionText[entry.action] ?? entry.action}
      </>
    );
  }
  const { record, outcome } = entry;
  const status = statusText(record.taskStatus);
  const label = record.partnerStatus?.label;
  // The label of a completed update is "Completed": it would read "Completed ● Completed". Said once, as the label,
  // inside the <strong> that an ignored update strikes through.
  const labelSaysStatus = label !== undefined && label.trim().toLowerCase() === status.toLowerCase();
  const labelled = label !== undefined && <span className={colorClass(record.partnerStatus?.color)}>{label}</span>;
  return (
    <>
      <TimeStamp iso={entry.at} />{' '}
      {labelSaysStatus ? (
        <strong>{labelled}</strong>
      ) : (
        <>
          <strong>{status}</strong> {labelled}
        </>
      )}
      {outcome !== 'applied' && <span className="pv-tag pv-tag-ignored"> ignored: {outcome}</span>}
      <span className="pv-muted pv-small pv-block">sentAt {record.sentAt}</span>
    </>
  );
}
