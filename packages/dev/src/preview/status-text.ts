/** How the worker portal names a task status (docs/platform.md#statuses-and-transitions) and a review state. */
export function statusText(status: string): string {
  switch (status) {
    case 'ready':
      return 'Ready';
    case 'inProgress':
      return 'In progress';
    case 'completed':
      return 'Completed';
    case 'error':
      return 'Error';
    case 'viewed':
      return 'Viewed';
    default:
      return status;
  }
}

export function reviewText(review: { required: boolean; state: string }): string {
  if (!review.required) return 'Not required';
  switch (review.state) {
    case 'pending':
      return 'Awaiting admin review';
    case 'approved':
      return 'Approved';
    case 'rejected':
      return 'Rejected';
    default:
      return 'Required after completion';
  }
}

/** docs/platform.md#partner-task-update-record partnerStatus.color: one of success, warning, danger, neutral; neutral by default. */
export function colorClass(color: string | undefined): string {
  return `pv-label pv-label-${color === 'success' || color === 'warning' || color === 'danger' ? color : 'neutral'}`;
}
