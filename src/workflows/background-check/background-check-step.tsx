import type { Locale } from '../../ui/i18n/locale';
import { MissingStepScreenError, type StepViewProps } from '../step-view-props';
import { CheckStep } from './check-step';
import { ConsentStep } from './consent-step';
import type { BackgroundCheckTexts } from './texts';
import { backgroundCheckTextsEn } from './texts.en';
import { backgroundCheckTextsEs } from './texts.es';

// Picked here, where they are used: texts.ts only types them, so the language files import that type without a cycle.
const textsByLocale: Record<Locale, BackgroundCheckTexts> = { en: backgroundCheckTextsEn, es: backgroundCheckTextsEs };

/** The screens of Background check, one per step id of `definition.ts`. Loaded lazily (registry.views.ts). */
export function BackgroundCheckStep(props: StepViewProps) {
  const texts = textsByLocale[props.locale];
  switch (props.stepId) {
    case 'consent':
      return <ConsentStep {...props} texts={texts} />;
    case 'check':
      return <CheckStep {...props} texts={texts} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}
