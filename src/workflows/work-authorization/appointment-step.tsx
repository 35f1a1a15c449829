import { FocusHeading } from '../../ui/focus-heading';
import type { StepViewProps } from '../step-view-props';
import type { WorkAuthorizationTexts } from './texts';

/** Placeholder until the appointment screen that loads the offer lands: the step's title only. */
export function AppointmentStep({ texts, headingId, focusHeading }: StepViewProps & { texts: WorkAuthorizationTexts }) {
  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.appointment}
      </FocusHeading>
    </section>
  );
}
