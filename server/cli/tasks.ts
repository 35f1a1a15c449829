import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { systemClock } from '../clock';
import { loadConfigOrExit } from '../config';
import { createLogger } from '../logger';
import { eraseWorker, type WorkerErasure } from '../retention/worker-erasure';
import { openStore, type Store } from '../store/store';
import { releaseTask } from '../store/tasks.repository';
import { exportWorkerData } from '../store/worker-data.repository';
import { revealSealed } from '../sensitive/reveal-sealed';
import { sensitiveKeyRingOf } from '../sensitive/sensitive-keys';

const usage = `Usage: npm run -s tasks -- <command>
  release <assigned-task-uuid>
            forgets a task's binding to a worker, flow and company (and its undelivered updates), so the next session
            for it binds anew: for a worker locked out (409 context_mismatch) by someone who opened their task first,
            or for a task rejected by mistake. The server's security log names both contexts.
  export --worker <uuid> [--reveal-sensitive [--by <name>]]
            prints everything stored about the worker as JSON: their tasks with context, step data and history, the
            updates to the platform and events to your backend with their delivery state, and the partner API's
            answers stored about them. Sensitive values are masked; --reveal-sensitive shows them in clear and
            records each reveal under "tasks export by <the OS user, or --by>".
  erase --worker <uuid> [--by <name>]
            deletes everything stored about the worker, undelivered updates and events included, and says what was
            dropped; logs who erased (the OS user, or --by) and when, never whose data.`;

type Command =
  | { name: 'release'; assignedTaskUuid: string }
  | { name: 'export'; worker: string; reveal: boolean; by: string | undefined }
  | { name: 'erase'; worker: string; by: string | undefined };

/** `npm run tasks`: an operator's hand on one task, or on everything stored about one worker. */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const command = parseCommand(argv);
  if (typeof command === 'string') {
    process.stderr.write(`${command}\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const store = await openStore(config.database);
  try {
    if (command.name === 'release') return await release(store, command.assignedTaskUuid);
    if (command.name === 'export') {
      const revealer = {
        by: `tasks export by ${command.by ?? operatingSystemUser()}`,
        keys: sensitiveKeyRingOf(config),
        now: systemClock.now(),
      };
      const reveal = command.reveal ? (task: Parameters<typeof revealSealed>[2]) => revealSealed(store.db, revealer, task) : undefined;
      process.stdout.write(`${JSON.stringify(await exportWorkerData(store.db, command.worker, reveal), null, 2)}\n`);
      return 0;
    }
    const by = command.by ?? operatingSystemUser();
    const erasure = await eraseWorker(store, { workerUuid: command.worker, by, now: systemClock.now() });
    // Who and when, as the server logs (JSON, on standard error): never whose data, which an erasure must not keep.
    createLogger(config.logLevel, pino.destination({ dest: 2, sync: true })).info(
      { by },
      "erased a worker's data (npm run tasks -- erase)",
    );
    process.stdout.write(describeErasure(command.worker, erasure));
    if (erasure.walTruncated) return 0;
    process.stderr.write(
      'erase: the SQLite WAL stayed busy, so erased values are still in its older frames: run the same erase again when the server is less busy\n',
    );
    return 1;
  } finally {
    await store.close();
  }
}

/** The command, or the one line saying what was expected instead. */
function parseCommand(argv: string[]): Command | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { worker: { type: 'string' }, by: { type: 'string' }, 'reveal-sensitive': { type: 'boolean' } },
    });
  } catch (error) {
    const problem = error instanceof Error ? error.message.split('. ')[0] : String(error);
    return `tasks: ${problem}: expected release <uuid>, export --worker <uuid> or erase --worker <uuid> [--by <name>]`;
  }
  const [name, ...rest] = parsed.positionals;
  const { worker, by } = parsed.values;
  const reveal = parsed.values['reveal-sensitive'] === true;
  if (reveal && name !== 'export') return `${name ?? 'tasks'}: expected --reveal-sensitive only with export`;
  if (name !== 'release' && name !== 'export' && name !== 'erase') {
    return `tasks: expected a command (release, export or erase), got ${JSON.stringify(name ?? '')}`;
  }
  if (name === 'release') {
    const id = rest[0]?.trim();
    if (!z.uuid().safeParse(id).success || rest.length > 1) {
      return `release: expected the assigned task's UUID, got ${JSON.stringify(rest.join(' '))}`;
    }
    if (worker !== undefined || by !== undefined) return 'release: expected only the assigned task UUID, no --worker or --by';
    return { name, assignedTaskUuid: id! };
  }
  if (rest.length > 0) return `${name}: expected no argument but --worker <uuid>, got ${JSON.stringify(rest.join(' '))}`;
  if (!z.uuid().safeParse(worker?.trim()).success) return `${name}: expected --worker <uuid>, got ${JSON.stringify(worker ?? '')}`;
  if (name === 'export' && by !== undefined && !reveal)
    return 'export: expected no --by without --reveal-sensitive: only a reveal is recorded';
  if (by !== undefined && !/^[\x21-\x7e][\x20-\x7e]{0,99}$/.test(by)) {
    return `${name}: expected --by <name> (1 to 100 printable characters), got ${JSON.stringify(by)}`;
  }
  if (name === 'export') return { name, worker: worker!.trim(), reveal, by };
  return { name, worker: worker!.trim(), by };
}

async function release(store: Store, id: string): Promise<number> {
  // Exactly as received: task ids are kept as the platform sent them (docs/platform.md#the-update-endpoint).
  const released = await releaseTask(store.db, id, systemClock.now());
  if (!released) {
    process.stderr.write(`release: no task ${id} here\n`);
    return 1;
  }
  process.stdout.write(
    `released ${id}: it was bound to worker ${released.workerUuid}, company ${released.companyUuid}; ${released.dropped} undelivered update(s) dropped\n`,
  );
  return 0;
}

/** What was erased, and what became of what was not delivered yet (docs/operations.md#export-and-erasure). */
function describeErasure(worker: string, erasure: WorkerErasure): string {
  if (erasure.tasks === 0 && erasure.idempotencyAnswers === 0) return `Nothing is stored about worker ${worker}; the request is logged.\n`;
  const { platform, partner, dead } = erasure.undelivered;
  const lines = [
    `Erased worker ${worker}: ${erasure.tasks} task(s) with their context, step data and history, and ${erasure.rows} row(s) of history, updates and events.`,
  ];
  if (platform === 0 && partner === 0 && dead === 0) lines.push('Nothing was waiting to be delivered.');
  if (platform > 0) {
    lines.push(`${platform} update(s) to the platform not yet delivered were dropped: the platform keeps the last status it was sent.`);
  }
  if (partner > 0)
    lines.push(`${partner} event(s) to your backend not yet delivered were dropped: they carried the worker's context and answers.`);
  if (dead > 0) lines.push(`${dead} dead letter(s) were deleted: they would have been sent only if retried.`);
  if (erasure.idempotencyAnswers > 0) {
    lines.push(`${erasure.idempotencyAnswers} stored answer(s) of the partner API about their tasks were deleted.`);
  }
  return `${lines.join('\n')}\n`;
}

/** Who runs the command, when no --by says; a user without a name in the system's user list is logged by uid. */
function operatingSystemUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

process.exitCode = await main(process.argv.slice(2));
