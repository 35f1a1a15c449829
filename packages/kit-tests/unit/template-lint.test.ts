import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint of an app made from the scaffolder's template (template-base/eslint.config.js), run as the app's `npm run
// lint` runs it: the kit's packages through their public entries only (docs/public-api.md), read from the installed
// packages' exports (here, this repository's workspace packages).

const root = path.resolve(import.meta.dirname, '../../..');
const app = path.join(root, 'packages/create-partner-task-kit/template-base');
const eslint = new ESLint({ cwd: app, overrideConfigFile: path.join(app, 'eslint.config.js') });
const fixture = path.join(root, 'packages/kit-tests/fixtures/template-lint/deep-import-step.tsx');

async function lintAsApp(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(app, file) });
  return (result?.messages ?? []).map((message) => ({ line: message.line, rule: message.ruleId, message: message.message }));
}

describe("the template's lint", () => {
  it('refuses an import of the kit past its public entries, naming them', async () => {
    const problems = await lintAsApp('src/workflows/demo/deep-import-step.tsx', readFileSync(fixture, 'utf8'));
    expect(problems).toEqual([
      {
        line: 3,
        rule: 'no-restricted-imports',
        message: expect.stringContaining(
          'Import the kit through its public entries: @partner-task-kit/workflow, @partner-task-kit/workflow/contract, ' +
            '@partner-task-kit/page, @partner-task-kit/page/screens, @partner-task-kit/server, @partner-task-kit/testing, ' +
            '@partner-task-kit/vite-plugin, @partner-task-kit/vite-plugin/client, @partner-task-kit/vite-plugin/register.',
        ),
      },
    ]);
  });

  it("refuses the kit's internal entries and deep paths in the server and the tests too, and keeps the .server.ts wall", async () => {
    const internal = await lintAsApp('server/main.ts', "import '@partner-task-kit/server/internal';\n");
    expect(internal.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
    const deep = await lintAsApp('tests/app/probe.test.ts', "import '@partner-task-kit/workflow/contract/task-view';\n");
    expect(deep.map((problem) => problem.rule)).toEqual(['no-restricted-imports']);
    const serverModule = await lintAsApp('src/workflows/demo/probe.ts', "import './definition.server';\n");
    expect(serverModule).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', message: expect.stringContaining('.server.ts') }),
    ]);
  });

  it('lets the public entries through', async () => {
    const code = [
      "import '@partner-task-kit/workflow';",
      "import '@partner-task-kit/workflow/contract';",
      "import '@partner-task-kit/page';",
      "import '@partner-task-kit/page/screens';",
      "import '@partner-task-kit/server';",
      "import '@partner-task-kit/testing';",
      "import '@partner-task-kit/vite-plugin';",
      '',
    ].join('\n');
    expect(await lintAsApp('src/workflows/demo/probe.ts', code)).toEqual([]);
    expect(await lintAsApp('server/main.ts', code)).toEqual([]);
  });
});
