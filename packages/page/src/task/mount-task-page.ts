import { startEarlySession } from '../api/early-session.ts';
import { pickLocale } from '../ui/i18n/locale.ts';
import { loadShellTexts } from '../ui/i18n/locale-context.tsx';
import type { ShellTextOverrides } from '../ui/i18n/shell-text-overrides.ts';
import { watchWorkerInput } from '../ui/worker-input.ts';
import type { LoadWorkflowScreensTable } from '../workflows/workflow-views.tsx';
import '../ui/styles.css';

/**
 * Starts the task page from the page's entry (the app's src/main.tsx), kept small: it sends the task's session request
 * at once (early-session.ts), then loads the app, which index.html already preloads (packages/vite-plugin), so the
 * request and the download overlap. What the app hands it (docs/architecture.md#what-the-app-hands-the-engine):
 * - `root`, the element the page renders into: index.html's #root, which may hold a prerendered first step;
 * - `screens`, the app's table of its workflows' screens as a dynamic import() of it: the build keeps the table a chunk
 *   of its own, which only the plain index.html preloads (a prerendered first page names its own workflow's screens by
 *   their file).
 * - `texts`, optional: the app's own versions of some of the shell's texts, per language
 *   (docs/architecture.md#theme-and-texts). An object, not an import(): a few texts weigh less in the entry than the
 *   code to fetch a chunk of them, and they are there at once.
 * Parameters, not an object of options: the names of an object's properties would stay in the entry chunk every link
 * loads, minified or not, within the page's budget (packages/kit-tests/app-checks/page-build.test.ts, BENCHMARKS.md).
 */
export function mountTaskPage(root: HTMLElement, screens: LoadWorkflowScreensTable, texts?: ShellTextOverrides): void {
  startEarlySession(window.location);
  watchWorkerInput();

  const locale = pickLocale(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
  // WCAG 3.1.1: the page's language is the one it speaks, set before the first paint.
  document.documentElement.lang = locale;

  // The app and the worker's language's texts download side by side.
  Promise.all([import('../app-root.tsx'), loadShellTexts(locale)]).then(
    ([{ renderApp }, kitTexts]) => renderApp(root, locale, kitTexts, screens, texts?.[locale]),
    () => {
      // Without the app there is no translated text to show; this is the one message in both languages.
      root.textContent =
        'This page could not load. Check the connection and reload. / No se pudo cargar la página. Revisa la conexión y recarga.';
    },
  );
}
