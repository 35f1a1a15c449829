import { describe, expect, it } from 'vitest';
import {
  changelogSections,
  kitPackages,
  onKitVersion,
  planUpgrade,
  registrySource,
  tarballSource,
  UpgradeRefused,
  type AppManifest,
  type InstalledCopy,
} from '@partner-task-kit/vite-plugin/cli/upgrade-plan';

// `partner-task-kit upgrade` (docs/upgrading.md#the-upgrade-step-by-step): which packages move, in which lists, to
// what, and when it refuses to start.

/** An app as create-partner-task-kit makes it: four kit packages in dependencies, testing and dev in devDependencies. */
function scaffolded(version: string): AppManifest {
  const range = `^${version}`;
  return {
    name: 'my-app',
    scripts: { test: 'vitest run' },
    dependencies: {
      '@partner-task-kit/page': range,
      '@partner-task-kit/server': range,
      '@partner-task-kit/vite-plugin': range,
      '@partner-task-kit/workflow': range,
      react: '^19.3.1',
    },
    devDependencies: { '@partner-task-kit/dev': range, '@partner-task-kit/testing': range, vitest: '^4.1.12' },
    partnerTaskKit: { version },
  };
}

function installedAt(version: string, names: readonly string[] = kitPackages): InstalledCopy[] {
  return names.map((name) => ({ name, version, where: `node_modules/${name}` }));
}

function upgradeRefusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UpgradeRefused) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

const packed = [
  'create-partner-task-kit-0.3.0.tgz',
  ...['workflow', 'page', 'server', 'vite-plugin', 'testing', 'dev'].map((name) => `partner-task-kit-${name}-0.3.0.tgz`),
];

describe('partner-task-kit upgrade <version>', () => {
  it('moves every kit package the app depends on, testing included, to the exact version in the list it was in', () => {
    const plan = planUpgrade(scaffolded('0.2.0'), installedAt('0.2.0'), registrySource('0.3.0'));
    expect(plan).toMatchObject({ from: '0.2.0', to: '0.3.0' });
    expect(plan.moves).toEqual([
      { name: '@partner-task-kit/workflow', list: 'dependencies', spec: '0.3.0' },
      { name: '@partner-task-kit/page', list: 'dependencies', spec: '0.3.0' },
      { name: '@partner-task-kit/server', list: 'dependencies', spec: '0.3.0' },
      { name: '@partner-task-kit/vite-plugin', list: 'dependencies', spec: '0.3.0' },
      { name: '@partner-task-kit/testing', list: 'devDependencies', spec: '0.3.0' },
      { name: '@partner-task-kit/dev', list: 'devDependencies', spec: '0.3.0' },
    ]);
    expect(plan.manifest.dependencies).toEqual({
      '@partner-task-kit/page': '0.3.0',
      '@partner-task-kit/server': '0.3.0',
      '@partner-task-kit/vite-plugin': '0.3.0',
      '@partner-task-kit/workflow': '0.3.0',
      react: '^19.3.1',
    });
    expect(plan.manifest.devDependencies).toEqual({
      '@partner-task-kit/dev': '0.3.0',
      '@partner-task-kit/testing': '0.3.0',
      vitest: '^4.1.12',
    });
    expect(plan.manifest.partnerTaskKit).toEqual({ version: '0.3.0' });
    expect(plan.manifest.scripts).toEqual({ test: 'vitest run' });
    expect(plan.manifest.overrides).toBeUndefined();
  });

  it('moves only the kit packages the app names, wherever it lists them, and adds the dev tools it lacks', () => {
    const manifest: AppManifest = {
      dependencies: { '@partner-task-kit/server': '^0.2.0' },
      devDependencies: { '@partner-task-kit/vite-plugin': '^0.2.0' },
    };
    const installed = installedAt('0.2.0', ['@partner-task-kit/server', '@partner-task-kit/vite-plugin', '@partner-task-kit/workflow']);
    const plan = planUpgrade(manifest, installed, registrySource('0.3.0'));
    // An app made before the emulator and the preview were a package of their own: its server needs them in emulator mode.
    expect(plan.moves.map(({ name, list }) => `${list} ${name}`)).toEqual([
      'dependencies @partner-task-kit/server',
      'devDependencies @partner-task-kit/vite-plugin',
      'devDependencies @partner-task-kit/dev',
    ]);
    expect(plan.manifest.devDependencies).toEqual({ '@partner-task-kit/vite-plugin': '0.3.0', '@partner-task-kit/dev': '0.3.0' });
  });

  it('adds no dev tools from a release before they were a package, by the registry or from its tarballs', () => {
    const manifest: AppManifest = { dependencies: { '@partner-task-kit/server': '^0.1.0' } };
    const installed = installedAt('0.1.0', ['@partner-task-kit/server']);
    expect(planUpgrade(manifest, installed, registrySource('0.2.0')).moves.map(({ name }) => name)).toEqual(['@partner-task-kit/server']);
    const before = packed.filter((file) => !file.includes('-dev-')).map((file) => file.replace('0.3.0', '0.2.0'));
    const plan = planUpgrade(manifest, installed, tarballSource(before, 'packs/'));
    expect(plan.moves.map(({ name }) => name)).toEqual(['@partner-task-kit/server']);
    expect(plan.manifest.devDependencies).toEqual({});
  });

  it('is not done for an app on that version without the dev tools', () => {
    const withoutDev = scaffolded('0.3.0');
    delete withoutDev.devDependencies!['@partner-task-kit/dev'];
    const plan = planUpgrade(withoutDev, installedAt('0.3.0').slice(0, 5), registrySource('0.3.0'));
    expect(plan.done).toBe(false);
    expect(plan.manifest.devDependencies?.['@partner-task-kit/dev']).toBe('0.3.0');
  });

  it('drops the overrides a tarball install left for kit packages, and keeps the others', () => {
    const fromTarballs = onKitVersion(scaffolded('0.2.0'), tarballSource(packed, '.kit-packages/')).manifest;
    fromTarballs.overrides = { ...fromTarballs.overrides, 'node-fetch': '2.7.0' };
    const plan = planUpgrade(fromTarballs, installedAt('0.3.0'), registrySource('0.4.0'));
    expect(plan.manifest.overrides).toEqual({ 'node-fetch': '2.7.0' });
    expect(plan.manifest.dependencies?.['@partner-task-kit/server']).toBe('0.4.0');
  });

  it('has nothing to do for an app on that version from the registry, and moves one on it from tarballs', () => {
    const exact = onKitVersion(scaffolded('0.3.0'), registrySource('0.3.0')).manifest;
    expect(planUpgrade(exact, installedAt('0.3.0'), registrySource('0.3.0')).done).toBe(true);
    // A range is written exact, and a second copy nested in another kit package is installed away.
    expect(planUpgrade(scaffolded('0.3.0'), installedAt('0.3.0'), registrySource('0.3.0')).done).toBe(false);
    const nested = {
      name: '@partner-task-kit/workflow',
      version: '0.3.0',
      where: 'node_modules/@partner-task-kit/server/node_modules/@partner-task-kit/workflow',
    };
    expect(planUpgrade(exact, [...installedAt('0.3.0'), nested], registrySource('0.3.0')).done).toBe(false);
    const fromTarballs = onKitVersion(scaffolded('0.3.0'), tarballSource(packed, '.kit-packages/')).manifest;
    const plan = planUpgrade(fromTarballs, installedAt('0.3.0'), registrySource('0.3.0'));
    expect(plan.done).toBe(false);
    expect(plan.manifest.dependencies?.['@partner-task-kit/page']).toBe('0.3.0');
    expect(plan.manifest.overrides).toBeUndefined();
    expect(planUpgrade(fromTarballs, installedAt('0.3.0'), tarballSource(packed, '.kit-packages/')).done).toBe(false);
  });

  it('refuses a version that is not one release', () => {
    for (const version of ['latest', '^0.3.0', '0.3', '0.3.x']) {
      expect(upgradeRefusal(() => registrySource(version))).toContain(`"${version}" is not a version`);
    }
    expect(upgradeRefusal(() => registrySource('v0.3.0'))).toContain('such as 0.3.0');
    expect(registrySource('1.0.0-rc.1')).toEqual({ version: '1.0.0-rc.1' });
  });

  it('moves an app on several versions already from the oldest, naming each copy', () => {
    const mixed = [
      ...installedAt('0.3.0').filter((copy) => copy.name !== '@partner-task-kit/testing'),
      { name: '@partner-task-kit/testing', version: '0.2.0', where: 'node_modules/@partner-task-kit/testing' },
    ];
    const plan = planUpgrade(scaffolded('0.3.0'), mixed, registrySource('0.4.0'));
    expect(plan).toMatchObject({ from: '0.2.0', to: '0.4.0', mixed, done: false });
    expect(plan.moves.map((move) => move.spec)).toEqual(kitPackages.map(() => '0.4.0'));
    // On the newest version of the mix, it is not done either: the others move to it.
    expect(planUpgrade(scaffolded('0.3.0'), mixed, registrySource('0.3.0'))).toMatchObject({ from: '0.2.0', done: false });
  });

  it('moves an app with a second copy of a kit package nested in another, at the same version too', () => {
    const nested = (version: string) => [
      ...installedAt('0.3.0'),
      { name: '@partner-task-kit/page', version, where: 'node_modules/@partner-task-kit/testing/node_modules/@partner-task-kit/page' },
    ];
    expect(planUpgrade(scaffolded('0.3.0'), nested('0.2.0'), registrySource('0.4.0')).mixed).toEqual(nested('0.2.0'));
    const exact = onKitVersion(scaffolded('0.3.0'), registrySource('0.3.0')).manifest;
    expect(planUpgrade(exact, nested('0.3.0'), registrySource('0.3.0'))).toMatchObject({ mixed: nested('0.3.0'), done: false });
    expect(planUpgrade(exact, installedAt('0.3.0'), registrySource('0.3.0'))).toMatchObject({ mixed: undefined, done: true });
  });

  it('refuses an app not installed, and a folder that is no app of the kit', () => {
    const withoutTesting = installedAt('0.2.0').filter((copy) => copy.name !== '@partner-task-kit/testing');
    expect(upgradeRefusal(() => planUpgrade(scaffolded('0.2.0'), withoutTesting, registrySource('0.3.0')))).toContain(
      '@partner-task-kit/testing not installed: run npm install first',
    );
    expect(upgradeRefusal(() => planUpgrade({ dependencies: { react: '^19.3.1' } }, [], registrySource('0.3.0')))).toContain(
      "names none of the kit's packages",
    );
  });
});

describe('partner-task-kit upgrade --from <folder of tarballs>', () => {
  it('points each kit package, and the override npm resolves the others through, at its tarball', () => {
    const source = tarballSource(packed, '../packs/');
    expect(source.version).toBe('0.3.0');
    const plan = planUpgrade(scaffolded('0.2.0'), installedAt('0.2.0'), source);
    const file = (name: string) => `file:../packs/partner-task-kit-${name}-0.3.0.tgz`;
    expect(plan.manifest.dependencies?.['@partner-task-kit/page']).toBe(file('page'));
    expect(plan.manifest.devDependencies?.['@partner-task-kit/testing']).toBe(file('testing'));
    // An override of a direct dependency repeats its spec exactly, or npm refuses the install.
    expect(plan.manifest.overrides).toEqual(Object.fromEntries(kitPackages.map((name) => [name, file(name.split('/')[1]!)])));
    expect(plan.manifest.partnerTaskKit).toEqual({ version: '0.3.0' });
  });

  it('refuses a folder without every kit package, or with two versions of them', () => {
    expect(upgradeRefusal(() => tarballSource(packed.slice(0, 3), 'packs/'))).toContain(
      'packs/ holds no tarball of @partner-task-kit/server, @partner-task-kit/vite-plugin, @partner-task-kit/testing',
    );
    expect(upgradeRefusal(() => tarballSource([...packed, 'partner-task-kit-page-0.2.0.tgz'], 'packs/'))).toContain(
      'several versions (0.2.0, 0.3.0)',
    );
  });
});

describe('the changelog sections an upgrade prints', () => {
  const changelog = [
    '# @partner-task-kit/server',
    '',
    '## 0.4.0',
    '',
    '### Minor Changes',
    '',
    '- a future flag',
    '',
    '## 0.3.0',
    '',
    '- a fix',
    '',
    '## 0.2.0',
    '',
    '- older',
    '',
  ].join('\n');

  it('are those after the version the app was on, up to the one it moves to', () => {
    expect(changelogSections(changelog, '0.2.0', '0.4.0')).toEqual([
      '## 0.4.0\n\n### Minor Changes\n\n- a future flag',
      '## 0.3.0\n\n- a fix',
    ]);
    expect(changelogSections(changelog, '0.2.0', '0.3.0')).toEqual(['## 0.3.0\n\n- a fix']);
    expect(changelogSections(changelog, '0.4.0', '0.4.0')).toEqual([]);
  });
});
