import type { ReactElement } from 'react';
import type { EndEvent, TaskView } from '@partner-task-kit/workflow/contract';
import { PageShell } from '../ui/page-shell.tsx';
import { endScreen } from './end-screen-loader.ts';
import { StepRunner } from './step-runner.tsx';

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
      {view.status === 'completed' || view.status === 'error' ? (
        <endScreen.view task={view} ended={ended} />
      ) : (
        <StepRunner task={view} onEnded={onEnded} />
      )}
    </PageShell>
  );
}
