import { StrictMode, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from './api/api-error.ts';
import { AppRoutes } from './app-routes.tsx';
import { FirstScreenProvider, OPENING_SCREEN_ATTRIBUTE, readFirstScreen } from './task/first-screen.tsx';
import type { Locale } from './ui/i18n/locale.ts';
import { LocaleProvider } from './ui/i18n/locale-context.tsx';
import type { ShellTexts } from './ui/i18n/shell-texts.ts';
import { withOverrides, type TextsOverride } from './ui/i18n/shell-text-overrides.ts';
import { preloadWorkflowViews, setWorkflowScreensTable, type LoadWorkflowScreensTable } from './workflows/workflow-views.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change by asking again; a network error or a 5xx may.
    queries: { retry: (failures, error) => !(error instanceof ApiError && error.isClientError) && failures < 2 },
    // A mutation is sent even when the browser says it is offline ('always'), so that it fails at once and the page
    // says so and keeps the answers to try again (packages/page/src/task/step-runner.tsx). TanStack Query's default ('online')
    // holds it unsent while offline: the page showed "Saving…" with no end and no word of why.
    mutations: { retry: false, networkMode: 'always' },
  },
});

/** Marks the page as handling input once React has committed it (hydrated or rendered): styles.css lets its buttons
 * take clicks from then on. */
function MarkInteractive() {
  useEffect(() => {
    document.documentElement.dataset.interactive = '';
  }, []);
  return null;
}

/**
 * Renders the page into #root. Loaded by mount-task-page.ts once the session request is on its way, with the app's
 * table of workflow screens. A first step prerendered in the browser's language is hydrated: React adopts the markup
 * the worker already sees instead of painting it again. Any other markup (prerendered in another language than this
 * browser's first choice) is replaced. `kitTexts` are the kit's texts in the page's language, `ownTexts` the app's
 * versions of some of them, merged over them as the build's prerender merges them.
 */
export function renderApp(
  root: HTMLElement,
  locale: Locale,
  kitTexts: ShellTexts,
  screens: LoadWorkflowScreensTable,
  ownTexts?: TextsOverride<ShellTexts>,
): void {
  setWorkflowScreensTable(screens);
  const texts = withOverrides(kitTexts, ownTexts);
  document.title = texts.documentTitle;
  const prerendered = readFirstScreen(root);
  const firstScreen = prerendered?.locale === locale ? prerendered : undefined;
  const app = (
    <StrictMode>
      <MarkInteractive />
      <QueryClientProvider client={queryClient}>
        <LocaleProvider locale={locale} texts={texts}>
          <FirstScreenProvider value={firstScreen}>
            <AppRoutes pathname={window.location.pathname} />
          </FirstScreenProvider>
        </LocaleProvider>
      </QueryClientProvider>
    </StrictMode>
  );
  if (firstScreen) {
    // The step's screens and its own chunk first (the page preloads them): rendered with its screens already in, the step has no Suspense
    // boundary, as in the HTML (packages/page/src/workflows/lazy-screen.tsx), and hydrates in one pass. Screens that could not be
    // fetched would render a boundary the HTML does not have: the page is rendered anew, and says so where they go.
    // Hydrated in this very task (flushSync), not in one React's scheduler queues behind whatever else the page has to
    // do by then (the session's answer, timers): the step takes presses once hydrated (docs/development.md#benchmarks).
    void preloadWorkflowViews(firstScreen.workflow.id, firstScreen.screens, firstScreen.workflow.steps[0]?.id).then((fetched) =>
      fetched ? flushSync(() => void hydrateRoot(root, app)) : renderAnew(root, app),
    );
    return;
  }
  // The opening screen of a task under way or ended (task/opening-screen.tsx) is what this page renders first too.
  if (root.getAttribute(OPENING_SCREEN_ATTRIBUTE) === locale) hydrateRoot(root, app);
  else renderAnew(root, app);
}

function renderAnew(root: HTMLElement, app: ReactNode): void {
  root.replaceChildren();
  createRoot(root).render(app);
}
