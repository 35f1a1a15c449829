import { useEffect, useRef, useState } from 'react';
import type { TaskView } from '@partner-task-kit/workflow/contract';
import { Button } from '../ui/button.tsx';
import { FocusHeading } from '../ui/focus-heading.tsx';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context.tsx';
import { RestartControl } from './restart-control.tsx';

/**
 * The completed summary. Just finished on this page: done, whether the portal was told, and a quiet "Start again".
 * Reopened (the task was already completed when the page loaded): the worker has usually been sent back, by an admin
 * reset or a rejected review that the platform does not tell us about, so the screen says when it was completed and
 * leads with "Start again" (docs/platform.md#statuses-and-transitions: any task may be restarted with the same parameters; the new attempt's `ready`
 * clears the review, docs/platform.md#the-update-endpoint), with a quieter way to keep it as it is.
 */
export function DoneScreen({
  task,
  portalNotified,
  justFinished,
}: {
  task: TaskView;
  portalNotified: number | undefined;
  justFinished: boolean;
}) {
  const texts = useShellTexts();
  const locale = useLocale();
  const completedAt = task.history.findLast((entry) => entry.kind === 'completed')?.at ?? task.updatedAt;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(completedAt));
  if (!justFinished) return <ReopenedDoneScreen date={date} />;
  return (
    <>
      <FocusHeading focusOnMount>{texts.done.title}</FocusHeading>
      <p className="done-mark" aria-hidden="true">
        ✓
      </p>
      <p>{texts.done.body(date)}</p>
      {portalNotified !== undefined && (
        <p className="muted">{portalNotified > 0 ? texts.done.portalNotified : texts.done.standaloneNotice}</p>
      )}
      <RestartControl label={texts.restart.startAgain} variant="link" />
    </>
  );
}

function ReopenedDoneScreen({ date }: { date: string }) {
  const texts = useShellTexts();
  const [kept, setKept] = useState(false);
  const keptRef = useRef<HTMLParagraphElement>(null);
  // The button pressed is gone: focus goes to what replaced it, so keyboard and screen-reader users hear the outcome.
  useEffect(() => {
    if (kept) keptRef.current?.focus();
  }, [kept]);
  return (
    <>
      {/* Opened, not reached: focus stays with the portal (the page does not take it on load). */}
      <FocusHeading focusOnMount={false}>{texts.done.reopened.title}</FocusHeading>
      <p className="done-mark" aria-hidden="true">
        ✓
      </p>
      <p>{texts.done.reopened.completedOn(date)}</p>
      {kept ? (
        <>
          <p ref={keptRef} tabIndex={-1}>
            {texts.done.reopened.kept}
          </p>
          <RestartControl label={texts.restart.startAgain} variant="link" />
        </>
      ) : (
        <>
          <p>{texts.done.reopened.redo}</p>
          <RestartControl label={texts.restart.startAgain} variant="primary">
            <Button variant="link" onClick={() => setKept(true)}>
              {texts.done.reopened.keep}
            </Button>
          </RestartControl>
        </>
      )}
    </>
  );
}
