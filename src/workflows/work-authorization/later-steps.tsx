import { useEffect } from 'react';
import { lazyScreen, MissingStepScreenError, type StepViewProps } from '@partner-task-kit/page/screens';
import { AppointmentStep } from './appointment-step';
import { DocumentStep } from './document-step';
import { NationalIdStep } from './national-id-step';
import { PostcodeStep } from './postcode-step';
import type { WorkAuthorizationTexts } from './texts';
import { VerificationStep } from './verification-step';

/**
 * The photos' screen brings the uploads' code (tus-js-client, packages/page/src/api/file-uploads.ts): a chunk of its own, so the
 * other later steps do not wait for it, fetched while the worker answers the step before it.
 */
const photosStep = lazyScreen<StepViewProps & { texts: WorkAuthorizationTexts }>(() =>
  import('./photos-step').then((module) => ({ default: module.PhotosStep })),
);
const beforePhotos = new Set(['national-id', 'document']);

/**
 * The screens of the steps after citizenship, fetched once the first step is shown (work-authorization-step.tsx):
 * the definition with its checks, the offer's loading and the branches' screens are code the first screen does not need.
 */
export function WorkAuthorizationLaterStep(props: StepViewProps & { texts: WorkAuthorizationTexts }) {
  const { stepId } = props;
  useEffect(() => {
    if (beforePhotos.has(stepId)) void photosStep.fetch().catch(() => {});
  }, [stepId]);
  switch (stepId) {
    case 'national-id':
      return <NationalIdStep {...props} />;
    case 'document':
      return <DocumentStep {...props} />;
    case 'photos':
      return <photosStep.view {...props} />;
    case 'postcode':
      return <PostcodeStep {...props} />;
    case 'appointment':
      return <AppointmentStep {...props} />;
    case 'verification':
      return <VerificationStep {...props} />;
    default:
      throw new MissingStepScreenError(stepId);
  }
}
