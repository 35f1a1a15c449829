import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The kit's packages name each other at one exact version, as peers, and the root app and the scaffolder's template
// name every one they need at that version too (docs/upgrading.md#one-version-of-the-kit); `npm run version-packages`
// keeps it so at each release (scripts/sync-kit-versions.mjs).

const root = join(import.meta.dirname, '../../..');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readKitManifest = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Manifest;
const kitPackages = readdirSync(join(root, 'packages'))
  .map((folder) => readKitManifest(`packages/${folder}/package.json`))
  .filter((manifest) => manifest.name.startsWith('@partner-task-kit/') && manifest.private !== true);
const kitNames = (ranges: Record<string, string> = {}) => Object.keys(ranges).filter((name) => name.startsWith('@partner-task-kit/'));

describe("the kit's manifests", () => {
  const [version] = new Set(kitPackages.map((manifest) => manifest.version));

  it('name the kit packages they use as peers at their own version, never as dependencies', () => {
    expect(new Set(kitPackages.map((manifest) => manifest.version)).size).toBe(1);
    for (const manifest of kitPackages) {
      expect(kitNames(manifest.dependencies), manifest.name).toEqual([]);
      for (const name of kitNames(manifest.peerDependencies))
        expect(manifest.peerDependencies![name], `${manifest.name} -> ${name}`).toBe(version);
    }
    const peers = Object.fromEntries(kitPackages.map((manifest) => [manifest.name, kitNames(manifest.peerDependencies).sort()]));
    expect(peers).toMatchObject({
      '@partner-task-kit/page': ['@partner-task-kit/workflow'],
      '@partner-task-kit/server': ['@partner-task-kit/workflow'],
      '@partner-task-kit/testing': ['@partner-task-kit/page', '@partner-task-kit/workflow'],
      '@partner-task-kit/vite-plugin': ['@partner-task-kit/page', '@partner-task-kit/server', '@partner-task-kit/workflow'],
    });
  });

  it('of the root app and the template list the same kit packages, the root at the kit version', () => {
    const app = readKitManifest('package.json');
    const template = readKitManifest('packages/create-partner-task-kit/template-base/package.json');
    for (const list of ['dependencies', 'devDependencies'] as const) {
      expect(kitNames(template[list]).sort(), list).toEqual(kitNames(app[list]).sort());
      for (const name of kitNames(app[list])) expect(app[list]![name], name).toBe(version);
    }
    expect([...kitNames(app.dependencies), ...kitNames(app.devDependencies)].sort()).toEqual(
      expect.arrayContaining([
        '@partner-task-kit/page',
        '@partner-task-kit/server',
        '@partner-task-kit/testing',
        '@partner-task-kit/vite-plugin',
      ]),
    );
  });
});

describe('scripts/sync-kit-versions.mjs', () => {
  function tree(versions: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'ptk-sync-'));
    const write = (file: string, manifest: object) => {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), `${JSON.stringify(manifest, null, 2)}\n`);
    };
    write('package.json', { name: 'app', private: true, dependencies: { '@partner-task-kit/server': '0.2.0', zod: '^4.0.0' } });
    write('packages/workflow/package.json', { name: '@partner-task-kit/workflow', version: versions.workflow });
    write('packages/server/package.json', {
      name: '@partner-task-kit/server',
      version: versions.server,
      peerDependencies: { '@partner-task-kit/workflow': '0.2.0' },
    });
    write('packages/kit-tests/package.json', { name: '@partner-task-kit/kit-tests', version: '0.1.0', private: true });
    return dir;
  }
  const sync = (dir: string) => spawnSync(process.execPath, [join(root, 'scripts/sync-kit-versions.mjs')], { cwd: dir, encoding: 'utf8' });
  const manifest = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Manifest;

  it("writes the kit's new version into every peer range and the root app's ranges", () => {
    const dir = tree({ workflow: '0.3.0', server: '0.3.0' });
    try {
      expect(sync(dir).status).toBe(0);
      expect(manifest(dir, 'packages/server/package.json').peerDependencies).toEqual({ '@partner-task-kit/workflow': '0.3.0' });
      expect(manifest(dir, 'package.json').dependencies).toEqual({ '@partner-task-kit/server': '0.3.0', zod: '^4.0.0' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses packages left at several versions, writing nothing', () => {
    const dir = tree({ workflow: '0.3.0', server: '0.2.1' });
    try {
      const result = sync(dir);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('@partner-task-kit/server@0.2.1');
      expect(manifest(dir, 'package.json').dependencies!['@partner-task-kit/server']).toBe('0.2.0');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
