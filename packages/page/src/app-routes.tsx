import { lazy, Suspense } from 'react';
import { TaskPage } from './task/task-page.tsx';

// The preview portal is @partner-task-kit/dev's, an app's dev dependency: the page's build answers this module with it,
// or with a line saying why it is absent (packages/vite-plugin/src/preview-module.ts).
const PreviewApp = lazy(() => import('virtual:partner-task-kit/preview').then((module) => ({ default: module.PreviewApp })));

/**
 * Routes only assemble features (docs/architecture.md#small-files-named-exports). Two: the preview portal under
 * /preview, which loads lazily with the router its pages need (not the task page's budget), and the task page at any
 * other path. The task page never navigates, so it reads its URL once and carries no router in the JavaScript every
 * worker downloads (docs/development.md#benchmarks: the page suite's initial JavaScript).
 */
export function AppRoutes({ pathname }: { pathname: string }) {
  if (pathname === '/preview' || pathname.startsWith('/preview/')) {
    return (
      <Suspense fallback={null}>
        <PreviewApp />
      </Suspense>
    );
  }
  return <TaskPage />;
}
