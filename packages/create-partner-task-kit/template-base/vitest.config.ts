import { defineConfig } from 'vitest/config';

// The workflows' tests (tests/app/): plain functions and screens rendered as the page renders them, in Node. The kit's
// page package imports its components' CSS, which Node cannot load: inlined, Vite handles it as the build does.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    server: { deps: { inline: [/@partner-task-kit\//] } },
  },
});
