import type { TaskView } from '@partner-task-kit/workflow/contract';
import { FocusHeading } from '../ui/focus-heading.tsx';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { RestartControl } from './restart-control.tsx';

/** docs/platform.md#statuses-and-transitions `error`: the attempt cannot go on; the worker may start again with the same parameters. */
export function FailedScreen({ task, justFailed }: { task: TaskView; justFailed: boolean }) {
  const texts = useShellTexts();
  const failure = task.failure;
  const max = failure ? task.gradedAttempts[failure.stepId]?.max : undefined;
  return (
    <>
      <FocusHeading focusOnMount={justFailed}>{texts.failed.title}</FocusHeading>
      <p>{failure?.reason === 'attempts_exhausted' && max !== undefined ? texts.failed.attemptsExhausted(max) : texts.failed.other}</p>
      <RestartControl label={texts.restart.startAgain} variant="primary" />
    </>
  );
}
