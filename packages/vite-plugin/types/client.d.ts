// @partner-task-kit/vite-plugin/client: the types of the modules the kit's build writes for the app from its workflow
// folders (docs/architecture.md#a-workflow-is-a-folder), for the app's tsconfig `types`, beside `vite/client`. Types
// only: the modules themselves exist in the app's build alone. Each file it references declares ambient modules, which
// an `import` would turn into a module of its own that declares none.
/* eslint-disable @typescript-eslint/triple-slash-reference -- a script of declarations names its parts so, as vite/client does */
/// <reference path="./virtual-screens.d.ts" />
/// <reference path="./virtual-workflows.d.ts" />
