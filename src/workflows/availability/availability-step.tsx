import { useEffect } from 'react';
import { lazyScreen, workflowTexts, type StepViewProps, type WorkflowScreens } from '@partner-task-kit/page/screens';
import { StartStep } from './start-step';
import type { AvailabilityTexts } from './texts';

// Picked here, where they are used, as in the safety training: texts.ts only types them. One chunk per language, so a
// link's page preloads its own language's only (registry.views.ts).
const texts = workflowTexts<AvailabilityTexts>({
  en: () => import('./texts.en').then((module) => module.availabilityTextsEn),
  es: () => import('./texts.es').then((module) => module.availabilityTextsEs),
});

/** The steps after the first, in a chunk of their own, as in the safety training (its safety-training-step.tsx). */
const laterSteps = lazyScreen<StepViewProps & { texts: AvailabilityTexts }>(() =>
  import('./later-steps').then((module) => ({ default: module.AvailabilityLaterStep })),
);

/** The screens of the availability workflow, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function AvailabilityStep(props: StepViewProps) {
  const localeTexts = texts.get(props.locale);
  // Fetched while the worker answers the first step, so its press shows the next one with no wait for code.
  useEffect(() => void laterSteps.fetch().catch(() => {}), []);
  if (props.stepId === 'start') return <StartStep {...props} texts={localeTexts} />;
  return <laterSteps.view {...props} texts={localeTexts} />;
}

export const screens: WorkflowScreens = { view: AvailabilityStep, loadTexts: texts.load };
