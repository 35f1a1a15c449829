import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteAppImports } from '@partner-task-kit/vite-plugin/cli/entry-imports';

// `partner-task-kit upgrade` onto the named entries (docs/public-api.md): an app's imports of the deep paths the
// packages exported before name the entry that holds them now.

/** `code` as `partner-task-kit upgrade` leaves it in an app's src/. */
function rewritten(code: string): string {
  const app = mkdtempSync(join(tmpdir(), 'ptk-entry-imports-'));
  try {
    mkdirSync(join(app, 'src'));
    writeFileSync(join(app, 'src/module.ts'), code);
    rewriteAppImports(app);
    return readFileSync(join(app, 'src/module.ts'), 'utf8');
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

/** The specifier an import of `specifier` names after the rewrite. */
const entryOf = (specifier: string) => /'([^']+)'/.exec(rewritten(`import '${specifier}';\n`))![1];

describe("the upgrade's rewrite of deep imports", () => {
  it('names the entry of each deep path an app imported, and leaves the rest', () => {
    expect(entryOf('@partner-task-kit/workflow/workflow-definition')).toBe('@partner-task-kit/workflow');
    expect(entryOf('@partner-task-kit/workflow/contract/task-view')).toBe('@partner-task-kit/workflow/contract');
    expect(entryOf('@partner-task-kit/page/ui/i18n/locale-context')).toBe('@partner-task-kit/page/screens');
    expect(entryOf('@partner-task-kit/page/workflows/lazy-screen')).toBe('@partner-task-kit/page/screens');
    expect(entryOf('@partner-task-kit/page/ui/i18n/shell-text-overrides')).toBe('@partner-task-kit/page');
    expect(entryOf('@partner-task-kit/server/task-progress/status-updates')).toBe('@partner-task-kit/server');
    // No entry holds the server's internals: the type check and the lint name them.
    for (const kept of ['@partner-task-kit/server/store/store', '@partner-task-kit/page/screens', '@partner-task-kit/workflow/contract']) {
      expect(entryOf(kept)).toBe(kept);
    }
  });

  it('rewrites imports, type imports, re-exports and import() of an app module, nothing else of it', () => {
    const before = [
      "import { Button } from '@partner-task-kit/page/ui/button';",
      'import type { TaskView } from "@partner-task-kit/workflow/contract/task-view";',
      "export { sensitive } from '@partner-task-kit/workflow/sensitive';",
      "const later = () => import('@partner-task-kit/page/workflows/step-view-props');",
      "import { runKit } from '@partner-task-kit/server';",
      "const text = 'see @partner-task-kit/page/ui/button';",
      '',
    ].join('\n');
    expect(rewritten(before)).toBe(
      [
        "import { Button } from '@partner-task-kit/page/screens';",
        'import type { TaskView } from "@partner-task-kit/workflow/contract";',
        "export { sensitive } from '@partner-task-kit/workflow';",
        "const later = () => import('@partner-task-kit/page/screens');",
        "import { runKit } from '@partner-task-kit/server';",
        "const text = 'see @partner-task-kit/page/ui/button';",
        '',
      ].join('\n'),
    );
  });

  it("rewrites the app's src/, server/ and tests/ in place, not node_modules, and names the files changed", () => {
    const app = mkdtempSync(join(tmpdir(), 'ptk-entry-imports-'));
    try {
      const files = {
        'src/workflows/a/a-step.tsx': "import { Button } from '@partner-task-kit/page/ui/button';\n",
        'src/main.tsx': "import { mountTaskPage } from '@partner-task-kit/page';\n",
        'tests/app/a.test.ts': "import { checkOnPage } from '@partner-task-kit/workflow/step-check';\n",
        'node_modules/x/index.js': "import '@partner-task-kit/page/ui/button';\n",
      };
      for (const [file, code] of Object.entries(files)) {
        mkdirSync(join(app, file, '..'), { recursive: true });
        writeFileSync(join(app, file), code);
      }
      expect(rewriteAppImports(app).sort()).toEqual(['src/workflows/a/a-step.tsx', 'tests/app/a.test.ts']);
      expect(readFileSync(join(app, 'src/workflows/a/a-step.tsx'), 'utf8')).toBe(
        "import { Button } from '@partner-task-kit/page/screens';\n",
      );
      expect(readFileSync(join(app, 'node_modules/x/index.js'), 'utf8')).toBe(files['node_modules/x/index.js']);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});
