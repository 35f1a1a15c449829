import { FocusHeading, type EndScreenProps } from '@partner-task-kit/page/screens';
import { BookedAppointment } from './booked-appointment';
import type { WorkAuthorizationTexts } from './texts';

/**
 * The workflow's own done screen (`screens.done`): what the verification means for the worker, the appointment they
 * booked, then the shell's "Start again".
 */
export default function WorkAuthorizationDone({
  task,
  locale,
  texts,
  justEnded,
  restart,
}: EndScreenProps & { texts: WorkAuthorizationTexts }) {
  return (
    <>
      <FocusHeading focusOnMount={justEnded}>{texts.done.title}</FocusHeading>
      <p className="done-mark" aria-hidden="true">
        ✓
      </p>
      <p>{texts.done.body}</p>
      <BookedAppointment task={task} locale={locale} />
      <p className="muted">{texts.done.next}</p>
      {restart}
    </>
  );
}
