import { FocusHeading, type EndScreenProps } from '@partner-task-kit/page/screens';
import type { SafetyTrainingTexts } from './texts';

/**
 * The workflow's own failure screen (failed.tsx, found by its name: docs/architecture.md#a-workflow-is-a-folder): the shell's speaks of "a step of this task", this one names
 * the quiz, the only step that fails the training, then offers the shell's "Start again".
 */
export default function SafetyTrainingFailed({ task, texts, justEnded, restart }: EndScreenProps & { texts: SafetyTrainingTexts }) {
  const maxAttempts = task.gradedAttempts.quiz?.max;
  return (
    <>
      <FocusHeading focusOnMount={justEnded}>{texts.failed.title}</FocusHeading>
      {maxAttempts !== undefined && <p>{texts.failed.quizNotPassed(maxAttempts)}</p>}
      {restart}
    </>
  );
}
