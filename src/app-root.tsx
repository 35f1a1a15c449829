import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/api-error';
import { AppRoutes } from './app-routes';
import { FirstScreenProvider, readFirstScreen } from './task/first-screen';
import type { Locale } from './ui/i18n/locale';
import { LocaleProvider } from './ui/i18n/locale-context';
import type { ShellTexts } from './ui/i18n/shell-texts';
import { preloadWorkflowViews } from './workflows/registry.views';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change by asking again; a network error or a 5xx may.
    queries: { retry: (failures, error) => !(error instanceof ApiError && error.isClientError) && failures < 2 },
    // A mutation is sent even when the browser says it is offline ('always'), so that it fails at once and the page
    // says so and keeps the answers to try again (src/task/step-runner.tsx). TanStack Query's default ('online')
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
 * Renders the page into #root. Loaded by main.tsx once the session request is on its way. A first step prerendered in
 * the browser's language is hydrated: React adopts the markup the worker already sees instead of painting it again.
 * Any other markup (prerendered in another language than this browser's first choice) is replaced.
 */
export function renderApp(root: HTMLElement, locale: Locale, texts: ShellTexts): void {
  document.title = texts.documentTitle;
  const prerendered = readFirstScreen(root);
  const firstScreen = prerendered?.locale === locale ? prerendered : undefined;
  const app = (
    <StrictMode>
      <MarkInteractive />
      <QueryClientProvider client={queryClient}>
        <LocaleProvider locale={locale} texts={texts}>
          <FirstScreenProvider value={firstScreen}>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </FirstScreenProvider>
        </LocaleProvider>
      </QueryClientProvider>
    </StrictMode>
  );
  if (firstScreen) {
    // The step's screens first (the page preloads them): hydrated with its screen already in, the step never suspends,
    // so the session's answer cannot reach a boundary still waiting to hydrate, which React would render anew.
    void preloadWorkflowViews(firstScreen.workflow.id).then(() => hydrateRoot(root, app));
    return;
  }
  root.replaceChildren();
  createRoot(root).render(app);
}
