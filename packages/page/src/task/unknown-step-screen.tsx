import { Button } from '../ui/button.tsx';
import { FocusHeading } from '../ui/focus-heading.tsx';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { Notice } from '../ui/notice.tsx';
import { RestartControl } from './restart-control.tsx';

/** Enough of a step id to recognise it (the server checks ids, but this screen exists for what it did not expect). */
function shown(id: string): string {
  return id.length > 40 ? `${id.slice(0, 40)}…` : id;
}

/**
 * The task is on a step this page cannot show: the task's workflow has no such step, or its screens render none (a
 * page and a server deployed apart, a workflow changed under a task in progress). A reload fetches the page and the
 * task again; starting over takes a started attempt back to the first step (docs/platform.md#statuses-and-transitions: any task may be restarted).
 */
export function UnknownStepScreen({ workflowId, stepId, started }: { workflowId: string; stepId: string; started: boolean }) {
  const texts = useShellTexts();
  return (
    <>
      <FocusHeading focusOnMount={false}>{texts.unknownStep.title}</FocusHeading>
      <Notice tone="error">{texts.unknownStep.body(shown(stepId))}</Notice>
      <p>{texts.unknownStep.workerHint}</p>
      <div className="actions">
        <Button onClick={() => window.location.reload()}>{texts.unknownStep.reload}</Button>
      </div>
      {started && <RestartControl label={texts.restart.startOver} variant="link" />}
      <section className="developer-hint" aria-labelledby="developer-hint-title">
        <h2 id="developer-hint-title">{texts.unknownStep.developerHintTitle}</h2>
        <p>{texts.unknownStep.developerHint(shown(workflowId), shown(stepId))}</p>
      </section>
    </>
  );
}
