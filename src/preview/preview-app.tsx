import { BrowserRouter, Route, Routes } from 'react-router';
import { PreviewRoute } from './preview-route';

/** The preview portal with its router: its pages link to each other, which the task page never does (src/app-routes.tsx). */
export function PreviewApp() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="preview/*" element={<PreviewRoute />} />
      </Routes>
    </BrowserRouter>
  );
}
