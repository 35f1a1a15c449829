// The preview portal, which the page's build supplies (packages/vite-plugin/src/preview-module.ts): @partner-task-kit/dev's
// where the app has the dev tools, else a component that says why there is none.
declare module 'virtual:partner-task-kit/preview' {
  import type { ComponentType } from 'react';

  export const PreviewApp: ComponentType;
}
