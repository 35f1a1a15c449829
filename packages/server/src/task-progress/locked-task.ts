import type { Clock } from '../clock.ts';
import type { SensitiveKeyRing } from '../sensitive/sensitive-keys.ts';
import type { CompanyGate } from '../tenants/company-credentials.ts';
import type { StoreDb } from '../store/database-schema.ts';
import { platformUpdateOf, readLastSentAt } from '../store/outbox-enqueue.repository.ts';
import { partnerEventOf, type PartnerEventBody } from '../store/partner-events.repository.ts';
import { partnerEventTypeOf } from './partner-event-kinds.ts';
import { describeStepFiles } from './file-descriptions.ts';
import { type PartnerTaskUpdateRecord, isSameContext, type TaskContext, type TaskView } from '@partner-task-kit/workflow/contract';
import type { NewTaskHistoryEntry } from '../store/task-history.repository.ts';
import type { TaskHistoryFact } from '../store/task-history.table.ts';
import type { Store } from '../store/store.ts';
import { findTaskByAssignedTaskUuid, lockTaskByAssignedTaskUuid, type TaskChanges } from '../store/tasks.repository.ts';
import { readLockedTaskState, writeTaskChanges, type HistoryWrite, type OutboxWrite } from '../store/task-writes.repository.ts';
import type { Task } from '../store/tasks.table.ts';
import type { WorkflowCatalog, WorkflowDefinition } from '@partner-task-kit/workflow';
import { apiError } from '../api-error.ts';
import { dropOutgrownOffers } from '../offers/offer-basis.ts';
import { partnerUrlFor, startedUpdate, type UpdateTarget } from './status-updates.ts';
import { toTaskView } from './task-view.ts';

export interface TaskServiceDeps {
  store: Store;
  clock: Clock;
  partnerUrlTemplate: string | undefined;
  /** Wakes the outbox relay after a commit that wrote updates (delivery starts without waiting for a poll). */
  onUpdateEnqueued: () => void;
  /** Which companies the server acts for (docs/decisions/008-a-deputy-for-many-companies.md: a company without a credential is refused). */
  companies: CompanyGate;
  /** New tasks per hour per address and per company (0: no limit). */
  newTaskLimits: { perAddressPerHour: number; perCompanyPerHour: number };
  /** Seals the sensitive fields of an accepted step's data before it is saved (docs/connecting-your-backend.md#sensitive-values). */
  sensitiveKeys: SensitiveKeyRing;
  /** For security events (a task asked for with another context). */
  log: { warn(object: object, message: string): void };
  /** The workflows this deployment runs, handed in by the app (docs/architecture.md#dependencies-passed-in). */
  workflows: WorkflowCatalog;
  /**
   * Told after a commit that claimed some of the task's uploads for removal (a restart's, docs/operations.md#files),
   * to remove their bytes; without it the retention job does, within the hour.
   */
  onUploadsClaimed?: (taskId: string) => void;
}

export interface LockedTask {
  trx: StoreDb;
  task: Task;
  workflow: WorkflowDefinition;
  target: UpdateTarget;
  now: number;
  /** Writes an update in this transaction (docs/decisions/002-outbox-not-dual-writes.md: outbox, never a call upstream from a request). */
  enqueue(record: PartnerTaskUpdateRecord): Promise<void>;
  /** The history of the task's current attempt, read once per transaction (after the lock) and kept current by `record`. */
  history(): Promise<readonly TaskHistoryFact[]>;
  /** Writes changes to the locked task; returns it as now stored. */
  save(current: Task, changes: TaskChanges): Promise<Task>;
  /** Appends to the task's history, at this transaction's time. */
  record(entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>): Promise<void>;
  /**
   * Marks the attempt started (docs/platform.md#statuses-and-transitions: ready -> inProgress on the first interaction), once per attempt, and sends
   * `inProgress` for it unless `carriedBy` says the caller's own update, written in this transaction, carries the
   * new status: a step saved before `start` is that first interaction too, and one click sends one update. Returns
   * the task as it now is.
   */
  startAttempt(options?: { carriedBy: 'step update' }): Promise<Task>;
  /** What the page sees of `task` (this transaction's task, as changed), with its history. */
  view(task: Task): Promise<TaskView>;
}

/**
 * What every task write holds: its transaction, its time, and the way to write an update with it. The task's row, its
 * updates and its history entries are gathered as the service decides and written when it has decided, in the order
 * asked for, before COMMIT (writeTaskChanges: one statement on Postgres).
 */
export interface TaskTransaction {
  trx: StoreDb;
  now: number;
  /** Writes an update of `task` in this transaction (outbox, never a call upstream from a request). */
  enqueue(task: Task, record: PartnerTaskUpdateRecord): Promise<void>;
  /** Appends to `task`'s history (as changed in this transaction) and writes the partner's event of it, if any. */
  record(task: Task, entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>): TaskHistoryFact;
  /** Stores `task` as given (a task this transaction holds locked). */
  save(task: Task): void;
  /** The task's last platform sentAt, as read after its lock: its next update is not read again. */
  knowLastSentAt(task: Task, lastSentAt: number | null): void;
}

/** One task's writes, gathered in its transaction. */
interface GatheredWrites {
  task: Task;
  saved: Task | undefined;
  outbox: OutboxWrite[];
  history: HistoryWrite[];
  /** Undefined until read (or told, knowLastSentAt); then the sentAt of the last update, this transaction's included. */
  lastSentAt: number | null | undefined;
  /** The partner's events carrying a step's data: their file fields are described before they are written. */
  stepEvents: { write: OutboxWrite; event: PartnerEventBody }[];
}

/**
 * The one path of every task write (open, start, step, restart): one transaction, the updates written in it beside
 * the task change they report, and the relay woken once it has committed, so delivery starts without a poll.
 */
export async function inTaskTransaction<T>(deps: TaskServiceDeps, work: (tx: TaskTransaction) => Promise<T>): Promise<T> {
  let enqueued = 0;
  let events = 0;
  const result = await deps.store.transact(async (trx) => {
    const now = deps.clock.now();
    // Per run: a batch that rolled back runs `work` again (group-commit.ts), gathering afresh.
    const gathered = new Map<string, GatheredWrites>();
    const writesOf = (task: Task): GatheredWrites => {
      let writes = gathered.get(task.id);
      if (writes === undefined) {
        writes = { task, saved: undefined, outbox: [], history: [], lastSentAt: undefined, stepEvents: [] };
        gathered.set(task.id, writes);
      }
      return writes;
    };
    const enqueue = async (task: Task, record: PartnerTaskUpdateRecord) => {
      const writes = writesOf(task);
      writes.lastSentAt ??= await readLastSentAt(trx, task.id);
      const { payload, sentAt } = platformUpdateOf(record, now, writes.lastSentAt);
      writes.outbox.push({ lane: 'platform', payload: JSON.stringify(payload), sentAt });
      writes.lastSentAt = sentAt;
      enqueued += 1;
    };
    // Each history entry of a kind the partner hears of writes its event in the same transaction: never one without the other.
    const record = (task: Task, entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>): TaskHistoryFact => {
      const fact: TaskHistoryFact = {
        attempt: entry.attempt,
        kind: entry.kind,
        stepId: entry.stepId ?? null,
        detail: entry.detail ?? null,
        at: now,
      };
      const writes = writesOf(task);
      writes.history.push({ attempt: fact.attempt, kind: fact.kind, stepId: fact.stepId, detail: fact.detail });
      const type = partnerEventTypeOf(entry.kind);
      if (type !== undefined && deps.companies.partnerEvents?.tells(task.companyUuid)) {
        const event = partnerEventOf({ task, type, now, stepId: fact.stepId, attempt: fact.attempt });
        // Not a platform sentAt: the platform lane's rule reads only its own rows (outbox-enqueue.repository.ts).
        const write: OutboxWrite = { lane: 'partner', payload: JSON.stringify(event), sentAt: now };
        writes.outbox.push(write);
        if (event.data.stepId !== undefined) writes.stepEvents.push({ write, event });
        events += 1;
      }
      return fact;
    };
    const save = (task: Task) => {
      writesOf(task).saved = task;
    };
    const knowLastSentAt = (task: Task, lastSentAt: number | null) => {
      writesOf(task).lastSentAt = lastSentAt;
    };
    const value = await work({ trx, now, enqueue, record, save, knowLastSentAt });
    for (const writes of gathered.values()) {
      for (const { write, event } of writes.stepEvents) {
        const described = await withFilesDescribed(trx, deps.workflows, writes.task, event);
        if (described !== event) write.payload = JSON.stringify(described);
      }
      await writeTaskChanges(trx, { task: writes.task, now, saved: writes.saved, outbox: writes.outbox, history: writes.history });
    }
    return value;
  });
  if (enqueued > 0) deps.onUpdateEnqueued();
  if (events > 0) deps.companies.partnerEvents?.enqueued();
  return result;
}

/**
 * An event's step data with its file fields described (file-descriptions.ts), as of this transaction: a lookup, so
 * made once the service has decided, in the same transaction as the step it tells of. The event itself when its step
 * holds no file: most events, whose payload is then not written twice.
 */
async function withFilesDescribed(
  trx: StoreDb,
  workflows: WorkflowCatalog,
  task: Task,
  event: PartnerEventBody,
): Promise<PartnerEventBody> {
  const { stepId, stepData } = event.data;
  if (stepId === undefined) return event;
  const described = await describeStepFiles(trx, { taskId: task.id, workflow: workflowOf(workflows, task), stepId, data: stepData });
  return described === stepData ? event : { ...event, data: { ...event.data, stepData: described } };
}

/** Where a task's updates go: its own id (`partnerId`) and the partner page about it, when configured. */
export function updateTargetOf(deps: Pick<TaskServiceDeps, 'partnerUrlTemplate'>, task: Task): UpdateTarget {
  return { taskId: task.id, partnerUrl: partnerUrlFor(deps.partnerUrlTemplate, task.assignedTaskUuid) };
}

/**
 * Runs one action in one transaction on the session's own task, locked for the duration (two clicks apply one after
 * the other). The token's four values must match the stored task: a token can act on its own task only.
 */
export function withLockedTask<T>(deps: TaskServiceDeps, context: TaskContext, action: (locked: LockedTask) => Promise<T>): Promise<T> {
  return withTaskLocked(
    deps,
    {
      assignedTaskUuid: context.wxAssignedTaskUuid,
      missing: taskGone,
      admit: (task) => assertSameContext(task, context),
    },
    action,
  );
}

/** Which task to lock, what to answer when there is none, and who may act on it (throws when the caller may not). */
export interface TaskLock {
  assignedTaskUuid: string;
  missing: () => Error;
  admit: (task: Task) => void;
}

/** One action on one task, locked in one transaction; the session's and the partner API's writes both come here. */
export function withTaskLocked<T>(deps: TaskServiceDeps, lock: TaskLock, action: (locked: LockedTask) => Promise<T>): Promise<T> {
  return inTaskTransaction(deps, async (tx) => {
    const { trx, now } = tx;
    const task = await lockTaskByAssignedTaskUuid(trx, lock.assignedTaskUuid);
    if (!task) throw lock.missing();
    lock.admit(task);
    assertNotRejected(task);
    const target = updateTargetOf(deps, task);
    const read = await readLockedTaskState(trx, { taskId: task.id, attempt: task.attempt });
    tx.knowLastSentAt(task, read.lastSentAt);
    const enqueue = (record: PartnerTaskUpdateRecord) => tx.enqueue(task, record);
    // One attempt's entries: the view shows the attempt the task is in. A restart moves it on, and the new attempt's
    // entries are the ones this transaction records (none were stored before it began).
    let history: { attempt: number; entries: TaskHistoryFact[] } = { attempt: task.attempt, entries: read.history };
    const historyOf = (attempt: number): readonly TaskHistoryFact[] => (history.attempt === attempt ? history.entries : []);
    // The task as this transaction changed it: what an event of the partner's tells (its status, the step's data).
    let current = task;
    const record = async (entry: Omit<NewTaskHistoryEntry, 'taskId' | 'at'>) => {
      const fact = tx.record(current, entry);
      if (fact.attempt === history.attempt) history.entries.push(fact);
      else if (fact.attempt > history.attempt) history = { attempt: fact.attempt, entries: [fact] };
    };
    const workflow = workflowOf(deps.workflows, task);
    const save = async (from: Task, changes: TaskChanges): Promise<Task> => {
      // Answers changed: the offers loaded for the old ones go, whatever the new ones are (offer-basis.ts).
      if (changes.stepData !== undefined) {
        await dropOutgrownOffers(trx, { workflow, taskId: from.id, before: from.stepData, after: changes.stepData });
      }
      current = { ...from, ...changes, updatedAt: now };
      tx.save(current);
      return current;
    };
    const startAttempt = async (options?: { carriedBy: 'step update' }): Promise<Task> => {
      if (task.attemptStartedAt !== null) return task;
      const started = await save(task, { status: 'inProgress', attemptStartedAt: now });
      if (options === undefined) await enqueue(startedUpdate(target, workflow, task.attempt));
      await record({ attempt: task.attempt, kind: 'started' });
      return started;
    };
    const view = async (shown: Task) => toTaskView(shown, historyOf(shown.attempt), workflow);
    return action({
      trx,
      task,
      workflow,
      target,
      now,
      enqueue,
      history: async () => historyOf(task.attempt),
      save,
      record,
      startAttempt,
      view,
    });
  });
}

/** The session's own task, read without a lock; the token's four values must match it. */
export async function readOwnTask(db: StoreDb, context: TaskContext): Promise<Task> {
  const task = await findTaskByAssignedTaskUuid(db, context.wxAssignedTaskUuid);
  // A signed token whose task is gone (a reset database): the page opens a new session, which recreates it.
  if (!task) throw taskGone();
  assertSameContext(task, context);
  assertNotRejected(task);
  return task;
}

/** docs/decisions/008-a-deputy-for-many-companies.md: the platform is the only authority on task ids; a task it refused costs nothing more. */
export function assertNotRejected(task: Task): void {
  if (task.rejectedAt !== null) {
    throw apiError('task_rejected', 'The platform does not know this task, so it cannot be done here. Open it again from the portal.');
  }
}

/**
 * The context is not signed by the platform (docs/platform.md#task-context), so the only check possible is consistency: an assigned task
 * keeps the worker, flow and company it was first opened with, compared as UUIDs (without letter case).
 */
export function hasSameContext(task: Task, context: TaskContext): boolean {
  return isSameContext(
    {
      wxAssignedTaskUuid: task.assignedTaskUuid,
      wxWorkerUuid: task.workerUuid,
      wxTaskFlowUuid: task.taskFlowUuid,
      wxCompanyUuid: task.companyUuid,
    },
    context,
  );
}

function taskGone() {
  return apiError('invalid_token', 'This session no longer matches a task; open the task again.');
}

/** A session token signed for one context acts only on the task stored with that same context. */
function assertSameContext(task: Task, context: TaskContext): void {
  if (!hasSameContext(task, context)) throw apiError('wrong_task', 'This session belongs to another task.');
}

export function workflowOf(workflows: WorkflowCatalog, task: Task): WorkflowDefinition {
  const registered = workflows.find(task.workflowId);
  // A task whose workflow was removed from this deployment is our fault, not the worker's: a 500 with a log line.
  if (!registered) throw new Error(`task ${task.id} runs workflow ${task.workflowId}, which this server does not have`);
  return registered.definition;
}
