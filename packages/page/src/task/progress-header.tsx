import type { TaskView } from '@partner-task-kit/workflow/contract';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';

/**
 * Visible progress, "Step 2 of 4", also exposed as a progress bar with the same text. The numbers are the server's
 * (the view's `progress`): the step's place on the task's path over the longest the path may still be, so a workflow
 * that branches never reads "Step 5 of 4" (packages/workflow/src/workflow-path.ts).
 */
export function ProgressHeader({ progress }: { progress: NonNullable<TaskView['progress']> }) {
  const texts = useShellTexts();
  const { position, total } = progress;
  const label = texts.progress(position, total);
  return (
    <header className="progress">
      <p className="progress-text" id="progress-text">
        {label}
      </p>
      <progress className="progress-bar" max={total} value={position} aria-labelledby="progress-text" />
    </header>
  );
}
