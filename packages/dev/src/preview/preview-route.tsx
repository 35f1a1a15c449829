import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { previewConfigQueryOptions } from './api/get-preview-config.ts';
import { EmulatorPortal } from './emulator-portal.tsx';
import { PlatformPortal } from './platform-portal.tsx';
import './preview.css';
import './preview-parts.css';

/**
 * The preview portal (README.md#walkthrough-the-preview-portal), loaded lazily so it never counts in the task
 * page's initial JavaScript. It is a developer's tool in English, whatever the browser's language.
 */
export function PreviewRoute() {
  const config = useQuery(previewConfigQueryOptions());
  useEffect(() => {
    // WCAG 2.4.2 and 3.1.1: this page has its own title and speaks English.
    document.title = 'Preview portal · partner-task-kit';
    document.documentElement.lang = 'en';
  }, []);
  const mode = config.data?.mode;
  return (
    <div className="pv-shell">
      <header className="pv-header">
        <Link className="pv-brand" to="/preview">
          Worker portal <span className="pv-muted-inverse">preview</span>
        </Link>
        {mode && <span className={`pv-mode pv-mode-${mode}`}>{mode === 'emulator' ? 'Emulator mode' : 'Platform mode'}</span>}
      </header>
      <main className="pv-main">
        {config.isError ? (
          <div className="pv-page">
            <h1 className="pv-title">The preview is not available</h1>
            <p>{config.error.message}</p>
            <p>With a real credential, the preview is off unless PREVIEW_ENABLED=true is set on the server.</p>
          </div>
        ) : !config.data ? (
          <p role="status" className="pv-page">
            Loading the preview…
          </p>
        ) : config.data.mode === 'emulator' ? (
          <EmulatorPortal config={config.data} />
        ) : (
          <PlatformPortal config={config.data} />
        )}
      </main>
    </div>
  );
}
