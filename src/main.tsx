import { startEarlySession } from './api/early-session';
import { pickLocale } from './ui/i18n/locale';
import { loadShellTexts } from './ui/i18n/locale-context';
import { watchWorkerInput } from './ui/worker-input';
import './ui/styles.css';

/**
 * The page's entry, kept small: it sends the task's session request at once (early-session.ts), then loads the app,
 * which index.html already preloads (vite.config.ts), so the request and the download overlap.
 */
startEarlySession(window.location);
watchWorkerInput();

const locale = pickLocale(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
// WCAG 3.1.1: the page's language is the one it speaks, set before the first paint.
document.documentElement.lang = locale;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// The app and the worker's language's texts download side by side.
Promise.all([import('./app-root'), loadShellTexts(locale)]).then(
  ([{ renderApp }, texts]) => renderApp(root, locale, texts),
  () => {
    // Without the app there is no translated text to show; this is the one message in both languages.
    root.textContent =
      'This page could not load. Check the connection and reload. / No se pudo cargar la página. Revise la conexión y recargue.';
  },
);
