import type { SessionRequest, TaskContext } from '@partner-task-kit/workflow/contract';

/** The body of `POST /api/session`: the context, and the link's workflow only when it names one. */
export function sessionRequest(context: TaskContext, workflow: string | undefined): SessionRequest {
  return workflow === undefined ? { ...context } : { ...context, workflow };
}
