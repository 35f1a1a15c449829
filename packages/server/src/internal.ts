// @partner-task-kit/server/internal: what the kit's own packages take of the server and an app never imports
// (docs/public-api.md#kit-internal-entries): the server's configuration as `partner-task-kit dev`
// (@partner-task-kit/vite-plugin) reads it to plan the processes it starts. Every export is @internal in its API report
// (packages/server/etc/server-internal.api.md).
export { parseConfig, readEnvironment, type Config, type ConfigResult } from './config.ts';
// The check that the kit's packages are one version, which the page's build runs too (docs/upgrading.md#one-version-of-the-kit).
export { checkKitVersions, type KitVersionCheck } from './kit-versions.ts';
