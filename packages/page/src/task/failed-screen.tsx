import { textFor, type TaskView } from '@partner-task-kit/workflow/contract';
import { FocusHeading } from '../ui/focus-heading.tsx';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context.tsx';
import { RestartControl } from './restart-control.tsx';

/**
 * docs/platform.md#statuses-and-transitions `error`: the attempt cannot go on; the worker may start again with the
 * same parameters. When the partner's check failed, the partner's reason for the worker (never the details its
 * backend sent the platform) and what to do next, as the step's definition says (docs/api.md#the-task `failure`).
 */
export function FailedScreen({ task, justFailed }: { task: TaskView; justFailed: boolean }) {
  const texts = useShellTexts();
  const locale = useLocale();
  const failure = task.failure;
  const max = failure ? task.gradedAttempts[failure.stepId]?.max : undefined;
  const reason = failure?.workerMessage === undefined ? undefined : textFor(failure.workerMessage, locale);
  const nextStep = failure?.nextStep === undefined ? undefined : textFor(failure.nextStep, locale);
  return (
    <>
      <FocusHeading focusOnMount={justFailed}>{texts.failed.title}</FocusHeading>
      {failure?.reason === 'attempts_exhausted' && max !== undefined ? (
        <p>{texts.failed.attemptsExhausted(max)}</p>
      ) : reason === undefined && nextStep === undefined ? (
        <p>{texts.failed.other}</p>
      ) : (
        <>
          <p>{reason ?? texts.failed.problem}</p>
          <p>{nextStep ?? texts.failed.nextStep}</p>
        </>
      )}
      <RestartControl label={texts.restart.startAgain} variant="primary" />
    </>
  );
}
