import { MissingStepScreenError, type StepViewProps } from '@partner-task-kit/page/screens';
import { PolicyStep } from './policy-step';
import { QuizStep } from './quiz-step';
import { SignatureStep } from './signature-step';
import type { SafetyTrainingTexts } from './texts';

/** The screens of the steps after the welcome, fetched once the welcome is shown (safety-training-step.tsx). */
export function SafetyTrainingLaterStep(props: StepViewProps & { texts: SafetyTrainingTexts }) {
  switch (props.stepId) {
    case 'policy':
      return <PolicyStep {...props} />;
    case 'quiz':
      return <QuizStep {...props} />;
    case 'signature':
      return <SignatureStep {...props} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}
