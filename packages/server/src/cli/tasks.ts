import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { systemClock } from '../clock.ts';
import { loadConfigOrExit, type Config } from '../config.ts';
import { createLogger } from '../logger.ts';
import { eraseWorker, type WorkerErasure } from '../retention/worker-erasure.ts';
import { openStore, type Store } from '../store/store.ts';
import { releaseTask } from '../store/tasks.repository.ts';
import { exportWorkerData, type WorkerExport } from '../store/worker-data.repository.ts';
import { revealSealed } from '../sensitive/reveal-sealed.ts';
import { sensitiveKeyRingOf } from '../sensitive/sensitive-keys.ts';
import { pacingFor } from '../retention/batches.ts';
import { runRetention } from '../retention/retention-job.ts';
import type { UploadFiles } from '../uploads/upload-files.ts';
import { ExportDirectoryNotEmpty, writeExportWithFiles } from '../uploads/upload-export.ts';
import { removeClaimedUploads } from '../uploads/upload-removal.ts';
import { uploadFilesOf } from '../uploads/upload-store.ts';

const usage = `Usage: npm run -s tasks -- <command>
  release <assigned-task-uuid>
            forgets a task's binding to a worker, flow and company (and its undelivered updates), so the next session
            for it binds anew: for a worker locked out (409 context_mismatch) by someone who opened their task first,
            or for a task rejected by mistake. The server's security log names both contexts. Its uploaded files go.
  export --worker <uuid> [--out <dir>] [--reveal-sensitive [--by <name>]]
            prints everything stored about the worker as JSON: their tasks with context, step data and history, the
            updates to the platform and events to your backend with their delivery state, the partner API's
            answers stored about them, and their uploaded files described. With --out, writes the JSON to
            <dir>/export.json and each file's bytes beside it, as <dir>/uploads/<id>.<ext> (a new or empty <dir>).
            Sensitive values are masked; --reveal-sensitive shows them in clear and records each reveal under
            "tasks export by <the OS user, or --by>".
  erase --worker <uuid> [--by <name>]
            deletes everything stored about the worker, undelivered updates and events included, and their uploaded
            files from the upload store, and says what was dropped; logs who erased (the OS user, or --by) and when,
            never whose data.
  retention
            runs the retention now, as the server does at start and every hour (docs/operations.md#retention), and
            prints what it deleted: after lowering TASK_DATA_RETENTION_DAYS, the answers past it are gone at once.
            Beside a running server too: it paces its batches as the server does, and a row is deleted once.`;

type Command =
  | { name: 'release'; assignedTaskUuid: string }
  | { name: 'export'; worker: string; reveal: boolean; by: string | undefined; out: string | undefined }
  | { name: 'erase'; worker: string; by: string | undefined }
  | { name: 'retention' };

/** `npm run tasks`: an operator's hand on one task, or on everything stored about one worker. */
export async function tasksCommand(argv: string[]): Promise<number> {
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
  // The store the server uses (upload-store.ts): the command removes and reads the same files.
  const uploadFiles = uploadFilesOf(config);
  try {
    if (command.name === 'release') return await release(store, uploadFiles, command.assignedTaskUuid);
    if (command.name === 'retention') return await retention(store, uploadFiles, config.retention);
    if (command.name === 'export') {
      const revealer = {
        by: `tasks export by ${command.by ?? operatingSystemUser()}`,
        keys: sensitiveKeyRingOf(config),
        now: systemClock.now(),
      };
      const reveal = command.reveal ? (task: Parameters<typeof revealSealed>[2]) => revealSealed(store.db, revealer, task) : undefined;
      const exported = await exportWorkerData(store.db, command.worker, reveal);
      return command.out === undefined ? printExport(exported) : await writeExport(exported, uploadFiles, command.out);
    }
    return await erase(store, uploadFiles, config.logLevel, command);
  } finally {
    await store.close();
  }
}

async function erase(store: Store, uploadFiles: UploadFiles, logLevel: Config['logLevel'], command: Extract<Command, { name: 'erase' }>) {
  const by = command.by ?? operatingSystemUser();
  let erasure: WorkerErasure;
  try {
    erasure = await eraseWorker(store, { workerUuid: command.worker, by, now: systemClock.now(), uploadFiles });
  } catch (error) {
    // Files go first (worker-erasure.ts): what is left is found again by the same command.
    const problem = error instanceof Error ? error.message : String(error);
    process.stderr.write(`erase: stopped by ${problem} before it finished: run the same erase again, which finds what is left\n`);
    return 1;
  }
  // Who and when, as the server logs (JSON, on standard error): never whose data, which an erasure must not keep.
  createLogger(logLevel, pino.destination({ dest: 2, sync: true })).info({ by }, "erased a worker's data (npm run tasks -- erase)");
  process.stdout.write(describeErasure(command.worker, erasure));
  if (erasure.walTruncated) return 0;
  process.stderr.write(
    'erase: the SQLite WAL stayed busy, so erased values are still in its older frames: run the same erase again when the server is less busy\n',
  );
  return 1;
}

/** The command, or the one line saying what was expected instead. */
function parseCommand(argv: string[]): Command | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { worker: { type: 'string' }, by: { type: 'string' }, out: { type: 'string' }, 'reveal-sensitive': { type: 'boolean' } },
    });
  } catch (error) {
    const problem = error instanceof Error ? error.message.split('. ')[0] : String(error);
    return `tasks: ${problem}: expected release <uuid>, export --worker <uuid>, erase --worker <uuid> [--by <name>] or retention`;
  }
  const [name, ...rest] = parsed.positionals;
  const { worker, by, out } = parsed.values;
  const reveal = parsed.values['reveal-sensitive'] === true;
  if (reveal && name !== 'export') return `${name ?? 'tasks'}: expected --reveal-sensitive only with export`;
  if (out !== undefined && name !== 'export') return `${name ?? 'tasks'}: expected --out only with export`;
  if (out?.trim() === '') return 'export: expected --out <directory>, got ""';
  if (name !== 'release' && name !== 'export' && name !== 'erase' && name !== 'retention') {
    return `tasks: expected a command (release, export, erase or retention), got ${JSON.stringify(name ?? '')}`;
  }
  if (name === 'retention') {
    if (rest.length > 0 || worker !== undefined || by !== undefined) return 'retention: expected no argument and no option';
    return { name };
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
  if (name === 'export') return { name, worker: worker!.trim(), reveal, by, out };
  return { name, worker: worker!.trim(), by };
}

async function retention(store: Store, uploadFiles: UploadFiles, settings: Config['retention']): Promise<number> {
  const outcome = await runRetention(store, { now: systemClock.now(), retention: settings, uploadFiles });
  const { idempotencyAnswers, outboxRows, tasksErased, files } = outcome;
  process.stdout.write(
    `retention: ${tasksErased} finished task(s) lost their answers, ${files} uploaded file(s) removed, ` +
      `${outboxRows} delivered update(s) and event(s) and ${idempotencyAnswers} stored partner API answer(s) deleted\n`,
  );
  if (outcome.filesFailure !== undefined) {
    const problem = outcome.filesFailure instanceof Error ? outcome.filesFailure.message : String(outcome.filesFailure);
    process.stderr.write(`retention: the upload store failed (${problem}); the files left are removed at the next run\n`);
    return 1;
  }
  if (outcome.walTruncated) return 0;
  process.stderr.write('retention: the SQLite WAL stayed busy and still holds erased answers: run it again when the server is less busy\n');
  return 1;
}

async function release(store: Store, uploadFiles: UploadFiles, id: string): Promise<number> {
  // Exactly as received: task ids are kept as the platform sent them (docs/platform.md#the-update-endpoint).
  const released = await releaseTask(store.db, id, systemClock.now());
  if (!released) {
    process.stderr.write(`release: no task ${id} here\n`);
    return 1;
  }
  process.stdout.write(
    `released ${id}: it was bound to worker ${released.workerUuid}, company ${released.companyUuid}; ${released.dropped} undelivered update(s) dropped\n`,
  );
  // Claimed with the task: what a failing store keeps, the server's retention job removes (docs/operations.md#files).
  try {
    const files = await removeClaimedUploads(store, uploadFiles, { taskIds: [released.taskId] }, pacingFor(store.dialect));
    if (files > 0) process.stdout.write(`${files} uploaded file(s) of the task were removed from the upload store\n`);
    return 0;
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `release: the upload store failed (${problem}); the server's retention job removes the task's files within the hour\n`,
    );
    return 1;
  }
}

function printExport(exported: WorkerExport): number {
  process.stdout.write(`${JSON.stringify(exported, null, 2)}\n`);
  const files = exported.tasks.flatMap((task) => task.uploads).filter((upload) => upload.state === 'completed').length;
  if (files > 0)
    process.stderr.write(`export: ${files} uploaded file(s) not written: add --out <directory> to write them beside the JSON\n`);
  return 0;
}

/** `export --out`: the JSON and the files in a directory; 1 when a file is missing from the store or altered there. */
async function writeExport(exported: WorkerExport, uploadFiles: UploadFiles, directory: string): Promise<number> {
  try {
    const written = await writeExportWithFiles(exported, uploadFiles, directory);
    process.stdout.write(`Wrote ${join(directory, written.json)} and ${written.files} uploaded file(s) in ${join(directory, 'uploads')}\n`);
    for (const id of written.missing) process.stderr.write(`export: the upload store no longer holds the bytes of upload ${id}\n`);
    for (const id of written.altered)
      process.stderr.write(`export: the bytes of upload ${id} do not match its sha256: the stored file changed\n`);
    return written.missing.length + written.altered.length === 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof ExportDirectoryNotEmpty)) throw error;
    process.stderr.write(`export: expected --out to name a new or empty directory; ${error.message}\n`);
    return 2;
  }
}

/** What was erased, and what became of what was not delivered yet (docs/operations.md#export-and-erasure). */
function describeErasure(worker: string, erasure: WorkerErasure): string {
  if (erasure.tasks === 0 && erasure.idempotencyAnswers === 0) return `Nothing is stored about worker ${worker}; the request is logged.\n`;
  const { platform, partner, dead } = erasure.undelivered;
  const lines = [
    `Erased worker ${worker}: ${erasure.tasks} task(s) with their context, step data and history, and ${erasure.rows} row(s) of history, updates and events.`,
    `${erasure.files} uploaded file(s) were removed from the upload store, with their records.`,
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
