import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { prerender } from 'react-dom/static';
import { ApiClientProvider } from '../api/api-client-context.tsx';
import { firstScreenFile, openingScreenFile, type TaskContext } from '@partner-task-kit/workflow/contract';
import { locales, type Locale } from '../ui/i18n/locale.ts';
import { LocaleProvider } from '../ui/i18n/locale-context.tsx';
import { shellTextsEn } from '../ui/i18n/shell-texts.en.ts';
import { shellTextsEs } from '../ui/i18n/shell-texts.es.ts';
import type { ShellTexts } from '../ui/i18n/shell-texts.ts';
import { withOverrides, type ShellTextOverrides } from '../ui/i18n/shell-text-overrides.ts';
import { type WorkflowDefinition, longestPathOf } from '@partner-task-kit/workflow';
import { loadScreens, preloadWorkflowViews, setWorkflowScreensTable, type LoadWorkflowScreensTable } from '../workflows/workflow-views.tsx';
import { FIRST_SCREEN_ATTRIBUTE, OPENING_SCREEN_ATTRIBUTE, unopenedTaskView, type FirstScreen } from './first-screen.tsx';
import { OpeningScreen } from './opening-screen.tsx';
import { taskScreen } from './task-screen.tsx';

/** @internal */
export interface PrerenderedFirstScreen {
  /** Where in the build it goes; the server looks for it there (packages/server/src/page/first-screen-file.ts). */
  fileName: string;
  workflowId: string;
  locale: Locale;
  documentTitle: string;
  /** #root's opening tag, naming what it holds (first-screen.tsx reads it back). */
  rootTag: string;
  /** The #root markup; React hydrates it (packages/page/src/app-root.tsx). */
  markup: string;
}

/** Build time only, never requested: the markup names no task, and no API call runs while rendering. */
const noContext: TaskContext = {
  wxWorkerUuid: '00000000-0000-4000-8000-000000000000',
  wxAssignedTaskUuid: '00000000-0000-4000-8000-000000000000',
  wxTaskFlowUuid: '00000000-0000-4000-8000-000000000000',
  wxCompanyUuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * What the build hands the prerender: the app's workflows as the page gets them, and where the build put them.
 * @internal
 */
export interface FirstScreensToPrerender {
  /** The app's workflows (its folders, docs/architecture.md#a-workflow-is-a-folder): each first step is rendered, in each language. */
  workflows: readonly WorkflowDefinition[];
  /** The app's table of its workflows' screens, which the page is handed too (packages/page/src/task/mount-task-page.ts). */
  screens: LoadWorkflowScreensTable;
  /** The built file of a workflow's screens, which #root names for the page to import. */
  screensFile: (workflowId: string) => string;
  /** The app's versions of some of the shell's texts, which the page is handed too (mount-task-page.ts). */
  shellTexts?: ShellTextOverrides;
}

/**
 * Build time (packages/vite-plugin): the first step of each workflow in each language, as the task page
 * renders it for a new task before its session has answered (task-session.tsx): the step itself, its screens fetched
 * first.
 * @internal
 */
export async function prerenderFirstScreens({
  workflows,
  screens: screensTable,
  screensFile,
  shellTexts,
}: FirstScreensToPrerender): Promise<PrerenderedFirstScreen[]> {
  // As the page merges them (packages/page/src/app-root.tsx): the HTML and the page that hydrates it say the same.
  const textsOf = (locale: Locale): ShellTexts => withOverrides(locale === 'es' ? shellTextsEs : shellTextsEn, shellTexts?.[locale]);
  setWorkflowScreensTable(screensTable);
  const screens: PrerenderedFirstScreen[] = [];
  for (const definition of workflows) {
    const { id } = definition;
    const workflow = {
      id,
      estimatedMinutes: definition.estimatedMinutes,
      steps: definition.steps.map((step) => ({ id: step.id })),
      longestPath: longestPathOf(definition),
    };
    for (const locale of locales) {
      const firstScreen: FirstScreen = { locale, workflow, screens: screensFile(id) };
      screens.push({
        fileName: firstScreenFile(id, locale),
        workflowId: id,
        locale,
        documentTitle: textsOf(locale).documentTitle,
        rootTag: `<div id="root" ${FIRST_SCREEN_ATTRIBUTE}="${escapeHtml(JSON.stringify(firstScreen))}">`,
        markup: await render(firstScreen, textsOf(locale)),
      });
    }
  }
  return screens;
}

async function render(firstScreen: FirstScreen, texts: ShellTexts): Promise<string> {
  // In before rendering, with the first step's own chunk, as the page has them before hydrating (packages/page/src/app-root.tsx):
  // the step is then rendered with no Suspense boundary around it (packages/page/src/workflows/lazy-screen.tsx), in the
  // HTML as in the page, so the two match.
  const { id } = firstScreen.workflow;
  const step = firstScreen.workflow.steps[0]?.id;
  // Fetched first for their own error, which stops the build: preloadWorkflowViews says only whether they came.
  const screens = await loadScreens(id);
  await Promise.all([step === undefined ? undefined : screens.loadStep?.(step), ...locales.map((locale) => screens.loadTexts?.(locale))]);
  if (!(await preloadWorkflowViews(id, undefined, step)))
    throw new Error(`the screens of ${id} could not be loaded to prerender its first step`);
  const { prelude } = await prerender(
    <QueryClientProvider client={new QueryClient()}>
      <LocaleProvider locale={firstScreen.locale} texts={texts}>
        <ApiClientProvider context={noContext} workflow={undefined}>
          {taskScreen({ view: unopenedTaskView(firstScreen.workflow), notes: [], ended: undefined, onEnded: () => {} })}
        </ApiClientProvider>
      </LocaleProvider>
    </QueryClientProvider>,
  );
  return new Response(prelude).text();
}

/** @internal */
export interface PrerenderedOpeningScreen {
  /** Where in the build it goes; the server looks for it there (packages/server/src/page/first-screen-file.ts). */
  fileName: string;
  locale: Locale;
  documentTitle: string;
  /** #root's opening tag, which tells the page to hydrate it (packages/page/src/app-root.tsx). */
  rootTag: string;
  markup: string;
}

/**
 * Build time (packages/vite-plugin): the neutral screen of a task already under way or ended, in each language, as the
 * page renders it before the task's view has come (task-session.tsx): no step, no progress, no button, so the server
 * can answer such a link with it and never show a step that is not the worker's (docs/architecture.md#how-a-link-is-answered).
 * @internal
 */
export async function prerenderOpeningScreens(shellTexts?: ShellTextOverrides): Promise<PrerenderedOpeningScreen[]> {
  const screens: PrerenderedOpeningScreen[] = [];
  for (const locale of locales) {
    const texts = withOverrides(locale === 'es' ? shellTextsEs : shellTextsEn, shellTexts?.[locale]);
    const { prelude } = await prerender(
      <LocaleProvider locale={locale} texts={texts}>
        <OpeningScreen />
      </LocaleProvider>,
    );
    screens.push({
      fileName: openingScreenFile(locale),
      locale,
      documentTitle: texts.documentTitle,
      rootTag: `<div id="root" ${OPENING_SCREEN_ATTRIBUTE}="${locale}">`,
      markup: await new Response(prelude).text(),
    });
  }
  return screens;
}

/** @internal */
export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * What the page's build (packages/vite-plugin, loadForPrerender) takes of this module, which it loads by its file.
 * @internal
 */
export interface FirstScreenPrerender {
  prerenderFirstScreens: typeof prerenderFirstScreens;
  prerenderOpeningScreens: typeof prerenderOpeningScreens;
  escapeHtml: typeof escapeHtml;
}
