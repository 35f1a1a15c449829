import type { StoreDb } from '../store/database-schema.ts';
import { findTaskByAssignedTaskUuid } from '../store/tasks.repository.ts';
import type { Task } from '../store/tasks.table.ts';
import { canonicalUuid } from '@partner-task-kit/workflow/contract';
import { apiError } from '../api-error.ts';

/**
 * The task a partner key names, by its assigned task id in any letter case (docs/decisions/008-a-deputy-for-many-companies.md). A task of
 * another company than the key's answers exactly as a task that does not exist, so a key learns nothing of the
 * tasks it may not see.
 */
export async function readPartnerTask(db: StoreDb, assignedTaskUuid: string, companies: ReadonlySet<string> | undefined): Promise<Task> {
  const task = await findTaskByAssignedTaskUuid(db, assignedTaskUuid);
  if (!task || (companies !== undefined && !companies.has(canonicalUuid(task.companyUuid)))) throw taskNotFound();
  return task;
}

export function taskNotFound() {
  return apiError('task_not_found', 'No task with this assigned task id.', 'assignedTaskUuid');
}
