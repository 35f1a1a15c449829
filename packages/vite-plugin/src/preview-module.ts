import { loadEnv, type Plugin } from 'vite';

/** What the page's lazy route at /preview imports (packages/page/src/app-routes.tsx). */
const PREVIEW_MODULE = 'virtual:partner-task-kit/preview';
const ABSENT = `\0${PREVIEW_MODULE}`;
/** The preview portal's browser entry, in the app's dev dependencies (docs/architecture.md#the-dev-package). */
const DEV_PREVIEW = '@partner-task-kit/dev/preview';

/** What /preview shows where the build has no preview: a line that says why, in place of the portal. */
const absentPreview = `export const PreviewApp = () =>
  'The preview portal is not in this build: it comes with @partner-task-kit/dev, which this build had not installed or was told to leave out (PREVIEW_ENABLED=false).';
`;

/**
 * The preview portal in the page, as a chunk of its own that only /preview loads: @partner-task-kit/dev's where the app
 * has it installed (as a dev dependency), unless the build's environment (or .env) says PREVIEW_ENABLED=false, as a
 * production image's build does (Dockerfile). Otherwise the route shows why there is none, and no preview code is in
 * the page: the page itself never names the dev package, so an install without dev dependencies builds it as well.
 */
export function previewModule(): Plugin {
  let leftOut = false;
  let devPreview: string | undefined;
  return {
    name: 'partner-task-kit:preview',
    configResolved(config) {
      const env = loadEnv(config.mode, config.envDir || config.root, 'PREVIEW_ENABLED');
      leftOut = env.PREVIEW_ENABLED === 'false';
    },
    async resolveId(id, importer) {
      if (id !== PREVIEW_MODULE) return null;
      if (leftOut) return ABSENT;
      // Resolved as the page's own import would be: the app's node_modules, or this repository's sources.
      devPreview = (await this.resolve(DEV_PREVIEW, importer, { skipSelf: true }))?.id;
      // The module keeps its own name, without the \0 of a virtual module: the bundler orders the lazy chunks' shared
      // modules by their entries' names, and one that sorts before the app's own would reorder the modules of the
      // shell's chunk every page loads first, and so compress it worse (packages/kit-tests/app-checks/page-build.test.ts).
      return devPreview === undefined ? ABSENT : PREVIEW_MODULE;
    },
    load(id) {
      if (id === ABSENT) return absentPreview;
      if (id === PREVIEW_MODULE && devPreview !== undefined) return `export { PreviewApp } from ${JSON.stringify(devPreview)};\n`;
      return null;
    },
  };
}
