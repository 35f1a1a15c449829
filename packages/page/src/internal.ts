// @partner-task-kit/page/internal: what the kit's own packages take of the page and an app never imports
// (docs/public-api.md#kit-internal-entries): the providers a screen is rendered in (@partner-task-kit/testing renders a
// screen as the page does), the prerender the page's build loads by its file and the function the modules it writes for
// the workflow folders call (@partner-task-kit/vite-plugin). Every
// export is @internal in its API report (packages/page/etc/page-internal.api.md): no app relies on it, and it changes
// with the kit's packages, which are released together.
export { ApiClientProvider } from './api/api-client-context.tsx';
export { taskKeys } from './api/query-keys.ts';
export { LocaleProvider } from './ui/i18n/locale-context.tsx';
export { shellTextsEn } from './ui/i18n/shell-texts.en.ts';
export { shellTextsEs } from './ui/i18n/shell-texts.es.ts';
export type {
  FirstScreenPrerender,
  FirstScreensToPrerender,
  PrerenderedFirstScreen,
  PrerenderedOpeningScreen,
} from './task/prerender-first-screen.tsx';
export { folderScreens, type FolderScreenModules } from './workflows/folder-screens.tsx';
// What the preview portal of @partner-task-kit/dev reuses of the page: its API client, its errors, the link's
// workflow parameter and the task's updates, so the preview talks to the server as the task page does.
export { createApiClient } from './api/api-client.ts';
export { apiErrorFrom, networkError } from './api/api-error.ts';
export { taskUpdatesQueryOptions } from './api/get-task-updates.ts';
export { WORKFLOW_PARAM } from './context/read-workflow-choice.ts';
