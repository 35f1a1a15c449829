import type { TaskView } from '../contract/task-view';
import { FocusHeading } from '../ui/focus-heading';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context';
import { RestartControl } from './restart-control';

/** The completed summary: when, whether the portal was told, and "Start again" (spec 3: any task may be restarted). */
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
  return (
    <>
      <FocusHeading focusOnMount={justFinished}>{texts.done.title}</FocusHeading>
      <p className="done-mark" aria-hidden="true">
        ✓
      </p>
      <p>{texts.done.body(date)}</p>
      {portalNotified !== undefined && (
        <p className="muted">{portalNotified > 0 ? texts.done.portalNotified : texts.done.standaloneNotice}</p>
      )}
      <RestartControl label={texts.restart.startAgain} variant="primary" />
    </>
  );
}
