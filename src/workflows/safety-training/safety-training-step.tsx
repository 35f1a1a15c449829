import type { Locale } from '../../ui/i18n/locale';
import { MissingStepScreenError, type StepViewProps } from '../step-view-props';
import { PolicyStep } from './policy-step';
import { QuizStep } from './quiz-step';
import { SignatureStep } from './signature-step';
import type { SafetyTrainingTexts } from './texts';
import { safetyTrainingTextsEn } from './texts.en';
import { safetyTrainingTextsEs } from './texts.es';
import { WelcomeStep } from './welcome-step';

// Picked here, where they are used (as src/ui/i18n/locale-context.tsx picks the shell texts): texts.ts only types
// them, so the language files can import that type without an import cycle.
const textsByLocale: Record<Locale, SafetyTrainingTexts> = { en: safetyTrainingTextsEn, es: safetyTrainingTextsEs };

/** The screens of the safety training, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function SafetyTrainingStep(props: StepViewProps) {
  const texts = textsByLocale[props.locale];
  switch (props.stepId) {
    case 'welcome':
      return <WelcomeStep {...props} texts={texts} />;
    case 'policy':
      return <PolicyStep {...props} texts={texts} />;
    case 'quiz':
      return <QuizStep {...props} texts={texts} />;
    case 'signature':
      return <SignatureStep {...props} texts={texts} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}
