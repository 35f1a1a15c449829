import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer, type RunningServer } from '@partner-task-kit/server/server';
import { openStore } from '@partner-task-kit/server/store/store';
import { insertTask } from '@partner-task-kit/server/store/tasks.repository';
import { testWorkflows } from '../helpers/test-workflows';

const DAY = 24 * 60 * 60_000;
let directory: string;
let server: RunningServer | undefined;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-retention-'));
});

afterEach(async () => {
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('the retention job of a running server', () => {
  it('prunes the deliveries past OUTBOX_RETENTION_DAYS as it starts, and says so once', async () => {
    const filename = join(directory, 'server.db');
    const seeding = await openStore({ kind: 'sqlite', filename });
    const longAgo = Date.now() - 40 * DAY;
    const task = await insertTask(seeding.db, {
      ...{ assignedTaskUuid: randomUUID(), workerUuid: randomUUID(), taskFlowUuid: randomUUID(), companyUuid: randomUUID() },
      ...{ workflowId: 'safety-training', now: longAgo },
    });
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 250)
      insert into outbox (task_id, assigned_task_uuid, company_uuid, lane, payload, sent_at, state, attempts, next_attempt_at, created_at, delivered_at)
      select ${task.id}, ${task.assignedTaskUuid}, ${task.companyUuid}, 'platform', '{}', ${longAgo} + i, 'delivered', 1, ${longAgo},
        ${longAgo} + i, ${longAgo} + i
      from n`.execute(seeding.db);
    await seeding.close();

    const parsed = parseConfig({ PORT: '0', DATABASE_URL: filename, OUTBOX_RETENTION_DAYS: '30' });
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    server = await startServer(parsed.config, { workflows: testWorkflows, log: createLogger('info', stream) });

    const remaining = async () => Number((await sql<{ n: number }>`select count(*) as n from outbox`.execute(server!.store.db)).rows[0]!.n);
    await expect.poll(remaining, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => lines.filter((line) => line.includes('retention: deleted')).length).toBe(1);
    expect(JSON.parse(lines.find((line) => line.includes('retention: deleted'))!)).toMatchObject({ outboxRows: 249, tasksErased: 0 });
  }, 30_000);
});
