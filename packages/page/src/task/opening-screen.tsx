import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { PageShell } from '../ui/page-shell.tsx';

/**
 * What the page shows before it knows the task's state (task-session.tsx), and what the server answers the link of a
 * task already under way or ended with, prerendered (packages/vite-plugin): the same element tree, so the page
 * hydrates the HTML as it is. Words only, no step, no progress and no button: never a screen that is not the worker's.
 * No notes either, as on a prerendered first step: the session says whether there are any.
 */
export function OpeningScreen() {
  const texts = useShellTexts();
  return (
    <PageShell>
      <p role="status" className="opening">
        {texts.opening}
      </p>
    </PageShell>
  );
}
