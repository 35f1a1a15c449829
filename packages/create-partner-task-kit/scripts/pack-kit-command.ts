import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CommandFailed, packKit } from './pack-kit.ts';

/**
 * `npm run pack-kit -- <folder>`, in a clone of the kit: its packages packed into <folder>, where
 * `npx partner-task-kit upgrade --from <folder>` takes them into an app (docs/upgrading.md#an-app-from-a-clone-of-the-kit).
 */
const checkout = join(import.meta.dirname, '../../..');
const folder = process.argv[2];
try {
  if (folder === undefined || process.argv.length > 3) throw new CommandFailed('Usage: npm run pack-kit -- <folder>');
  // A folder of older tarballs would hold two versions, which the upgrade refuses: a new or empty one.
  if (existsSync(folder) && readdirSync(folder).length > 0) throw new CommandFailed(`${folder} is not empty: name a new folder.`);
  const tarballs = await packKit(checkout, resolve(folder));
  process.stdout.write(`${[...tarballs.values()].map((file) => basename(file)).join('\n')}\nin ${resolve(folder)}\n`);
} catch (error) {
  if (!(error instanceof CommandFailed)) throw error;
  process.stderr.write(`pack-kit: ${error.message}\n`);
  process.exitCode = 1;
}
