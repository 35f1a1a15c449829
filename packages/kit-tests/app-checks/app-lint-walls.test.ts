import { describe, expect, it } from 'vitest';
import { expectWall, lintAs } from '../helpers/lint-probe';

// The app's own walls (docs/architecture.md#walls), probed with this repository's example workflows; the engine's walls,
// which hold whatever the app's workflows are: unit/lint-walls.test.ts.

describe("the app's lint walls", () => {
  it('keeps .server.ts modules (answer keys) out of the task page', async () => {
    await expectWall(
      'src/workflows/safety-training/probe.ts',
      'src/workflows/safety-training/definition.ts',
      'src/workflows/safety-training/definition.server.ts',
      'A .server.ts module is server-only',
    );
    // Server-only modules of src/ may import each other.
    expect(await lintAs('src/workflows/safety-training/answers.server.ts', "import './definition.server';\n")).toEqual([]);
  });

  it("lets the app's own files name its workflows' files and the build's table of screens, and the engine by its packages", async () => {
    const entry = "import '@partner-task-kit/page';\nexport const load = () => import('virtual:partner-task-kit/screens');\n";
    expect(await lintAs('src/main.tsx', entry)).toEqual([]);
    const screen = "import '../definition';\nimport '../texts';\nimport '@partner-task-kit/page/screens';\n";
    expect(await lintAs('src/workflows/availability/steps/probe.tsx', screen)).toEqual([]);
  });

  it("imports the kit through its public entries only (docs/public-api.md), read from the packages' exports", async () => {
    const entries =
      "import '@partner-task-kit/workflow';\nimport '@partner-task-kit/workflow/contract';\nimport '@partner-task-kit/page/screens';\n";
    expect(await lintAs('src/workflows/availability/probe.tsx', entries)).toEqual([]);
    const publicList = expect.stringContaining('@partner-task-kit/page/screens, @partner-task-kit/server');
    for (const [file, source] of [
      ['src/workflows/availability/probe.tsx', '@partner-task-kit/page/ui/button'],
      ['src/workflows/availability/probe.tsx', '@partner-task-kit/page/internal'],
      ['server/probe.ts', '@partner-task-kit/server/store/store'],
      ['tests/app/probe.ts', '@partner-task-kit/workflow/contract/task-view'],
      ['tests/app/probe.ts', '@partner-task-kit/workflow/workflow-path'],
    ]) {
      expect(await lintAs(file!, `import type {} from '${source}';\n`), `${file} importing ${source}`).toEqual([
        { line: 1, rule: 'walls/kit-entries', message: expect.stringMatching(`^${source} is not a public entry`) },
      ]);
      expect((await lintAs(file!, `import type {} from '${source}';\n`))[0]?.message).toEqual(publicList);
    }
  });

  it('lets the server entry hand the engine its definitions and server halves, never its screens', async () => {
    const reason = 'The server imports nothing of the page';
    await expectWall(
      'server/main.ts',
      'src/workflows/safety-training/definition.server.ts',
      'src/workflows/safety-training/texts.ts',
      reason,
    );
    await expectWall(
      'server/main.ts',
      'src/workflows/safety-training/definition.ts',
      'src/workflows/safety-training/steps/quiz.tsx',
      reason,
    );
  });

  it("lets the app's tests and the checks of this repository's app name the app", async () => {
    expect(await lintAs('tests/app/probe.ts', "import '../../src/workflows/availability/definition';\n")).toEqual([]);
    // The checks of this repository's app may name it: its build's budgets, its examples in the browser.
    expect(await lintAs('packages/kit-tests/app-checks/probe.ts', "import '../../../src/workflows/availability/definition';\n")).toEqual(
      [],
    );
    expect(await lintAs('packages/kit-tests/e2e/app/probe.ts', "import '../../../../src/workflows/availability/definition';\n")).toEqual(
      [],
    );
  });
});
