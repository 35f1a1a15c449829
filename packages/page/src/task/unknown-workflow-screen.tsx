import { FocusHeading } from '../ui/focus-heading.tsx';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { Notice } from '../ui/notice.tsx';
import { PageShell } from '../ui/page-shell.tsx';

/** Enough of the link's value to recognise it, never a whole pasted URL. */
function shown(workflow: string): string {
  return workflow.length > 40 ? `${workflow.slice(0, 40)}…` : workflow;
}

/**
 * The server refused the link's `workflow` variable (400 unknown_workflow). Like a link missing its context (the
 * context error screen), it is the link that is wrong: no retry button, only what happened and whom to tell.
 */
export function UnknownWorkflowScreen({ workflow, notes }: { workflow: string; notes: readonly string[] }) {
  const texts = useShellTexts().unknownWorkflow;
  return (
    <PageShell notes={notes}>
      <FocusHeading focusOnMount={false}>{texts.title}</FocusHeading>
      <Notice tone="error">{texts.body(shown(workflow))}</Notice>
      <p>{texts.workerHint}</p>
      <section className="developer-hint" aria-labelledby="developer-hint-title">
        <h2 id="developer-hint-title">{texts.developerHintTitle}</h2>
        <p>{texts.developerHint(shown(workflow))}</p>
      </section>
    </PageShell>
  );
}
