import { randomUUID } from 'node:crypto';
import { AssignedTask } from './assigned-task';
import type { AssignmentContext, AssignmentOptions, AssignmentOrigin } from './assignment-types';

export interface AssignmentInput {
  /** Absent context values get fresh random UUIDs. */
  context: Partial<AssignmentContext>;
  options: AssignmentOptions;
}

/**
 * Options of a task created on the fly by a partner update for an unknown uuid (`unknownTasks: 'create'`): the
 * platform would have had a flow for it, the emulator does not, so it invents a neutral one. `.invalid` is a reserved
 * top-level domain, so the URL can never reach a real host.
 */
const implicitOptions: AssignmentOptions = {
  title: 'Partner task created by an update',
  iframeUrl: 'https://partner.invalid/task',
  appendTaskContext: true,
  hideTaskCompletedButton: false,
  requireReview: false,
};

/**
 * The assigned tasks of one emulator, by assigned task uuid. UUIDs are compared lower-cased: RFC 9562 UUIDs are
 * case-insensitive on input, and the partner may echo wxAssignedTaskUuid in another case.
 */
export class AssignmentRegistry {
  private readonly tasks = new Map<string, AssignedTask>();

  /** Undefined when a task with that assigned task uuid already exists. */
  create(input: AssignmentInput, origin: AssignmentOrigin, nowMs: number): AssignedTask | undefined {
    const context: AssignmentContext = {
      workerUuid: (input.context.workerUuid ?? randomUUID()).toLowerCase(),
      assignedTaskUuid: (input.context.assignedTaskUuid ?? randomUUID()).toLowerCase(),
      taskFlowUuid: (input.context.taskFlowUuid ?? randomUUID()).toLowerCase(),
      companyUuid: (input.context.companyUuid ?? randomUUID()).toLowerCase(),
    };
    if (this.tasks.has(context.assignedTaskUuid)) return undefined;
    const task = new AssignedTask(context, input.options, origin, nowMs);
    this.tasks.set(context.assignedTaskUuid, task);
    return task;
  }

  /** The task, created on the fly with invented options and context when `create` is true and it is unknown. */
  getOrCreate(assignedTaskUuid: string, nowMs: number): AssignedTask {
    const existing = this.get(assignedTaskUuid);
    if (existing !== undefined) return existing;
    const created = this.create({ context: { assignedTaskUuid }, options: implicitOptions }, 'partnerUpdate', nowMs);
    if (created === undefined) throw new Error('unreachable: the task was just found missing');
    return created;
  }

  get(assignedTaskUuid: string): AssignedTask | undefined {
    return this.tasks.get(assignedTaskUuid.toLowerCase());
  }

  /** Newest first: a Map keeps insertion order, so this is that order reversed. */
  list(): AssignedTask[] {
    return [...this.tasks.values()].reverse();
  }

  get size(): number {
    return this.tasks.size;
  }

  clear(): void {
    this.tasks.clear();
  }
}
