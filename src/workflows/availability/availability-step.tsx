import { useEffect } from 'react';
import type { Locale } from '../../ui/i18n/locale';
import { lazyScreen } from '../lazy-screen';
import type { StepViewProps } from '../step-view-props';
import { StartStep } from './start-step';
import type { AvailabilityTexts } from './texts';
import { availabilityTextsEn } from './texts.en';
import { availabilityTextsEs } from './texts.es';

// Picked here, where they are used, as in the safety training: texts.ts only types them. Both languages in the
// screens' chunk: this workflow is rendered on arrival, not prerendered (registry.views.ts), so no page preloads its
// language's texts alone, and a chunk of their own would be one more round trip before the first step.
const textsByLocale: Record<Locale, AvailabilityTexts> = { en: availabilityTextsEn, es: availabilityTextsEs };

/** The steps after the first, in a chunk of their own, as in the safety training (its safety-training-step.tsx). */
const laterSteps = lazyScreen<StepViewProps & { texts: AvailabilityTexts }>(() =>
  import('./later-steps').then((module) => ({ default: module.AvailabilityLaterStep })),
);

/** The screens of the availability workflow, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function AvailabilityStep(props: StepViewProps) {
  const texts = textsByLocale[props.locale];
  // Fetched while the worker answers the first step, so its press shows the next one with no wait for code.
  useEffect(() => void laterSteps.fetch().catch(() => {}), []);
  if (props.stepId === 'start') return <StartStep {...props} texts={texts} />;
  return <laterSteps.view {...props} texts={texts} />;
}
