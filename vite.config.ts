import { defineConfig } from 'vite';
import { partnerTaskKit } from '@partner-task-kit/vite-plugin';

/**
 * Where `vite` run alone forwards API and emulator calls: a server on the default PORT. `npm run dev` (`partner-task-kit
 * dev`, the bin of @partner-task-kit/vite-plugin) replaces it with the port of the server it starts behind Vite.
 */
const serverUrl = 'http://127.0.0.1:8787';

export default defineConfig({
  // The engine's build of the task page, which finds this app's workflows by their folders in src/workflows/
  // (docs/architecture.md#the-page-build).
  plugins: [
    partnerTaskKit({
      // The shell's texts this app sets (src/main.tsx hands them to the page): the prerendered first screens get them too.
      shellTexts: 'src/shell-texts.ts',
    }),
  ],
  // The engine's packages resolve to their sources here (tsconfig.base.json's paths), as the plugin expects when they
  // are beside it (docs/architecture.md#the-packages); resolved to their dist/ instead, the build would not know the
  // shell's modules by their path, and would neither preload the app chunk nor keep the shell in it.
  resolve: { tsconfigPaths: true },
  // Where the server looks for the page (packages/server/src/server.ts).
  build: { outDir: 'dist' },
  server: {
    port: 5173,
    // Both loopback names must reach it: the preview at localhost frames the task page at 127.0.0.1,
    // another site, as the real portal does.
    host: '127.0.0.1',
    proxy: { '/api': serverUrl, '/emulator': serverUrl, '/healthz': serverUrl },
  },
});
