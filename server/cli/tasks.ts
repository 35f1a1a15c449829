import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfigOrExit } from '../config';
import { openStore } from '../store/store';
import { releaseTask } from '../store/tasks.repository';

const usage = `Usage: npm run -s tasks -- release <assigned-task-uuid>
  release   forgets a task's binding to a worker, flow and company (and its undelivered updates), so the next session
            for it binds anew: for a worker locked out (409 context_mismatch) by someone who opened their task first,
            or for a task rejected by mistake. The server's security log names both contexts.`;

/** `npm run tasks`: an operator's hand on one task. */
async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  const [command, id] = positionals;
  const parsed = z.uuid().safeParse(id?.trim());
  if (command !== 'release' || !parsed.success) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const store = await openStore(config.database);
  try {
    // Exactly as received: task ids are kept as the platform sent them (docs/platform.md#the-update-endpoint).
    const released = await releaseTask(store.db, id!.trim());
    if (!released) {
      process.stderr.write(`release: no task ${id} here\n`);
      return 1;
    }
    process.stdout.write(
      `released ${id}: it was bound to worker ${released.workerUuid}, company ${released.companyUuid}; ${released.dropped} undelivered update(s) dropped\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
