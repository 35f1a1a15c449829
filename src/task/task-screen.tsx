import type { ReactElement } from 'react';
import type { EndEvent } from '../contract/step-submission';
import type { TaskView } from '../contract/task-view';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context';
import { PageShell } from '../ui/page-shell';
import { WorkflowEndView } from '../workflows/workflow-views';
import { DoneScreen } from './done-screen';
import { FailedScreen } from './failed-screen';
import { RestartControl } from './restart-control';
import { StepRunner } from './step-runner';

export interface TaskScreenProps {
  view: TaskView;
  notes: readonly string[];
  /** Set when this page saw the task end; undefined after a reload (the end event is not fired twice). */
  ended: { status: 'completed' | 'error'; portalNotified: number } | undefined;
  onEnded: (status: 'completed' | 'error', event: EndEvent | undefined) => void;
}

/**
 * The screen a task's state calls for, in the page's frame. A function rather than a component, shared by the session
 * (task-session.tsx) and the build's prerender (prerender-first-screen.tsx): the prerendered first step, the page that
 * hydrates it and the page once the session has answered are one element tree, so React keeps the same DOM nodes
 * throughout (no remount, no repaint of the first screen).
 */
export function taskScreen({ view, notes, ended, onEnded }: TaskScreenProps): ReactElement {
  return (
    <PageShell notes={notes}>
      {view.status === 'completed' ? (
        <EndScreen
          kind="done"
          task={view}
          justEnded={ended?.status === 'completed'}
          fallback={<DoneScreen task={view} portalNotified={ended?.portalNotified} justFinished={ended?.status === 'completed'} />}
        />
      ) : view.status === 'error' ? (
        <EndScreen
          kind="failed"
          task={view}
          justEnded={ended?.status === 'error'}
          fallback={<FailedScreen task={view} justFailed={ended?.status === 'error'} />}
        />
      ) : (
        <StepRunner task={view} onEnded={onEnded} />
      )}
    </PageShell>
  );
}

/** The workflow's own done or failure screen when it brings one (src/workflows/step-view-props.ts), else the shell's. */
function EndScreen({
  kind,
  task,
  justEnded,
  fallback,
}: {
  kind: 'done' | 'failed';
  task: TaskView;
  justEnded: boolean;
  fallback: ReactElement;
}) {
  const locale = useLocale();
  const texts = useShellTexts();
  const restart = task.canRestart ? (
    <RestartControl label={texts.restart.startAgain} variant={kind === 'done' ? 'link' : 'primary'} />
  ) : null;
  return <WorkflowEndView kind={kind} task={task} locale={locale} justEnded={justEnded} restart={restart} fallback={fallback} />;
}
