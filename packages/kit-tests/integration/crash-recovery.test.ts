import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { TrailEntry } from '@partner-task-kit/dev/emulator/task-rules';
import { freePort, platformEnv, spawnServer, type ServerProcess } from '../helpers/server-process';
import { driveTask, type AckedTask } from '../helpers/task-load';
import { testDatabase } from '../helpers/test-databases';

/**
 * The emulator lives in the test process so its audit trail survives the server's death: it is the platform's record
 * of what arrived, in which order, and what was applied.
 */
let emulator: RunningEmulator;
let directory: string;
const servers: ServerProcess[] = [];

beforeEach(async () => {
  emulator = await startEmulator();
  directory = mkdtempSync(join(tmpdir(), 'ptk-crash-'));
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill('SIGKILL')));
  await emulator.close();
  rmSync(directory, { recursive: true, force: true });
});

function partnerEntries(assignedTaskUuid: string) {
  const trail: TrailEntry[] = emulator.state.assignments.get(assignedTaskUuid)?.trail ?? [];
  return trail.flatMap((entry) => (entry.kind === 'partner' ? [entry] : []));
}

/** Every acknowledged update arrived and was applied in order; nothing was applied twice; nothing arrived late. */
function expectDeliveredInOrder(tasks: AckedTask[], options: { duplicatesAllowed: boolean }) {
  let duplicates = 0;
  for (const task of tasks) {
    const entries = partnerEntries(task.assignedTaskUuid);
    const applied = entries.filter((entry) => entry.outcome === 'applied');
    // A request cut off by the crash may have committed without its answer: at most one update more than acknowledged.
    expect(applied.length - task.acked.length).toBeGreaterThanOrEqual(0);
    expect(applied.length - task.acked.length).toBeLessThanOrEqual(1);
    expect(applied.slice(0, task.acked.length).map((entry) => entry.record.taskStatus)).toEqual(task.acked);
    const sentAts = applied.map((entry) => Date.parse(entry.record.sentAt));
    sentAts.forEach((sentAt, index) => index > 0 && expect(sentAt).toBeGreaterThan(sentAts[index - 1]!));
    expect(entries.filter((entry) => entry.outcome === 'obsolete')).toEqual([]);
    duplicates += entries.filter((entry) => entry.outcome === 'duplicate').length;
  }
  if (!options.duplicatesAllowed) expect(duplicates).toBe(0);
  return duplicates;
}

async function waitUntilDelivered(tasks: AckedTask[]) {
  await expect
    .poll(
      () =>
        tasks.every(
          (task) => partnerEntries(task.assignedTaskUuid).filter((entry) => entry.outcome === 'applied').length >= task.acked.length,
        ),
      { timeout: 45_000, interval: 100 },
    )
    .toBe(true);
}

describe('durability', () => {
  it('delivers every acknowledged update, in order, after the server is killed with SIGKILL mid-load', async () => {
    const port = String(await freePort());
    const env = platformEnv(emulator.url, {
      PORT: port,
      DATABASE_URL: join(directory, 'crash.db'),
      RATE_LIMIT_PER_ADDRESS: '0',
      UPSTREAM_TIMEOUT_MS: '2000',
    });
    const first = await spawnServer(env);
    servers.push(first);

    const tasks: AckedTask[] = Array.from({ length: 40 }, () => ({ assignedTaskUuid: randomUUID(), acked: [] }));
    const load = Promise.all(tasks.map((task) => driveTask(() => first.url, 50, task)));
    // Kill once the load is well under way, with requests and deliveries in flight: however long a busy machine takes
    // to get there (the drivers stop by themselves after 50 cycles, far beyond it).
    await expect
      .poll(() => tasks.reduce((sum, task) => sum + task.acked.length, 0), { timeout: 60_000, interval: 20 })
      .toBeGreaterThan(600);
    await first.kill('SIGKILL');
    await load;
    const acknowledged = tasks.reduce((sum, task) => sum + task.acked.length, 0);
    const arrivedBeforeRestart = tasks.reduce((sum, task) => sum + partnerEntries(task.assignedTaskUuid).length, 0);
    expect(arrivedBeforeRestart).toBeLessThan(acknowledged + tasks.length);

    const second = await spawnServer(env);
    servers.push(second);
    await waitUntilDelivered(tasks);
    expectDeliveredInOrder(tasks, { duplicatesAllowed: true });
  }, 180_000);

  it('shares one Postgres outbox between two server processes without delivering an update twice', async () => {
    const database = await testDatabase('postgres').create();
    try {
      const { url } = database;
      const [a, b] = await Promise.all([
        spawnServer(platformEnv(emulator.url, { DATABASE_URL: url })),
        spawnServer(platformEnv(emulator.url, { DATABASE_URL: url })),
      ]);
      servers.push(a!, b!);
      // Each request of a task goes to either server at random: both enqueue for the same tasks, both relays deliver.
      const pick = () => (Math.random() < 0.5 ? a!.url : b!.url);
      const tasks: AckedTask[] = Array.from({ length: 20 }, () => ({ assignedTaskUuid: randomUUID(), acked: [] }));
      await Promise.all(tasks.map((task) => driveTask(pick, 15, task)));
      expect(tasks.every((task) => task.acked.length === 31)).toBe(true);
      await waitUntilDelivered(tasks);
      expectDeliveredInOrder(tasks, { duplicatesAllowed: false });
      const partnerRequests = emulator.state.requests.list('partnerTask').length;
      expect(partnerRequests).toBe(20 * 31);
    } finally {
      await Promise.all(servers.splice(0).map((server) => server.kill('SIGTERM')));
      await database.cleanup();
    }
  }, 90_000);
});
