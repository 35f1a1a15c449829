import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copyProject, runIn, type Outcome } from '../helpers/project-copy';

/**
 * `partner-task-kit check`, the first half of the app's `npm run typecheck`: the workflow folders against the
 * convention (docs/architecture.md#a-workflow-is-a-folder), each definition loaded. On a copy of this app whose
 * src/workflows/ holds one small workflow of the test's own, broken one way at a time.
 */
let copy = '';
beforeAll(async () => {
  copy = await copyProject();
}, 120_000);
afterAll(() => {
  if (copy !== '') rmSync(copy, { recursive: true, force: true });
});

const definitionSource = (id: string) => `import { z } from 'zod/mini';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow';

const greeting: WorkflowDefinition = {
  id: ${JSON.stringify(id)},
  title: 'Greeting',
  estimatedMinutes: 1,
  steps: [
    defineStep({ id: 'hello', shortName: 'Hello', schema: z.strictObject({}), report: () => ({ color: 'success', details: 'Greeted.' }) }),
  ],
};
export default greeting;
`;
const screen = 'export default function Hello() {\n  return null;\n}\n';

function writeInCopy(file: string, text: string): void {
  mkdirSync(dirname(join(copy, file)), { recursive: true });
  writeFileSync(join(copy, file), text);
}

beforeEach(() => {
  const workflows = join(copy, 'src/workflows');
  for (const entry of readdirSync(workflows, { withFileTypes: true }))
    if (entry.isDirectory()) rmSync(join(workflows, entry.name), { recursive: true, force: true });
  writeInCopy('src/workflows/greeting/definition.ts', definitionSource('greeting'));
  writeInCopy('src/workflows/greeting/steps/hello.tsx', screen);
});

/** The check as the app's `npm run typecheck` runs it, without the type check after it. */
function check(): Promise<Outcome> {
  const { scripts } = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [command] = scripts.typecheck!.split(' && ');
  const [node, ...args] = command!.split(' ');
  expect(node).toBe('node');
  expect(args.at(-1)).toBe('check');
  return runIn(copy, process.execPath, args, 60_000);
}

describe('partner-task-kit check', () => {
  it('exits 0 naming the workflows when every folder follows the convention', async () => {
    const checked = await check();
    expect(checked.output).toBe('1 workflow in src/workflows/: greeting\n');
    expect(checked.code).toBe(0);
  }, 60_000);

  it.each([
    [
      'a definition whose id is not its folder’s name',
      () => writeInCopy('src/workflows/greeting/definition.ts', definitionSource('welcome')),
      'src/workflows/greeting/definition.ts: id "welcome" is not its folder\'s name, "greeting"',
    ],
    [
      'a step with no screen',
      () => rmSync(join(copy, 'src/workflows/greeting/steps/hello.tsx')),
      'src/workflows/greeting/definition.ts: step "hello" has no screen: add src/workflows/greeting/steps/hello.tsx',
    ],
    [
      'a screen for no step',
      () => writeInCopy('src/workflows/greeting/steps/goodbye.tsx', screen),
      'src/workflows/greeting/steps/goodbye.tsx: src/workflows/greeting/definition.ts has no step "goodbye"',
    ],
    [
      'texts missing a language the page speaks',
      () => writeInCopy('src/workflows/greeting/texts.en.ts', 'export default {};\n'),
      'src/workflows/greeting/texts.es.ts is missing',
    ],
    [
      'a server half that exports no module',
      () => writeInCopy('src/workflows/greeting/definition.server.ts', 'export default 42;\n'),
      'src/workflows/greeting/definition.server.ts: its default export is no server module',
    ],
    [
      'a definition that does not load',
      () => writeInCopy('src/workflows/greeting/definition.ts', 'export default {\n'),
      'src/workflows/greeting/definition.ts: it does not load: ',
    ],
    [
      'a folder with no definition',
      () => writeInCopy('src/workflows/farewell/steps/bye.tsx', screen),
      'src/workflows/farewell/: no definition.ts',
    ],
  ])(
    'exits 1 naming the file to change for %s',
    async (_case, breakIt, message) => {
      breakIt();
      const checked = await check();
      expect(checked.output).toContain("the app's workflows (src/workflows/) do not follow the folder convention:");
      expect(checked.output).toContain(`  - ${message}`);
      expect(checked.output).not.toMatch(/\n\s+at /);
      expect(checked.code).toBe(1);
    },
    60_000,
  );
});
