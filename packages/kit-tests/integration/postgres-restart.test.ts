import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { AssignmentView } from '@partner-task-kit/dev/emulator/task-rules';
import { control } from '../helpers/emulator-control';
import { havePostgresBinaries, PG_BIN, PrivateCluster } from '../helpers/private-postgres';
import { freePort, platformEnv, spawnServer, TEST_METRICS_TOKEN, type ServerProcess } from '../helpers/server-process';
import { driveTaskThroughFaults, type DrivenTask } from '../helpers/task-load';
import { setTimeout as sleep } from 'node:timers/promises';

/** One answer of GET /readyz: when it was asked and answered (performance.now()), and its status (0: no answer at all). */
interface ReadinessSample {
  startedAt: number;
  endedAt: number;
  status: number;
}

/** Asks GET /readyz every `intervalMs` until stopped, one request at a time, keeping every answer. */
function sampleReadiness(url: string, intervalMs: number) {
  const samples: ReadinessSample[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const startedAt = performance.now();
      let status = 0;
      try {
        const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        // No answer: the process is gone or hung. Recorded as status 0 and asserted on below.
      }
      samples.push({ startedAt, endedAt: performance.now(), status });
      await sleep(intervalMs);
    }
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/**
 * Waits until every probe has `count` answers to polls it began after `since`: a busy machine polls less often, so the
 * test waits for the answers it looks at instead of counting on how many a stretch of time holds.
 */
async function awaitAnswers(probes: ReadonlyArray<{ samples: ReadinessSample[] }>, since: number, count: number, timeoutMs = 60_000) {
  await expect
    .poll(() => probes.map((probe) => probe.samples.filter((sample) => sample.startedAt > since).length), {
      timeout: timeoutMs,
      interval: 50,
    })
    .toSatisfy((answered: number[]) => answered.every((n) => n >= count));
}

/** Whether `part` appears in `whole` in the same order, possibly with other items between. */
function isSubsequence<T>(part: readonly T[], whole: readonly T[]): boolean {
  let next = 0;
  for (const item of whole) if (next < part.length && item === part[next]) next += 1;
  return next === part.length;
}

/** The application names the two servers connect with, so their backends can be found in pg_stat_activity. */
const INSTANCES = ['ptk_restart_a', 'ptk_restart_b'] as const;
const DATABASE = 'partner_tasks';
const TASKS = 24;
/** The readiness probe is cached for 1 s; an answer asked later than this after a change reflects it. */
const PROBE_CACHE_MS = 1_100;
/** After a termination, a probe that used a killed connection may report 503 for one probe period. */
const TERMINATION_GRACE_MS = 2_500;
/** The least time the database stays away; longer until each server has answered enough polls meanwhile. */
const OUTAGE_MS = 3_000;
/** Polls answered while the database is away that the test waits for, and checks. */
const POLLS_WHILE_AWAY = 5;
/** The interval of the server's log line about an unreachable database (packages/server/src/http/error-handling.ts). */
const DATABASE_REPORT_INTERVAL_MS = 10_000;
const RECOVERY_BOUND_MS = 15_000;

describe.skipIf(!havePostgresBinaries)(
  `two servers on one Postgres that drops its connections and restarts${havePostgresBinaries ? '' : ` (skipped: no initdb and pg_ctl in ${PG_BIN})`}`,
  () => {
    let directory: string | undefined;
    let cluster: PrivateCluster | undefined;
    let emulator: RunningEmulator | undefined;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      directory = mkdtempSync(join(tmpdir(), 'ptk-pg-restart-'));
      cluster = new PrivateCluster(directory, await freePort());
      await cluster.init();
      await cluster.start();
      await cluster.query('postgres', `create database ${DATABASE}`);
      emulator = await startEmulator();
    }, 60_000);

    afterAll(async () => {
      // Each step runs even when an earlier one fails: a cluster left running would hold its port and directory.
      await Promise.allSettled(servers.splice(0).map((server) => server.kill('SIGKILL')));
      await emulator?.close().catch(() => {});
      await cluster?.destroy().catch(() => {});
      if (directory) rmSync(directory, { recursive: true, force: true });
    }, 60_000);

    it('stays up, reports 503 exactly while the database is away, and delivers every acknowledged update in order', async ({
      onTestFailed,
    }) => {
      const db = cluster!;
      const platform = emulator!;
      const [a, b] = await Promise.all(
        INSTANCES.map((name) =>
          spawnServer(
            platformEnv(platform.url, {
              DATABASE_URL: db.url(DATABASE, name),
              RATE_LIMIT_PER_ADDRESS: '0',
              RATE_LIMIT_PER_TASK: '0',
              UPSTREAM_TIMEOUT_MS: '2000',
            }),
            30_000,
          ),
        ),
      );
      servers.push(a!, b!);
      const instances = [a!, b!];
      const logs = () => instances.map((server, index) => `--- ${INSTANCES[index]} ---\n${server.output()}`).join('\n');
      // A failure here is a timing story: print both servers' logs and the cluster's, which the temporary directory loses.
      onTestFailed(() => {
        console.info(`${logs()}\n--- postgres ---\n${db.logText()}`);
      });

      const probes = instances.map((server) => sampleReadiness(server.url, 100));
      const began = performance.now();
      let stopLoad = false;
      // Each request of a task goes to either server at random: both write the same tasks, both relays deliver them.
      const pick = () => (Math.random() < 0.5 ? a!.url : b!.url);
      const tasks: DrivenTask[] = Array.from({ length: TASKS }, () => ({
        assignedTaskUuid: randomUUID(),
        acked: [],
        committed: [],
        failedAt: [],
      }));
      // The deadline only ends a drive whose server or database never came back: far beyond a slow machine's run.
      const load = Promise.all(
        tasks.map((task) =>
          driveTaskThroughFaults(pick, task, { stop: () => stopLoad, pauseMs: 150, retryMs: 100, deadline: began + 150_000 }),
        ),
      );
      const acknowledged = () => tasks.reduce((sum, task) => sum + task.acked.length, 0);

      // Faults begin once the load is well under way, with requests and deliveries in flight on both servers, and each
      // server has answered readiness polls from before them.
      await expect.poll(acknowledged, { timeout: 60_000, interval: 20 }).toBeGreaterThan(150);
      await awaitAnswers(probes, began, 11);

      // Three rounds of pg_terminate_backend on every connection of both servers, a few hundred ms apart, each once both
      // servers have connected again under the load (a busy machine may take longer than those few hundred ms).
      const terminations: Array<{ at: number; done: number; perInstance: Record<string, number> }> = [];
      const connected = async () =>
        (
          await db.query<{ application_name: string }>(
            DATABASE,
            `select distinct application_name from pg_stat_activity where application_name = any($1)`,
            [INSTANCES],
          )
        ).length;
      for (let round = 0; round < 3; round += 1) {
        await expect.poll(connected, { timeout: 30_000, interval: 50 }).toBe(INSTANCES.length);
        const at = performance.now();
        const rows = await db.query<{ application_name: string; terminated: boolean }>(
          DATABASE,
          `select application_name, pg_terminate_backend(pid) as terminated from pg_stat_activity
         where pid <> pg_backend_pid() and application_name = any($1)`,
          [INSTANCES],
        );
        const perInstance = Object.fromEntries(
          INSTANCES.map((name) => [name, rows.filter((row) => row.application_name === name && row.terminated).length]),
        );
        terminations.push({ at, done: performance.now(), perInstance });
        await sleep(400);
      }
      const terminationsEnd = terminations.at(-1)!.done;
      await sleep(TERMINATION_GRACE_MS);
      const ackedBeforeOutage = acknowledged();

      // The restart: a clean stop, then the database stays away long enough for readiness to show it.
      const stopAsked = performance.now();
      await db.stop('fast');
      const stopped = performance.now();
      await sleep(OUTAGE_MS);
      // Away until each server has answered polls asked past the probe's cache: those are what the 503s are checked on.
      await awaitAnswers(probes, stopped + PROBE_CACHE_MS, POLLS_WHILE_AWAY);
      const startAsked = performance.now();
      await db.start();
      const started = performance.now();

      // Each server answers 200 again within a bounded time after the database is back.
      const recoveredAt = (index: number) =>
        probes[index]!.samples.find((sample) => sample.startedAt >= started && sample.status === 200)?.endedAt;
      await expect
        .poll(() => [0, 1].every((index) => recoveredAt(index) !== undefined), { timeout: RECOVERY_BOUND_MS, interval: 100 })
        .toBe(true);
      // Some more load once both are back, then the drivers stop at the end of their current action.
      const ackedAtRecovery = acknowledged();
      await expect.poll(acknowledged, { timeout: 60_000, interval: 20 }).toBeGreaterThan(ackedAtRecovery + 100);
      stopLoad = true;
      await load;
      await sleep(1_500);
      await awaitAnswers(probes, Math.max(recoveredAt(0)!, recoveredAt(1)!), 11);
      await Promise.all(probes.map((probe) => probe.stop()));

      // Both processes are still up: every fault above was survived, not restarted by a supervisor.
      expect(instances.map((server) => server.child.exitCode)).toEqual([null, null]);
      expect(instances.map((server) => server.child.signalCode)).toEqual([null, null]);
      expect(logs()).not.toMatch(/Unhandled 'error' event|uncaughtException|unhandledRejection/);
      // A request that met the database away was answered 503 database_unreachable, not as a bug of ours (500 with a
      // stack), and the log says so a few times, not once per request: a server writes the line for a cause at most
      // once an interval. Checked on the lines' own times, not on a count, which a slower run's longer faults raise.
      expect(logs()).not.toContain('unhandled error');
      const failedRequests = tasks.reduce((sum, task) => sum + task.failedAt.length, 0);
      let databaseLines = 0;
      for (const server of instances) {
        const lines = server
          .output()
          .split('\n')
          .filter((line) => line.includes('the database cannot serve requests'))
          .map((line) => ({ time: Number(/"time":(\d+)/.exec(line)?.[1]), cause: /"cause":"([^"]*)"/.exec(line)?.[1] }));
        databaseLines += lines.length;
        for (const [index, line] of lines.entries()) {
          const previous = lines.slice(0, index).findLast((earlier) => earlier.cause === line.cause);
          // The log's clock is Date's, the throttle's performance.now(): a millisecond of rounding between them.
          if (previous) expect(line.time - previous.time, JSON.stringify(lines)).toBeGreaterThanOrEqual(DATABASE_REPORT_INTERVAL_MS - 5);
        }
      }
      expect(databaseLines).toBeLessThan(failedRequests);

      // Requests fail only during the faults: none before the first termination, none between the terminations' grace
      // and the stop, none once both servers are ready again (a pool handing out dead connections would show here).
      const bothRecovered = Math.max(recoveredAt(0)!, recoveredAt(1)!);
      const failedOutsideFaults = tasks
        .flatMap((task) => task.failedAt)
        .filter(
          (at) => at < terminations[0]!.at || (at > terminationsEnd + TERMINATION_GRACE_MS && at < stopAsked) || at > bothRecovered + 1_000,
        )
        .map(Math.round);
      expect(
        failedOutsideFaults,
        `requests failed outside the faults; stop at ${Math.round(stopAsked)}, ready at ${Math.round(bothRecovered)}`,
      ).toEqual([]);

      // Every termination round hit both servers: each had connections open under the load.
      for (const termination of terminations) {
        for (const name of INSTANCES)
          expect(termination.perInstance[name], `${name} in ${JSON.stringify(terminations)}`).toBeGreaterThan(0);
      }

      // Readiness, instance by instance, against the timeline of the faults.
      const recoveryMs: number[] = [];
      probes.forEach((probe, index) => {
        const name = INSTANCES[index]!;
        const samples = probe.samples;
        // Every poll had an answer: the HTTP server never stopped serving.
        expect(
          samples.filter((sample) => sample.status === 0),
          name,
        ).toEqual([]);
        // While the database is away, and past the probe's cache, every answer is 503 (the outage lasted until each
        // server had answered POLLS_WHILE_AWAY such polls).
        const away = samples.filter((sample) => sample.startedAt > stopped + PROBE_CACHE_MS && sample.endedAt < startAsked);
        expect(away.length, `${name}: polls while the database was away`).toBeGreaterThanOrEqual(POLLS_WHILE_AWAY);
        expect(
          away.filter((sample) => sample.status !== 503),
          name,
        ).toEqual([]);
        // Back within the bound, and 200 from then on.
        const recovered = recoveredAt(index)!;
        recoveryMs.push(Math.round(recovered - started));
        expect(recovered - started, `${name}: time from the database's return to 200`).toBeLessThan(RECOVERY_BOUND_MS);
        const afterRecovery = samples.filter((sample) => sample.startedAt > recovered);
        expect(afterRecovery.length, name).toBeGreaterThan(10);
        expect(
          afterRecovery.filter((sample) => sample.status !== 200),
          `${name}: after recovery`,
        ).toEqual([]);
        // Before the stop, 200 throughout but for the terminations and the probe period after them.
        const beforeStop = samples.filter(
          (sample) =>
            sample.endedAt < stopAsked &&
            (sample.endedAt < terminations[0]!.at || sample.startedAt > terminationsEnd + TERMINATION_GRACE_MS),
        );
        expect(beforeStop.length, name).toBeGreaterThan(10);
        expect(
          beforeStop.filter((sample) => sample.status !== 200),
          `${name}: before the outage`,
        ).toEqual([]);
        // Readiness fell when the database went away: not a probe that never looked.
        expect(samples.some((sample) => sample.startedAt > stopped && sample.status === 503)).toBe(true);
      });

      // Every update the database holds reaches the platform; the acknowledged ones are among them by construction.
      expect(tasks.filter((task) => task.unresolved)).toEqual([]);
      const emulatorControl = control(platform.url);
      const appliedOf = async (task: DrivenTask) => {
        const view = await emulatorControl.assignment<AssignmentView>(task.assignedTaskUuid).catch(() => undefined);
        return (view?.trail ?? []).flatMap((entry) => (entry.kind === 'partner' && entry.outcome === 'applied' ? [entry] : []));
      };
      await expect
        .poll(
          async () =>
            (await Promise.all(tasks.map(async (task) => (await appliedOf(task)).length >= task.committed.length))).every(Boolean),
          {
            timeout: 30_000,
            interval: 200,
          },
        )
        .toBe(true);

      const accepted = (await emulatorControl.requests('partnerTask')).filter(
        (request) => request.status !== null && request.status >= 200 && request.status < 300,
      );
      let duplicates = 0;
      for (const task of tasks) {
        const view = await emulatorControl.assignment<AssignmentView>(task.assignedTaskUuid);
        const partner = view.trail.flatMap((entry) => (entry.kind === 'partner' ? [entry] : []));
        expect(view.trailDropped).toBe(0);
        // Applied exactly the updates the database holds, in their order: every acknowledged one, none invented.
        const applied = partner.filter((entry) => entry.outcome === 'applied');
        expect(applied.map((entry) => entry.record.taskStatus)).toEqual(task.committed);
        // In sentAt order, so the platform never set one aside as obsolete.
        const sentAts = applied.map((entry) => Date.parse(entry.record.sentAt));
        expect(sentAts.every((sentAt, index) => index === 0 || sentAt > sentAts[index - 1]!)).toBe(true);
        expect(partner.filter((entry) => entry.outcome === 'obsolete')).toEqual([]);
        // A delivery whose record was cut by a termination is sent again; the platform ignores the identical copy.
        duplicates += partner.filter((entry) => entry.outcome === 'duplicate').length;

        // The request log agrees: the accepted requests for this task, in arrival order, carry those updates, a
        // repeated one only right after itself.
        const received = accepted
          .filter((request) => request.path.endsWith(`/${task.assignedTaskUuid}`))
          .map((request) => request.body as { taskStatus: string; sentAt: string });
        const distinct = received.filter((body, index) => index === 0 || body.sentAt !== received[index - 1]!.sentAt);
        expect(distinct.map((body) => Date.parse(body.sentAt))).toEqual(sentAts);
        expect(distinct.map((body) => body.taskStatus)).toEqual(task.committed);
        expect(isSubsequence(task.acked, task.committed)).toBe(true);
      }

      // Nothing is left waiting or dead on either server.
      for (const server of instances) {
        const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } })).text();
        expect(metrics).toMatch(/^partner_task_outbox_pending\{lane="platform"\} 0$/m);
        expect(metrics).toMatch(/^partner_task_outbox_dead_letters\{lane="platform"\} 0$/m);
      }

      const summary = {
        seconds: Math.round((performance.now() - began) / 100) / 10,
        acknowledged: acknowledged(),
        ackedBeforeOutage,
        committed: tasks.reduce((sum, task) => sum + task.committed.length, 0),
        failedRequests: tasks.reduce((sum, task) => sum + task.failedAt.length, 0),
        terminated: terminations.map((termination) => termination.perInstance),
        duplicates,
        recoveryMs,
      };
      console.info(`postgres restart under load: ${JSON.stringify(summary)}`);
    }, 240_000);
  },
);
