import { lazy, Suspense, useEffect, useState } from 'react';
import { currentStepOf, type EndEvent, type TaskView } from '@partner-task-kit/workflow/contract';
import { isLastOnPath } from '../workflows/last-on-path.ts';
import { MissingStepScreenError } from '../workflows/step-view-props.ts';
import { WorkflowStepView } from '../workflows/workflow-views.tsx';
import { Button } from '../ui/button.tsx';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context.tsx';
import { Notice } from '../ui/notice.tsx';
import { preloadEndScreen } from './end-screen-loader.ts';
import { ProgressHeader } from './progress-header.tsx';
import { RestartControl } from './restart-control.tsx';
import { StepScreenBoundary } from './step-screen-boundary.tsx';
import { UnknownStepScreen } from './unknown-step-screen.tsx';
import { useStepSave } from './use-step-save.ts';

const HEADING_ID = 'step-title';

// Never on a link's first step (the view's canGoBack): out of the first screen's JavaScript (docs/development.md#benchmarks).
const BackLink = lazy(() => import('./back-link.tsx'));

/**
 * Runs the current step: progress, the workflow's screen, what a failed save says, and where focus goes. Saving is
 * `useStepSave`'s: the server decides what comes next and the runner only shows the task it returns. A save that gets
 * no answer keeps the step on screen with what the worker entered, and is tried again until it is saved.
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
  // Moves to the step's heading after a save moved to another step (FocusHeading also does when the step replaced a
  // screen whose button the worker pressed, e.g. after "Start again").
  const [focusHeading, setFocusHeading] = useState(false);

  const stepId = currentStepOf({ currentStep: task.currentStep, steps: task.workflow.steps }) ?? '';
  const index = task.workflow.steps.findIndex((step) => step.id === stepId);
  const { save, saving, grading, waiting, retry, problem, refusal } = useStepSave(stepId, {
    onMoved: () => setFocusHeading(true),
    onEnded,
  });
  // On the step whose save may end the attempt, the end screen is fetched while the worker is on it, as a step's screen
  // is on the steps before (end-screen-loader.ts): the press then shows it with no wait for code.
  const workflowId = task.workflow.id;
  const last = isLastOnPath(task);
  useEffect(() => {
    if (last) void preloadEndScreen(workflowId).catch(() => {});
  }, [last, workflowId]);

  if (index === -1) {
    return <UnknownStepScreen workflowId={task.workflow.id} stepId={stepId} started={task.started} />;
  }

  const message = waiting ? texts.unsaved.message : problem ? texts.errors[problem] : undefined;
  return (
    <>
      {task.canGoBack && (
        // Until its code is in, an unseen copy of the link holds its room: a link that appeared above the step a moment
        // later would push the step down under a finger already on its way to a box or a button.
        <Suspense
          fallback={
            <Button variant="link" className="back-link back-link-placeholder" aria-hidden="true" tabIndex={-1} disabled>
              <span>‹ </span>
              {texts.back}
            </Button>
          }
        >
          {/* The step before replaces this one: its heading takes the focus, as after a save (FocusHeading). */}
          <BackLink key={stepId} stepId={stepId} disabled={saving} onMoved={() => setFocusHeading(true)} />
        </Suspense>
      )}
      {task.progress && <ProgressHeader progress={task.progress} />}
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
        {/* Waits on its screens' download, when they are not in yet, with a loading line (packages/page/src/workflows/lazy-screen.tsx). */}
        <WorkflowStepView
          key={`${task.attempt}:${stepId}`}
          task={task}
          stepId={stepId}
          savedData={task.stepData[stepId]}
          locale={locale}
          saving={saving}
          grading={grading}
          headingId={HEADING_ID}
          focusHeading={focusHeading}
          refusal={refusal}
          onSubmit={save}
        />
      </StepScreenBoundary>
      <Notice tone="error">{message}</Notice>
      {waiting && (
        <div className="actions">
          <Button variant="secondary" busy={saving} busyText={texts.saving} onClick={retry}>
            {texts.unsaved.retryNow}
          </Button>
        </div>
      )}
      {task.started && task.canRestart && <RestartControl label={texts.restart.startOver} variant="link" />}
    </>
  );
}
