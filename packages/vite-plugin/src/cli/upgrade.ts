import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import semver from 'semver';
import { kitHasNamedEntries, rewriteAppImports } from './entry-imports.ts';
import {
  changelogSections,
  kitPackages,
  planUpgrade,
  registrySource,
  tarballSource,
  UpgradeRefused,
  type AppManifest,
  type InstalledCopy,
  type KitSource,
  type UpgradePlan,
} from './upgrade-plan.ts';

/**
 * `partner-task-kit upgrade <version>` (`npx partner-task-kit upgrade 0.3.0`), run in the app's folder: every kit
 * package the app depends on moved to one version in one `npm install`, `testing` with the others, and
 * `partnerTaskKit.version` with them; then what to read and run before deploying (upgrading.md, the upgrade step by
 * step). `--from <folder>` takes the version from tarballs `npm pack` made (a rehearsal, an app made from a clone).
 */
const root = process.cwd();
const ownManifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { repository: { url: string } };
/** The kit's guide on the web: an app has no docs/ of its own. */
const upgradingGuide = `${ownManifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/docs/upgrading.md`;

function usage(): string {
  return [
    'Usage: npx partner-task-kit upgrade <version>          a release of the kit, such as 0.3.0',
    '       npx partner-task-kit upgrade --from <folder>    the tarballs npm pack made of the kit (a rehearsal, a clone)',
  ].join('\n');
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Every copy of a kit package in the app's node_modules: at its top, and nested in another kit package's folder. */
function installedCopies(): InstalledCopy[] {
  const copies: InstalledCopy[] = [];
  const look = (where: string) => {
    const manifest = join(root, where, 'package.json');
    if (existsSync(manifest))
      copies.push({ name: readJson<{ name: string }>(manifest).name, version: readJson<{ version: string }>(manifest).version, where });
  };
  for (const name of kitPackages) {
    look(`node_modules/${name}`);
    for (const inner of kitPackages) look(`node_modules/${name}/node_modules/${inner}`);
  }
  return copies;
}

function sourceOf(positionals: readonly string[], from: string | undefined): KitSource {
  if (from !== undefined) {
    if (positionals.length > 0) throw new UpgradeRefused(`Give a version or --from, not both.\n${usage()}`);
    const folder = resolve(from);
    if (!existsSync(folder)) throw new UpgradeRefused(`${from}: no such folder.`);
    const prefix = relative(root, folder);
    return tarballSource(readdirSync(folder), prefix === '' ? './' : `${prefix}/`);
  }
  if (positionals.length !== 1) throw new UpgradeRefused(`Name the version to move to, once.\n${usage()}`);
  return registrySource(positionals[0]!);
}

/** What the developer reads and runs next: each package's changelog sections the move crosses, then the checks. */
function report(plan: UpgradePlan, source: KitSource, rewritten: readonly string[]): string {
  const byList = (list: string) => plan.moves.filter((move) => move.list === list).map((move) => move.name);
  const lines = [
    `partner-task-kit upgrade: ${plan.from} -> ${plan.to}, in one npm install`,
    ...['dependencies', 'devDependencies'].flatMap((list) => (byList(list).length > 0 ? [`  ${list}: ${byList(list).join(', ')}`] : [])),
    `  package.json: partnerTaskKit.version is ${plan.to}`,
    ...(plan.mixed
      ? ['  it was on a mix of the kit, now one version, one copy each:', ...plan.mixed.map((copy) => `    ${copy.where}: ${copy.version}`)]
      : []),
    ...(rewritten.length > 0
      ? [`  imports of the kit's deep paths now name its entries (docs/public-api.md): ${rewritten.join(', ')}`]
      : []),
    '',
  ];
  if (plan.to === plan.from) {
    const where = source.tarballs ? 'the tarballs' : 'the registry';
    lines.push(`The app was on ${plan.to} already: its kit packages are installed again, from ${where}.`);
  } else if (semver.lt(plan.to, plan.from)) {
    lines.push(`This goes back to an older version: its code refuses a database the newer one migrated (${upgradingGuide}#rolling-back).`);
  } else {
    lines.push(`What ${plan.to} brings, from each package's CHANGELOG.md (node_modules/<package>/CHANGELOG.md):`);
    for (const { name } of plan.moves) {
      const file = join(root, 'node_modules', name, 'CHANGELOG.md');
      const sections = existsSync(file) ? changelogSections(readFileSync(file, 'utf8'), plan.from, plan.to) : [];
      lines.push('', `# ${name}`, ...(sections.length > 0 ? sections : [`(no section after ${plan.from})`]));
    }
  }
  lines.push(
    '',
    `Next (${upgradingGuide}#the-upgrade-step-by-step):`,
    '  back up the database, then',
    '  npm run migrate -- --check   # the migrations this version brings; npm run migrate applies them',
    '  npm test',
    `  git commit package.json package-lock.json${rewritten.map((file) => ` ${file}`).join('')}`,
  );
  return `${lines.join('\n')}\n`;
}

function main(args: readonly string[]): void {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { from: { type: 'string' } } });
  } catch (error) {
    throw new UpgradeRefused(`${(error as Error).message}\n${usage()}`);
  }
  const { positionals, values } = parsed;
  const manifestFile = join(root, 'package.json');
  if (!existsSync(manifestFile)) throw new UpgradeRefused("no package.json here: run it in the app's folder.");
  const source = sourceOf(positionals, values.from);
  const manifestText = readFileSync(manifestFile, 'utf8');
  const plan = planUpgrade(JSON.parse(manifestText) as AppManifest, installedCopies(), source);
  if (plan.done) {
    process.stdout.write(`partner-task-kit upgrade: the app is on ${plan.to} already; nothing to do.\n`);
    return;
  }
  const lockFile = join(root, 'package-lock.json');
  const lockText = existsSync(lockFile) ? readFileSync(lockFile, 'utf8') : undefined;
  writeFileSync(manifestFile, `${JSON.stringify(plan.manifest, null, 2)}\n`);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (install.status !== 0) {
    // Nothing half-done stays recorded: the manifest and the lock as they were, which `npm ci` installs again.
    writeFileSync(manifestFile, manifestText);
    if (lockText !== undefined) writeFileSync(lockFile, lockText);
    throw new UpgradeRefused(`npm install failed: package.json and package-lock.json are as they were; npm ci puts node_modules back.`);
  }
  // One version, one copy each: a copy nested in another kit package's folder is a second one even at that version.
  const stray = installedCopies().filter((copy) => copy.version !== plan.to || copy.where !== `node_modules/${copy.name}`);
  if (stray.length > 0) {
    throw new UpgradeRefused(
      `after npm install, still not on ${plan.to}, one copy each: ${stray.map((copy) => `${copy.where} ${copy.version}`).join(', ')}.`,
    );
  }
  const rewritten = kitHasNamedEntries(root) ? rewriteAppImports(root) : [];
  process.stdout.write(report(plan, source, rewritten));
}

export function upgrade(args: readonly string[]): void {
  try {
    main(args);
  } catch (error) {
    if (!(error instanceof UpgradeRefused)) throw error;
    process.stderr.write(`partner-task-kit upgrade: ${error.message}\n`);
    process.exitCode = 1;
  }
}
