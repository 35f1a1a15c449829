import { parseArgs } from 'node:util';
import { z } from 'zod';
import { systemClock } from '../clock.ts';
import { loadConfigOrExit } from '../config.ts';
import { webhookIdOf } from '../delivery/partner-webhook-sender.ts';
import { batchRows, inBatches, pacingFor } from '../retention/batches.ts';
import { deleteDeadLetter, deleteDeadLetters } from '../store/outbox-retention.repository.ts';
import { heldForPermission, listDead, outboxStatsByLane, retryAllDead, retryDead } from '../store/outbox-status.repository.ts';
import { outboxLanes, type OutboxLane, type OutboxUpdate } from '../store/outbox.table.ts';
import { openStore, type Store } from '../store/store.ts';

const usage = `Usage: npm run outbox -- <command> [--lane platform|partner]
  status          per lane: pending (and the oldest's age), held by a 403 (platform), delivered, dead
  dead            the dead letters of both lanes, oldest first, with their lane and reason
  retry <id>      puts one dead letter, of either lane, back in line
  retry-dead      puts every dead letter back in line
  delete-dead <id> | --all   deletes one dead letter, or every one (--lane: one lane's); kept until then
  --lane <lane>   status, dead and retry-dead: only the platform's updates, or only the partner's events
A running server picks re-driven updates up at its next poll (within 5 s).`;

const commands = ['status', 'dead', 'retry', 'retry-dead', 'delete-dead'] as const;

type Command =
  | { name: Exclude<(typeof commands)[number], 'retry' | 'delete-dead'>; lane: OutboxLane | undefined }
  | { name: 'retry'; id: number }
  | { name: 'delete-dead'; id: number | 'all'; lane: OutboxLane | undefined };

const isCommand = (value: string | undefined): value is (typeof commands)[number] => commands.some((known) => known === value);
const isLane = (value: string): value is OutboxLane => outboxLanes.some((known) => known === value);

/** `npm run outbox`: see both delivery lanes and re-drive dead letters, against the database of DATABASE_URL. */
export async function outboxCommand(argv: string[]): Promise<number> {
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
    return await run(store, command);
  } finally {
    await store.close();
  }
}

/** The command, or the one line saying what was expected instead. */
function parseCommand(argv: string[]): Command | string {
  let parsed;
  try {
    const options = { lane: { type: 'string' }, all: { type: 'boolean' } } as const;
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (error) {
    const problem = error instanceof Error ? error.message.split('. ')[0] : String(error);
    return `outbox: ${problem}: expected a command and at most --lane platform|partner (npm run outbox for help)`;
  }
  const [name, ...rest] = parsed.positionals;
  const { lane } = parsed.values;
  if (!isCommand(name)) {
    return `outbox: expected a command (status, dead, retry <id>, retry-dead or delete-dead), got ${JSON.stringify(name ?? '')}`;
  }
  if (parsed.values.all !== undefined && name !== 'delete-dead') return `${name}: expected no --all (delete-dead --all deletes them)`;
  if (name === 'delete-dead') return parseDeleteDead(rest, lane, parsed.values.all === true);
  if (name === 'retry') {
    const [argument, ...extra] = rest;
    const id = Number(argument);
    if (!Number.isSafeInteger(id) || id <= 0 || extra.length > 0) {
      return `retry: expected the id of a dead letter (a positive whole number), got ${JSON.stringify(rest.join(' '))}`;
    }
    if (lane !== undefined) return 'retry: expected no --lane: an id names one row, of either lane';
    return { name, id };
  }
  if (rest.length > 0) return `${name}: expected no argument, got ${JSON.stringify(rest.join(' '))}`;
  if (lane !== undefined && !isLane(lane)) return `${name}: expected --lane platform or --lane partner, got ${JSON.stringify(lane)}`;
  return { name, lane };
}

function parseDeleteDead(rest: string[], lane: string | undefined, all: boolean): Command | string {
  if (lane !== undefined && !isLane(lane)) return `delete-dead: expected --lane platform or --lane partner, got ${JSON.stringify(lane)}`;
  if (all && rest.length === 0) return { name: 'delete-dead', id: 'all', lane };
  const id = Number(rest[0]);
  if (all || rest.length !== 1 || !Number.isSafeInteger(id) || id <= 0 || lane !== undefined) {
    return `delete-dead: expected the id of a dead letter (a positive whole number) or --all [--lane platform|partner], got ${JSON.stringify(rest.join(' '))}`;
  }
  return { name: 'delete-dead', id, lane: undefined };
}

async function run(store: Store, command: Command): Promise<number> {
  const now = systemClock.now();
  switch (command.name) {
    case 'status': {
      const stats = await outboxStatsByLane(store.db, now);
      for (const lane of lanesOf(command.lane)) {
        const { pending, oldestPendingAgeMs, delivered, dead } = stats[lane];
        print(lane === 'platform' ? 'platform   updates to the platform' : "partner    events to the partner's backend");
        print(`  pending    ${pending}${pending > 0 ? ` (oldest ${formatAge(oldestPendingAgeMs)} old)` : ''}`);
        // A 403 holds only the platform's updates (docs/operations.md#a-permission-is-missing): the partner's endpoint
        // has no say over a task, and every failure of its events is retried.
        if (lane === 'platform') {
          const held = await heldForPermission(store.db, now);
          const why = held.forbidden > 0 ? ' by a 403 from the platform: the role lacks a permission (npm run doctor)' : '';
          print(`  held       ${held.forbidden}${why}`);
        }
        print(`  delivered  ${delivered}`);
        print(`  dead       ${dead}${dead > 0 ? ` (npm run outbox -- dead --lane ${lane})` : ''}`);
      }
      return 0;
    }
    case 'dead': {
      const dead = await listDead(store.db, { limit: 1000, lane: command.lane });
      if (dead.length === 0) print(command.lane === undefined ? 'No dead letters.' : `No dead letters in the ${command.lane} lane.`);
      for (const row of dead) {
        print(`#${row.id}  ${row.lane.padEnd(8)}  task ${row.assignedTaskUuid}  ${describe(row)}`);
        print(`     after ${row.attempts} attempt(s), ${new Date(row.deadAt ?? now).toISOString()}: ${row.deadReason ?? ''}`);
      }
      return 0;
    }
    case 'retry': {
      if (!(await retryDead(store.db, command.id, now))) {
        process.stderr.write(`retry: #${command.id} is not a dead letter (see npm run outbox -- dead)\n`);
        return 1;
      }
      print(`#${command.id} is pending again.`);
      return 0;
    }
    case 'delete-dead': {
      if (command.id === 'all') {
        const step = () => deleteDeadLetters(store.db, { limit: batchRows(store.dialect), lane: command.lane });
        const count = await inBatches(step, pacingFor(store.dialect));
        print(`${count} dead letter(s)${command.lane === undefined ? '' : ` of the ${command.lane} lane`} deleted.`);
        return 0;
      }
      if (!(await deleteDeadLetter(store.db, command.id))) {
        process.stderr.write(`delete-dead: #${command.id} is not a dead letter (see npm run outbox -- dead)\n`);
        return 1;
      }
      print(`#${command.id} deleted.`);
      return 0;
    }
    case 'retry-dead': {
      const count = await retryAllDead(store.db, now, command.lane);
      print(`${count} dead letter(s)${command.lane === undefined ? '' : ` of the ${command.lane} lane`} pending again.`);
      return 0;
    }
  }
}

function lanesOf(lane: OutboxLane | undefined): readonly OutboxLane[] {
  return lane === undefined ? outboxLanes : [lane];
}

/** Only the type of a partner event is read: its body is sent as stored (packages/server/src/store/partner-events.repository.ts). */
const partnerEventShape = z.object({ type: z.string() });

/**
 * What the row says, in the words its receiver uses: a platform update by its status and sentAt
 * (docs/platform.md#partner-task-update-record), a partner event by its type and webhook id.
 */
function describe(row: OutboxUpdate): string {
  if (row.lane === 'platform') return `${row.payload.taskStatus}  sentAt ${row.payload.sentAt}`;
  const event = partnerEventShape.safeParse(row.payload);
  return `${event.success ? event.data.type : 'an unreadable event'}  webhook-id ${webhookIdOf(row)}`;
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function formatAge(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
