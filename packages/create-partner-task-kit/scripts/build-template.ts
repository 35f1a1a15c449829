import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { locales } from '../../page/src/ui/i18n/locale.ts';
import { defaultWorkflowOf } from '../../vite-plugin/src/cli/source-edits.ts';
import { scanWorkflowFolders } from '../../vite-plugin/src/workflow-folders.ts';

/**
 * The scaffolder's template, written at its build (`npm run build`, and `prepack` before `npm pack` or a publish) from
 * this repository's app, so the app a partner starts from is the one the kit's own tests run and never drifts:
 *
 *   template/app/          the files every app has: the root app's entries, guide and build config, with the app-only
 *                          files of template-base/ (package.json, tsconfig.json, eslint and vitest configs, README)
 *   template/workflows/<id>/  each example's folder, as it is: the folder is the whole workflow
 *                          (docs/architecture.md#a-workflow-is-a-folder), so an app holds the examples it copies
 *   template/tests/<id>/   the tests of tests/app/ that import that example's folder
 *   template/server/all/main.ts, template/server/<id>/main.ts   the app's server/main.ts naming the root's default
 *                          workflow, or that example, the only one of its app
 *   template/examples.json the examples' ids, the root's default first, then by id
 *
 * A build step, so it reads the repository by path; nothing of it runs in the scaffolder (src/cli.ts). An argument
 * writes the template into that folder instead (the kit's doc-links test reads an app made from it).
 */
const packageDir = join(import.meta.dirname, '..');
const root = join(packageDir, '../..');
const template = process.argv[2] === undefined ? join(packageDir, 'template') : resolve(process.argv[2]);
const workflowsDir = join(root, 'src/workflows');

/** Copied, their docs/ citations led online: the app's side of docs/architecture.md#what-the-app-hands-the-engine. */
const appFiles = ['src/main.tsx', 'src/theme.css', 'src/shell-texts.ts', 'server/app-migrations.ts', 'index.html'];

const { repository } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { repository: { url: string } };
/** The kit's repository on the web, where an app, which has no docs/ of its own, reads the pages its files cite. */
const docsUrl = `${repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/docs/`;

/** `text` with each `docs/…` it cites (in a comment or a link) led to the same page in the kit's repository. */
function withDocsOnline(text: string): string {
  return text.replaceAll('](../../docs/', `](${docsUrl}`).replace(/(?<![\w./:-])docs\//g, docsUrl);
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, withDocsOnline(text));
}

/** Every file of `from` written under `to`, as write() writes them. */
function copyFolder(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyFolder(join(from, entry.name), join(to, entry.name));
    else write(join(to, entry.name), readFileSync(join(from, entry.name), 'utf8'));
  }
}

function read(file: string): string {
  return readFileSync(join(root, file), 'utf8');
}

/**
 * The root's vite.config.ts without what only the monorepo needs: its packages' sources through tsconfig paths, the
 * option and the comment lines just above it.
 */
function viteConfig(): string {
  const lines = read('vite.config.ts').split('\n');
  const option = lines.findIndex((line) => line.includes('tsconfigPaths'));
  if (option === -1) return lines.join('\n');
  let first = option;
  while (first > 0 && lines[first - 1]!.trim().startsWith('//')) first -= 1;
  return [...lines.slice(0, first), ...lines.slice(option + 1)].join('\n');
}

/** template-base/package.json with each dependency the root pins filled in at the root's range. */
function appPackageJson(): string {
  const rootManifest = JSON.parse(read('package.json')) as Record<'dependencies' | 'devDependencies', Record<string, string>>;
  const rootRanges = { ...rootManifest.dependencies, ...rootManifest.devDependencies };
  const manifest = JSON.parse(readFileSync(join(packageDir, 'template-base/package.json'), 'utf8')) as Record<string, unknown>;
  // The app a partner makes depends on the kit's packages the root app does, in the same lists: each of them at the one
  // kit version (the scaffolder writes it, src/cli.ts), the root's at this checkout's (docs/upgrading.md#one-version-of-the-kit).
  const kitVersion = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const kitOf = (ranges: Record<string, string>) =>
      Object.keys(ranges)
        .filter((name) => name.startsWith('@partner-task-kit/'))
        .sort();
    const rootKit = kitOf(rootManifest[field]);
    const templateKit = kitOf(manifest[field] as Record<string, string>);
    if (rootKit.join() !== templateKit.join()) {
      throw new Error(
        `${field}: the root's package.json names the kit's ${rootKit.join(', ')}, template-base/package.json ${templateKit.join(', ')}`,
      );
    }
    const offVersion = rootKit.filter((name) => rootManifest[field][name] !== kitVersion);
    if (offVersion.length > 0) throw new Error(`the root's package.json: ${offVersion.join(', ')} not at the kit's version ${kitVersion}`);
  }
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const ranges = manifest[field] as Record<string, string>;
    for (const [name, range] of Object.entries(ranges)) {
      // The kit's own packages get the scaffolder's version when an app is made (src/cli.ts).
      if (range !== '' || name.startsWith('@partner-task-kit/')) continue;
      const rootRange = rootRanges[name];
      if (rootRange === undefined) throw new Error(`template-base/package.json: the root's package.json has no range for ${name}`);
      ranges[name] = rootRange;
    }
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

// The examples are the app's workflow folders, found as the page's build and the server find them.
const folders = scanWorkflowFolders(root, locales).map((folder) => folder.id);
const serverMain = read('server/main.ts');
const rootDefault = defaultWorkflowOf('server/main.ts', serverMain);
if (rootDefault === undefined && folders.length > 1) throw new Error('server/main.ts names no defaultWorkflow for runKit');
const defaultExample = rootDefault?.id ?? folders[0]!;
if (!folders.includes(defaultExample)) throw new Error(`server/main.ts: the default workflow "${defaultExample}" has no folder`);
const examples = [defaultExample, ...folders.filter((id) => id !== defaultExample)];

rmSync(template, { recursive: true, force: true });
copyFolder(join(packageDir, 'template-base'), join(template, 'app'));
write(join(template, 'app/package.json'), appPackageJson());
for (const file of appFiles) write(join(template, 'app', file), read(file));
write(join(template, 'app/vite.config.ts'), viteConfig());
write(join(template, 'app/src/workflows/README.md'), read('src/workflows/README.md'));
write(join(template, 'examples.json'), `${JSON.stringify(examples)}\n`);
write(join(template, 'server/all/main.ts'), serverMain);
// Code the workflows share (a folder named with a leading _) goes with every app: an example may import it.
for (const entry of readdirSync(workflowsDir, { withFileTypes: true })) {
  if (entry.isDirectory() && entry.name.startsWith('_'))
    copyFolder(join(workflowsDir, entry.name), join(template, 'app/src/workflows', entry.name));
}

const testFiles = readdirSync(join(root, 'tests/app')).filter((file) => file.endsWith('.ts'));
for (const id of examples) {
  copyFolder(join(workflowsDir, id), join(template, 'workflows', id));
  for (const file of testFiles.filter((name) => read(`tests/app/${name}`).includes(`src/workflows/${id}/`))) {
    write(join(template, 'tests', id, file), read(`tests/app/${file}`));
  }
  // The example alone is its app's default: a server naming a workflow the app does not hold refuses to start.
  write(join(template, 'server', id, 'main.ts'), rootDefault === undefined ? serverMain : rootDefault.edit(id));
}
process.stdout.write(`create-partner-task-kit: template/ written from the app, with ${examples.join(', ')}\n`);
