import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { readEnvironment } from '@partner-task-kit/server/internal';
import { checkKitVersions } from '@partner-task-kit/server/internal';

/**
 * The page is built and served only on one version of the kit, one copy of each package, as the server starts only on
 * it (docs/upgrading.md#one-version-of-the-kit): `npm run build` and `npm run dev` stop with the server's message,
 * which names every copy and the fix. KIT_VERSION_CHECK=off lets them run, with its warning.
 */
export function kitVersionCheck(): Plugin {
  return {
    name: 'partner-task-kit:kit-versions',
    config(config) {
      const root = resolve(config.root ?? process.cwd());
      const check = checkKitVersions(root, readEnvironment(join(root, '.env')));
      if (check.kind === 'refused') throw new Error(`The page is not built. ${check.message}`);
      if (check.kind === 'bypassed') process.stderr.write(`${check.warning}\n`);
    },
  };
}
