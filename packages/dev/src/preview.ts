// The browser's entry: the preview portal, which the page's build puts in a chunk of its own where the app has this
// package (packages/vite-plugin/src/preview-module.ts) and the task page's lazy route at /preview loads.
export { PreviewApp } from './preview/preview-app.tsx';
