import { parseArgs } from 'node:util';
import { systemClock } from '../clock';
import { loadConfigOrExit } from '../config';
import { heldForPermission, listDead, outboxStats, retryAllDead, retryDead } from '../store/outbox-status.repository';
import { openStore, type Store } from '../store/store';

const usage = `Usage: npm run outbox -- <command>
  status        counts of pending, delivered and dead updates, and the age of the oldest pending one
  dead          the dead letters, oldest first, with their reason
  retry <id>    puts one dead letter back in line
  retry-dead    puts every dead letter back in line
A running server picks re-driven updates up at its next poll (within 5 s).`;

/** `npm run outbox`: see and re-drive dead letters, against the database of DATABASE_URL. */
async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  const [command, argument] = positionals;
  if (command === undefined || !['status', 'dead', 'retry', 'retry-dead'].includes(command)) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const store = await openStore(config.database);
  try {
    return await run(store, command, argument);
  } finally {
    await store.close();
  }
}

async function run(store: Store, command: string, argument: string | undefined): Promise<number> {
  const now = systemClock.now();
  switch (command) {
    case 'status': {
      const stats = await outboxStats(store.db, now);
      print(`pending    ${stats.pending}${stats.pending > 0 ? ` (oldest ${formatAge(stats.oldestPendingAgeMs)} old)` : ''}`);
      const held = await heldForPermission(store.db, now);
      if (held.forbidden > 0) {
        print(`  held     ${held.forbidden} by a 403 from the platform: the role lacks a permission (npm run doctor)`);
      }
      print(`delivered  ${stats.delivered}`);
      print(`dead       ${stats.dead}${stats.dead > 0 ? ' (npm run outbox -- dead)' : ''}`);
      return 0;
    }
    case 'dead': {
      const dead = await listDead(store.db, { limit: 1000 });
      if (dead.length === 0) print('No dead letters.');
      for (const row of dead) {
        print(`#${row.id}  task ${row.assignedTaskUuid}  ${row.payload.taskStatus}  sentAt ${row.payload.sentAt}`);
        print(`     after ${row.attempts} attempt(s), ${new Date(row.deadAt ?? now).toISOString()}: ${row.deadReason ?? ''}`);
      }
      return 0;
    }
    case 'retry': {
      const id = Number(argument);
      if (!Number.isSafeInteger(id) || id <= 0) {
        process.stderr.write(`retry: expected the id of a dead letter (a positive whole number), got ${JSON.stringify(argument ?? '')}\n`);
        return 2;
      }
      const revived = await retryDead(store.db, id, now);
      if (!revived) {
        process.stderr.write(`retry: #${id} is not a dead letter (see npm run outbox -- dead)\n`);
        return 1;
      }
      print(`#${id} is pending again.`);
      return 0;
    }
    default: {
      const count = await retryAllDead(store.db, now);
      print(`${count} dead letter(s) pending again.`);
      return 0;
    }
  }
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

process.exitCode = await main(process.argv.slice(2));
