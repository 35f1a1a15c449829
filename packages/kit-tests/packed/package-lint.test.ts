import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../helpers/project-copy';
import { minutes, packKit, repoRoot, type Tarballs } from './packed-kit';

// Each package as it is published, its tarball from `npm pack` (packKit): publint finds nothing to say of its
// manifest and files, even as a suggestion, and Are the Types Wrong finds every entry's types where Node and a bundler
// look for them (docs/public-api.md). The packages are ES modules only: CommonJS and node10 resolution, which cannot
// load them, are left out (attw's esm-only profile).

/** attw's command, `bin.attw` of its package. */
const attwManifest = fileURLToPath(import.meta.resolve('@arethetypeswrong/cli/package.json'));
const attw = join(dirname(attwManifest), (JSON.parse(readFileSync(attwManifest, 'utf8')) as { bin: { attw: string } }).bin.attw);

let work: string;
let tarballs: Tarballs;

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-package-lint-')));
  tarballs = await packKit(repoRoot, work);
}, minutes(8));

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('pass publint, strict, down to its suggestions', async () => {
    const found: string[] = [];
    for (const [name, file] of tarballs) {
      const bytes = readFileSync(file);
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
      found.push(...messages.map((message) => `${name}: ${message.type}: ${formatMessage(message, pkg) ?? message.code}`));
    }
    expect(found).toEqual([]);
  });

  it(
    'pass Are the Types Wrong for every entry (the scaffolder, a command with no entries, aside)',
    async () => {
      const kitPackages = [...tarballs].filter(([name]) => name.startsWith('@partner-task-kit/'));
      expect(kitPackages.map(([name]) => name).sort()).toEqual(
        ['dev', 'page', 'server', 'testing', 'vite-plugin', 'workflow'].map((name) => `@partner-task-kit/${name}`),
      );
      for (const [name, file] of kitPackages) {
        const outcome = await runIn(repoRoot, process.execPath, [attw, file, '--profile', 'esm-only', '--format', 'ascii'], minutes(2));
        expect(outcome.code, `${name}:\n${outcome.output}`).toBe(0);
      }
    },
    minutes(10),
  );
});
