import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkKitVersionsForDoctor } from '@partner-task-kit/server/cli/doctor-kit-versions';
import { checkKitVersions, findKitCopies } from '@partner-task-kit/server/kit-versions';

// The check of the kit's installed versions (docs/upgrading.md#one-version-of-the-kit), on app trees made of
// package.json files alone, as npm lays them out.

let app: string;

beforeEach(() => {
  app = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-kit-versions-')));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-app', private: true }));
});

afterEach(() => rmSync(app, { recursive: true, force: true }));

/** A package's manifest at `folder` (relative to the app). */
function install(folder: string, name: string, version: string, extra: Record<string, unknown> = {}): void {
  const manifest = join(app, folder, 'package.json');
  mkdirSync(dirname(manifest), { recursive: true });
  writeFileSync(manifest, JSON.stringify({ name, version, ...extra }));
}

/** The kit's five packages, hoisted to the app's node_modules, at `version`; `server` at its own when given. */
function installVersions(version: string, serverVersion = version): void {
  for (const name of ['workflow', 'page', 'testing', 'vite-plugin']) {
    install(`node_modules/@partner-task-kit/${name}`, `@partner-task-kit/${name}`, version);
  }
  install('node_modules/@partner-task-kit/server', '@partner-task-kit/server', serverVersion);
}

const checkWith = (environment: Record<string, string> = {}) => checkKitVersions(app, environment);

describe("the check of the kit's versions", () => {
  it('passes one version, one copy each, and names what it found', () => {
    installVersions('0.2.0');
    const check = checkWith();
    expect(check.kind).toBe('one-version');
    expect(check.copies.map((copy) => `${copy.name}@${copy.version}`)).toEqual([
      '@partner-task-kit/page@0.2.0',
      '@partner-task-kit/server@0.2.0',
      '@partner-task-kit/testing@0.2.0',
      '@partner-task-kit/vite-plugin@0.2.0',
      '@partner-task-kit/workflow@0.2.0',
    ]);
    // Each kit package finds the app's copy of its siblings: one copy, found by every one of them.
    const workflow = check.copies.find((copy) => copy.name === '@partner-task-kit/workflow')!;
    expect(workflow.folder).toBe(join(app, 'node_modules/@partner-task-kit/workflow'));
    expect(workflow.foundBy).toEqual(expect.arrayContaining(['the app', '@partner-task-kit/server', '@partner-task-kit/page']));
  });

  it('refuses server one patch ahead, naming every package, its version and its folder, and the upgrade that fixes it', () => {
    installVersions('0.2.0', '0.2.1');
    const check = checkWith();
    expect(check.kind).toBe('refused');
    const message = check.kind === 'refused' ? check.message : '';
    expect(message).toContain("The kit's packages are at 2 versions (0.2.1, 0.2.0)");
    for (const name of ['workflow', 'page', 'testing', 'vite-plugin']) {
      expect(message).toMatch(new RegExp(`@partner-task-kit/${name} +0\\.2\\.0 +node_modules/@partner-task-kit/${name}$`, 'm'));
    }
    expect(message).toMatch(/@partner-task-kit\/server +0\.2\.1 +node_modules\/@partner-task-kit\/server$/m);
    expect(message).toContain('npx partner-task-kit upgrade 0.2.1');
  });

  it('refuses a second copy of workflow nested under server, at the same version, naming both folders', () => {
    installVersions('0.2.0');
    install('node_modules/@partner-task-kit/server/node_modules/@partner-task-kit/workflow', '@partner-task-kit/workflow', '0.2.0');
    const check = checkWith();
    expect(check.kind).toBe('refused');
    const message = check.kind === 'refused' ? check.message : '';
    expect(message).toContain('two copies of @partner-task-kit/workflow');
    expect(message).toMatch(/ 0\.2\.0 +node_modules\/@partner-task-kit\/workflow +\(one of 2 copies\)$/m);
    expect(message).toMatch(
      / 0\.2\.0 +node_modules\/@partner-task-kit\/server\/node_modules\/@partner-task-kit\/workflow +\(one of 2 copies, imported by @partner-task-kit\/server\)$/m,
    );
    expect(message).toContain('npx partner-task-kit upgrade 0.2.0');
  });

  it('finds a copy nested under a nested copy', () => {
    installVersions('0.2.0');
    install('node_modules/@partner-task-kit/vite-plugin/node_modules/@partner-task-kit/server', '@partner-task-kit/server', '0.1.9');
    install(
      'node_modules/@partner-task-kit/vite-plugin/node_modules/@partner-task-kit/server/node_modules/@partner-task-kit/workflow',
      '@partner-task-kit/workflow',
      '0.1.9',
    );
    const folders = findKitCopies(app).map((copy) => copy.folder.slice(app.length + 1));
    expect(folders).toContain(
      'node_modules/@partner-task-kit/vite-plugin/node_modules/@partner-task-kit/server/node_modules/@partner-task-kit/workflow',
    );
  });

  it('suggests the newest version by number, 0.10.0 over 0.9.0', () => {
    installVersions('0.9.0', '0.10.0');
    const check = checkWith();
    expect(check.kind === 'refused' && check.message).toContain('npx partner-task-kit upgrade 0.10.0');
  });

  it('passes a kit package that is not installed, and finds one whose exports leave its package.json out', () => {
    installVersions('0.2.0');
    rmSync(join(app, 'node_modules/@partner-task-kit/testing'), { recursive: true });
    install('node_modules/@partner-task-kit/dev', '@partner-task-kit/dev', '0.2.1', { exports: { '.': './dist/index.js' } });
    const check = checkWith();
    expect(check.kind).toBe('refused');
    expect(check.copies.map((copy) => copy.name)).not.toContain('@partner-task-kit/testing');
    expect(check.kind === 'refused' && check.message).toMatch(/@partner-task-kit\/dev +0\.2\.1 /);
  });

  it('counts a linked package once, at its real folder (a workspace)', () => {
    installVersions('0.2.0');
    rmSync(join(app, 'node_modules/@partner-task-kit/page'), { recursive: true });
    install('packages/page', '@partner-task-kit/page', '0.2.0');
    symlinkSync('../../packages/page', join(app, 'node_modules/@partner-task-kit/page'));
    const check = checkWith();
    expect(check.kind).toBe('one-version');
    expect(check.copies.find((copy) => copy.name === '@partner-task-kit/page')!.folder).toBe(join(app, 'packages/page'));
  });

  it('passes an app where no kit package is found (the bundled server of the image)', () => {
    expect(checkWith()).toEqual({ kind: 'one-version', copies: [] });
  });

  it('lets a mix run with KIT_VERSION_CHECK=off, with a warning that names it; any other value checks', () => {
    installVersions('0.2.0', '0.2.1');
    const check = checkWith({ KIT_VERSION_CHECK: 'off' });
    expect(check.kind).toBe('bypassed');
    const warning = check.kind === 'bypassed' ? check.warning : '';
    expect(warning).toMatch(/^WARNING: KIT_VERSION_CHECK=off is set: running on a mix/);
    expect(warning).toMatch(/@partner-task-kit\/server +0\.2\.1 +node_modules\/@partner-task-kit\/server$/m);
    expect(checkWith({ KIT_VERSION_CHECK: 'of' }).kind).toBe('refused');
  });
});

describe('doctor', () => {
  it('reports a mix as a failed check with the fix, and one version as passed', () => {
    installVersions('0.2.0', '0.2.1');
    const failed = checkKitVersionsForDoctor(app, {});
    expect(failed).toMatchObject({ name: 'kit versions', ok: false });
    expect(failed.summary).toMatch(/@partner-task-kit\/server +0\.2\.1 +node_modules\/@partner-task-kit\/server/);
    expect(failed.nextStep).toContain('npx partner-task-kit upgrade 0.2.1');
    installVersions('0.2.1');
    expect(checkKitVersionsForDoctor(app, {})).toEqual({ name: 'kit versions', ok: true, summary: '5 packages, one copy each, at 0.2.1' });
  });
});
