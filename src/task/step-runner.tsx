import { Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api/api-client-context';
import { taskKeys } from '../api/query-keys';
import { useSubmitStep } from '../api/submit-step';
import type { EndEvent, GradingResult } from '../contract/step-submission';
import type { TaskView } from '../contract/task-view';
import { workflowViews } from '../workflows/registry.views';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context';
import { Notice } from '../ui/notice';
import { errorKind, isStaleTaskError } from './error-text';
import { ProgressHeader } from './progress-header';
import { RestartControl } from './restart-control';

const HEADING_ID = 'step-title';

/**
 * Runs the current step: progress, the workflow's screen, saving and error states. The server decides what comes
 * next (DESIGN decision 1); the runner only shows the task it returns.
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
  // Focus goes to the step's heading when the step changes after a save, and on arrival when nothing holds focus (the
  // previous screen's button is gone, e.g. after "Start again"): keyboard and screen-reader users start from the top.
  // At build time (the prerendered first step) there is no document; the value only drives an effect, never markup.
  const [focusHeading, setFocusHeading] = useState(
    () => typeof document === 'undefined' || document.activeElement === null || document.activeElement === document.body,
  );

  const stepId = task.currentStep ?? task.workflow.steps[0]?.id ?? '';
  const index = Math.max(
    0,
    task.workflow.steps.findIndex((step) => step.id === stepId),
  );
  const StepView = workflowViews[task.workflow.id];

  async function save(data: unknown) {
    try {
      // The first save of an attempt is also its first interaction: the server sends `inProgress` (spec 3) with it.
      const result = await submit.mutateAsync({ stepId, data });
      setGrading(result.grading ? { stepId, result: result.grading } : undefined);
      if (result.task.currentStep !== stepId) setFocusHeading(true);
      if (result.task.status === 'completed' || result.task.status === 'error') onEnded(result.task.status, result.endEvent);
    } catch (error) {
      if (isStaleTaskError(error)) await queryClient.invalidateQueries({ queryKey: taskKeys.view(client.context) });
    }
  }

  const failure = submit.error;
  const saving = submit.isPending;
  return (
    <>
      <ProgressHeader index={index} total={task.workflow.steps.length} />
      {StepView ? (
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
      ) : (
        <Notice tone="error">{texts.errors.unknown}</Notice>
      )}
      <Notice tone="error">{failure && !saving ? texts.errors[errorKind(failure)] : undefined}</Notice>
      {task.started && <RestartControl label={texts.restart.startOver} variant="link" />}
    </>
  );
}
