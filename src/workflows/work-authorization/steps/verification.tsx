import { FocusHeading, type StepScreenProps } from '@partner-task-kit/page/screens';
import { BookedAppointment } from '../booked-appointment';
import type { WorkAuthorizationTexts } from '../texts';

/**
 * The waiting screen of the step the partner completes. Nothing to submit, no "Back" (the partner was asked) and no
 * "Start over" (the step's `restartWhileAwaiting: false`): the step runner refreshes the task while it waits. It shows
 * the appointment the worker booked, which they come back to this page to find.
 */
export default function VerificationStep({ task, locale, texts, headingId, focusHeading }: StepScreenProps<WorkAuthorizationTexts>) {
  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.verification}
      </FocusHeading>
      <p>{texts.verification.what}</p>
      <BookedAppointment task={task} locale={locale} />
      <p>{texts.verification.howLong}</p>
      <p>{texts.verification.mayClose}</p>
      <p className="hint" role="status">
        {texts.verification.watching}
      </p>
    </section>
  );
}
