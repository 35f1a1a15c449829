import { isClosed, type TaskContext, type TaskUpdateView, type TaskView } from '@partner-task-kit/workflow/contract';
import { createHash } from 'node:crypto';
import { listUpdatesForTask } from '../store/outbox-status.repository.ts';
import { appendHistory, listAttemptHistory } from '../store/task-history.repository.ts';
import { countTasksCreatedSince, findTaskByAssignedTaskUuid, insertTaskIfAbsent, type BudgetUse } from '../store/tasks.repository.ts';
import type { StoreDb } from '../store/database-schema.ts';
import { findFlowWorkflow, recordRefusal } from '../store/tenants.repository.ts';
import { claimUnsavedUploadsOfEarlierAttempts } from '../store/upload-removals.repository.ts';
import { companyKey } from '../tenants/company-credentials.ts';
import { type WorkflowCatalog, stepById } from '@partner-task-kit/workflow';
import { apiError, rateLimited } from '../api-error.ts';
import {
  assertNotRejected,
  hasSameContext,
  inTaskTransaction,
  readOwnTask,
  updateTargetOf,
  withLockedTask,
  workflowOf,
  type TaskServiceDeps,
} from './locked-task.ts';
import { openedUpdate, restartedUpdate } from './status-updates.ts';
import { toTaskView } from './task-view.ts';

const HOUR_MS = 60 * 60_000;

/** A mapping made before its workflow left this deployment falls back to the default rather than failing the worker. */
function offeredOrDefault(workflows: WorkflowCatalog, workflowId: string | undefined): string {
  return workflowId !== undefined && workflows.find(workflowId) ? workflowId : workflows.defaultId;
}

/**
 * Each new task costs a row and a `ready` sent upstream, and anyone can invent one (the context is not signed, spec
 * 2.5): new tasks per hour are bounded per address, and per company counting only the tasks the platform confirmed
 * (so invented ones from many addresses cannot lock a company's real workers out). Counted in the database, so every
 * instance on one database shares the bound. A refusal says when a place in the window frees (`Retry-After`).
 */
async function assertMayCreate(trx: StoreDb, deps: TaskServiceDeps, input: { openedFrom: string; companyUuid: string; now: number }) {
  const { perAddressPerHour, perCompanyPerHour } = deps.newTaskLimits;
  if (perAddressPerHour === 0 && perCompanyPerHour === 0) return;
  const since = input.now - HOUR_MS;
  const counts = await countTasksCreatedSince(trx, { openedFrom: input.openedFrom, companyUuid: input.companyUuid, since });
  const freesIn = (use: BudgetUse) => (use.oldestAt ?? since) - since;
  if (perAddressPerHour > 0 && counts.byAddress.count >= perAddressPerHour) {
    throw rateLimited(
      `Too many new tasks from this address in the last hour (at most ${perAddressPerHour}); try again later.`,
      freesIn(counts.byAddress),
    );
  }
  if (perCompanyPerHour > 0 && counts.byCompany.count >= perCompanyPerHour) {
    throw rateLimited(
      `Too many new tasks for this company in the last hour (at most ${perCompanyPerHour}); try again later.`,
      freesIn(counts.byCompany),
    );
  }
}

/** The address is not kept, only a hash: enough to count one address's tasks and to match a log line. */
function addressHash(address: string): string {
  return createHash('sha256').update(address).digest('base64url').slice(0, 16);
}

/** The pending list holds at most this many companies, the least recently refused dropped first: invented ids must not grow it. */
const PENDING_COMPANIES_LIMIT = 10_000;

/**
 * Creates the task on its first open (sending `ready` "Opened") or loads it; an assigned task opened again with
 * another worker, flow or company is refused (`hasSameContext`).
 */
export async function openTask(
  deps: TaskServiceDeps,
  context: TaskContext,
  from: { address: string },
  /** The link's `workflow` variable, already checked to be offered; undefined when the link names none. */
  linkWorkflowId?: string,
): Promise<TaskView> {
  if (!deps.companies.serves(context.wxCompanyUuid)) {
    // Default deny (docs/decisions/008-a-deputy-for-many-companies.md): no task row, nothing sent; the company is counted for the operator.
    await recordRefusal(deps.store.db, {
      companyUuid: companyKey(context.wxCompanyUuid),
      now: deps.clock.now(),
      limit: PENDING_COMPANIES_LIMIT,
    });
    throw apiError(
      'unknown_company',
      "This task is not set up for this company yet: the partner holds no credential for it. Tell the company's administrator, who can ask the partner to add it.",
      'wxCompanyUuid',
    );
  }
  return inTaskTransaction(deps, async ({ trx, now, enqueue, knowLastSentAt }) => {
    const existing = await findTaskByAssignedTaskUuid(trx, context.wxAssignedTaskUuid);
    const openedFrom = addressHash(from.address);
    if (!existing) await assertMayCreate(trx, deps, { openedFrom, companyUuid: context.wxCompanyUuid, now });
    // The link's variable wins; else the flow's workflow as its company mapped it (`npm run tenants -- map-flow`).
    const workflowId =
      existing || linkWorkflowId !== undefined
        ? (linkWorkflowId ?? deps.workflows.defaultId)
        : offeredOrDefault(
            deps.workflows,
            await findFlowWorkflow(trx, { companyUuid: context.wxCompanyUuid, taskFlowUuid: context.wxTaskFlowUuid }),
          );
    const opened = existing
      ? { task: existing, created: false }
      : await insertTaskIfAbsent(trx, {
          assignedTaskUuid: context.wxAssignedTaskUuid,
          workerUuid: context.wxWorkerUuid,
          taskFlowUuid: context.wxTaskFlowUuid,
          companyUuid: context.wxCompanyUuid,
          // Only a new task takes the link's workflow. An existing one keeps its stored workflow, whatever the link
          // names now: the link is the same task (the same assigned task id), and its saved steps and history belong
          // to the workflow it began with; switching would strand them. Not an error either: the worker can go on.
          workflowId,
          now,
          openedFrom,
        });
    const { task } = opened;
    if (!opened.created) {
      assertNotRejected(task);
      if (!hasSameContext(task, context)) {
        // Someone bound this task id first with other values (docs/platform.md#partner-task-configuration: they are not signed), or the worker's own link
        // changed. Both contexts are logged so an operator can judge, and release the task (`npm run tasks -- release`).
        deps.log.warn(
          {
            event: 'context_mismatch',
            assignedTaskUuid: task.assignedTaskUuid,
            bound: {
              worker: task.workerUuid,
              flow: task.taskFlowUuid,
              company: task.companyUuid,
              since: new Date(task.createdAt).toISOString(),
            },
            presented: { worker: context.wxWorkerUuid, flow: context.wxTaskFlowUuid, company: context.wxCompanyUuid, address: openedFrom },
          },
          'security: a session was asked for a task bound to another worker, flow or company; refused',
        );
        throw apiError('context_mismatch', 'This assigned task was opened with another worker, flow or company.');
      }
    } else {
      // A task created now has sent nothing yet.
      knowLastSentAt(task, null);
      await enqueue(task, openedUpdate(updateTargetOf(deps, task)));
      await appendHistory(trx, { taskId: task.id, attempt: task.attempt, kind: 'opened', at: now });
    }
    return toTaskView(task, await listAttemptHistory(trx, task.id, task.attempt), workflowOf(deps.workflows, task));
  });
}

/** Reads need no lock nor transaction: a view may be a moment old, never inconsistent with itself. */
export async function getTask(deps: TaskServiceDeps, context: TaskContext): Promise<TaskView> {
  const task = await readOwnTask(deps.store.db, context);
  return toTaskView(task, await listAttemptHistory(deps.store.db, task.id, task.attempt), workflowOf(deps.workflows, task));
}

/**
 * The first interaction of an attempt sends `inProgress` (docs/platform.md#statuses-and-transitions); later calls change nothing (idempotent). A task
 * completed or in error had its first interaction already, so `start` answers it as it is, without an error and without
 * an update: docs/platform.md#statuses-and-transitions moves such a task only by a new attempt (`restartTask`), and a page that reopens it (a worker sent
 * back after a reset or a rejected review, which the platform does not tell us) must not meet an error on the way to
 * "Start again".
 */
export function startTask(deps: TaskServiceDeps, context: TaskContext): Promise<TaskView> {
  return withLockedTask(deps, context, async (locked) => {
    const { task } = locked;
    if (isClosed(task.status)) return locked.view(task);
    return locked.view(await locked.startAttempt());
  });
}

/**
 * docs/platform.md#statuses-and-transitions: "the partner workflow must allow any task to be restarted with the same parameters". A new attempt
 * begins empty and sends `ready`, which clears an earlier review on the platform (docs/platform.md#the-update-endpoint).
 * The files of the attempts before it that no saved step named are claimed for removal with it, and their bytes
 * removed once it is committed (docs/operations.md#files): nothing can name them any more, and a new attempt must not
 * pile its uploads on theirs (docs/configuration.md#uploads).
 */
export async function restartTask(deps: TaskServiceDeps, context: TaskContext): Promise<TaskView> {
  let claimed = 0;
  const view = await withLockedTask(deps, context, async (locked) => {
    const { task } = locked;
    if (task.status === 'ready' && task.attemptStartedAt === null) {
      throw apiError('nothing_to_restart', 'This attempt has not started yet; there is nothing to restart.');
    }
    // A partner step may hold the worker while the partner works on what they sent (docs/connecting-your-backend.md#steps-your-backend-completes).
    const awaited = task.status === 'inProgress' && task.currentStep !== null ? stepById(locked.workflow, task.currentStep) : undefined;
    if (awaited?.completedBy === 'partner' && awaited.restartWhileAwaiting === false) {
      throw apiError('restart_not_allowed', 'The partner is checking what you sent: you can start again once they answer.');
    }
    const attempt = task.attempt + 1;
    const restarted = await locked.save(task, {
      status: 'ready',
      attempt,
      currentStep: null,
      stepData: {},
      attemptStartedAt: null,
      failedReason: null,
    });
    await locked.enqueue(restartedUpdate(locked.target, attempt));
    await locked.record({ attempt, kind: 'restarted' });
    // Set on each run: a batch rolled back runs this again (group-commit.ts).
    claimed = await claimUnsavedUploadsOfEarlierAttempts(locked.trx, { taskId: task.id, attempt });
    return locked.view(restarted);
  });
  if (claimed > 0) deps.onUploadsClaimed?.(view.id);
  return view;
}

/** `withErrors`: include upstream error texts (only where the preview is enabled, see packages/workflow/src/contract/task-updates.ts). */
export async function listTaskUpdates(
  deps: TaskServiceDeps,
  context: TaskContext,
  options: { withErrors: boolean },
): Promise<TaskUpdateView[]> {
  const task = await readOwnTask(deps.store.db, context);
  const updates = await listUpdatesForTask(deps.store.db, task.id);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return updates.map((update) => ({
    id: update.id,
    record: update.payload,
    delivery: {
      state: update.state,
      attempts: update.attempts,
      deliveredAt: iso(update.deliveredAt),
      nextAttemptAt: update.state === 'pending' ? iso(update.nextAttemptAt) : null,
      lastError: options.withErrors ? update.lastError : null,
      deadReason: options.withErrors ? update.deadReason : null,
    },
  }));
}
