import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPartnerKey } from '@partner-task-kit/server/partner-api/partner-key-secret';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import { eraseWorker } from '@partner-task-kit/server/retention/worker-erasure';
import { findTaskByAssignedTaskUuid, releaseTask, saveLockedTask } from '@partner-task-kit/server/store/tasks.repository';
import { insertPartnerKey } from '@partner-task-kit/server/store/partner-keys.repository';
import { bearer, newContext, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

interface Change {
  assignedTaskUuid: string;
  status: string;
  attempt: number;
  currentStep: string | null;
  rejected: boolean;
  updatedAt: string;
}
interface Removal {
  assignedTaskUuid: string;
  reason: string;
}
interface Page {
  tasks: Change[];
  /** Absent before removals were told (the test runs against older code too). */
  removed?: Removal[];
  nextCursor: string;
  count: number;
}
const versionOf = (task: Change) => `${task.status}/${task.attempt}/${task.currentStep}/${task.rejected}/${task.updatedAt}`;
const REMOVED = 'removed';

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
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Page;
  };

  it('meets every change, erasures included, while concurrent writers commit out of order', { timeout: 240_000 }, async () => {
    const operation = fc.oneof(
      fc.constant({ kind: 'open' as const }),
      fc.record({ kind: fc.constant('advance' as const), task: fc.nat() }),
      fc.record({ kind: fc.constant('erase' as const), task: fc.nat() }),
      fc.record({ kind: fc.constant('read' as const), limit: fc.integer({ min: 1, max: 4 }) }),
    );
    const batches = fc.array(fc.array(operation, { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 6 });

    await fc.assert(
      fc.asyncProperty(batches, async (plan) => {
        const sessions: Awaited<ReturnType<typeof openSession>>[] = [];
        const seen = new Map<string, string>();
        let cursor: string | undefined;
        const erased = new Set<string>();
        const read = async (limit: number) => {
          const page = await readPage(cursor, limit);
          // One page names an assigned task once, in `tasks` or in `removed`.
          const removed = page.removed ?? [];
          const named = [...page.tasks, ...removed].map((entry) => entry.assignedTaskUuid);
          expect(new Set(named).size).toBe(named.length);
          expect(page.count).toBe(named.length);
          for (const task of page.tasks) seen.set(task.assignedTaskUuid, versionOf(task));
          for (const removal of removed) seen.set(removal.assignedTaskUuid, REMOVED);
          cursor = page.nextCursor;
        };
        // Each task is advanced by one writer at a time (its row lock would serialize them anyway); tasks run side by side.
        const advance = async (index: number) => {
          const session = sessions[index % sessions.length];
          if (!session || erased.has(session.context.wxAssignedTaskUuid)) return;
          const view = await t.app.inject({ method: 'GET', url: '/api/task', headers: bearer(session.token) });
          const current = (view.json() as { currentStep: string | null }).currentStep;
          const action =
            current === 'welcome' ? { url: '/api/task/steps/welcome', payload: { data: {} } } : { url: '/api/task/restart', payload: {} };
          await t.app.inject({ method: 'POST', url: action.url, headers: bearer(session.token), payload: action.payload });
        };
        // `npm run tasks -- erase --worker`, as the command runs it, beside the requests.
        const erase = async (index: number) => {
          const session = sessions[index % sessions.length];
          if (!session || erased.has(session.context.wxAssignedTaskUuid)) return;
          erased.add(session.context.wxAssignedTaskUuid);
          await eraseWorker(t.database.store, {
            workerUuid: session.context.wxWorkerUuid,
            by: 'test',
            now: t.clock.now(),
            uploadFiles: t.uploadFiles,
          });
        };
        for (const batch of plan) {
          const busy = new Set<number>();
          await Promise.all(
            batch.map(async (step) => {
              if (step.kind === 'open') sessions.push(await openSession(t.app));
              else if (step.kind === 'read') await read(step.limit);
              else if (step.kind === 'erase') {
                if (busy.has(step.task % Math.max(1, sessions.length))) return;
                busy.add(step.task % Math.max(1, sessions.length));
                await erase(step.task);
              } else if (!busy.has(step.task % Math.max(1, sessions.length))) {
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
          if (erased.has(id)) expect(view.statusCode).toBe(404);
          stored.set(id, erased.has(id) ? REMOVED : versionOf(view.json() as Change));
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

  /** Reads from `cursor` until a page comes back empty; returns the pages' entries and the last cursor. */
  const readToHead = async (cursor: string | undefined, headers = bearer(key)) => {
    const pages: Page[] = [];
    for (;;) {
      const query = new URLSearchParams({ limit: '50', ...(cursor === undefined ? {} : { updatedAfter: cursor }) });
      const response = await t.app.inject({ method: 'GET', url: `/api/partner/v1/tasks?${query}`, headers });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as Page;
      pages.push(page);
      if (page.count === 0) return { pages, cursor: page.nextCursor };
      cursor = page.nextCursor;
    }
  };

  it('tells a release and answers erased by retention as changes', async () => {
    const { cursor: start } = await readToHead(undefined);
    const released = await openSession(t.app);
    const finished = await openSession(t.app);
    const task = await findTaskByAssignedTaskUuid(t.database.store.db, finished.context.wxAssignedTaskUuid);
    await saveLockedTask(t.database.store.db, task!, { status: 'completed', stepData: { welcome: { said: 'hello' } } }, t.clock.now());
    // No relay runs here: its `ready` counts as delivered, or retention would wait for it.
    await t.database.store.db
      .updateTable('outbox')
      .set({ state: 'delivered', delivered_at: t.clock.now() })
      .where('task_id', '=', task!.id)
      .execute();
    const { cursor: atHead } = await readToHead(start);

    await releaseTask(t.database.store.db, released.context.wxAssignedTaskUuid, t.clock.now());
    const retention = { outboxMs: 365 * 86_400_000, taskDataMs: 86_400_000 };
    expect(
      (await runRetention(t.database.store, { now: t.clock.now() + 2 * 86_400_000, retention, uploadFiles: t.uploadFiles })).tasksErased,
    ).toBeGreaterThan(0);

    const { pages } = await readToHead(atHead);
    const removed = pages.flatMap((page) => page.removed ?? []);
    expect(removed).toContainEqual(expect.objectContaining({ assignedTaskUuid: released.context.wxAssignedTaskUuid, reason: 'released' }));
    const moved = pages.flatMap((page) => page.tasks).map((entry) => entry.assignedTaskUuid);
    expect(moved).toContain(finished.context.wxAssignedTaskUuid);
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/partner/v1/tasks/${finished.context.wxAssignedTaskUuid}`,
      headers: bearer(key),
    });
    expect((view.json() as { stepData: unknown }).stepData).toEqual({});
  });

  it("seals its cursor: a company's cursor does not move with another company's changes", async () => {
    const company = randomUUID();
    const created = newPartnerKey();
    await insertPartnerKey(t.database.store.db, {
      name: `company-${company}`,
      prefix: created.prefix,
      keyHash: created.keyHash,
      companyUuid: company,
      now: t.clock.now(),
    });
    const companyKey = bearer(created.key);
    await openSession(t.app, { ...newContext(), wxCompanyUuid: company });
    const { cursor: before } = await readToHead(undefined, companyKey);
    // Other companies' work: their markers pass the company's, which must not show in its cursor.
    for (let index = 0; index < 20; index += 1) await openSession(t.app);
    const { cursor: after, pages } = await readToHead(before, companyKey);
    expect(pages.flatMap((page) => page.tasks)).toEqual([]);
    expect(after).toBe(before);
    // Nothing readable inside: no marker in any part of it.
    for (const part of before.split('.')) expect(Buffer.from(part, 'base64url').toString('latin1')).not.toMatch(/v1\.\d+\.\d+/);
    // The cursor of another key's secret, and one edited, are refused.
    const edited = `${before.slice(0, -2)}${before.endsWith('AA') ? 'AB' : 'AA'}`;
    for (const cursor of [edited, 'bm9wZQ']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/partner/v1/tasks?updatedAfter=${cursor}`, headers: companyKey });
      expect(response.statusCode).toBe(400);
      expect((response.json() as { error: { code: string } }).error.code).toBe('invalid_cursor');
    }
    // A cursor of the earlier plain form, as a partner stored it before the upgrade, is still read.
    const plain = Buffer.from('v1.0.0').toString('base64url');
    const response = await t.app.inject({ method: 'GET', url: `/api/partner/v1/tasks?updatedAfter=${plain}`, headers: companyKey });
    expect(response.statusCode).toBe(200);
    expect((response.json() as Page).count).toBe(1);
  });
});
