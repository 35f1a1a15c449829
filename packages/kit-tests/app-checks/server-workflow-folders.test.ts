import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewConfig } from '@partner-task-kit/workflow/contract';
import { copyProject, runIn } from '../helpers/project-copy';
import { launchServer } from '../helpers/server-process';

/**
 * The app's server finds its workflows by their folders (docs/architecture.md#how-the-server-finds-them): a copy of
 * this app, a workflow added to it as a folder and nothing else edited, started as its commands start it and as its
 * production bundle runs.
 */
let copy = '';
const added = 'added-check';

beforeAll(async () => {
  copy = await copyProject();
  // A workflow of the copy's own: the background check's folder under another name, its id made that name.
  cpSync(join(copy, 'src/workflows/background-check'), join(copy, 'src/workflows', added), { recursive: true });
  edit(`src/workflows/${added}/definition.ts`, (text) => text.replace("'background-check'", `'${added}'`));
}, 120_000);
afterAll(() => {
  if (copy !== '') rmSync(copy, { recursive: true, force: true });
});

function edit(file: string, change: (text: string) => string): void {
  const path = join(copy, file);
  const text = readFileSync(path, 'utf8');
  const changed = change(text);
  expect(changed, `${file} changed`).not.toBe(text);
  writeFileSync(path, changed);
}

/** Node's arguments as the app's package.json runs its server entry for a command (`npm run migrate`), the command left off. */
function serverEntryArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [node, ...args] = scripts.migrate!.split(' ');
  expect(node).toBe('node');
  expect(args.at(-1)).toBe('migrate');
  return args.slice(0, -1);
}

const serverEnvironment = (name: string) => ({ DATABASE_URL: join(copy, `${name}.db`), LOG_LEVEL: 'warn' });

async function previewOf(command: readonly string[], name: string): Promise<PreviewConfig> {
  const server = await launchServer(serverEnvironment(name), command, copy);
  try {
    await server.healthy(60_000);
    return (await (await fetch(`${server.url}/api/preview`)).json()) as PreviewConfig;
  } finally {
    await server.kill('SIGTERM');
  }
}

describe("the app's server, given its workflows by their folders", () => {
  it('serves a workflow added as a folder, with no other edit, and the default server/main.ts names', async () => {
    const preview = await previewOf([process.execPath, ...serverEntryArguments()], 'commands');
    expect(preview.workflows.map((workflow) => workflow.id)).toEqual([
      'added-check',
      'availability',
      'background-check',
      'safety-training',
      'work-authorization',
    ]);
    expect(preview.defaultWorkflow).toBe('safety-training');
  }, 90_000);

  it('bundles it into the production server (partner-task-kit build-server)', async () => {
    const built = await runIn(copy, 'npm', ['run', '-s', 'build:server'], 120_000);
    expect(built.code, built.output).toBe(0);
    expect(readFileSync(join(copy, 'build/server/main.mjs'), 'utf8')).toContain(`src/workflows/${added}/definition.ts`);
    const preview = await previewOf([process.execPath, 'build/server/main.mjs'], 'bundle');
    expect(preview.workflows.map((workflow) => workflow.id)).toContain(added);
  }, 180_000);

  it('refuses to start with several workflows and no default named, saying where to name it', async () => {
    const entry = readFileSync(join(copy, 'server/main.ts'), 'utf8');
    try {
      edit('server/main.ts', (text) => text.replace("defaultWorkflow: 'safety-training', ", ''));
      const started = await runIn(copy, process.execPath, [...serverEntryArguments(), 'migrate'], 60_000, serverEnvironment('no-default'));
      expect(started.code).toBe(1);
      expect(started.output).toContain(
        'Stopped before starting: the app has 5 workflows (added-check, availability, background-check, safety-training, work-authorization) and names no default',
      );
      expect(started.output).toContain("name it in server/main.ts, runKit(argv, { workflows, defaultWorkflow: 'added-check' })");
    } finally {
      writeFileSync(join(copy, 'server/main.ts'), entry);
    }
  }, 90_000);

  it("refuses a definition whose id is not its folder's name, and a folder with no definition, naming the file", async () => {
    const definition = `src/workflows/${added}/definition.ts`;
    const text = readFileSync(join(copy, definition), 'utf8');
    try {
      edit(definition, (source) => source.replace(`'${added}'`, "'renamed-check'"));
      const renamed = await runIn(copy, process.execPath, [...serverEntryArguments(), 'migrate'], 60_000, serverEnvironment('renamed'));
      expect(renamed.code).toBe(1);
      expect(renamed.output).toContain(`${definition}: id "renamed-check" is not its folder's name, "${added}"`);

      writeFileSync(join(copy, definition), text);
      mkdirSync(join(copy, 'src/workflows/half-made/steps'), { recursive: true });
      const halfMade = await runIn(copy, process.execPath, [...serverEntryArguments(), 'migrate'], 60_000, serverEnvironment('half-made'));
      expect(halfMade.code).toBe(1);
      expect(halfMade.output).toContain('src/workflows/half-made/: no definition.ts');
      expect(halfMade.output).not.toMatch(/\n\s+at /);
    } finally {
      writeFileSync(join(copy, definition), text);
      rmSync(join(copy, 'src/workflows/half-made'), { recursive: true, force: true });
    }
  }, 90_000);
});
