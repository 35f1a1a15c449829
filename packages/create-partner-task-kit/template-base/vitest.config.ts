import { defineConfig } from 'vitest/config';
import { serverWorkflowsModule } from '@partner-task-kit/vite-plugin';

// The workflows' tests (tests/app/): plain functions and screens rendered as the page renders them, in Node. The kit's
// page package imports its components' CSS, which Node cannot load: inlined, Vite handles it as the build does.
export default defineConfig({
  // `virtual:partner-task-kit/workflows`: a test imports the workflows the server runs, as server/main.ts does.
  plugins: [serverWorkflowsModule()],
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    server: { deps: { inline: [/@partner-task-kit\//] } },
  },
});
