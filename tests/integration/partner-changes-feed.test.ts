import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPartnerKey } from '../../server/partner-api/partner-key-secret';
import { insertPartnerKey } from '../../server/store/partner-keys.repository';
import { bearer, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

interface Change {
  assignedTaskUuid: string;
  status: string;
  attempt: number;
  currentStep: string | null;
}
const versionOf = (task: Change) => `${task.status}/${task.attempt}/${task.currentStep}`;

/**
 * A partner that syncs by walking the feed while tasks keep changing must meet every change, at least at the task's
 * latest state: a page that passed over a change committed late would leave the task's last change unseen for ever.
 */
describe.each(testDatabases)('the changes feed on $name', (engine) => {
  let t: TaskApp;
  let key: string;
  beforeAll(async () => {
    t = await openTaskApp({ engine, env: { NEW_TASKS_PER_ADDRESS_PER_HOUR: '0', NEW_TASKS_PER_COMPANY_PER_HOUR: '0' } });
    const created = newPartnerKey();
    await insertPartnerKey(t.database.store.db, {
      name: 'sync',
      prefix: created.prefix,
      keyHash: created.keyHash,
      companyUuid: null,
      now: t.clock.now(),
    });
    key = created.key;
  });
  afterAll(() => t.close());

  const readPage = async (cursor: string | undefined, limit: number) => {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor === undefined ? {} : { updatedAfter: cursor }) });
    const response = await t.app.inject({ method: 'GET', url: `/api/partner/v1/tasks?${query}`, headers: bearer(key) });
    expect(response.statusCode).toBe(200);
    return response.json() as { tasks: Change[]; nextCursor: string };
  };

  it('meets every change while concurrent writers commit out of order', { timeout: 240_000 }, async () => {
    const operation = fc.oneof(
      fc.constant({ kind: 'open' as const }),
      fc.record({ kind: fc.constant('advance' as const), task: fc.nat() }),
      fc.record({ kind: fc.constant('read' as const), limit: fc.integer({ min: 1, max: 4 }) }),
    );
    const batches = fc.array(fc.array(operation, { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 6 });

    await fc.assert(
      fc.asyncProperty(batches, async (plan) => {
        const sessions: Awaited<ReturnType<typeof openSession>>[] = [];
        const seen = new Map<string, string>();
        let cursor: string | undefined;
        const read = async (limit: number) => {
          const page = await readPage(cursor, limit);
          for (const task of page.tasks) seen.set(task.assignedTaskUuid, versionOf(task));
          cursor = page.nextCursor;
        };
        // Each task is advanced by one writer at a time (its row lock would serialize them anyway); tasks run side by side.
        const advance = async (index: number) => {
          const session = sessions[index % sessions.length];
          if (!session) return;
          const view = await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(session.token) });
          const current = (view.json() as { currentStep: string | null }).currentStep;
          const action =
            current === 'welcome' ? { url: '/api/task/steps/welcome', payload: { data: {} } } : { url: '/api/task/restart', payload: {} };
          await t.app.inject({ method: 'POST', url: action.url, headers: bearer(session.token), payload: action.payload });
        };
        for (const batch of plan) {
          const busy = new Set<number>();
          await Promise.all(
            batch.map(async (step) => {
              if (step.kind === 'open') sessions.push(await openSession(t.app));
              else if (step.kind === 'read') await read(step.limit);
              else if (!busy.has(step.task % Math.max(1, sessions.length))) {
                busy.add(step.task % Math.max(1, sessions.length));
                await advance(step.task);
              }
            }),
          );
        }
        const stored = new Map<string, string>();
        for (const session of sessions) {
          const id = session.context.wxAssignedTaskUuid;
          const view = await t.app.inject({ method: 'GET', url: `/api/partner/v1/tasks/${id}`, headers: bearer(key) });
          stored.set(id, versionOf(view.json() as Change));
        }
        // The partner's next syncs. A transaction open anywhere on the Postgres server (another test's) holds the
        // feed back until it ends: the feed waits for it rather than pass over what it may still commit.
        const caughtUp = () => [...stored].every(([id, version]) => seen.get(id) === version);
        for (let page = 0, deadline = Date.now() + 20_000; !caughtUp() && Date.now() < deadline; page += 1) {
          const before = cursor;
          await read(3);
          if (cursor === before) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(Object.fromEntries(seen)).toMatchObject(Object.fromEntries(stored));
      }),
      { numRuns: engine.name === 'postgres' ? 15 : 8 },
    );
  });

  it('answers 400 invalid_cursor for a cursor it did not give', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/partner/v1/tasks?updatedAfter=bm9wZQ', headers: bearer(key) });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { error: { code: string } }).error.code).toBe('invalid_cursor');
  });
});
