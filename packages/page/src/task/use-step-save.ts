import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api/api-client-context.tsx';
import { taskKeys } from '../api/query-keys.ts';
import { useSubmitStep } from '../api/submit-step.ts';
import { isClosed, type EndEvent, type GradingResult } from '@partner-task-kit/workflow/contract';
import type { StepRefusal } from '../workflows/step-view-props.ts';
import { ApiError } from '../api/api-error.ts';
import { errorKind, isStaleTaskError, type ErrorKind } from './error-text.ts';
import { useSaveRetry } from './use-save-retry.ts';

/** Failures that asking again may cure: no answer at all (offline, timed out) or a fault of the server. */
function mayRetry(kind: ErrorKind): boolean {
  return kind === 'network' || kind === 'server';
}

interface StepSaveEvents {
  /** The save moved the task to another step (the runner moves focus to its heading). */
  onMoved(): void;
  onEnded(status: 'completed' | 'error', event: EndEvent | undefined): void;
}

export interface StepSave {
  /** Saves the step's data; ignored while another save of this runner is under way. */
  save(data: unknown): void;
  /** True while a submission is in flight (the step's button says "Saving…"). */
  saving: boolean;
  /** The outcome of this step's last graded submission in this page's life. */
  grading: GradingResult | undefined;
  /** A failed save that got no answer and keeps the worker's data to be tried again, by timer, when back online or by `retry`. */
  waiting: boolean;
  retry(): void;
  /** What the last failed save that will not be tried again calls for (a message), while nothing is being saved. */
  problem: ErrorKind | undefined;
  /** The field of this step's data the server refused with 400 invalid_step_data, shown in place by the step's screen. */
  refusal: StepRefusal | undefined;
}

/**
 * Saving the current step: one save at a time, what a failure calls for, and the automatic retries of a save that got
 * no answer (use-save-retry.ts). The server decides what comes next; this reports where the task went, and the runner
 * shows the task it returns.
 */
export function useStepSave(stepId: string, events: StepSaveEvents): StepSave {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const submit = useSubmitStep(client);
  const [grading, setGrading] = useState<{ stepId: string; result: GradingResult } | undefined>();
  // What the last failed save calls for: a message, or (`unsaved`) the answers kept to be tried again.
  const [problem, setProblem] = useState<ErrorKind | undefined>();
  const [refusal, setRefusal] = useState<{ stepId: string; refusal: StepRefusal } | undefined>();
  const [unsaved, setUnsaved] = useState<{ stepId: string; data: unknown; failures: number } | undefined>();
  // One save at a time: a retry by timer, by the `online` event and by a click may meet.
  const inFlight = useRef(false);
  const waiting = unsaved?.stepId === stepId ? unsaved : undefined;

  async function save(data: unknown) {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      // The first save of an attempt is also its first interaction: its update carries `inProgress` (docs/platform.md#statuses-and-transitions).
      const result = await submit.mutateAsync({ stepId, data });
      setProblem(undefined);
      setRefusal(undefined);
      setUnsaved(undefined);
      setGrading(result.grading ? { stepId, result: result.grading } : undefined);
      if (result.task.currentStep !== stepId) events.onMoved();
      if (isClosed(result.task.status)) events.onEnded(result.task.status, result.endEvent);
    } catch (error) {
      const kind = errorKind(error);
      // docs/api.md#errors: `field` names the bad input, "data.expiryDate"; the step's screen shows it there.
      const refused = error instanceof ApiError && error.code === 'invalid_step_data' && error.field !== undefined;
      setRefusal(refused ? { stepId, refusal: { field: error.field!, message: error.message } } : undefined);
      if (mayRetry(kind)) {
        setProblem(undefined);
        setUnsaved((current) => ({ stepId, data, failures: (current?.stepId === stepId ? current.failures : 0) + 1 }));
        return;
      }
      // A retry whose first try was saved after all (its answer was lost on the way) is refused as out of date: the
      // page reloads the task, which shows the next step, and there is nothing to tell the worker.
      const retried = unsaved?.stepId === stepId;
      setUnsaved(undefined);
      setProblem(isStaleTaskError(error) && retried ? undefined : kind);
      if (isStaleTaskError(error)) await queryClient.invalidateQueries({ queryKey: taskKeys.view(client.context) });
    } finally {
      inFlight.current = false;
    }
  }

  const retry = () => {
    if (waiting) void save(waiting.data);
  };
  useSaveRetry(waiting?.failures ?? 0, retry);

  const saving = submit.isPending;
  return {
    save: (data) => void save(data),
    saving,
    grading: grading?.stepId === stepId ? grading.result : undefined,
    waiting: waiting !== undefined,
    retry,
    problem: saving ? undefined : problem,
    refusal: saving || refusal?.stepId !== stepId ? undefined : refusal.refusal,
  };
}
