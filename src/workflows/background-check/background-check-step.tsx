import { workflowTexts, MissingStepScreenError, type StepViewProps, type WorkflowScreens } from '@partner-task-kit/page/screens';
import { CheckStep } from './check-step';
import { ConsentStep } from './consent-step';
import type { BackgroundCheckTexts } from './texts';

// Picked here, where they are used: texts.ts only types them, so the language files import that type without a cycle.
// One chunk per language, as in the safety training (its safety-training-step.tsx).
const texts = workflowTexts<BackgroundCheckTexts>({
  en: () => import('./texts.en').then((module) => module.backgroundCheckTextsEn),
  es: () => import('./texts.es').then((module) => module.backgroundCheckTextsEs),
});

/** The screens of Background check, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function BackgroundCheckStep(props: StepViewProps) {
  const localeTexts = texts.get(props.locale);
  switch (props.stepId) {
    case 'consent':
      return <ConsentStep {...props} texts={localeTexts} />;
    case 'check':
      return <CheckStep {...props} texts={localeTexts} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}

export const screens: WorkflowScreens = { view: BackgroundCheckStep, loadTexts: texts.load };
