import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { workflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow/workflow-definition';

function workflow(id: string): WorkflowDefinition {
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
    const [a, b] = [workflow('a'), workflow('b')];
    const catalog = workflowCatalog([a, b], { serverModules: { b: graders } });
    expect(catalog.list()).toEqual([a, b]);
    expect(catalog.find('a')).toEqual({ definition: a });
    expect(catalog.find('a')?.server).toBeUndefined();
    expect(catalog.find('b')?.server).toBe(graders);
  });

  it('defaults to the first workflow, or to the one named', () => {
    expect(workflowCatalog([workflow('a'), workflow('b')]).defaultId).toBe('a');
    expect(workflowCatalog([workflow('a'), workflow('b')], { defaultWorkflow: 'b' }).defaultId).toBe('b');
  });

  it('finds nothing under a name no workflow has, inherited ones included', () => {
    const catalog = workflowCatalog([workflow('a')]);
    expect(catalog.find('constructor')).toBeUndefined();
    expect(catalog.find('__proto__')).toBeUndefined();
  });

  it.each([
    ['two workflows under one id', () => workflowCatalog([workflow('a'), workflow('a')]), 'two workflows have the id "a"'],
    ['no workflow', () => workflowCatalog([]), 'at least one workflow'],
    ['a default not in the list', () => workflowCatalog([workflow('a')], { defaultWorkflow: 'b' }), 'the default workflow "b"'],
    ['a server half for no workflow', () => workflowCatalog([workflow('a')], { serverModules: { b: graders } }), 'given for "b"'],
  ])('refuses %s', (_case, make, message) => {
    expect(make).toThrow(message);
  });
});
