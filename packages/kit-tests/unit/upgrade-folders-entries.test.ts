import { describe, expect, it } from 'vitest';
import { defaultWorkflowOf, SourceShapeError } from '@partner-task-kit/vite-plugin/cli/source-edits';
import {
  withClientTypes,
  withFolderScripts,
  withoutRegistryOptions,
  withScreensModule,
  withWorkflowsModule,
} from '@partner-task-kit/vite-plugin/cli/upgrade-folders-entries';

// `partner-task-kit upgrade-folders` (docs/upgrading.md#a-workflow-is-a-folder): the app's entries and configuration
// moved off the registries, each edit on the syntax the kit's template wrote, the rest of the file as it was.

const serverMain = `import { serverWorkflows } from '../src/workflows/registry.server';
import { appMigrations } from './app-migrations';
import { runKit } from '@partner-task-kit/server';

// The app's server: ¿its comments? stay.
await runKit(process.argv.slice(2), { workflows: serverWorkflows, migrations: appMigrations });
`;

describe("upgrade-folders' edits of the app's entries", () => {
  it('gives the page the build module of screens in place of registry.views.ts', () => {
    const main = "// the entry\nmountTaskPage(root, () => import('./workflows/registry.views'), shellTexts);\n";
    expect(withScreensModule('src/main.tsx', main)).toBe(
      "// the entry\nmountTaskPage(root, () => import('virtual:partner-task-kit/screens'), shellTexts);\n",
    );
    expect(() => withScreensModule('src/main.tsx', "mountTaskPage(root, () => import('./screens'));\n")).toThrow(SourceShapeError);
  });

  it("gives runKit the folders' workflows and, among several, the default by its id", () => {
    const several = withWorkflowsModule('server/main.ts', serverMain, 'safety-training');
    expect(several).toContain("import workflows from 'virtual:partner-task-kit/workflows';\nimport { appMigrations }");
    expect(several).toContain("{ workflows, defaultWorkflow: 'safety-training', migrations: appMigrations }");
    expect(several).toContain("// The app's server: ¿its comments? stay.");
    expect(withWorkflowsModule('server/main.ts', serverMain, undefined)).toContain('{ workflows, migrations: appMigrations }');
    expect(defaultWorkflowOf('server/main.ts', several)?.id).toBe('safety-training');
    expect(defaultWorkflowOf('server/main.ts', several)?.edit('availability')).toContain("defaultWorkflow: 'availability'");
  });

  it('refuses a server entry that does not hand runKit the registry', () => {
    const other = serverMain.replace('workflows: serverWorkflows', 'workflows: myCatalog()');
    expect(() => withWorkflowsModule('server/main.ts', other, undefined)).toThrow(/server\/main\.ts: no runKit/);
  });

  it("drops the plugin's workflows and views options, with their lines, and keeps the others", () => {
    const config = `export default defineConfig({
  plugins: [
    partnerTaskKit({
      workflows: 'src/workflows/registry.ts',
      views: 'src/workflows/registry.views.ts',
      // Why the shell's texts are given.
      shellTexts: 'src/shell-texts.ts',
    }),
  ],
});
`;
    expect(withoutRegistryOptions('vite.config.ts', config)).toBe(`export default defineConfig({
  plugins: [
    partnerTaskKit({
      // Why the shell's texts are given.
      shellTexts: 'src/shell-texts.ts',
    }),
  ],
});
`);
    expect(withoutRegistryOptions('vite.config.ts', "partnerTaskKit({ workflows: 'a', views: 'b', shellTexts: 'c' });")).toBe(
      "partnerTaskKit({ shellTexts: 'c' });",
    );
  });

  it("runs the server's commands through the register hook, bundles with build-server and checks the folders first", () => {
    const scripts = withFolderScripts({
      build: 'vite build && esbuild server/main.ts --bundle --platform=node --outfile=build/server/main.mjs --log-level=warning',
      test: 'tsc && eslint . --max-warnings 0 && vitest run',
      typecheck: 'tsc',
      migrate: 'node --import tsx server/main.ts migrate',
      lint: 'eslint .  --max-warnings 0',
    });
    expect(scripts).toEqual({
      build: 'vite build && partner-task-kit build-server',
      test: 'partner-task-kit check && tsc && eslint . --max-warnings 0 && vitest run',
      typecheck: 'partner-task-kit check && tsc',
      migrate: 'node --import @partner-task-kit/vite-plugin/register server/main.ts migrate',
      lint: 'eslint .  --max-warnings 0',
    });
    expect(withFolderScripts(scripts)).toEqual(scripts);
  });

  it("adds the build modules' declarations to a tsconfig's types, its comments kept", () => {
    const tsconfig = '{\n  // One project.\n  "compilerOptions": { "types": ["node", "vite/client"] }\n}\n';
    const typed = withClientTypes(tsconfig);
    expect(typed).toBe(
      '{\n  // One project.\n  "compilerOptions": { "types": ["node", "vite/client", "@partner-task-kit/vite-plugin/client"] }\n}\n',
    );
    expect(withClientTypes(typed!)).toBe(typed);
    expect(withClientTypes('{ "compilerOptions": {} }')).toBeUndefined();
  });
});
