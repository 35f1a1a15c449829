import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { folderCatalog, WorkflowCatalogError, workflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow/workflow-definition';

function workflowNamed(id: string): WorkflowDefinition {
  return {
    id,
    title: `Workflow ${id}`,
    estimatedMinutes: 1,
    steps: [
      defineStep({ id: 'only', shortName: 'Only', schema: z.strictObject({}), report: () => ({ color: 'success', details: 'done' }) }),
    ],
  };
}

const graders = { graders: { only: () => ({ score: 1, total: 1 }) } };

describe('a workflow catalog', () => {
  it('lists the workflows in the order given and finds each with its server half', () => {
    const [a, b] = [workflowNamed('a'), workflowNamed('b')];
    const catalog = workflowCatalog([a, b], { serverModules: { b: graders } });
    expect(catalog.list()).toEqual([a, b]);
    expect(catalog.find('a')).toEqual({ definition: a });
    expect(catalog.find('a')?.server).toBeUndefined();
    expect(catalog.find('b')?.server).toBe(graders);
  });

  it('defaults to the first workflow, or to the one named', () => {
    expect(workflowCatalog([workflowNamed('a'), workflowNamed('b')]).defaultId).toBe('a');
    expect(workflowCatalog([workflowNamed('a'), workflowNamed('b')], { defaultWorkflow: 'b' }).defaultId).toBe('b');
  });

  it('finds nothing under a name no workflow has, inherited ones included', () => {
    const catalog = workflowCatalog([workflowNamed('a')]);
    expect(catalog.find('constructor')).toBeUndefined();
    expect(catalog.find('__proto__')).toBeUndefined();
  });

  it.each([
    ['two workflows under one id', () => workflowCatalog([workflowNamed('a'), workflowNamed('a')]), 'two workflows have the id "a"'],
    ['no workflow', () => workflowCatalog([]), 'at least one workflow'],
    ['a default not in the list', () => workflowCatalog([workflowNamed('a')], { defaultWorkflow: 'b' }), 'the default workflow "b"'],
    ['a server half for no workflow', () => workflowCatalog([workflowNamed('a')], { serverModules: { b: graders } }), 'given for "b"'],
  ])('refuses %s', (_case, make, message) => {
    expect(make).toThrow(message);
  });
});

/** A workflow as virtual:partner-task-kit/workflows gives it: its definition from the folder of its id. */
const inFolder = (id: string, server?: typeof graders) => ({
  definition: workflowNamed(id),
  folder: `src/workflows/${id}/`,
  ...(server === undefined ? {} : { server }),
});

describe("the catalog of the app's workflow folders", () => {
  it('runs the one workflow of an app by default, with no default named', () => {
    expect(folderCatalog([inFolder('a')], undefined).defaultId).toBe('a');
  });

  it('keeps the folders in their order, each with its server half, and the default named', () => {
    const catalog = folderCatalog([inFolder('a'), inFolder('b', graders)], 'b');
    expect(catalog.list().map((definition) => definition.id)).toEqual(['a', 'b']);
    expect(catalog.find('a')?.server).toBeUndefined();
    expect(catalog.find('b')?.server).toBe(graders);
    expect(catalog.defaultId).toBe('b');
  });

  it.each([
    [
      'several workflows and no default, saying where to name one',
      () => folderCatalog([inFolder('a'), inFolder('b')], undefined),
      "the app has 2 workflows (a, b) and names no default, the one a link naming none runs: name it in server/main.ts, runKit(argv, { workflows, defaultWorkflow: 'a' })",
    ],
    [
      'a default that is no folder',
      () => folderCatalog([inFolder('a'), inFolder('b')], 'c'),
      'the default workflow "c" (server/main.ts, runKit\'s defaultWorkflow) is no folder of src/workflows/: its workflows are a, b',
    ],
    [
      "a definition whose id is not its folder's name, naming its file",
      () => folderCatalog([{ definition: workflowNamed('other'), folder: 'src/workflows/a/' }], undefined),
      'src/workflows/a/definition.ts: id "other" is not its folder\'s name, "a"',
    ],
    [
      'a default export that is no definition, naming its file',
      () => folderCatalog([{ definition: {} as WorkflowDefinition, folder: 'src/workflows/a/' }], undefined),
      'src/workflows/a/definition.ts: its default export is no workflow definition',
    ],
    [
      'a server half that is no module, naming its file',
      () => folderCatalog([{ ...inFolder('a'), server: 'graders' as unknown as typeof graders }], undefined),
      'src/workflows/a/definition.server.ts: its default export is no server module',
    ],
    ['no workflow', () => folderCatalog([], undefined), 'src/workflows/ has no workflow'],
  ])('refuses %s', (_case, make, message) => {
    expect(make).toThrow(WorkflowCatalogError);
    expect(make).toThrow(message);
  });
});
