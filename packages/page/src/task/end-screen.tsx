import { useState, type ReactNode } from 'react';
import type { TaskView } from '@partner-task-kit/workflow/contract';
import { useLocale, useShellTexts } from '../ui/i18n/locale-context.tsx';
import { lazyScreen, type LazyScreen } from '../workflows/lazy-screen.tsx';
import type { EndScreenProps } from '../workflows/step-view-props.ts';
import { loadScreens, noScreens, pageLocales } from '../workflows/workflow-views.tsx';
import { DoneScreen } from './done-screen.tsx';
import { FailedScreen } from './failed-screen.tsx';
import { RestartControl } from './restart-control.tsx';

/**
 * The screen of an attempt that has ended: the workflow's own done or failure screen when it brings one
 * (`WorkflowScreens.done`, `.failed`, packages/page/src/workflows/step-view-props.ts), else the shell's. A chunk of its own:
 * no link's first screen needs it (docs/development.md#benchmarks); end-screen-loader.ts fetches it, with what it shows,
 * while the worker is on the step whose save may end the attempt.
 */
export default function EndScreen({
  task,
  ended,
}: {
  task: TaskView;
  ended: { status: 'completed' | 'error'; portalNotified: number } | undefined;
}) {
  const locale = useLocale();
  const texts = useShellTexts();
  const kind = task.status === 'completed' ? 'done' : 'failed';
  const justEnded = ended?.status === task.status;
  const restart = task.canRestart ? (
    <RestartControl label={texts.restart.startAgain} variant={kind === 'done' ? 'link' : 'primary'} />
  ) : null;
  const fallback =
    kind === 'done' ? (
      <DoneScreen task={task} portalNotified={ended?.portalNotified} justFinished={justEnded} />
    ) : (
      <FailedScreen task={task} justFailed={justEnded} />
    );
  return <WorkflowEndView kind={kind} task={task} locale={locale} justEnded={justEnded} restart={restart} fallback={fallback} />;
}

interface WorkflowEndViewProps extends EndScreenProps {
  kind: 'done' | 'failed';
  /** The shell's own screen, shown when the workflow brings none of this kind. */
  fallback: ReactNode;
}

const endViewsById = new Map<string, LazyScreen<WorkflowEndViewProps>>();

function endViewsOf(workflowId: string): LazyScreen<WorkflowEndViewProps> {
  let views = endViewsById.get(workflowId);
  if (!views) {
    views = lazyScreen<WorkflowEndViewProps>(async () => {
      // Screens that cannot be fetched (offline) leave the shell's own: the end of a task is never a blank page.
      const screens = await loadScreens(workflowId).catch(() => noScreens);
      const textsIn = await Promise.all(pageLocales().map((locale) => screens.loadTexts?.(locale))).then(
        () => true,
        () => false,
      );
      return {
        default: function WorkflowEndScreen({ kind, fallback, ...props }: WorkflowEndViewProps) {
          const Own = textsIn ? screens[kind] : undefined;
          return Own ? <Own {...props} /> : fallback;
        },
      };
    });
    endViewsById.set(workflowId, views);
  }
  return views;
}

/**
 * Fetches what the end screen of this workflow shows, before the attempt ends (end-screen-loader.ts): its module of
 * screens and texts, and its own done and failure screens when it brings them.
 */
export function preloadEndViews(workflowId: string): Promise<unknown> {
  return endViewsOf(workflowId).fetch();
}

/**
 * Page only: the workflow's own done or failure screen (`WorkflowScreens.done`, `.failed`), or the shell's when it
 * brings none. Loaded as its step screens are, from the same file.
 */
function WorkflowEndView(props: WorkflowEndViewProps) {
  const [{ view: Screens }] = useState(() => endViewsOf(props.task.workflow.id));
  return <Screens {...props} />;
}
