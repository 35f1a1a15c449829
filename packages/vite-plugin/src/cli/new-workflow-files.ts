import {
  branchContactScreenFile,
  branchDefinitionFile,
  branchTextsFile,
  branchTextsTypeFile,
  channelScreenFile,
  emailScreenFile,
} from './new-workflow-branch.ts';
import { contactScreenFile, definitionFile, textsFile, textsTypeFile } from './new-workflow-form.ts';
import { stepIds, type WorkflowNames } from './new-workflow-names.ts';
import { branchUnitTestFile, unitTestFile } from './new-workflow-tests.ts';

/**
 * Every file of a new workflow, by its path from the app's folder: its folder (docs/architecture.md#a-workflow-is-a-folder),
 * which is all the app needs to run it, and its unit test. Nothing else of the app changes.
 */
export function newWorkflowFiles(names: WorkflowNames, { branch }: { branch: boolean }): [string, string][] {
  const folder = `src/workflows/${names.id}`;
  const { channel, contact, email } = stepIds;
  const test: [string, string] = [`tests/app/${names.id}-workflow.test.ts`, branch ? branchUnitTestFile(names) : unitTestFile(names)];
  if (!branch) {
    return [
      [`${folder}/definition.ts`, definitionFile(names)],
      [`${folder}/texts.ts`, textsTypeFile(names)],
      [`${folder}/texts.en.ts`, textsFile(names, 'en')],
      [`${folder}/texts.es.ts`, textsFile(names, 'es')],
      [`${folder}/steps/${contact}.tsx`, contactScreenFile(names)],
      test,
    ];
  }
  return [
    [`${folder}/definition.ts`, branchDefinitionFile(names)],
    [`${folder}/texts.ts`, branchTextsTypeFile(names)],
    [`${folder}/texts.en.ts`, branchTextsFile(names, 'en')],
    [`${folder}/texts.es.ts`, branchTextsFile(names, 'es')],
    [`${folder}/steps/${channel}.tsx`, channelScreenFile(names)],
    [`${folder}/steps/${contact}.tsx`, branchContactScreenFile(names)],
    [`${folder}/steps/${email}.tsx`, emailScreenFile(names)],
    test,
  ];
}
