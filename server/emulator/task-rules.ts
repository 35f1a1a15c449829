import type { AssignmentOptions, EmulatorTaskStatus, Review, TaskAction } from './assignment-types';

/**
 * The review after a task moves to `status` (by a partner update or the portal's "Task Completed" button).
 * - completed with review required: the task awaits admin approval (spec 3, completed). A review already decided
 *   stays as it is: spec 3 clears a review only on ready, viewed or inProgress.
 * - ready, viewed or inProgress: spec 3 and 4.3 rule 5, earlier review information is reset, so an admin must review
 *   again after the next completion. A pending review is cleared too: the task no longer awaits approval.
 * - error: not shown by the spec. A pending review is dropped (the task left completed); a decided one is kept.
 */
export function reviewAfterStatus(review: Review, status: EmulatorTaskStatus): Review {
  switch (status) {
    case 'completed':
      return review.required && review.state === 'none' ? { required: true, state: 'pending' } : review;
    case 'ready':
    case 'viewed':
    case 'inProgress':
      return review.state === 'none' ? review : { required: review.required, state: 'none' };
    case 'error':
      return review.state === 'pending' ? { required: review.required, state: 'none' } : review;
  }
}

interface TaskFacts {
  status: EmulatorTaskStatus;
  review: Review;
  workerActed: boolean;
  options: AssignmentOptions;
}

/** Why `action` is not allowed now, or undefined when it is. Each message names the rule it comes from. */
export function refusalOf(task: TaskFacts, action: TaskAction): string | undefined {
  switch (action) {
    case 'start':
      // spec 3: ready -> inProgress when the worker starts interacting with the task.
      return task.status === 'ready' || task.status === 'viewed'
        ? undefined
        : `start moves a ready task to inProgress (spec 3); this task is ${task.status}`;
    case 'complete':
      if (task.options.hideTaskCompletedButton) return 'the "Task Completed" button is hidden for this task (spec 2.4)';
      return task.status === 'completed' || task.status === 'error'
        ? `the "Task Completed" button cannot complete a task that is ${task.status}`
        : undefined;
    case 'approve':
    case 'reject':
      // spec 3: approve and reject apply to a completed task whose review is required (and not yet decided).
      if (task.status !== 'completed') return `${action} needs a completed task (spec 3); this task is ${task.status}`;
      return task.review.state === 'pending'
        ? undefined
        : task.review.required
          ? `${action} needs a review pending; the review is ${task.review.state}`
          : `${action} needs a task that requires review (spec 2.4); this one does not`;
    case 'reset':
      // spec 3: an admin reset applies to "any state in which the worker initiated actions".
      return task.workerActed ? undefined : 'reset needs a task in which the worker has acted (spec 3); nothing happened since it was created or reset';
  }
}
