import { MissingStepScreenError, type StepViewProps } from '../step-view-props';
import { AppointmentStep } from './appointment-step';
import { DocumentStep } from './document-step';
import { NationalIdStep } from './national-id-step';
import { PostcodeStep } from './postcode-step';
import type { WorkAuthorizationTexts } from './texts';
import { VerificationStep } from './verification-step';

/**
 * The screens of the steps after citizenship, fetched once the first step is shown (work-authorization-step.tsx):
 * the definition with its checks, the offer's loading and the branches' screens are code the first screen does not need.
 */
export function WorkAuthorizationLaterStep(props: StepViewProps & { texts: WorkAuthorizationTexts }) {
  switch (props.stepId) {
    case 'national-id':
      return <NationalIdStep {...props} />;
    case 'document':
      return <DocumentStep {...props} />;
    case 'postcode':
      return <PostcodeStep {...props} />;
    case 'appointment':
      return <AppointmentStep {...props} />;
    case 'verification':
      return <VerificationStep {...props} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}
