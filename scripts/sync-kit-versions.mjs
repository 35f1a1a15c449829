// Part of `npm run version-packages`, after `changeset version`: every range one kit package or the root app gives a
// kit package set to the kit's one new version (docs/upgrading.md#one-version-of-the-kit). The scaffolder's template
// needs none: it names the kit's packages at the scaffolder's own version when it makes an app.
//
// Changesets keeps the packages one fixed group (.changeset/config.json), but does not write these ranges itself: they
// are exact peerDependencies, and a peer range Changesets sees leave its range turns the release into a major (a minor
// of 0.2.0 would publish 1.0.0), so its config leaves ranges without `workspace:` to this script
// (`bumpVersionsWithWorkspaceProtocolOnly`). The root app is no package to Changesets at all.
//
// Plain JavaScript: it runs in the release's CI before anything is built, without tsx.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const lists = ['dependencies', 'devDependencies', 'peerDependencies'];

function read(file) {
  return JSON.parse(readFileSync(join(root, file), 'utf8'));
}

const manifests = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `packages/${entry.name}/package.json`)
  .map((file) => ({ file, manifest: read(file) }));
const kit = manifests.filter(({ manifest }) => manifest.name.startsWith('@partner-task-kit/') && manifest.private !== true);
const kitNames = new Set(kit.map(({ manifest }) => manifest.name));
const versions = [...new Set(kit.map(({ manifest }) => manifest.version))];
if (versions.length !== 1) {
  const each = kit.map(({ manifest }) => `${manifest.name}@${manifest.version}`).join(', ');
  process.stderr.write(`sync-kit-versions: the kit's packages are at several versions (${each}): they are one fixed group.\n`);
  process.exit(1);
}
const [version] = versions;

for (const { file, manifest } of [...kit, { file: 'package.json', manifest: read('package.json') }]) {
  let changed = false;
  for (const list of lists) {
    for (const name of Object.keys(manifest[list] ?? {})) {
      if (!kitNames.has(name) || manifest[list][name] === version) continue;
      manifest[list][name] = version;
      changed = true;
    }
  }
  if (changed) {
    writeFileSync(join(root, file), `${JSON.stringify(manifest, null, 2)}\n`);
    process.stdout.write(`sync-kit-versions: ${file} names the kit's packages at ${version}\n`);
  }
}
