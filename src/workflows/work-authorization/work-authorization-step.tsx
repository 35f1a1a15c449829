import { workflowTexts } from '../lazy-screen';
import { MissingStepScreenError, type EndScreenProps, type StepViewProps, type WorkflowScreens } from '../step-view-props';
import { AppointmentStep } from './appointment-step';
import { CitizenshipStep } from './citizenship-step';
import { DocumentStep } from './document-step';
import { WorkAuthorizationDone } from './done-screen';
import { NationalIdStep } from './national-id-step';
import { PostcodeStep } from './postcode-step';
import type { WorkAuthorizationTexts } from './texts';
import { VerificationStep } from './verification-step';

// One chunk per language, as in the other workflows (their *-step.tsx).
const texts = workflowTexts<WorkAuthorizationTexts>({
  en: () => import('./texts.en').then((module) => module.workAuthorizationTextsEn),
  es: () => import('./texts.es').then((module) => module.workAuthorizationTextsEs),
});

/** The screens of Work authorization, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function WorkAuthorizationStep(props: StepViewProps) {
  const localeTexts = texts.get(props.locale);
  switch (props.stepId) {
    case 'citizenship':
      return <CitizenshipStep {...props} texts={localeTexts} />;
    case 'national-id':
      return <NationalIdStep {...props} texts={localeTexts} />;
    case 'document':
      return <DocumentStep {...props} texts={localeTexts} />;
    case 'postcode':
      return <PostcodeStep {...props} texts={localeTexts} />;
    case 'appointment':
      return <AppointmentStep {...props} texts={localeTexts} />;
    case 'verification':
      return <VerificationStep {...props} texts={localeTexts} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}

function Done(props: EndScreenProps) {
  return <WorkAuthorizationDone {...props} texts={texts.get(props.locale)} />;
}

export const screens: WorkflowScreens = { view: WorkAuthorizationStep, loadTexts: texts.load, done: Done };
