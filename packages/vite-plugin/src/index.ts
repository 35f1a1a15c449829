import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { normalizePath, type Plugin, type PluginOption } from 'vite';
import { appWorkflows } from './app-workflows.ts';
import { entryImports } from './entry-imports.ts';
import { kitVersionCheck } from './kit-versions-plugin.ts';
import { pageBuildOptions, preloadTaskPageChunks, refuseServerModules, shellChunk } from './page-chunks.ts';
import { compileHintsForFirstScreens, compressPage } from './page-compression.ts';
import { prerenderFirstScreens, type ShellTextsModule } from './prerender-first-screens.ts';
import { previewModule } from './preview-module.ts';

/**
 * What the build needs beside the app's workflows, which it finds by their folders
 * (docs/architecture.md#a-workflow-is-a-folder), each path from the project's root (docs/architecture.md#the-page-build).
 */
export interface PartnerTaskKitOptions {
  /**
   * The tsconfig the build loads the app's page modules with, its workflows' definitions and the prerendered screens
   * (its JSX setting, its paths): by default tsconfig.page.json at the root where there is one, else tsconfig.json.
   */
  tsconfig?: string;
  /**
   * The app's module of its own versions of some of the shell's texts, which its entry (src/main.tsx) hands the page:
   * it exports `shellTexts` (ShellTextOverrides). The build renders the prerendered first screens, and their <title>,
   * with them too, so they say what the page that hydrates them says. Absent: the app keeps the kit's texts.
   */
  shellTexts?: string;
}

/**
 * The engine's build of the task page: the check of the kit's versions, React, the app's workflows from their folders,
 * the rule that keeps server modules out of the page, the preview portal where the dev tools are installed, the shell
 * in one chunk, the preloads, the prerendered first screens, the compressed copies and the compile hints, each with its
 * reason. The build options the page needs come with it (pageBuildOptions).
 */
export function partnerTaskKit(options: PartnerTaskKitOptions = {}): PluginOption[] {
  const workflows = appWorkflows(options.tsconfig);
  const shellTexts = shellTextsOption(options.shellTexts);
  return [
    kitVersionCheck(),
    react(),
    entryImports(),
    workflows.plugin,
    shellTexts.plugin,
    previewModule(),
    pageBuildOptions(),
    shellChunk(),
    refuseServerModules(),
    preloadTaskPageChunks(),
    prerenderFirstScreens(workflows, shellTexts.module),
    compressPage(),
    compileHintsForFirstScreens(workflows),
  ];
}

/** The app's module of shell texts by its real path, as Rolldown names modules, once the root is known; a path to nothing stops the build. */
function shellTextsOption(option: string | undefined): { plugin: Plugin; module(): ShellTextsModule | undefined } {
  let module: ShellTextsModule | undefined;
  return {
    plugin: {
      name: 'partner-task-kit:shell-texts',
      apply: 'build',
      configResolved(config) {
        if (option === undefined) return;
        const file = resolve(config.root, option);
        try {
          module = { option, file: normalizePath(realpathSync(file)) };
        } catch {
          throw new Error(`partnerTaskKit({ shellTexts: '${option}' }): there is no ${file}`);
        }
      },
    },
    module: () => module,
  };
}

// What an app's vitest.config.ts adds for tests that import the server's workflows.
export { serverWorkflowsModule } from './workflows-plugin.ts';
