import semver from 'semver';

// The kit's guide named below (upgrading.md) is in its repository, which an app does not hold:
// https://github.com/partner-task-kit/partner-task-kit/tree/main/docs

/**
 * The kit's packages an app may depend on, released together at one version (upgrading.md, the packages move
 * together): an app that holds two versions of them holds two copies of `page`, and a screen rendered by `testing`'s
 * copy finds no API client of the app's (`useApiClient outside ApiClientProvider`).
 */
export const kitPackages = [
  '@partner-task-kit/workflow',
  '@partner-task-kit/page',
  '@partner-task-kit/server',
  '@partner-task-kit/vite-plugin',
  '@partner-task-kit/testing',
  '@partner-task-kit/dev',
] as const;

/**
 * The development tools (the emulator, the preview), which the server needs in emulator mode: an app made before they
 * were a package of their own gets them as a dev dependency with its upgrade.
 */
const devToolsPackage = '@partner-task-kit/dev';
/** The first release with the dev tools as a package of their own; the releases before have none to add. */
const devToolsSince = '0.3.0';

/** Whether `source` has the dev tools: its tarballs include them, or its version is one released with them. */
function hasDevTools(source: KitSource): boolean {
  return source.tarballs ? source.tarballs.has(devToolsPackage) : semver.gte(source.version, devToolsSince);
}

type DependencyList = 'dependencies' | 'devDependencies';

/** The fields of an app's package.json an upgrade reads and writes; the rest is kept as it is. */
export interface AppManifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, unknown>;
  partnerTaskKit?: { version?: string };
  [field: string]: unknown;
}

/**
 * Where the new version comes from: the registry, or `npm pack`'s tarballs (a rehearsal, or an app made from a clone
 * of the kit), each package's given as the `file:` path npm reads from the app's folder.
 */
export type KitSource = { version: string; tarballs?: undefined } | { version: string; tarballs: ReadonlyMap<string, string> };

/** A copy of a kit package in the app's node_modules: at its top, or inside another kit package's folder. */
export interface InstalledCopy {
  name: string;
  version: string;
  /** The folder, relative to the app's. */
  where: string;
}

export interface KitMove {
  name: string;
  list: DependencyList;
  spec: string;
}

export interface UpgradePlan {
  /** The version the app is on; the oldest of its copies when it is on a mix. */
  from: string;
  /** Every copy, when the app is on several versions or holds a second copy of a package: what the move mends. */
  mixed: readonly InstalledCopy[] | undefined;
  to: string;
  /** Each kit package the app depends on, in the list it is in, with the spec it gets. */
  moves: KitMove[];
  manifest: AppManifest;
  /**
   * The app is on that version from the registry already: nothing to install. From tarballs it never is (a rebuilt
   * tarball keeps its version), nor while a kit package is named by another spec than that exact version (a `file:`
   * spec, a range) or a second copy of one is nested in another (upgrading.md, one version of the kit).
   */
  done: boolean;
}

/** Why an upgrade does not start: said to the developer as it is. */
export class UpgradeRefused extends Error {}

const kitTarball = /^partner-task-kit-(workflow|page|server|vite-plugin|testing|dev)-(.+)\.tgz$/;

/**
 * The kit's packages among `files`, tarballs named as `npm pack` names them, as a source of one version; `prefix` leads
 * each file to the app's folder (`.kit-packages/`, `../packs/`). Refused unless every kit package is there, at one
 * version: page and server depend on workflow, testing on page, at that exact version.
 */
export function tarballSource(files: readonly string[], prefix: string): KitSource {
  const found = files.flatMap((file) => {
    const match = kitTarball.exec(file);
    return match ? [{ name: `@partner-task-kit/${match[1]}`, version: match[2]!, file }] : [];
  });
  // The dev tools may be absent: a release before them has none (hasDevTools).
  const missing = kitPackages.filter((name) => name !== devToolsPackage && !found.some((each) => each.name === name));
  if (missing.length > 0) {
    const named = 'npm pack names them partner-task-kit-server-X.Y.Z.tgz';
    throw new UpgradeRefused(`${prefix} holds no tarball of ${missing.join(', ')} (${named}).`);
  }
  const versions = [...new Set(found.map((each) => each.version))].sort();
  if (versions.length > 1) {
    throw new UpgradeRefused(`${prefix} holds the kit's packages at several versions (${versions.join(', ')}): keep one.`);
  }
  const version = versions[0]!;
  if (semver.valid(version) !== version) throw new UpgradeRefused(`${prefix}: "${version}" in a tarball's name is not a version.`);
  return { version, tarballs: new Map(found.map(({ name, file }) => [name, `file:${prefix}${file}`])) };
}

/** `version`, checked to be one release of the kit (`0.3.0`, `1.0.0-rc.1`), not a range or a tag. */
export function registrySource(version: string): KitSource {
  if (semver.valid(version) !== version) {
    const hint = semver.valid(version) ?? '0.3.0';
    throw new UpgradeRefused(
      `"${version}" is not a version: give one release, such as ${hint} (npm view @partner-task-kit/server versions).`,
    );
  }
  return { version };
}

/** The kit packages `manifest` depends on, each in the list it is in. */
function kitDependencies(manifest: AppManifest): { name: string; list: DependencyList }[] {
  return kitPackages.flatMap((name) =>
    (['dependencies', 'devDependencies'] as const).filter((list) => manifest[list]?.[name] !== undefined).map((list) => ({ name, list })),
  );
}

/**
 * `manifest` on `source`'s version: each kit package it depends on, in the same list, at that exact version or its
 * tarball, and `partnerTaskKit.version` with them (upgrading.md, which version the app is on). From tarballs, every
 * kit package is overridden with the same `file:` spec, so the kit packages the others depend on come from there too
 * (npm wants an override of a direct dependency to repeat its spec exactly); from the registry, the overrides of kit
 * packages go, as the exact versions already pull in one copy each.
 */
export function onKitVersion(manifest: AppManifest, source: KitSource): { manifest: AppManifest; moves: KitMove[] } {
  const spec = (name: string) => source.tarballs?.get(name) ?? source.version;
  const declared = kitDependencies(manifest);
  const withDevTools =
    declared.some(({ name }) => name === devToolsPackage) || !hasDevTools(source)
      ? declared
      : [...declared, { name: devToolsPackage, list: 'devDependencies' as const }];
  const moves = withDevTools.map(({ name, list }) => ({ name, list, spec: spec(name) }));
  const next: AppManifest = { ...manifest, dependencies: { ...manifest.dependencies }, devDependencies: { ...manifest.devDependencies } };
  for (const move of moves) next[move.list]![move.name] = move.spec;
  const overrides = Object.fromEntries(Object.entries(manifest.overrides ?? {}).filter(([name]) => !name.startsWith('@partner-task-kit/')));
  if (source.tarballs) for (const [name, file] of source.tarballs) overrides[name] = file;
  if (Object.keys(overrides).length > 0) next.overrides = overrides;
  else delete next.overrides;
  next.partnerTaskKit = { ...manifest.partnerTaskKit, version: source.version };
  return { manifest: next, moves };
}

/**
 * The upgrade of an installed app to `source`: refused when the app names no kit package, or when one it names is not
 * installed. An app on a mix already (two versions among its copies, or a second copy nested in another kit package)
 * is the case the server and the build refuse to run (upgrading.md, one version of the kit), and this command is their
 * fix: it moves from the oldest version among the copies, so the changelog sections it prints cover every package.
 */
export function planUpgrade(manifest: AppManifest, installed: readonly InstalledCopy[], source: KitSource): UpgradePlan {
  const declared = kitDependencies(manifest);
  if (declared.length === 0) {
    throw new UpgradeRefused("package.json names none of the kit's packages: run it in the app's folder, where its package.json is.");
  }
  const absent = declared.filter(({ name }) => !installed.some((copy) => copy.name === name && copy.where === `node_modules/${name}`));
  if (absent.length > 0) {
    throw new UpgradeRefused(
      `${absent.map(({ name }) => name).join(', ')} not installed: run npm install first, so the upgrade starts from the version the app runs.`,
    );
  }
  const versions = [...new Set(installed.map((copy) => copy.version))].sort(semver.compare);
  const { manifest: next, moves } = onKitVersion(manifest, source);
  const exact = declared.every(({ name, list }) => manifest[list]![name] === source.version);
  const kitOverrides = Object.keys(manifest.overrides ?? {}).some((name) => name.startsWith('@partner-task-kit/'));
  const nested = installed.some((copy) => copy.where !== `node_modules/${copy.name}`);
  const addsDevTools = moves.length > declared.length;
  const done =
    !addsDevTools &&
    versions.length === 1 &&
    versions[0] === source.version &&
    source.tarballs === undefined &&
    exact &&
    !kitOverrides &&
    !nested;
  return {
    from: versions[0]!,
    mixed: versions.length > 1 || nested ? installed : undefined,
    to: source.version,
    moves,
    manifest: next,
    done,
  };
}

/**
 * The sections of a package's CHANGELOG.md (Changesets writes one `## <version>` heading per release) after `from`, up
 * to `to`: what an upgrade from one to the other brings. Newest first, as the file has them.
 */
export function changelogSections(changelog: string, from: string, to: string): string[] {
  const sections = changelog.split(/^(?=## )/m).filter((section) => section.startsWith('## '));
  return sections
    .filter((section) => {
      const version = semver.valid(/^## (\S+)/.exec(section)?.[1] ?? '');
      return version !== null && semver.gt(version, from) && semver.lte(version, to);
    })
    .map((section) => section.trimEnd());
}
