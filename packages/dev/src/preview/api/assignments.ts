import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { assignmentListSchema, assignmentSchema, type Assignment, type AssignmentOptions } from './assignment-schema.ts';
import { jsonRequest } from './json-request.ts';
import { previewKeys } from './preview-keys.ts';

/**
 * The emulator's assignments through its control API (docs/development.md#emulator-mode). The panel follows changes live by
 * polling: the control API is cheap, in memory, and not logged (packages/dev/src/emulator/control-routes.ts).
 */
const LIVE_MS = 1000;

export function assignmentsQueryOptions(controlPath: string) {
  return queryOptions({
    queryKey: previewKeys.assignments,
    queryFn: async () => (await jsonRequest('GET', `${controlPath}/assignments`, assignmentListSchema)).assignments,
    refetchInterval: LIVE_MS * 3,
  });
}

export function assignmentQueryOptions(controlPath: string, uuid: string) {
  return queryOptions({
    queryKey: previewKeys.assignment(uuid),
    queryFn: () => jsonRequest('GET', `${controlPath}/assignments/${encodeURIComponent(uuid)}`, assignmentSchema),
    refetchInterval: LIVE_MS,
  });
}

/** POST /control/assignments: docs/platform.md#partner-task-configuration options; the emulator picks fresh context UUIDs (docs/platform.md#task-context). */
export function useCreateAssignment(controlPath: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: AssignmentOptions) => jsonRequest('POST', `${controlPath}/assignments`, assignmentSchema, options),
    onSuccess: (created) => {
      queryClient.setQueryData(previewKeys.assignment(created.assignedTaskUuid), created);
      void queryClient.invalidateQueries({ queryKey: previewKeys.assignments, exact: true });
    },
  });
}

export type AssignmentAction = 'approve' | 'reject' | 'reset' | 'complete';

/** Admin (approve, reject, reset) and portal ("Task Completed") actions of docs/platform.md#statuses-and-transitions. */
export function useAssignmentAction(controlPath: string, uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: AssignmentAction) =>
      jsonRequest('POST', `${controlPath}/assignments/${encodeURIComponent(uuid)}/actions/${action}`, assignmentSchema),
    // The answer is the emulator's state after the action: the task view shows it at once, and the task list (polled
    // less often) is read again so no copy of the task shows the state from before.
    onSuccess: (updated: Assignment) => {
      queryClient.setQueryData(previewKeys.assignment(uuid), updated);
      void queryClient.invalidateQueries({ queryKey: previewKeys.assignments, exact: true });
    },
  });
}
