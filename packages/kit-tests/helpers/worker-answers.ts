import type { FastifyInstance } from 'fastify';
import { claimDeliverable, markManyDelivered } from '@partner-task-kit/server/store/outbox.repository';
import { outboxLanes } from '@partner-task-kit/server/store/outbox.table';
import { enqueuePartnerEvent } from '@partner-task-kit/server/store/partner-events.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import { findTaskByAssignedTaskUuid } from '@partner-task-kit/server/store/tasks.repository';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import { bearer, newContext, openSession } from './task-app';

/**
 * A worker's task driven through the real task API: the safety training, signed with `fullName`, which the step data,
 * the `completed` update's details and the partner event all repeat. `finish: false` stops before the signature;
 * `restart: true` first starts a new attempt of the task of `context`.
 */
export async function trainAndSign(
  app: FastifyInstance,
  input: { fullName: string; context?: TaskContext; finish?: boolean; restart?: boolean },
): Promise<TaskContext> {
  const { token, context } = await openSession(app, input.context ?? newContext());
  if (input.restart) {
    const response = await app.inject({ method: 'POST', url: '/api/task/restart', headers: bearer(token), payload: {} });
    if (response.statusCode !== 200) throw new Error(`restart answered ${response.statusCode}: ${response.body}`);
  }
  const steps: [string, unknown][] = [
    ['welcome', {}],
    ['policy', { acknowledged: true, policyVersion: POLICY_VERSION }],
    ['quiz', { answers: { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' } }],
    ...(input.finish === false ? [] : ([['signature', { fullName: input.fullName, confirmed: true }]] as [string, unknown][])),
  ];
  for (const [stepId, data] of steps) {
    const response = await app.inject({ method: 'POST', url: `/api/task/steps/${stepId}`, headers: bearer(token), payload: { data } });
    if (response.statusCode !== 200) throw new Error(`step ${stepId} answered ${response.statusCode}: ${response.body}`);
  }
  return context;
}

/**
 * The event the partner's backend is told of the signature, as the step service writes it when a webhook is set
 * (the test app has none): its stepData carries the signed name.
 */
export async function tellPartnerOfSignature(store: Store, assignedTaskUuid: string, now: number): Promise<void> {
  const task = await findTaskByAssignedTaskUuid(store.db, assignedTaskUuid);
  if (!task) throw new Error(`no task ${assignedTaskUuid}`);
  await store.db.transaction().execute((trx) => enqueuePartnerEvent(trx, { task, type: 'task.completed', now, stepId: 'signature' }));
}

/** Delivers every pending row of both lanes at `at`, task by task in order, as the relays would. */
export async function deliverEverything(store: Store, at: number): Promise<void> {
  for (const lane of outboxLanes) {
    for (;;) {
      const claimed = await claimDeliverable(store.db, { now: at, leaseMs: 1_000, limit: 1_000, workerId: 'helper', lane });
      if (claimed.length === 0) break;
      await markManyDelivered(
        store.db,
        claimed.map((row) => row.id),
        { now: at, workerId: 'helper' },
      );
    }
  }
}

/** Every row of every table of ours as text, for a search of values: what `grep` would find through SQL. */
export async function rowsAsText(store: Store): Promise<string> {
  const tables = ['tasks', 'task_history', 'outbox', 'partner_idempotency', 'erasure_log', 'rate_limits', 'pending_companies'];
  const texts: string[] = [];
  for (const table of tables) {
    const rows = await store.db
      .selectFrom(table as 'tasks')
      .selectAll()
      .execute();
    texts.push(JSON.stringify(rows));
  }
  return texts.join('\n');
}
