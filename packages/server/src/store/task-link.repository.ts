import { canonicalUuid } from '@partner-task-kit/workflow/contract';
import { compileOnce } from './compiled-query.ts';
import type { StoreDb } from './database-schema.ts';
import type { Task, TaskRow } from './tasks.table.ts';

/** What a GET of the task page needs to know of a task to choose its HTML (packages/server/src/page/link-screen.ts). */
export interface TaskAtLink extends Pick<
  Task,
  'assignedTaskUuid' | 'workerUuid' | 'taskFlowUuid' | 'companyUuid' | 'workflowId' | 'status' | 'currentStep'
> {
  /** The current attempt began (its first step saved). */
  started: boolean;
  rejected: boolean;
}

type TaskAtLinkRow = Pick<
  TaskRow,
  | 'assigned_task_uuid'
  | 'worker_uuid'
  | 'task_flow_uuid'
  | 'company_uuid'
  | 'workflow_id'
  | 'status'
  | 'current_step'
  | 'attempt_started_at'
  | 'rejected_at'
>;

// Found as the task API finds it (tasks.repository.ts, findTaskByAssignedTaskUuid), on the same unique key; the
// columns by name and the statement compiled once: this runs on every GET of a link.
const selectTaskAtLink = compileOnce<{ assignedTaskKey: string }, TaskAtLinkRow>((db, param) =>
  db
    .selectFrom('tasks')
    .select([
      'assigned_task_uuid',
      'worker_uuid',
      'task_flow_uuid',
      'company_uuid',
      'workflow_id',
      'status',
      'current_step',
      'attempt_started_at',
      'rejected_at',
    ])
    .where('assigned_task_key', '=', param('assignedTaskKey')),
);

/** Reads only: a link scanner's GET creates and changes nothing (docs/architecture.md#how-a-link-is-answered). */
export async function findTaskAtLink(db: StoreDb, assignedTaskUuid: string): Promise<TaskAtLink | undefined> {
  const { rows } = await selectTaskAtLink(db, { assignedTaskKey: canonicalUuid(assignedTaskUuid) });
  const row = rows[0];
  return (
    row && {
      assignedTaskUuid: row.assigned_task_uuid,
      workerUuid: row.worker_uuid,
      taskFlowUuid: row.task_flow_uuid,
      companyUuid: row.company_uuid,
      workflowId: row.workflow_id,
      status: row.status,
      currentStep: row.current_step,
      started: row.attempt_started_at !== null,
      rejected: row.rejected_at !== null,
    }
  );
}
