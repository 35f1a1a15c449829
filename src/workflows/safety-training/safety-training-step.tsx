import { useEffect } from 'react';
import { lazyScreen, workflowTexts, type EndScreenProps, type StepViewProps, type WorkflowScreens } from '@partner-task-kit/page/screens';
import type { SafetyTrainingTexts } from './texts';
import { WelcomeStep } from './welcome-step';

// Picked here, where they are used (as packages/page/src/ui/i18n/locale-context.tsx picks the shell texts): texts.ts only types
// them, so the language files can import that type without an import cycle.
const texts = workflowTexts<SafetyTrainingTexts>({
  en: () => import('./texts.en').then((module) => module.safetyTrainingTextsEn),
  es: () => import('./texts.es').then((module) => module.safetyTrainingTextsEs),
});

/**
 * The steps after the first, in a chunk of their own: a link's page preloads this file's chunk, and the first step
 * alone is what the worker needs before anything else (docs/development.md#benchmarks: the first screen's JavaScript).
 */
const laterSteps = lazyScreen<StepViewProps & { texts: SafetyTrainingTexts }>(() =>
  import('./later-steps').then((module) => ({ default: module.SafetyTrainingLaterStep })),
);

const failedScreen = lazyScreen<EndScreenProps & { texts: SafetyTrainingTexts }>(() =>
  import('./failed-screen').then((module) => ({ default: module.SafetyTrainingFailed })),
);

/** The screens of the safety training, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function SafetyTrainingStep(props: StepViewProps) {
  const localeTexts = texts.get(props.locale);
  // The later steps download while the worker reads this one, so a press shows the next step with no wait for code;
  // a failed download is tried again when that step renders (the runner says so if it fails again).
  useEffect(() => void laterSteps.fetch().catch(() => {}), []);
  if (props.stepId === 'welcome') return <WelcomeStep {...props} texts={localeTexts} />;
  return <laterSteps.view {...props} texts={localeTexts} />;
}

function Failed(props: EndScreenProps) {
  return <failedScreen.view {...props} texts={texts.get(props.locale)} />;
}

export const screens: WorkflowScreens = { view: SafetyTrainingStep, loadTexts: texts.load, failed: Failed };
