import { Button, FocusHeading, useShellTexts, type StepScreenProps } from '@partner-task-kit/page/screens';
import type { SafetyTrainingStepId } from '../definition';
import type { SafetyTrainingTexts } from '../texts';

export default function WelcomeStep({ task, texts, headingId, focusHeading, saving, onSubmit }: StepScreenProps<SafetyTrainingTexts>) {
  const savingText = useShellTexts().saving;
  // The task's steps, as the progress header counts them ("Step 1 of 4"): the outline can never promise another number.
  const steps = task.workflow.steps.filter((step): step is { id: SafetyTrainingStepId } => Object.hasOwn(texts.welcome.outline, step.id));
  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.welcome}
      </FocusHeading>
      <p>{texts.welcome.intro}</p>
      {/* The task's own estimate, not the definition's: importing the definition would put its schemas in the first
          screen's JavaScript, which needs none of them (docs/development.md#benchmarks). */}
      <p className="estimate">{texts.welcome.estimate(task.workflow.estimatedMinutes)}</p>
      <p id="welcome-outline">{texts.welcome.stepCount(task.workflow.steps.length)}</p>
      <ol className="outline" aria-labelledby="welcome-outline">
        {steps.map((step) => (
          <li key={step.id}>{texts.welcome.outline[step.id]}</li>
        ))}
      </ol>
      <Button busy={saving} busyText={savingText} onClick={() => onSubmit({})}>
        {texts.welcome.begin}
      </Button>
    </section>
  );
}
