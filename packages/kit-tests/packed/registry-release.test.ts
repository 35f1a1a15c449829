import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kitPackages } from '@partner-task-kit/vite-plugin/cli/upgrade-plan';
import { stopGroup } from '../helpers/dev-process';
import { runIn } from '../helpers/project-copy';
import { freePort } from '../helpers/server-process';
import { expectSuccess, installedVersion, kitVersion, minutes, nativeSqlite, repoRoot } from './packed-kit';

/**
 * The release path end to end, on a registry of its own: verdaccio on loopback, the kit published to it by the
 * release's own command (`changeset publish`, which `npm run release` runs in .github/workflows/release.yml), then
 * `npm create partner-task-kit@latest`, the app's `npm install` and `npm test` against it, as a partner runs them once
 * a release is out (.changeset/README.md#a-release). Other packages come through verdaccio from the npm registry.
 * Where verdaccio is not installed or does not start, the test is skipped and says why.
 */
/** Made once verdaccio is found: a skipped file runs no hook that would remove it. */
let work = '';
const children: ChildProcess[] = [];

function verdaccioBin(): string | undefined {
  const require = createRequire(join(repoRoot, 'package.json'));
  try {
    return join(dirname(require.resolve('verdaccio/package.json')), 'bin/verdaccio');
  } catch {
    return undefined;
  }
}

/** verdaccio on a free loopback port with a user of its own; its address and that user's token, or why not. */
async function startRegistry(): Promise<{ url: string; token: string } | string> {
  const bin = verdaccioBin();
  if (bin === undefined) return 'verdaccio is not installed (a devDependency: npm ci installs it)';
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-registry-')));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  // The kit's names are served from its storage alone; every other package through its proxy of the npm registry.
  const config = `storage: ${join(work, 'storage')}
auth:
  htpasswd:
    file: ${join(work, 'htpasswd')}
uplinks:
  npmjs:
    url: https://registry.npmjs.org/
packages:
  '@partner-task-kit/*':
    access: $all
    publish: $authenticated
  'create-partner-task-kit':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    proxy: npmjs
log: { type: stdout, format: pretty, level: error }
`;
  writeFileSync(join(work, 'config.yaml'), config);
  const child = spawn(process.execPath, [bin, '--config', join(work, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    detached: true,
    stdio: 'ignore',
  });
  children.push(child);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const ping = await fetch(`${url}-/ping`).catch(() => undefined);
    if (ping?.ok !== true) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    // A user, as `npm adduser` makes one: publishing takes a token.
    const user = await fetch(`${url}-/user/org.couchdb.user:kit-release`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kit-release', password: 'rehearsal-only' }),
    });
    const { token } = (await user.json()) as { token?: string };
    if (token !== undefined) return { url, token };
    await stopRegistry();
    return `verdaccio made no user (${user.status})`;
  }
  await stopRegistry();
  return `verdaccio did not answer on ${url} within 30 s`;
}

/**
 * verdaccio stopped and its folder removed: after the test, or at once when it failed to start (the file is skipped
 * then, and runs no afterAll).
 */
async function stopRegistry(): Promise<void> {
  await Promise.all(children.map((child) => stopGroup(child)));
  if (work) rmSync(work, { recursive: true, force: true });
}

const registry = await startRegistry();
if (typeof registry === 'string') process.stderr.write(`registry rehearsal skipped: ${registry}\n`);

afterAll(stopRegistry);

describe.skipIf(typeof registry === 'string')('the kit published to a registry, as a release publishes it', () => {
  it(
    'is what npm create partner-task-kit@latest makes an app of, which installs from it and passes its npm test',
    async () => {
      if (typeof registry === 'string') return;
      const host = registry.url.replace(/^http:/, '');
      writeFileSync(join(work, 'npmrc'), `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
      // The registry and its token, and a cache of its own: npm create reuses what an earlier run left in npm's cache
      // for a version it has seen, and the kit's version is the same from one commit to the next until a release.
      const environment = {
        ...(await nativeSqlite(join(work, 'prebuilds'))),
        npm_config_userconfig: join(work, 'npmrc'),
        npm_config_cache: join(work, 'npm-cache'),
      };
      const version = kitVersion(repoRoot);
      expectSuccess(await runIn(repoRoot, 'npm', ['run', 'build:packages', '--silent'], minutes(4)), 'npm run build:packages');
      // changeset publish tags the commit after a release; a rehearsal leaves the repository's tags alone.
      const published = await runIn(repoRoot, 'npx', ['changeset', 'publish', '--no-git-tag'], minutes(4), environment);
      expectSuccess(published, 'changeset publish');
      for (const name of [...kitPackages, 'create-partner-task-kit']) expect(published.output).toContain(`${name}@${version}`);

      const made = await runIn(work, 'npm', ['create', '--yes', 'partner-task-kit@latest', 'my-app'], minutes(3), environment);
      expectSuccess(made, 'npm create partner-task-kit@latest');
      const appDir = join(work, 'my-app');
      const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { partnerTaskKit: { version: string } };
      expect(manifest.partnerTaskKit).toEqual({ version });
      const install = await runIn(appDir, 'npm', ['install', '--no-audit', '--no-fund'], minutes(8), environment);
      expectSuccess(install, "the app's npm install");
      const lock = JSON.parse(readFileSync(join(appDir, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string }>;
      };
      for (const name of kitPackages) {
        expect(installedVersion(appDir, name), name).toBe(version);
        expect(lock.packages[`node_modules/${name}`]?.resolved, name).toMatch(new RegExp(`^${registry.url}`));
      }
      expectSuccess(await runIn(appDir, 'npm', ['test'], minutes(5)), "the app's npm test");
      // The upgrade command runs from the installed bin, and finds the app on one version.
      const upgrade = await runIn(appDir, 'npx', ['partner-task-kit', 'upgrade', version], minutes(1), environment);
      expectSuccess(upgrade, 'partner-task-kit upgrade');
      expect(upgrade.output).toContain(`on ${version} already`);
    },
    minutes(20),
  );
});
