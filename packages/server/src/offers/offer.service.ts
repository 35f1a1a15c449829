import { type StepOfferResponse, type TaskContext, isClosed } from '@partner-task-kit/workflow/contract';
import {
  checkAgainAfterMsOf,
  offerIsEmpty,
  type OfferDefinition,
  type StepDefinition,
  type WorkflowDefinition,
  answeredPath,
  stepById,
  type WorkflowCatalog,
} from '@partner-task-kit/workflow';
import { apiError } from '../api-error.ts';
import type { Clock } from '../clock.ts';
import type { StoreDb } from '../store/database-schema.ts';
import type { Store } from '../store/store.ts';
import { claimOfferCheck, storeOffer, type StoredOffer } from '../store/task-offers.repository.ts';
import type { Task } from '../store/tasks.table.ts';
import { describeFiles } from '../task-progress/file-descriptions.ts';
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
  /**
   * The offer of the task's current step: the one kept with the task while it holds (an empty one until its wait is
   * over), else loaded now and kept. For a step answered earlier on the path, the offer kept for that answer.
   */
  offerFor(context: TaskContext, stepId: string, request: { locale?: string | undefined }): Promise<StepOfferResponse>;
  /** Closes its connections to the partner's backend. */
  close(): void;
}

/**
 * docs/api.md#get-apitaskstepsstepidoffer. Loads are single-flight per task, step, attempt and answers within this
 * process: two tabs (or a reload while the first load runs) share one request to the partner's backend. An empty offer
 * is asked again once its step's `checkAgainAfterMs` has passed since the last ask, by one caller across instances
 * (claimOfferCheck): the others, and every caller before then, get the kept one and when the next ask may be.
 */
export function createOfferService(deps: OfferServiceDeps): OfferService {
  const { store, clock } = deps;
  const loading = new Map<string, Promise<StepOfferResponse>>();
  // Connections of its own: an offer is asked while a worker waits, never queued behind the relay's deliveries.
  const transport = createHttpTransport({ maxSockets: 32 });

  return {
    async offerFor(context, stepId, request) {
      const task = await readOwnTask(store.db, context);
      const workflow = workflowOf(deps.workflows, task);
      const step = stepById(workflow, stepId);
      if (!step) throw apiError('invalid_step', `This workflow has no step "${stepId}".`);
      if (isClosed(task.status) || task.currentStep !== stepId) return answeredOffer(store.db, { workflow, task, step });
      const declared = step.offer;
      if (!declared) throw apiError('invalid_step', `The step "${stepId}" has no offer.`);
      const kept = await currentOffer(store.db, { workflow, task, step });
      const waitMs = checkAgainAfterMsOf(declared);
      const now = clock.now();
      if (kept && (!offerIsEmpty(declared, kept.offer) || now < kept.checkedAt + waitMs)) {
        return answerOf(declared, kept, { checkAgainAt: kept.checkedAt + waitMs, now });
      }

      const answers = offerAnswers(workflow, task.stepData, step);
      const basis = offerBasis(answers);
      const key = `${task.id}\n${stepId}\n${task.attempt}\n${basis}`;
      const running = loading.get(key);
      if (running) return running;
      const locale = request.locale === undefined ? null : (Intl.getCanonicalLocales(request.locale)[0] ?? null);
      const load = (async (): Promise<StepOfferResponse> => {
        // An empty offer asked again: one caller of all asks; the others answer what is kept.
        const marks = { taskId: task.id, stepId, attempt: task.attempt, basis };
        if (kept && !(await claimOfferCheck(store.db, { ...marks, askedBefore: now - waitMs, now }))) {
          const still = (await currentOffer(store.db, { workflow, task, step })) ?? kept;
          return answerOf(declared, still, { checkAgainAt: still.checkedAt + waitMs, now: clock.now() });
        }
        // The partner's backend gets a file as it does everywhere (docs/connecting-your-backend.md#files); the basis
        // above stays on the stored ids, which name the same files.
        const sent = await describeFiles(store.db, { taskId: task.id, workflow, stepData: answers });
        const outcome = deps.backend
          ? await loadOffer({
              ...{ backend: deps.backend, send: transport.send, clock, timeoutMs: deps.timeoutMs, schema: declared.schema },
              body: {
                type: 'offer.requested',
                timestamp: new Date(clock.now()).toISOString(),
                data: {
                  ...{ assignedTaskUuid: task.assignedTaskUuid, workerUuid: task.workerUuid, taskFlowUuid: task.taskFlowUuid },
                  ...{ companyUuid: task.companyUuid, workflowId: workflow.id, stepId, attempt: task.attempt, locale, answers: sent },
                },
              },
            })
          : ({ ok: false, reason: 'no PARTNER_BACKEND_URL is set' } as const);
        if (!outcome.ok) {
          deps.log.warn({ workflowId: workflow.id, stepId, reason: outcome.reason }, "the partner's backend gave no offer");
          // Asked again and failed: the empty offer stays, and the next ask waits as after any other (claimOfferCheck).
          if (kept) return answerOf(declared, kept, { checkAgainAt: now + waitMs, now: clock.now() });
          throw apiError('offer_unavailable', 'The options for this step could not be loaded just now. Try again in a moment.');
        }
        const loadedAt = clock.now();
        // Kept for the attempt and answers it was loaded for: an answer changed meanwhile makes it stale, not wrong.
        await storeOffer(store.db, { ...marks, offer: outcome.offer, loadedAt });
        return answerOf(declared, { offer: outcome.offer, loadedAt }, { checkAgainAt: loadedAt + waitMs, now: loadedAt });
      })().finally(() => loading.delete(key));
      loading.set(key, load);
      return load;
    },
    close: () => transport.close(),
  };
}

/**
 * The offer of a step answered earlier on the task's path (its answer kept in this attempt, the task since moved on or
 * ended): the one kept for that answer, so a later screen can show what the worker chose. Never asked again.
 */
async function answeredOffer(
  db: StoreDb,
  input: { workflow: WorkflowDefinition; task: Task; step: StepDefinition },
): Promise<StepOfferResponse> {
  const { workflow, task, step } = input;
  const answered = Object.hasOwn(task.stepData, step.id) && answeredPath(workflow, task.stepData).steps.includes(step);
  const kept = step.offer && answered ? await currentOffer(db, input) : undefined;
  if (step.offer && kept) return answerOf(step.offer, kept, undefined);
  if (isClosed(task.status)) throw apiError('task_closed', `This task is ${task.status}; start again to make a new attempt.`);
  throw apiError('step_out_of_order', `"${step.id}" is not the current step (it is "${task.currentStep ?? 'none'}").`);
}

/** The answer of the route: an empty offer of the current step says when the server asks the backend again. */
function answerOf(
  declared: OfferDefinition,
  kept: Pick<StoredOffer, 'offer' | 'loadedAt'>,
  next: { checkAgainAt: number; now: number } | undefined,
): StepOfferResponse {
  const empty = offerIsEmpty(declared, kept.offer);
  const answer = { offer: kept.offer, loadedAt: new Date(kept.loadedAt).toISOString(), empty };
  if (!empty || next === undefined) return answer;
  return {
    ...answer,
    checkAgainAt: new Date(next.checkAgainAt).toISOString(),
    checkAgainInMs: Math.max(0, Math.ceil(next.checkAgainAt - next.now)),
  };
}
