import { Button } from '../../ui/button';
import { FocusHeading } from '../../ui/focus-heading';
import { useShellTexts } from '../../ui/i18n/locale-context';
import type { StepViewProps } from '../step-view-props';
import { safetyTraining } from './definition';
import type { SafetyTrainingTexts } from './texts';

export function WelcomeStep({ texts, headingId, focusHeading, saving, onSubmit }: StepViewProps & { texts: SafetyTrainingTexts }) {
  const savingText = useShellTexts().saving;
  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.welcome}
      </FocusHeading>
      <p>{texts.welcome.intro}</p>
      <p className="estimate">{texts.welcome.estimate(safetyTraining.estimatedMinutes)}</p>
      <ol className="outline">
        {texts.welcome.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <Button busy={saving} busyText={savingText} onClick={() => onSubmit({})}>
        {texts.welcome.begin}
      </Button>
    </section>
  );
}
