import { Suspense, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api/api-client-context';
import { taskKeys } from '../api/query-keys';
import { useSubmitStep } from '../api/submit-step';
import type { EndEvent, GradingResult } from '../contract/step-submission';
import type { TaskView } from '../contract/task-view';
import { MissingStepScreenError } from '../workflows/step-view-props';
import { workflowViews } from '../workflows/registry.views';
import { Button } from '../ui/button';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context';
import { Notice } from '../ui/notice';
import { errorKind, isStaleTaskError, type ErrorKind } from './error-text';
import { ProgressHeader } from './progress-header';
import { RestartControl } from './restart-control';
import { StepScreenBoundary } from './step-screen-boundary';
import { UnknownStepScreen } from './unknown-step-screen';
import { useSaveRetry } from './use-save-retry';

const HEADING_ID = 'step-title';

/** Failures that asking again may cure: no answer at all (offline, timed out) or a fault of the server. */
function mayRetry(kind: ErrorKind): boolean {
  return kind === 'network' || kind === 'server';
}

/**
 * Focus goes to a step's heading when the runner appears after the worker did something in this page (the previous
 * screen's button is gone, e.g. after "Start again") and nothing holds focus. Not on the page's first load: in the
 * portal's iframe that would take the keyboard from the portal around it. `hasBeenActive` is the browser's own record
 * of an interaction with this frame (where it is missing, whether this document has focus).
 */
function arrivedByAction(): boolean {
  if (typeof document === 'undefined') return false; // build time: the prerendered first step
  const active = document.activeElement;
  if (active !== null && active !== document.body) return false;
  return 'userActivation' in navigator ? navigator.userActivation.hasBeenActive : document.hasFocus();
}

/**
 * Runs the current step: progress, the workflow's screen, saving and error states. The server decides what comes
 * next (DESIGN decision 1); the runner only shows the task it returns. A save that gets no answer keeps the step on
 * screen with what the worker entered, and is tried again until it is saved.
 */
export function StepRunner({
  task,
  onEnded,
}: {
  task: TaskView;
  onEnded: (status: 'completed' | 'error', event: EndEvent | undefined) => void;
}) {
  const texts = useShellTexts();
  const locale = useLocale();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const submit = useSubmitStep(client);
  const [grading, setGrading] = useState<{ stepId: string; result: GradingResult } | undefined>();
  // Moves to the step's heading after a save moved to another step, and on arrival after an action (arrivedByAction).
  const [focusHeading, setFocusHeading] = useState(arrivedByAction);
  // What the last failed save calls for: a message, or (`unsaved`) the answers kept to be tried again.
  const [problem, setProblem] = useState<ErrorKind | undefined>();
  const [unsaved, setUnsaved] = useState<{ stepId: string; data: unknown; failures: number } | undefined>();
  // One save at a time: a retry by timer, by the `online` event and by a click may meet.
  const inFlight = useRef(false);

  const stepId = task.currentStep ?? task.workflow.steps[0]?.id ?? '';
  const index = task.workflow.steps.findIndex((step) => step.id === stepId);
  const StepView = workflowViews[task.workflow.id];
  const waiting = unsaved?.stepId === stepId ? unsaved : undefined;

  async function save(data: unknown) {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      // The first save of an attempt is also its first interaction: its update carries `inProgress` (spec 3).
      const result = await submit.mutateAsync({ stepId, data });
      setProblem(undefined);
      setUnsaved(undefined);
      setGrading(result.grading ? { stepId, result: result.grading } : undefined);
      if (result.task.currentStep !== stepId) setFocusHeading(true);
      if (result.task.status === 'completed' || result.task.status === 'error') onEnded(result.task.status, result.endEvent);
    } catch (error) {
      const kind = errorKind(error);
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

  useSaveRetry(waiting?.failures ?? 0, () => {
    if (waiting) void save(waiting.data);
  });

  if (index === -1 || !StepView) {
    return <UnknownStepScreen workflowId={task.workflow.id} stepId={stepId} started={task.started} />;
  }

  const saving = submit.isPending;
  const message = waiting ? texts.unsaved.message : problem && !saving ? texts.errors[problem] : undefined;
  return (
    <>
      <ProgressHeader index={index} total={task.workflow.steps.length} />
      <StepScreenBoundary
        resetKey={`${task.attempt}:${stepId}`}
        fallback={(error) =>
          error instanceof MissingStepScreenError ? (
            <UnknownStepScreen workflowId={task.workflow.id} stepId={stepId} started={task.started} />
          ) : (
            // The step's screens could not be fetched (offline on arrival). React.lazy keeps a failed load for good,
            // so only a reload fetches them again; the saved answers come back with the task.
            <>
              <Notice tone="error">{texts.errors.network}</Notice>
              <Button onClick={() => window.location.reload()}>{texts.unknownStep.reload}</Button>
            </>
          )
        }
      >
        <Suspense fallback={<p role="status">{texts.loadingStep}</p>}>
          <StepView
            key={`${task.attempt}:${stepId}`}
            task={task}
            stepId={stepId}
            savedData={task.stepData[stepId]}
            locale={locale}
            saving={saving}
            grading={grading?.stepId === stepId ? grading.result : undefined}
            headingId={HEADING_ID}
            focusHeading={focusHeading}
            onSubmit={(data) => void save(data)}
          />
        </Suspense>
      </StepScreenBoundary>
      <Notice tone="error">{message}</Notice>
      {waiting && (
        <div className="actions">
          <Button variant="secondary" busy={saving} busyText={texts.saving} onClick={() => void save(waiting.data)}>
            {texts.unsaved.retryNow}
          </Button>
        </div>
      )}
      {task.started && <RestartControl label={texts.restart.startOver} variant="link" />}
    </>
  );
}
