import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkflowFolderError } from '@partner-task-kit/vite-plugin/workflow-folders';
import { appRootOf, appWorkflowsModuleSource } from '@partner-task-kit/vite-plugin/workflows-module';

let app = '';
beforeEach(() => {
  app = realpathSync(mkdtempSync(join(tmpdir(), 'ptk-workflows-module-')));
  writeInApp('package.json', '{ "type": "module" }\n');
});
afterEach(() => rmSync(app, { recursive: true, force: true }));

function writeInApp(file: string, text: string): void {
  mkdirSync(dirname(join(app, file)), { recursive: true });
  writeFileSync(join(app, file), text);
}

/** A workflow's folder in plain JavaScript, so Node imports the module written for it with no loader of its own. */
function writeWorkflowFolder(id: string, options: { server?: boolean } = {}): void {
  writeInApp(`src/workflows/${id}/definition.js`, `export default { id: ${JSON.stringify(id)}, steps: [{ id: 'only' }] };\n`);
  writeInApp(`src/workflows/${id}/steps/only.jsx`, 'export default function Only() { return null; }\n');
  if (options.server)
    writeInApp(`src/workflows/${id}/definition.server.js`, `export default { graders: { only: () => ({ score: 1, total: 1 }) } };\n`);
}

/** The module as Node's hooks write it (file: URLs), saved beside the folders and imported. */
async function importWritten(): Promise<{ default: { definition: { id: string }; server?: unknown; folder: string }[] }> {
  writeInApp(
    'written.mjs',
    appWorkflowsModuleSource(app, (file) => pathToFileURL(file).href),
  );
  return (await import(pathToFileURL(join(app, 'written.mjs')).href)) as never;
}

describe('virtual:partner-task-kit/workflows, written from the folders', () => {
  it("gives each folder's definition and server half, in the order of their ids, with the folder from the app's root", async () => {
    writeWorkflowFolder('quiz', { server: true });
    writeWorkflowFolder('availability');
    writeInApp('src/workflows/_shared/format.js', 'export const shared = true;\n');
    const { default: workflows } = await importWritten();
    expect(workflows.map(({ definition, folder }) => [definition.id, folder])).toEqual([
      ['availability', 'src/workflows/availability/'],
      ['quiz', 'src/workflows/quiz/'],
    ]);
    expect(workflows[0]).not.toHaveProperty('server');
    expect(workflows[1]?.server).toEqual({ graders: { only: expect.any(Function) } });
  });

  it('imports each module by the specifier it is given, the path itself by default', () => {
    writeWorkflowFolder('quiz', { server: true });
    const definition = join(app, 'src/workflows/quiz/definition.js');
    expect(appWorkflowsModuleSource(app)).toContain(`import definition0 from ${JSON.stringify(definition)};`);
    expect(appWorkflowsModuleSource(app, (file) => pathToFileURL(file).href)).toContain(
      `import server0 from ${JSON.stringify(pathToFileURL(join(app, 'src/workflows/quiz/definition.server.js')).href)};`,
    );
  });

  it('reads no texts: a workflow missing a language is the page build’s and the check’s to refuse, not the server’s', () => {
    writeWorkflowFolder('quiz');
    writeInApp('src/workflows/quiz/texts.en.js', 'export default {};\n');
    expect(appWorkflowsModuleSource(app)).toContain('src/workflows/quiz/');
  });

  it('names the folder that breaks the convention', () => {
    writeWorkflowFolder('quiz');
    mkdirSync(join(app, 'src/workflows/half-made'));
    expect(() => appWorkflowsModuleSource(app)).toThrow(WorkflowFolderError);
    expect(() => appWorkflowsModuleSource(app)).toThrow('src/workflows/half-made/: no definition.ts');
  });
});

describe("the app a file belongs to, for Node's hooks", () => {
  it('is the nearest folder above the file with a package.json', () => {
    writeInApp('server/main.ts', '');
    writeInApp('packages/tools/package.json', '{}');
    writeInApp('packages/tools/src/tool.ts', '');
    expect(appRootOf(join(app, 'server/main.ts'))).toBe(app);
    expect(appRootOf(join(app, 'packages/tools/src/tool.ts'))).toBe(join(app, 'packages/tools'));
  });
});
