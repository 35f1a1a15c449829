import { startEarlySession } from './api/early-session';
import './ui/styles.css';

/**
 * The page's entry, kept small: it sends the task's session request at once (early-session.ts), then loads the app,
 * which index.html already preloads (vite.config.ts), so the request and the download overlap.
 */
startEarlySession(window.location);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
import('./app-root').then(
  ({ renderApp }) => renderApp(root),
  () => {
    // Without the app there is no translated text to show; this is the one message in both languages.
    root.textContent =
      'This page could not load. Check the connection and reload. / No se pudo cargar la página. Revise la conexión y recargue.';
  },
);
