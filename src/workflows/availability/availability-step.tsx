import type { Locale } from '../../ui/i18n/locale';
import { MissingStepScreenError, type StepViewProps } from '../step-view-props';
import { HoursStep } from './hours-step';
import { ShiftsStep } from './shifts-step';
import { StartStep } from './start-step';
import type { AvailabilityTexts } from './texts';
import { availabilityTextsEn } from './texts.en';
import { availabilityTextsEs } from './texts.es';

// Picked here, where they are used, as in the safety training: texts.ts only types them.
const textsByLocale: Record<Locale, AvailabilityTexts> = { en: availabilityTextsEn, es: availabilityTextsEs };

/** The screens of the availability workflow, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function AvailabilityStep(props: StepViewProps) {
  const texts = textsByLocale[props.locale];
  switch (props.stepId) {
    case 'start':
      return <StartStep {...props} texts={texts} />;
    case 'shifts':
      return <ShiftsStep {...props} texts={texts} />;
    case 'hours':
      return <HoursStep {...props} texts={texts} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}
