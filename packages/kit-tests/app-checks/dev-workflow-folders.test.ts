import type { ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewConfig } from '@partner-task-kit/workflow/contract';
import { startDev, stopGroup } from '../helpers/dev-process';
import { copyProject } from '../helpers/project-copy';

/**
 * `npm run dev` serves a workflow added as a folder while it runs (docs/architecture.md#how-the-server-finds-them):
 * tsx watch restarts the server when a folder comes in src/workflows/, and the register hook writes the workflows again.
 * In a copy of this app, whose folders the test changes.
 */
let copy = '';
const children: ChildProcess[] = [];
beforeAll(async () => {
  copy = await copyProject();
}, 120_000);
afterAll(async () => {
  await Promise.all(children.map(stopGroup));
  if (copy !== '') rmSync(copy, { recursive: true, force: true });
});

async function workflowIds(port: number): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${port}/api/preview`).catch(() => undefined);
  if (response?.ok !== true) return [];
  return ((await response.json()) as PreviewConfig).workflows.map((workflow) => workflow.id);
}

describe('npm run dev, given a workflow folder while it runs', () => {
  it('restarts the server, which then offers the new workflow', async () => {
    const dev = await startDev(copy, 'dev', children, { cwd: copy });
    expect(await workflowIds(dev.port)).not.toContain('added-check');

    // Made whole outside src/workflows/, then moved in at once: the watch sees one folder come, with its definition.
    const staged = join(copy, 'staged-workflow');
    cpSync(join(copy, 'src/workflows/background-check'), staged, { recursive: true });
    const definition = join(staged, 'definition.ts');
    writeFileSync(definition, readFileSync(definition, 'utf8').replace("'background-check'", "'added-check'"));
    renameSync(staged, join(copy, 'src/workflows/added-check'));

    await expect.poll(() => workflowIds(dev.port), { timeout: 60_000, interval: 500 }).toContain('added-check');
    await dev.stop();
  }, 240_000);
});
