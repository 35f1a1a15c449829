import type { StepViewProps } from '../step-view-props';
import { PolicyStep } from './policy-step';
import { QuizStep } from './quiz-step';
import { SignatureStep } from './signature-step';
import { safetyTrainingTexts } from './texts';
import { WelcomeStep } from './welcome-step';

/** The screens of the safety training, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function SafetyTrainingStep(props: StepViewProps) {
  const texts = safetyTrainingTexts(props.locale);
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
      return null;
  }
}
