import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadWorkflowFolders, WorkflowFolderError } from '@partner-task-kit/vite-plugin/workflow-folders';

/**
 * The folder convention's checks (docs/architecture.md#a-workflow-is-a-folder), on apps written to temporary folders:
 * each broken rule stops with a message naming the file to change, from the app's root.
 */
const locales = ['en', 'es'];
const roots: string[] = [];

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** An app whose files are `files`, by path from its root. */
function app(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ptk-folders-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const definitionModule = (id: string, steps: readonly string[]) =>
  `export default { id: ${JSON.stringify(id)}, steps: ${JSON.stringify(steps.map((step) => ({ id: step })))} };\n`;
const screen = 'export default function Screen() { return null; }\n';
const texts = 'export default { title: "x" };\n';

/** A workflow folder with a screen for each step and texts in both languages. */
function folderFiles(id: string, steps: readonly string[], definedId = id): Record<string, string> {
  return {
    [`src/workflows/${id}/definition.ts`]: definitionModule(definedId, steps),
    ...Object.fromEntries(steps.map((step) => [`src/workflows/${id}/steps/${step}.tsx`, screen])),
    [`src/workflows/${id}/texts.en.ts`]: texts,
    [`src/workflows/${id}/texts.es.ts`]: texts,
  };
}

/** The problems the checks find, each naming a file; none: an empty list. */
async function loadProblems(root: string): Promise<readonly string[]> {
  try {
    await loadWorkflowFolders(root, locales, (file) => import(file));
    return [];
  } catch (error) {
    if (error instanceof WorkflowFolderError) return error.problems;
    throw error;
  }
}

describe('the workflow folders, checked', () => {
  it('finds each folder by its id, in the order of the ids, and a folder named with _ holds no workflow', async () => {
    const root = app({
      ...folderFiles('tax-forms', ['contact']),
      ...folderFiles('claims', ['start', 'end']),
      'src/workflows/_shared/format.ts': 'export const x = 1;\n',
    });
    const { folders, definitions } = await loadWorkflowFolders(root, locales, (file) => import(file));
    expect(folders.map((folder) => folder.id)).toEqual(['claims', 'tax-forms']);
    expect([...folders[0]!.steps.keys()]).toEqual(['end', 'start']);
    expect(definitions.get('claims')).toEqual({ id: 'claims', steps: [{ id: 'start' }, { id: 'end' }] });
  });

  it('names the screen to add for a step that has none', async () => {
    const files = folderFiles('claims', ['start', 'end']);
    delete files['src/workflows/claims/steps/end.tsx'];
    expect(await loadProblems(app(files))).toEqual([
      'src/workflows/claims/definition.ts: step "end" has no screen: add src/workflows/claims/steps/end.tsx',
    ]);
  });

  it('names a screen of no step', async () => {
    const root = app({ ...folderFiles('claims', ['start']), 'src/workflows/claims/steps/review.tsx': screen });
    expect(await loadProblems(root)).toEqual([
      'src/workflows/claims/steps/review.tsx: src/workflows/claims/definition.ts has no step "review"',
    ]);
  });

  it('names the definition whose id is not its folder’s name', async () => {
    expect(await loadProblems(app(folderFiles('claims', ['start'], 'claim')))).toEqual([
      'src/workflows/claims/definition.ts: id "claim" is not its folder\'s name, "claims": a workflow\'s folder is named by its id',
    ]);
  });

  it('names the definition that takes another workflow’s id, and the workflow it belongs to', async () => {
    const root = app({ ...folderFiles('claims', ['start']), ...folderFiles('claims-copy', ['start'], 'claims') });
    expect(await loadProblems(root)).toEqual([
      'src/workflows/claims-copy/definition.ts: id "claims" is already the id of src/workflows/claims/definition.ts: give this workflow the id "claims-copy", its folder\'s name',
    ]);
  });

  it('names the texts file missing for a language the page speaks', async () => {
    const files = folderFiles('claims', ['start']);
    delete files['src/workflows/claims/texts.es.ts'];
    expect(await loadProblems(app(files))).toEqual([
      'src/workflows/claims/texts.es.ts is missing: a workflow with texts has them in every language the page speaks',
    ]);
  });

  it('names every problem at once, each with its file', async () => {
    const files = { ...folderFiles('claims', ['start'], 'claim'), ...folderFiles('tax-forms', ['contact']) };
    delete files['src/workflows/tax-forms/steps/contact.tsx'];
    expect(await loadProblems(app(files))).toEqual([
      'src/workflows/claims/definition.ts: id "claim" is not its folder\'s name, "claims": a workflow\'s folder is named by its id',
      'src/workflows/tax-forms/definition.ts: step "contact" has no screen: add src/workflows/tax-forms/steps/contact.tsx',
    ]);
  });
});
