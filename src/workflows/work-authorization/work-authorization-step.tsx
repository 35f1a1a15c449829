import { useEffect } from 'react';
import { lazyScreen, workflowTexts, type EndScreenProps, type StepViewProps, type WorkflowScreens } from '@partner-task-kit/page/screens';
import { CitizenshipStep } from './citizenship-step';
import type { WorkAuthorizationTexts } from './texts';

// One chunk per language, as in the other workflows (their *-step.tsx).
const texts = workflowTexts<WorkAuthorizationTexts>({
  en: () => import('./texts.en').then((module) => module.workAuthorizationTextsEn),
  es: () => import('./texts.es').then((module) => module.workAuthorizationTextsEs),
});

/** The steps after the first, in a chunk of their own, as in the availability workflow (its availability-step.tsx). */
const laterSteps = lazyScreen<StepViewProps & { texts: WorkAuthorizationTexts }>(() =>
  import('./later-steps').then((module) => ({ default: module.WorkAuthorizationLaterStep })),
);

const doneScreen = lazyScreen<EndScreenProps & { texts: WorkAuthorizationTexts }>(() =>
  import('./done-screen').then((module) => ({ default: module.WorkAuthorizationDone })),
);

/** The screens of Work authorization, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function WorkAuthorizationStep(props: StepViewProps) {
  const localeTexts = texts.get(props.locale);
  // Fetched while the worker answers the first step, so its press shows the next one with no wait for code.
  useEffect(() => void laterSteps.fetch().catch(() => {}), []);
  if (props.stepId === 'citizenship') return <CitizenshipStep {...props} texts={localeTexts} />;
  return <laterSteps.view {...props} texts={localeTexts} />;
}

function Done(props: EndScreenProps) {
  return <doneScreen.view {...props} texts={texts.get(props.locale)} />;
}

export const screens: WorkflowScreens = { view: WorkAuthorizationStep, loadTexts: texts.load, done: Done };
