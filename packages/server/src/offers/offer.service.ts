import type { StepOfferResponse } from '@partner-task-kit/workflow/contract/step-offer';
import type { TaskContext } from '@partner-task-kit/workflow/contract/task-context';
import { isClosed } from '@partner-task-kit/workflow/contract/task-status';
import { stepById } from '@partner-task-kit/workflow/workflow-path';
import { apiError } from '../api-error.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import { storeOffer } from '../store/task-offers.repository.ts';
import { describeFiles } from '../task-progress/file-descriptions.ts';
import type { WorkflowCatalog } from '@partner-task-kit/workflow/workflow-catalog';
import { readOwnTask, workflowOf } from '../task-progress/locked-task.ts';
import { createHttpTransport } from '../upstream/http-transport.ts';
import { currentOffer, offerAnswers, offerBasis } from './offer-basis.ts';
import { loadOffer, type OfferBackend } from './offer-loader.ts';

export interface OfferServiceDeps {
  store: Store;
  clock: Clock;
  workflows: WorkflowCatalog;
  /** Undefined when no backend answers offers (outside emulator mode without PARTNER_BACKEND_URL). */
  backend: OfferBackend | undefined;
  /** OFFER_TIMEOUT_MS: the whole load, retries included. */
  timeoutMs: number;
  log: { warn(object: object, message: string): void };
}

export interface OfferService {
  /** The offer of the task's current step: the one kept with the task while it holds, else loaded now and kept. */
  offerFor(context: TaskContext, stepId: string): Promise<StepOfferResponse>;
  /** Closes its connections to the partner's backend. */
  close(): void;
}

/**
 * docs/api.md#get-apitaskstepsstepidoffer. Loads are single-flight per task, step, attempt and answers within this
 * process: two tabs (or a reload while the first load runs) share one request to the partner's backend.
 */
export function createOfferService(deps: OfferServiceDeps): OfferService {
  const { store, clock } = deps;
  const loading = new Map<string, Promise<StepOfferResponse>>();
  // Connections of its own: an offer is asked while a worker waits, never queued behind the relay's deliveries.
  const transport = createHttpTransport({ maxSockets: 32 });

  return {
    async offerFor(context, stepId) {
      const task = await readOwnTask(store.db, context);
      const workflow = workflowOf(deps.workflows, task);
      const step = stepById(workflow, stepId);
      if (!step) throw apiError('invalid_step', `This workflow has no step "${stepId}".`);
      if (isClosed(task.status)) throw apiError('task_closed', `This task is ${task.status}; start again to make a new attempt.`);
      if (task.currentStep !== stepId) {
        throw apiError('step_out_of_order', `"${stepId}" is not the current step (it is "${task.currentStep ?? 'none'}").`);
      }
      if (!step.offer) throw apiError('invalid_step', `The step "${stepId}" has no offer.`);
      const kept = await currentOffer(store.db, { workflow, task, step });
      if (kept) return { offer: kept.offer, loadedAt: new Date(kept.loadedAt).toISOString() };

      const answers = offerAnswers(workflow, task.stepData, step);
      const basis = offerBasis(answers);
      const key = `${task.id}\n${stepId}\n${task.attempt}\n${basis}`;
      const running = loading.get(key);
      if (running) return running;
      const { schema } = step.offer;
      const load = (async (): Promise<StepOfferResponse> => {
        // The partner's backend gets a file as it does everywhere (docs/connecting-your-backend.md#files); the basis
        // above stays on the stored ids, which name the same files.
        const sent = await describeFiles(store.db, { taskId: task.id, workflow, stepData: answers });
        const outcome = deps.backend
          ? await loadOffer({
              ...{ backend: deps.backend, send: transport.send, clock, timeoutMs: deps.timeoutMs, schema },
              body: {
                type: 'offer.requested',
                timestamp: new Date(clock.now()).toISOString(),
                data: {
                  ...{ assignedTaskUuid: task.assignedTaskUuid, workerUuid: task.workerUuid, taskFlowUuid: task.taskFlowUuid },
                  ...{ companyUuid: task.companyUuid, workflowId: workflow.id, stepId, attempt: task.attempt, answers: sent },
                },
              },
            })
          : ({ ok: false, reason: 'no PARTNER_BACKEND_URL is set' } as const);
        if (!outcome.ok) {
          deps.log.warn({ workflowId: workflow.id, stepId, reason: outcome.reason }, "the partner's backend gave no offer");
          throw apiError('offer_unavailable', 'The options for this step could not be loaded just now. Try again in a moment.');
        }
        const loadedAt = clock.now();
        // Kept for the attempt and answers it was loaded for: an answer changed meanwhile makes it stale, not wrong.
        await storeOffer(store.db, { taskId: task.id, stepId, attempt: task.attempt, basis, offer: outcome.offer, loadedAt });
        return { offer: outcome.offer, loadedAt: new Date(loadedAt).toISOString() };
      })().finally(() => loading.delete(key));
      loading.set(key, load);
      return load;
    },
    close: () => transport.close(),
  };
}
