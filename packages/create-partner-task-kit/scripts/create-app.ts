import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { onKitVersion, tarballSource, UpgradeRefused, type AppManifest } from '../../vite-plugin/src/cli/upgrade-plan.ts';
import { CommandFailed, packKit } from './pack-kit.ts';

/**
 * `npm run create-app -- <dir> [the scaffolder's options]`, in a clone of the kit: what `npm create partner-task-kit`
 * does once the packages are on the registry, from this checkout instead. It packs the kit's packages, makes the app
 * with the packed scaffolder, keeps the tarballs in <dir>/.kit-packages/ and installs the kit's packages from there,
 * so the app's `npm install` and `npm ci` find them again later (docs/upgrading.md#an-app-from-a-clone-of-the-kit).
 * The other dependencies come from the registry as usual.
 */
const checkout = join(import.meta.dirname, '../../..');
/** Beside package.json, named in its `file:` specs: the app moves or is cloned with it. */
const KIT_PACKAGES_DIR = '.kit-packages';

class Refused extends Error {}

function usage(): string {
  return 'Usage: npm run create-app -- <dir> [--workflow <id> | --examples all]   (a new folder outside the kit)';
}

/** <dir>, refused before minutes of packing when the scaffolder would refuse it, or when it is inside the kit. */
function targetOf(args: readonly string[]): string {
  const dir = args[0];
  if (dir === undefined || dir.startsWith('-')) throw new Refused(`Name the folder of the new app first.\n${usage()}`);
  const target = resolve(dir);
  // Inside the kit, Node would find the kit's own node_modules above the app's: it would run on packages it did not install.
  let parent = target;
  while (!existsSync(parent)) parent = dirname(parent);
  if (`${realpathSync(parent)}${sep}`.startsWith(`${realpathSync(checkout)}${sep}`)) {
    throw new Refused(`${target} is inside the kit's checkout: make the app beside it (../${basename(target)}).`);
  }
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new Refused(`${target} is not empty: choose a new folder, so nothing of yours is overwritten.`);
  }
  return target;
}

async function main(args: readonly string[]): Promise<void> {
  const target = targetOf(args);
  const packs = mkdtempSync(join(tmpdir(), 'partner-task-kit-packs-'));
  try {
    process.stdout.write(`Packing the kit's packages of ${checkout}\n`);
    const tarballs = await packKit(checkout, packs);
    // The packed scaffolder, as `npm create` would run it: it has no dependencies, so nothing comes from the registry.
    // Its own next steps (`npm install && npm start`) are not this command's: they are printed below, without install.
    const made = spawnSync(
      'npm',
      ['exec', '--yes', '--package', tarballs.get('create-partner-task-kit')!, '--', 'create-partner-task-kit', target, ...args.slice(1)],
      { cwd: dirname(target), stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (made.status !== 0) throw new Refused('the scaffolder made no app (its message is above).');
    const kept = join(target, KIT_PACKAGES_DIR);
    mkdirSync(kept);
    for (const [name, file] of tarballs) if (name !== 'create-partner-task-kit') copyFileSync(file, join(kept, basename(file)));
    const manifestFile = join(target, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as AppManifest;
    const source = tarballSource(readdirSync(kept), `${KIT_PACKAGES_DIR}/`);
    writeFileSync(manifestFile, `${JSON.stringify(onKitVersion(manifest, source).manifest, null, 2)}\n`);
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: target, stdio: 'inherit' });
    if (installed.status !== 0) throw new Refused(`npm install failed in ${target} (its message is above); run it again there.`);
    process.stdout.write(`
Made ${target} from this clone, on partner-task-kit ${source.version}; its kit packages are in ${KIT_PACKAGES_DIR}/,
which its package.json names: keep the folder with the app (commit it), so npm install and npm ci find them again.

  cd ${target}
  npm start   # the page and the server in emulator mode: open the preview address it prints
  npm test    # type check, lint and the workflows' tests
`);
  } finally {
    rmSync(packs, { recursive: true, force: true });
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof Refused || error instanceof UpgradeRefused || error instanceof CommandFailed)) throw error;
  process.stderr.write(`create-app: ${error.message}\n`);
  process.exitCode = 1;
}
