import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runKit } from '@partner-task-kit/server/run-kit';
import { spawnServer } from '../helpers/server-process';
import { testWorkflows } from '../helpers/test-workflows';

const directory = mkdtempSync(join(tmpdir(), 'ptk-kit-options-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The fixture app's entry (fixtures/kit-main.ts), run as an app's server/main.ts is: runKit with no command serves. */
const FIXTURE_APP = [process.execPath, '--import', 'tsx', 'packages/kit-tests/fixtures/kit-main.ts'];

describe("an app's own routes (runKit's extendApp)", () => {
  it('are served beside the kit’s, which still answer', async () => {
    const server = await spawnServer({ DATABASE_URL: join(directory, 'routes.db') }, 30_000, FIXTURE_APP);
    try {
      const own = await fetch(`${server.url}/fixture-app/greeting`);
      expect(own.status).toBe(200);
      expect(await own.json()).toEqual({ greeting: 'hello from the app' });

      const context = {
        wxWorkerUuid: randomUUID(),
        wxAssignedTaskUuid: randomUUID(),
        wxTaskFlowUuid: randomUUID(),
        wxCompanyUuid: randomUUID(),
      };
      const session = await fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(context),
      });
      expect(session.status, await session.clone().text()).toBe(200);
      const { token } = (await session.json()) as { token: string };
      const task = await fetch(`${server.url}/api/task`, { headers: { authorization: `Bearer ${token}` } });
      expect(task.status).toBe(200);
      // A path neither serves is still the kit's JSON 404.
      const unknown = await fetch(`${server.url}/fixture-app/nothing-here`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
    } finally {
      await server.kill('SIGTERM');
    }
  }, 60_000);
});

describe("an app's future flags (runKit's future)", () => {
  it('stops runKit before it serves or runs a command when a flag is unknown, naming it and the docs', async () => {
    for (const argv of [[], ['migrate']]) {
      await expect(runKit(argv, { workflows: testWorkflows, future: { notAFlag: true } as object })).rejects.toThrow(
        /"notAFlag" is not a future flag of this version .*docs\/upgrading\.md#future-flags/,
      );
    }
  });
});
