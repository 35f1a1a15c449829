// @partner-task-kit/vite-plugin/client: the types of the modules the kit writes for the app from its workflow folders
// (docs/architecture.md#a-workflow-is-a-folder), for the app's tsconfig `types`, beside `vite/client`. Types only: the
// modules themselves exist in the app's build and its commands alone.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a script of declarations names its parts so, as vite/client does
/// <reference path="./virtual-workflows.d.ts" />
