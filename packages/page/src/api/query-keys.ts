import type { TaskContext } from '@partner-task-kit/workflow/contract';

/**
 * Every query key of the page, written once (docs/architecture.md#server-state-through-queryoptions). Scoped by assigned task: two tasks never share a cache.
 * @internal
 */
export const taskKeys = {
  all: ['task'] as const,
  session: (context: TaskContext) => ['task', context.wxAssignedTaskUuid, 'session'] as const,
  view: (context: TaskContext) => ['task', context.wxAssignedTaskUuid, 'view'] as const,
  updates: (context: TaskContext) => ['task', context.wxAssignedTaskUuid, 'updates'] as const,
  offer: (context: TaskContext, stepId: string) => ['task', context.wxAssignedTaskUuid, 'offer', stepId] as const,
  uploadedFile: (context: TaskContext, uploadId: string) => ['task', context.wxAssignedTaskUuid, 'upload', uploadId] as const,
  /** The upload this device last started for a file field of the attempt (file-uploads.ts), as the server has it. */
  fieldUpload: (context: TaskContext, attempt: number, stepId: string, field: string) =>
    ['task', context.wxAssignedTaskUuid, 'field-upload', attempt, stepId, field] as const,
};
