import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/api-error';
import { AppRoutes } from './app-routes';
import { pickLocale } from './ui/i18n/locale';
import { LocaleProvider } from './ui/i18n/locale-context';
import { shellTextsEn } from './ui/i18n/shell-texts.en';
import { shellTextsEs } from './ui/i18n/shell-texts.es';

const locale = pickLocale(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
// WCAG 3.1.1: the page's language is the one it speaks, set before the first paint.
document.documentElement.lang = locale;
document.title = (locale === 'es' ? shellTextsEs : shellTextsEn).documentTitle;

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change by asking again; a network error or a 5xx may.
    queries: { retry: (failures, error) => !(error instanceof ApiError && error.isClientError) && failures < 2 },
    mutations: { retry: false },
  },
});

/** Renders the page into #root. Loaded by main.tsx once the session request is on its way. */
export function renderApp(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <LocaleProvider locale={locale}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </LocaleProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
