import type { Assignment } from './api/assignment-schema';
import { useAssignmentAction } from './api/assignments';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

/**
 * The back office's admin actions of spec 3: approve and reject a completed task whose review is required, reset any
 * task in which the worker acted. Shown only when they apply; a refusal shows the emulator's reason.
 */
export function AdminActions({ controlPath, assignment, onReset }: { controlPath: string; assignment: Assignment; onReset: () => void }) {
  const action = useAssignmentAction(controlPath, assignment.assignedTaskUuid);
  const reviewPending = assignment.review.state === 'pending';
  if (!assignment.review.required && !assignment.workerActed) return null;
  return (
    <section aria-labelledby="admin-title" className="pv-admin">
      <h3 id="admin-title">Admin (back office)</h3>
      {assignment.review.required && !reviewPending && (
        <p className="pv-muted">Approve and reject apply once the worker completed the task.</p>
      )}
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
