import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where `npm run dev` (scripts/dev.ts) forwards API and emulator calls: the server it starts on the default PORT. */
const serverUrl = 'http://127.0.0.1:8787';

/**
 * DESIGN decision 1: secrets such as quiz answers never reach the browser. A `.server.ts` module or anything under
 * server/ imported by page code stops the build instead of being bundled.
 */
function refuseServerModules(): Plugin {
  return {
    name: 'refuse-server-modules',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0] ?? id;
      if (/\.server\.tsx?$/.test(path) || /[\\/]server[\\/]/.test(path.replace(process.cwd(), ''))) {
        this.error(`${path} is server-only and must not be imported by the page`);
      }
      return null;
    },
  };
}

export default defineConfig({
  plugins: [react(), refuseServerModules()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No data: URLs for scripts and nothing inline: the CSP allows scripts from this origin only.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    port: 5173,
    // Both loopback names must reach it: the preview at localhost frames the task page at 127.0.0.1 (issue 5).
    host: '127.0.0.1',
    proxy: { '/api': serverUrl, '/emulator': serverUrl, '/healthz': serverUrl },
  },
});
