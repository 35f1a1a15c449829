import type { ShellTextOverrides } from '@partner-task-kit/page';

/**
 * This app's versions of some of the texts the page shows around the workflows (the tab's title, the done and error
 * screens), per language; a text left out keeps the kit's (packages/page/src/ui/i18n/shell-texts.en.ts, .es.ts). For
 * example `en: { documentTitle: 'Acme onboarding', done: { title: 'Thank you' } }`. src/main.tsx hands them to the
 * page, and vite.config.ts names this file to the build, which prerenders the first screens with them. Each text set
 * here is in the JavaScript every link loads first (docs/architecture.md#theme-and-texts). index.html's <title> is
 * this app's too: keep it the English documentTitle.
 */
export const shellTexts: ShellTextOverrides = {};
