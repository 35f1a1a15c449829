import { useEffect, type ComponentType } from 'react';
import type { Locale } from '../ui/i18n/locale.ts';
import { lazyScreen, type LazyScreen } from './lazy-screen.tsx';
import { isLastOnPath } from './last-on-path.ts';
import { MissingStepScreenError, type EndScreenProps, type StepViewProps, type WorkflowScreens } from './step-view-props.ts';

type Load<Value> = () => Promise<{ default: Value }>;
/** What a screen of the folder is handed beside the runner's props: the workflow's texts in the page's language. */
type WithTexts<Props> = Props & { texts: unknown };

/**
 * A workflow folder's modules as the page's build hands them (packages/vite-plugin writes one module per folder that
 * calls this), each a dynamic import(), so each is a chunk of its own (docs/architecture.md#a-workflow-is-a-folder).
 * @internal
 */
export interface FolderScreenModules {
  /** `steps/<step-id>.tsx` by step id. */
  steps: Readonly<Record<string, Load<ComponentType<WithTexts<StepViewProps>>>>>;
  /** `texts.<locale>.ts` by locale, one per language the page speaks; absent for a workflow with no texts. */
  texts?: Readonly<Record<string, Load<unknown>>>;
  /** `done.tsx`: the workflow's own screen once the task is completed. */
  done?: Load<ComponentType<WithTexts<EndScreenProps>>>;
  /** `failed.tsx`: the workflow's own screen once the attempt failed. */
  failed?: Load<ComponentType<WithTexts<EndScreenProps>>>;
}

/**
 * A workflow's screens from its folder: each step's screen a chunk of its own, so a link's first page carries its first
 * step alone (docs/development.md#benchmarks, the first screen's JavaScript), and the texts one chunk per language. The
 * steps after the one shown are fetched while the worker reads it, so a press shows the next step with no wait for
 * code; a step whose code is not in yet waits behind a loading line (lazy-screen.tsx). Part of the shell's chunk,
 * which every page loads: kept short.
 * @internal
 */
export function folderScreens({ steps, texts, done, failed }: FolderScreenModules): WorkflowScreens {
  // Each language's texts once loaded: the page has its own in before the screens count as loaded (workflow-views.tsx).
  const textsIn: Partial<Record<Locale, unknown>> = {};
  const stepScreens = new Map(Object.entries(steps).map(([stepId, load]) => [stepId, lazyScreen(load)]));

  // The workflow's own end screens, fetched once the worker is on a step whose save may end the attempt.
  const doneScreen = done && lazyScreen(done);
  const failedScreen = failed && lazyScreen(failed);

  function FolderStepView(props: StepViewProps) {
    const { stepId, task } = props;
    const last = isLastOnPath(task);
    useEffect(() => {
      const ids = task.workflow.steps.map((step) => step.id);
      const later = ids.slice(ids.indexOf(stepId) + 1).map((id) => stepScreens.get(id));
      // A failed download is tried again when that screen renders (the runner says so if it fails again).
      for (const screen of [...later, ...(last ? [doneScreen, failedScreen] : [])]) void screen?.fetch().catch(() => {});
    }, [stepId, task.workflow.steps, last]);
    const screen = stepScreens.get(stepId);
    if (!screen) throw new MissingStepScreenError(stepId);
    return <screen.view {...props} texts={textsIn[props.locale]} />;
  }
  const endView = (screen: LazyScreen<WithTexts<EndScreenProps>> | undefined) =>
    screen && ((props: EndScreenProps) => <screen.view {...props} texts={textsIn[props.locale]} />);

  return {
    view: FolderStepView,
    loadTexts:
      texts &&
      ((locale) =>
        // The build gives a workflow with texts one file per language (docs/architecture.md#a-workflow-is-a-folder).
        texts[locale]!().then((module) => {
          textsIn[locale] = module.default;
        })),
    loadStep: (stepId) => stepScreens.get(stepId)?.fetch() ?? Promise.resolve(),
    done: endView(doneScreen),
    failed: endView(failedScreen),
  };
}
