import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { TaskPage } from './task/task-page';

const PreviewRoute = lazy(() => import('./preview/preview-route').then((module) => ({ default: module.PreviewRoute })));

/** Routes only assemble features (docs/architecture.md#small-files-named-exports). The preview loads lazily: not the task page's budget. */
export function AppRoutes() {
  return (
    <Routes>
      <Route index element={<TaskPage />} />
      <Route
        path="preview/*"
        element={
          <Suspense fallback={null}>
            <PreviewRoute />
          </Suspense>
        }
      />
      <Route path="*" element={<TaskPage />} />
    </Routes>
  );
}
