import type { GradingResult } from '../contract/step-submission';
import type { TaskView } from '../contract/task-view';
import type { Locale } from '../ui/i18n/locale';

/** What the step runner gives a workflow's screens. The runner owns saving, errors and progress; a step owns its form. */
export interface StepViewProps {
  task: TaskView;
  stepId: string;
  /** What the server saved for this step in this attempt, to resume with the worker's answers. */
  savedData: unknown;
  locale: Locale;
  /** True while a submission is being saved: the step disables its submit button and says so. */
  saving: boolean;
  /** The outcome of the last graded submission of this step, when there was one in this page's life. */
  grading: GradingResult | undefined;
  /** The id of the step's heading (the page's h1); render it with FocusHeading. */
  headingId: string;
  /** Whether the heading takes focus when the step appears after a save moved here (FocusHeading itself takes it after a restart). */
  focusHeading: boolean;
  onSubmit(data: unknown): void;
}

/**
 * Thrown by a workflow's screens for a step id they have no screen for (the definition gained a step its screens do
 * not render yet). The step runner catches it and shows a screen saying so, with what to do, instead of a blank page.
 */
export class MissingStepScreenError extends Error {
  constructor(readonly stepId: string) {
    super(`this workflow's screens render no step "${stepId}"`);
    this.name = 'MissingStepScreenError';
  }
}
