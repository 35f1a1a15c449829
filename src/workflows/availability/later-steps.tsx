import { MissingStepScreenError, type StepViewProps } from '@partner-task-kit/page/screens';
import { HoursStep } from './hours-step';
import { ShiftsStep } from './shifts-step';
import type { AvailabilityTexts } from './texts';

/** The screens of the steps after the start date, fetched once the first step is shown (availability-step.tsx). */
export function AvailabilityLaterStep(props: StepViewProps & { texts: AvailabilityTexts }) {
  switch (props.stepId) {
    case 'shifts':
      return <ShiftsStep {...props} />;
    case 'hours':
      return <HoursStep {...props} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}
