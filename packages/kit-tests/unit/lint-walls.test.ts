import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eslint, expectWall, lintAs, problemsOf, root } from '../helpers/lint-probe';

// The walls of docs/architecture.md#walls that keep the engine's packages apart, and apart from the app: each case
// probes with files any app has (src/main.tsx, server/main.ts, server/app-migrations.ts), so they hold whatever the
// app's workflows are. The app's own walls, probed with its example workflows: app-checks/app-lint-walls.test.ts.

describe('lint walls', () => {
  it('keeps the server out of the task page', async () => {
    await expectWall(
      'packages/page/src/task/probe.ts',
      'packages/workflow/src/contract/task-view.ts',
      'packages/server/src/clock.ts',
      'The task page never imports the server',
    );
    const typeOnly = await lintAs(
      'packages/page/src/task/probe.ts',
      "import type { Clock } from '@partner-task-kit/server/clock';\nexport type Later = Clock;\n",
    );
    // The path is no entry of the server's either (walls/kit-entries): the wall between the two holds all the same.
    expect(typeOnly).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'import-x/no-restricted-paths' })]));
  });

  it("keeps the app out of the engine's page package and build, which are handed its workflows", async () => {
    const reason = 'The engine names nothing of the app';
    await expectWall('packages/page/src/task/probe.ts', 'packages/page/src/workflows/workflow-views.tsx', 'src/main.tsx', reason);
    await expectWall('packages/page/src/ui/probe.ts', 'packages/workflow/src/workflow-catalog.ts', 'src/main.tsx', reason);
    await expectWall('packages/vite-plugin/src/probe.ts', 'packages/workflow/src/workflow-catalog.ts', 'src/main.tsx', reason);
    // A dynamic import() is an import all the same.
    const dynamic = await lintAs('packages/page/src/task/probe.ts', "export const load = () => import('../../../../src/main');\n");
    expect(dynamic).toEqual([{ line: 1, rule: 'import-x/no-restricted-paths', message: expect.stringContaining(reason) }]);
  });

  it('keeps Node built-ins and server packages out of the task page', async () => {
    const problems = await lintAs('packages/page/src/task/probe.ts', "import 'zod/mini';\nimport 'node:fs';\nimport 'fastify';\n");
    expect(problems.map((p) => [p.line, p.rule])).toEqual([
      [2, 'no-restricted-imports'],
      [3, 'no-restricted-imports'],
    ]);
    expect(problems[0]?.message).toContain('The task page runs in the browser');
  });

  it("keeps the page's side out of the server", async () => {
    const reason = 'The server imports nothing of the page';
    await expectWall(
      'packages/server/src/task-progress/probe.ts',
      'packages/workflow/src/contract/task-view.ts',
      'packages/page/src/task/step-runner.tsx',
      reason,
    );
    await expectWall(
      'packages/server/src/task-progress/probe.ts',
      'packages/workflow/src/workflow-catalog.ts',
      'packages/page/src/ui/i18n/locale.ts',
      reason,
    );
    await expectWall(
      'packages/server/src/task-progress/probe.ts',
      'packages/workflow/src/workflow-definition.ts',
      'packages/page/src/workflows/step-view-props.ts',
      reason,
    );
  });

  it("keeps the app out of the engine's server, tests and benchmarks", async () => {
    const reason = 'The engine names nothing of the app';
    for (const from of [
      'packages/server/src/task-progress/probe.ts',
      'packages/kit-tests/integration/probe.ts',
      'packages/kit-tests/helpers/probe.ts',
      'packages/kit-tests/bench/probe.ts',
      'packages/kit-tests/e2e/engine/probe.ts',
      'packages/kit-tests/e2e/probe.ts',
      'packages/kit-tests/fixtures/app/src/probe.ts',
      'packages/testing/src/probe.ts',
    ]) {
      await expectWall(from, 'packages/workflow/src/workflow-definition.ts', 'server/main.ts', reason);
      await expectWall(from, 'packages/server/src/clock.ts', 'server/app-migrations.ts', reason);
    }
    // Nor the app's page entry, from the engine's tests (from the server, another wall says why first).
    await expectWall('packages/kit-tests/integration/probe.ts', 'packages/workflow/src/workflow-catalog.ts', 'src/main.tsx', reason);
    // The engine's tests run on workflows of their own.
    await expectWall('packages/kit-tests/integration/probe.ts', 'packages/kit-tests/fixtures/workflows/index.ts', 'server/main.ts', reason);
  });

  it('keeps the contract and the workflow definitions free of page code, which would reach the server through them', async () => {
    const reason = 'compiled into both the page and the server';
    await expectWall(
      'packages/workflow/src/contract/probe.ts',
      'packages/workflow/src/contract/task-view.ts',
      'packages/page/src/ui/i18n/locale.ts',
      reason,
    );
    await expectWall(
      'src/workflows/safety-training/definition.ts',
      'packages/workflow/src/workflow-definition.ts',
      'packages/page/src/workflows/step-view-props.ts',
      reason,
    );
    const react = await lintAs('packages/workflow/src/contract/probe.ts', "import 'zod/mini';\nimport 'react';\n");
    expect(react).toEqual([{ line: 2, rule: 'no-restricted-imports', message: expect.stringContaining('no React here') }]);
  });

  it.each([
    'packages/server/src/http',
    'packages/server/src/page',
    'packages/server/src/session',
    'packages/server/src/task-api',
    'packages/server/src/task-progress',
  ])('keeps the platform client and the relay out of request handlers in %s', async (room) => {
    const reason = 'A request handler never calls the platform';
    await expectWall(`${room}/probe.ts`, 'packages/server/src/store/store.ts', 'packages/server/src/upstream/token-cache.ts', reason);
    await expectWall(`${room}/probe.ts`, 'packages/server/src/clock.ts', 'packages/server/src/delivery/retry-policy.ts', reason);
  });

  it('lets the emulator import nothing of ours but the contract', async () => {
    const reason = 'The emulator stands in for the platform';
    await expectWall(
      'packages/dev/src/emulator/probe.ts',
      'packages/workflow/src/contract/partner-task-update.ts',
      'packages/server/src/store/store.ts',
      reason,
    );
    await expectWall(
      'packages/dev/src/emulator/probe.ts',
      'packages/dev/src/emulator/fault-queue.ts',
      'packages/server/src/clock.ts',
      reason,
    );
    await expectWall(
      'packages/dev/src/emulator/probe.ts',
      'packages/workflow/src/contract/task-view.ts',
      'packages/workflow/src/workflow-definition.ts',
      reason,
    );
  });

  it('keeps the dev tools out of the page and the server, which an install without dev dependencies runs', async () => {
    const reason = 'The page and the server never import @partner-task-kit/dev';
    await expectWall(
      'packages/page/src/task/probe.tsx',
      'packages/page/src/ui/button.tsx',
      'packages/dev/src/preview/preview-route.tsx',
      reason,
    );
    await expectWall(
      'packages/server/src/http/probe.ts',
      'packages/server/src/clock.ts',
      'packages/dev/src/emulator/emulator-state.ts',
      reason,
    );
    await expectWall('server/probe.ts', 'packages/server/src/run-kit.ts', 'packages/dev/src/index.ts', reason);
    // By the package's name too, and a dynamic import() is an import all the same: the server names it only in a variable.
    const byName = await lintAs('packages/server/src/probe.ts', "export const load = () => import('@partner-task-kit/dev');\n");
    expect(byName).toEqual([{ line: 1, rule: 'import-x/no-restricted-paths', message: expect.stringContaining(reason) }]);
  });

  it('keeps the preview out of the task page but for the lazy route of packages/page/src/app-routes.tsx', async () => {
    const lazyRoute = "export const load = () => import('virtual:partner-task-kit/preview');\n";
    expect(await lintAs('packages/page/src/app-routes.tsx', lazyRoute)).toEqual([]);
    const staticImport = await lintAs('packages/page/src/app-routes.tsx', "import 'virtual:partner-task-kit/preview';\n");
    expect(staticImport).toEqual([
      { line: 1, rule: 'no-restricted-imports', message: expect.stringContaining('only through the dynamic import() of its lazy route') },
    ]);
  });

  it("keeps the dev tools' browser side and Node side apart", async () => {
    await expectWall(
      'packages/dev/src/preview/probe.tsx',
      'packages/page/src/ui/button.tsx',
      'packages/dev/src/emulator/fault-queue.ts',
      'The preview runs in the browser',
    );
    await expectWall(
      'packages/dev/src/partner-backend/probe.ts',
      'packages/dev/src/partner-backend/receiver.ts',
      'packages/dev/src/preview/time-text.ts',
      "The dev tools' Node side",
    );
    const node = await lintAs('packages/dev/src/preview/probe.ts', "import 'zod/mini';\nimport 'node:fs';\n");
    expect(node).toEqual([{ line: 2, rule: 'no-restricted-imports', message: expect.stringContaining('runs in the browser') }]);
  });

  it('keeps the database out of the platform client', async () => {
    await expectWall(
      'packages/server/src/upstream/probe.ts',
      'packages/server/src/clock.ts',
      'packages/server/src/store/store.ts',
      'knows no database',
    );
    const problems = await lintAs(
      'packages/server/src/upstream/probe.ts',
      "import 'node:http';\nimport 'kysely';\nimport 'pg';\nimport 'better-sqlite3';\n",
    );
    expect(problems.map((p) => [p.line, p.rule])).toEqual([
      [2, 'no-restricted-imports'],
      [3, 'no-restricted-imports'],
      [4, 'no-restricted-imports'],
    ]);
    expect(problems[0]?.message).toContain('knows no database');
  });

  it('keeps HTTP out of the store', async () => {
    const reason = 'knows no HTTP';
    await expectWall(
      'packages/server/src/store/probe.ts',
      'packages/server/src/config.ts',
      'packages/server/src/http/error-handling.ts',
      reason,
    );
    await expectWall(
      'packages/server/src/store/probe.ts',
      'packages/server/src/config.ts',
      'packages/server/src/upstream/token-cache.ts',
      reason,
    );
    await expectWall(
      'packages/server/src/store/migrations/probe.ts',
      'packages/server/src/store/store.ts',
      'packages/server/src/task-api/task-routes.ts',
      reason,
    );
    const problems = await lintAs(
      'packages/server/src/store/probe.ts',
      "import 'kysely';\nimport 'fastify';\nimport '@fastify/static';\nimport 'node:http';\nimport 'node:https';\n",
    );
    expect(problems.map((p) => [p.line, p.rule])).toEqual([
      [2, 'no-restricted-imports'],
      [3, 'no-restricted-imports'],
      [4, 'no-restricted-imports'],
      [5, 'no-restricted-imports'],
    ]);
    expect(problems[0]?.message).toContain(reason);
  });

  describe('import cycles', () => {
    const first = 'packages/kit-tests/fixtures/lint-cycle/first.ts';
    const second = 'packages/kit-tests/fixtures/lint-cycle/second.ts';

    it('fails on a cycle, also when one side imports only a type', async () => {
      const results = await eslint.lintFiles([first, second]);
      const problems = results.map((result) => [path.relative(root, result.filePath), problemsOf(result.messages)]);
      expect(problems).toEqual([
        [first, [{ line: 3, rule: 'walls/no-import-cycle', message: expect.stringContaining(`${first} -> ${second} -> ${first}`) }]],
        [second, [{ line: 2, rule: 'walls/no-import-cycle', message: expect.stringContaining(`${second} -> ${first} -> ${second}`) }]],
      ]);
    });

    it('fails on a cycle of value imports and of dynamic imports', async () => {
      const value = await lintAs(first, "import { secondName } from './second';\nexport const firstName = secondName;\n");
      expect(value).toEqual([expect.objectContaining({ line: 1, rule: 'walls/no-import-cycle' })]);
      const dynamic = await lintAs(first, "export const firstName = 'first';\nexport const later = () => import('./second');\n");
      expect(dynamic).toEqual([expect.objectContaining({ line: 2, rule: 'walls/no-import-cycle' })]);
    });

    it('passes once the cycle is broken', async () => {
      expect(await lintAs(first, "export const firstName = 'first';\n")).toEqual([]);
    });
  });

  it("lets a package import a sibling only through the entries of the sibling's package.json exports", async () => {
    const named = "import '@partner-task-kit/page/internal';\nimport '@partner-task-kit/workflow/contract';\n";
    expect(await lintAs('packages/testing/src/probe.ts', named)).toEqual([]);
    const problems = await lintAs('packages/testing/src/probe.ts', "import '@partner-task-kit/page/api/query-keys';\n");
    expect(problems).toEqual([
      {
        line: 1,
        rule: 'walls/kit-entries',
        message: expect.stringContaining(
          '@partner-task-kit/page/api/query-keys is not an entry of @partner-task-kit/page: a package imports a sibling through ' +
            'the entries its package.json "exports" names (@partner-task-kit/page, @partner-task-kit/page/screens, ' +
            '@partner-task-kit/page/internal)',
        ),
      },
    ]);
    const dynamic = await lintAs(
      'packages/vite-plugin/src/probe.ts',
      "export const load = () => import('@partner-task-kit/server/config');\n",
    );
    expect(dynamic.map((problem) => problem.rule)).toEqual(['walls/kit-entries']);
  });
});
