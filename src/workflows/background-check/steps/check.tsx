import { FocusHeading, type StepScreenProps } from '@partner-task-kit/page/screens';
import type { BackgroundCheckTexts } from '../texts';

/**
 * The waiting screen of the step the partner completes: what is being checked, how long it usually takes, and that
 * the worker may leave. Nothing to submit; the step runner refreshes the task while it waits.
 */
export default function CheckStep({ texts, headingId, focusHeading }: StepScreenProps<BackgroundCheckTexts>) {
  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.check}
      </FocusHeading>
      <p>{texts.check.what}</p>
      <p>{texts.check.howLong}</p>
      <p>{texts.check.mayClose}</p>
      <p className="hint" role="status">
        {texts.check.watching}
      </p>
    </section>
  );
}
