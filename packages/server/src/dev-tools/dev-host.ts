import { awaitsPartner } from '@partner-task-kit/workflow/contract';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import type { LocalisedText } from '@partner-task-kit/workflow/contract';
import type { Clock } from '../clock.ts';
import { newPartnerKey } from '../partner-api/partner-key-secret.ts';
import { insertPartnerKey, revokePartnerKey } from '../store/partner-keys.repository.ts';
import type { Store } from '../store/store.ts';
import { findTaskByAssignedTaskUuid } from '../store/tasks.repository.ts';
import { taskFilesOf, type TaskFile } from './task-files.ts';

/** The step a task waits on the partner for, with the sample results its definition offers the preview. */
export interface AwaitedStep {
  stepId: string;
  shortName: string;
  /** Each sent as the partner API's body: `data`, and the `workerMessage` for the failure screen when given. */
  results: readonly { label: string; data: unknown; workerMessage?: LocalisedText }[];
}

/**
 * What the server lends the dev tools' stand-in of the partner's backend (docs/development.md#the-partner-backend-panel):
 * its clock, what the preview's panel shows of a task, and a partner key for the panel's buttons, which call the real
 * partner API as a backend would. The store stays the server's: the dev tools read it only through these.
 */
export interface DevHost {
  now(): number;
  /** The step the task waits on the partner for; null when it waits for none (or there is no such task). */
  awaitedStep(assignedTaskUuid: string): Promise<AwaitedStep | null>;
  /** The files of the task's current answers, as the partner API describes them. */
  taskFiles(assignedTaskUuid: string): Promise<TaskFile[]>;
  /** A partner key for this process's preview, made at the first call (the one of another start is revoked). */
  previewKey(): Promise<string>;
}

/** The key the preview's buttons use, made anew at each start of emulator mode (the one before is revoked). */
const PREVIEW_KEY_NAME = 'emulator preview';

export function devHost(deps: { store: Store; clock: Clock; workflows: WorkflowCatalog }): DevHost {
  const { store, clock, workflows } = deps;
  let previewKey: Promise<string> | undefined;
  return {
    now: () => clock.now(),
    awaitedStep: (assignedTaskUuid) => awaitedStepOf(store, workflows, assignedTaskUuid),
    taskFiles: (assignedTaskUuid) => taskFilesOf(store, workflows, assignedTaskUuid),
    // Made at the first press, not at start: a server on a read-only volume still starts, and answers 503 naming it.
    previewKey: () =>
      (previewKey ??= mintPreviewKey(store, clock).catch((error: unknown) => {
        previewKey = undefined;
        throw error;
      })),
  };
}

/** A key for this process's preview: the one before (another start's) is revoked. */
async function mintPreviewKey(store: Store, clock: Clock): Promise<string> {
  const created = newPartnerKey();
  await revokePartnerKey(store.db, PREVIEW_KEY_NAME, clock.now());
  const inserted = await insertPartnerKey(store.db, {
    ...{ name: PREVIEW_KEY_NAME, prefix: created.prefix, keyHash: created.keyHash },
    ...{ companyUuid: null, now: clock.now() },
  });
  if (!inserted.ok) throw new Error('another server made the preview key at this very moment; press again');
  return created.key;
}

async function awaitedStepOf(store: Store, workflows: WorkflowCatalog, assignedTaskUuid: string): Promise<AwaitedStep | null> {
  const task = await findTaskByAssignedTaskUuid(store.db, assignedTaskUuid);
  const workflow = task && workflows.find(task.workflowId);
  if (!task || !workflow) return null;
  const steps = workflow.definition.steps;
  if (!awaitsPartner({ status: task.status, currentStep: task.currentStep, steps })) return null;
  const step = steps.find((candidate) => candidate.id === task.currentStep);
  if (!step) return null;
  return { stepId: step.id, shortName: step.shortName, results: step.previewResults ?? [] };
}
