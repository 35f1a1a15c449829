import type { Assignment } from './api/assignment-schema.ts';
import { useAssignmentAction } from './api/assignments.ts';
import { Button } from '@partner-task-kit/page/screens';
import { Notice } from '@partner-task-kit/page/screens';
import { TimeStamp } from './time-stamp.tsx';

/**
 * The back office's admin actions of docs/platform.md#statuses-and-transitions: approve and reject a completed task whose review is required, reset any
 * task in which the worker acted. Shown only when they apply; a refusal shows the emulator's reason.
 */
export function AdminActions({ controlPath, assignment, onReset }: { controlPath: string; assignment: Assignment; onReset: () => void }) {
  const action = useAssignmentAction(controlPath, assignment.assignedTaskUuid);
  const reviewPending = assignment.review.state === 'pending';
  if (!assignment.review.required && !assignment.workerActed) return null;
  return (
    <section aria-labelledby="admin-title" className="pv-admin">
      <h3 id="admin-title">Admin (back office)</h3>
      {assignment.review.required && <ReviewCopy review={assignment.review} />}
      <div className="pv-actions">
        {reviewPending && (
          <>
            <Button
              busy={action.isPending && action.variables === 'approve'}
              busyText="Approving…"
              onClick={() => action.mutate('approve')}
            >
              Approve
            </Button>
            <Button
              variant="secondary"
              busy={action.isPending && action.variables === 'reject'}
              busyText="Rejecting…"
              onClick={() => action.mutate('reject')}
            >
              Reject
            </Button>
          </>
        )}
        {assignment.workerActed && (
          <Button
            variant="secondary"
            busy={action.isPending && action.variables === 'reset'}
            busyText="Resetting…"
            onClick={() => action.mutate('reset', { onSuccess: onReset })}
          >
            Reset task
          </Button>
        )}
      </div>
      <Notice tone="error">{action.isError ? action.error.message : undefined}</Notice>
    </section>
  );
}

/**
 * What the admin can do about the review now, from the emulator's state (polled, and set from each action's answer),
 * so the sentence changes with approve, reject and the worker's restart. docs/platform.md#statuses-and-transitions: a decided review is cleared when the
 * partner sends ready, viewed or inProgress (the worker starting again), and the next completion awaits review again.
 */
function ReviewCopy({ review }: { review: Assignment['review'] }) {
  const when = review.decidedAt === undefined ? null : <TimeStamp iso={review.decidedAt} />;
  return (
    <p className="pv-muted">
      {review.state === 'pending' && 'The worker completed the task: approve or reject it.'}
      {review.state === 'none' && 'Approve and reject apply once the worker completed the task.'}
      {review.state === 'approved' && (
        <>Approved at {when}. Nothing is left to review unless the worker starts the task again, which clears the review.</>
      )}
      {review.state === 'rejected' && (
        <>
          Rejected at {when}. The worker is expected to start the task again; that clears the review, and the next completion awaits review
          again.
        </>
      )}
    </p>
  );
}
