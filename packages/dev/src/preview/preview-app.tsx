import { useState } from 'react';
import { createBrowserRouter, RouterProvider, ScrollRestoration } from 'react-router';
import { PreviewRoute } from './preview-route.tsx';

/**
 * The preview portal with its router: its pages link to each other, which the task page never does (packages/page/src/app-routes.tsx).
 * A data router, for its scroll restoration: a screen reached by a link or a button opens at its top, as a page load
 * does, and Back returns to where that screen was left. Without it the task view opened at the form's scroll position
 * ("Assign and open" sits 900 px down at 375 px wide), with the task's frame above the viewport.
 */
export function PreviewApp() {
  const [router] = useState(() =>
    createBrowserRouter([
      {
        path: 'preview/*',
        element: (
          <>
            <ScrollRestoration />
            <PreviewRoute />
          </>
        ),
      },
    ]),
  );
  return <RouterProvider router={router} />;
}
