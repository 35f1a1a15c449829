import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Store, type StoreOptions } from '@partner-task-kit/server/store/store';
import type { OutboxLane } from '@partner-task-kit/server/store/outbox.table';
import { systemClock } from '@partner-task-kit/server/clock';
import { taskServices, type ServiceTask, type TaskServices, type TaskServicesOptions } from '../helpers/task-services';
import { deliverEverything } from '../helpers/worker-answers';
import { createPostgresDatabase } from '../helpers/test-databases';

/** Figures that make a benchmark's numbers comparable: which machine, which Node, when. */
export function machine() {
  return { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version, date: new Date().toISOString() };
}

/** The middle value of `list` (the upper one of an even count). */
export function median(list: number[]): number {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
}

/** A benchmark's progress lines, on standard error, so its figures alone go to standard output. */
export function benchProgress(suite: string): (line: string) => void {
  return (line) => void process.stderr.write(`bench ${suite}: ${line}\n`);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export interface EmulatorProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The emulator in a process of its own, as the real platform would be: the relay and the emulator do not share an
 * event loop, so one's work does not slow the other's clock.
 */
export function spawnEmulator(): Promise<EmulatorProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/dev/src/emulator/main.ts', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({
          url: match[1]!,
          child,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`emulator exited early with ${code}`)));
  });
}

/** Runs `task` for indices 0..count-1 with at most `concurrency` at once. */
export async function runPool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        await task(index);
      }
    }),
  );
}

/** Postgres of the benchmarks: BENCH_POSTGRES_URL, or the machine's own. */
export const benchPostgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh store for one run: a SQLite file in a temporary directory, or a Postgres schema; removed afterwards. */
export async function withBenchStore<T>(engine: string, run: (store: Store) => Promise<T>, sqliteOptions: StoreOptions = {}): Promise<T> {
  if (engine === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-'));
    const store = await openStore({ kind: 'sqlite', filename: join(directory, 'bench.db') }, sqliteOptions);
    try {
      return await run(store);
    } finally {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    }
  }
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const store = await openStore({ kind: 'postgres', url: benchPostgresUrl }, { schema });
  try {
    return await run(store);
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: benchPostgresUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

/** A database of its own on the benchmarks' Postgres, dropped by `cleanup`. */
export const createBenchDatabase = () => createPostgresDatabase('bench', benchPostgresUrl);

/**
 * `count` tasks opened as workers open them, through the services a request calls, and those services, which write
 * each next update the way a request does. Each opening's `ready` is delivered at once: a benchmark's backlog is made
 * of the updates it writes itself.
 */
export async function openBenchTasks(
  store: Store,
  count: number,
  options: TaskServicesOptions = {},
): Promise<{ services: TaskServices; tasks: ServiceTask[] }> {
  const services = taskServices(store, options);
  const tasks: ServiceTask[] = [];
  for (let index = 0; index < count; index += 1) tasks.push(await services.open());
  await deliverEverything(store, (options.clock ?? systemClock).now());
  return { services, tasks };
}

/** Polls until no row of `lane` (by default, any lane) is pending: the end of a drain, read off the outbox itself. */
export async function waitUntilDrained(store: Store, lane?: OutboxLane): Promise<void> {
  for (;;) {
    const row = await store.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .$if(lane !== undefined, (qb) => qb.where('lane', '=', lane!))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
