import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import ts from 'typescript';
import tseslint from 'typescript-eslint';
import { kitEntriesRule } from './scripts/eslint-kit-entries.mjs';

const root = import.meta.dirname;
/** One resolver for the walls and the cycle rule, so both see an import as the same file. */
const resolver = createTypeScriptImportResolver({ project: path.join(root, 'tsconfig.json') });

// docs/architecture.md#walls: the import rules that keep the architecture the one drawn there. Each message says why,
// so a failing lint teaches the design (docs/decisions/010-walls-are-code.md).

/** Where each package's code is (docs/architecture.md#the-packages); the app is the rest: src/, server/, tests/app/. */
const W = 'packages/workflow/src';
const P = 'packages/page/src';
const S = 'packages/server/src';
const V = 'packages/vite-plugin/src';
const D = 'packages/dev/src';
const K = 'packages/kit-tests';

/** Request handlers: they answer a request inside its transaction and never wait on the platform. */
// tenants is read by the session route (default deny) as much as by the relay: it counts as a handler's room.
const requestHandlers = ['http', 'page', 'session', 'task-api', 'task-progress', 'uploads', 'tenants', 'partner-api', 'dev-tools'].map(
  (room) => `${S}/${room}`,
);

/**
 * The app's files compiled into both its page and its server: its workflow definitions (steps,
 * schemas, grading, labels; `.server.ts` for what only the server may hold; `definition.<part>.ts` for a part of a
 * definition the first screen imports without the rest). Screens (steps/, done, failed) and their texts are page code.
 * tsconfig.server.json lists the same files: keep the two in step.
 */
const appIsomorphicFiles = ['src/workflows/*/definition{,.*}.ts'];
/** `except` of import-x/no-restricted-paths must be globs when `from` is one, and they match absolute paths. */
const absolute = (glob) => path.join(root, glob);

const wallZones = [
  {
    target: [`${P}/**`, 'src/**'],
    from: [S, 'server'],
    message:
      'The task page never imports the server: everything it imports is bundled for the browser, and server code ' +
      'holds secrets and Node-only modules. Share schemas and header names through @partner-task-kit/workflow/contract.',
  },
  {
    target: 'src/**/!(*.server).{ts,tsx}',
    from: 'src/**/*.server.ts',
    message:
      'A .server.ts module is server-only (graders, answer keys): imported by page code it would ship them to the ' +
      'browser (docs/decisions/001-the-server-is-the-authority.md). Import the isomorphic definition.ts instead.',
  },
  {
    target: [`${S}/**`, 'server/**'],
    from: [`${P}/**`, 'src/**'],
    except: appIsomorphicFiles.map(absolute),
    message:
      'The server imports nothing of the page (@partner-task-kit/page, and of the app only its workflow ' +
      'definitions, which server/main.ts hands in): the rest is React screens, texts and browser code. What both ' +
      'sides need belongs in @partner-task-kit/workflow.',
  },
  {
    target: `${W}/**`,
    from: [P, S, V, K, 'src', 'server', 'tests'],
    message:
      '@partner-task-kit/workflow (the contract and the workflow authoring API) is compiled into both the page and the ' +
      'server, so it imports nothing else of ours: anything it pulled in would reach both sides through it.',
  },
  {
    target: appIsomorphicFiles,
    from: ['src/**', `${P}/**`],
    except: appIsomorphicFiles.map(absolute),
    message:
      "The app's workflow definitions are compiled into both the page and the server, so they import only " +
      'each other and @partner-task-kit/workflow: anything else they pulled in would reach the server through them.',
  },
  {
    target: requestHandlers.map((room) => `${room}/**`),
    from: [`${S}/upstream`, `${S}/delivery`],
    message:
      'A request handler never calls the platform (docs/decisions/002-outbox-not-dual-writes.md): it records the update ' +
      'in its transaction and the outbox relay delivers it. Handlers (http, page, session, task-api, task-progress, tenants, ' +
      'partner-api) ' +
      'import neither upstream/ nor delivery/; take what you need as a dependency.',
  },
  {
    target: `${D}/emulator/**`,
    from: [`${S}/**`, `${P}/**`, `${W}/**`, `${D}/**`, 'src/**', 'server/**'],
    except: [absolute(`${D}/emulator/**`), absolute(`${W}/contract/**`)],
    message:
      'The emulator stands in for the platform, so it imports nothing of ours but the contract ' +
      '(@partner-task-kit/workflow/contract): borrowing our server code would test the server against a copy of itself ' +
      'and tie the emulator to the code it is there to check.',
  },
  {
    // The app hands the engine its workflows (server/main.ts, src/main.tsx, vite.config.ts), so no package names the
    // app's files (docs/architecture.md#what-the-app-hands-the-engine). The engine's tests run on fixture workflows of
    // their own (packages/kit-tests/fixtures/workflows, and fixtures/app for the browser); only the checks of this
    // repository's app (its build's budgets, its scripts: app-checks; its examples in the browser: e2e/app) name it.
    // The scaffolder's runtime too: its build (packages/create-partner-task-kit/scripts) reads the app by path.
    target: [
      `${W}/**`,
      `${P}/**`,
      `${S}/**`,
      `${V}/**`,
      `${D}/**`,
      'packages/testing/src/**',
      'packages/create-partner-task-kit/src/**',
      `${K}/!(e2e|app-checks)/**`,
      `${K}/e2e/!(app)/**`,
      `${K}/e2e/*`,
    ],
    from: ['src', 'server', 'tests'],
    message:
      "The engine names nothing of the app: the app's entries hand its workflows and migrations in (runKit(argv, " +
      '{ workflows, migrations }) in server/main.ts, mountTaskPage in src/main.tsx, partnerTaskKit in vite.config.ts), ' +
      'so a partner may change or delete every example. Engine tests use packages/kit-tests/fixtures/workflows.',
  },
  {
    target: [`${P}/**`, `${S}/**`, 'src/**', 'server/**'],
    from: D,
    message:
      'The page and the server never import @partner-task-kit/dev (the emulator, the stand-in, the preview): it is an ' +
      "app's dev dependency, absent from a production install. The server loads it at run time in emulator mode " +
      '(packages/server/src/dev-tools/dev-tools.ts); the page gets the preview from its build (virtual:partner-task-kit/preview).',
  },
  {
    target: [`${D}/emulator/**`, `${D}/partner-backend/**`, `${D}/!(preview).ts`],
    from: `${D}/preview{.ts,/**}`,
    message: "The dev tools' Node side (emulator, stand-in) imports nothing of the preview, which runs in the browser.",
  },
  {
    target: `${D}/preview{.ts,/**}`,
    from: [`${D}/emulator/**`, `${D}/partner-backend/**`, `${D}/!(preview).ts`, `${S}/**`],
    message:
      'The preview runs in the browser: it reaches the emulator and the stand-in over HTTP (their control API), never ' +
      'by importing their Node modules or the server.',
  },
  {
    target: `${S}/upstream/**`,
    from: `${S}/store`,
    message:
      'upstream/ is the HTTP client of the platform and knows no database: the outbox relay reads the store ' +
      'and hands the client what to send.',
  },
  {
    target: `${S}/store/**`,
    from: ['http', 'page', 'session', 'task-api', 'partner-api', 'upstream'].map((room) => `${S}/${room}`),
    message:
      'store/ is the database layer and knows no HTTP (routes, requests, the platform client): handlers, ' +
      'services and the relay call the repositories, never the other way round.',
  },
];

// Package walls: by name, with no-restricted-imports. A later config object replaces the rule's options for the
// files it matches, so each group of files lists every pattern that applies to it.
const serverPackages = {
  regex: '^(node:|fastify$|fastify[-/]|@fastify/|kysely($|/)|pg($|/|-)|better-sqlite3($|/)|pino($|/)|prom-client($|/)|jose($|/))',
  message: 'The task page runs in the browser: Node built-ins and server packages do not belong in its bundle.',
};
const pagePackages = {
  regex: '^(react|react-dom|react-router)($|/)|^@tanstack/',
  message:
    '@partner-task-kit/workflow and the workflow definitions are compiled into the server too: no React here; screens ' +
    'live beside the definition in *.tsx files.',
};
const staticPreviewImport = {
  regex: '^virtual:partner-task-kit/preview$',
  message:
    'app-routes.tsx loads the preview only through the dynamic import() of its lazy route, so the simulator ' +
    'stays in its own chunk and out of the task page; no static import of it, not even of a type.',
};
const databasePackages = {
  regex: '^(kysely|pg|pg-[^/]+|better-sqlite3)($|/)',
  message:
    'upstream/ is the HTTP client of the platform and knows no database: the outbox relay reads the store ' +
    'and hands the client what to send.',
};
const httpPackages = {
  regex: '^((node:)?https?|(node:)?http2|fastify|fastify-[^/]+|@fastify/[^/]+)($|/)',
  message:
    'store/ is the database layer and knows no HTTP: handlers, services and the relay call the repositories, ' +
    'never the other way round.',
};
const restrictPackages = (...patterns) => ['error', { patterns }];

/**
 * No import cycles, type-only imports included (import-x/no-cycle skips `import type`, and a type-only cycle still
 * ties two modules together). Each file's imports come from its AST; the rest of the graph is read from disk with
 * TypeScript's import scanner, once per file version for the whole lint run.
 */
const importsOnDisk = new Map();

function resolveOurs(source, importer) {
  const resolved = resolver.resolve(source, importer);
  if (!resolved.found || !resolved.path || resolved.path.includes(`${path.sep}node_modules${path.sep}`)) return null;
  return /\.[cm]?[jt]sx?$/.test(resolved.path) ? resolved.path : null;
}

function importedFiles(file) {
  let modified;
  try {
    modified = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = importsOnDisk.get(file);
  if (cached?.modified === modified) return cached.files;
  const scanned = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
  const files = [...new Set(scanned.map((entry) => resolveOurs(entry.fileName, file)).filter(Boolean))];
  importsOnDisk.set(file, { modified, files });
  return files;
}

/** The shortest import path from `start` back to `file`, or undefined when there is none. */
function pathBack(start, file) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  for (const current of queue) {
    for (const next of importedFiles(current)) {
      if (next === file) {
        const route = [current];
        while (cameFrom.get(route[0]) !== undefined) route.unshift(cameFrom.get(route[0]));
        return route;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      cycle:
        'Import cycle (type-only imports count): {{route}}. Modules that import each other can be neither read nor ' +
        'tested one at a time, and their load order decides what is defined; move what both need to the module it ' +
        'belongs to.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const check = (node, source) => {
      if (typeof source?.value !== 'string') return;
      const target = resolveOurs(source.value, file);
      if (target === null || target === file) return;
      const route = pathBack(target, file);
      if (route === undefined) return;
      const names = [file, ...route, file].map((entry) => path.relative(root, entry));
      context.report({ node, messageId: 'cycle', data: { route: names.join(' -> ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
      TSExternalModuleReference: (node) => check(node, node.expression),
    };
  },
};

export default tseslint.config(
  // packages/kit-tests/fixtures/lint-cycle holds a deliberate cycle; packages/kit-tests/unit/lint-walls.test.ts lints it
  // with ignores off.
  {
    ignores: [
      'build',
      'dist',
      'packages/*/dist',
      // Written from the app by the scaffolder's build, which the app's own lint already covers.
      'packages/create-partner-task-kit/template',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      'docs',
      `${K}/fixtures/lint-cycle`,
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The root named: the scaffolder's template-base/ holds an app's eslint.config.js of its own, which makes the
    // parser's guess of the root ambiguous.
    languageOptions: { globals: { ...globals.node, ...globals.browser }, parserOptions: { tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // docs/architecture.md#configuration-in-one-module: only the server's config.ts reads the environment.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through packages/server/src/config.ts.' },
      ],
    },
  },
  {
    files: [
      `${S}/config.ts`,
      `${K}/helpers/**`,
      'playwright.config.ts',
      'vitest.config.ts',
      'vitest.container.config.ts',
      'vitest.packed.config.ts',
      `${K}/packed/playwright.packed.config.ts`,
      `${K}/bench/**`,
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/**/*.tsx', `${P}/**/*.tsx`, `${D}/**/*.tsx`],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { 'import-x': importX, walls: { rules: { 'no-import-cycle': noImportCycle, 'kit-entries': kitEntriesRule(root) } } },
    settings: { 'import-x/resolver-next': [resolver] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: wallZones }],
      'walls/no-import-cycle': 'error',
    },
  },
  // docs/public-api.md: the app imports the kit through its public entries; the kit's packages import each other
  // through their named entries (kit-internal ones too). Both lists are read from the packages' package.json "exports".
  { files: ['src/**', 'server/**', 'tests/app/**'], rules: { 'walls/kit-entries': ['error', { allow: 'public' }] } },
  {
    files: [`${W}/**`, `${P}/**`, `${S}/**`, `${V}/**`, `${D}/**`, 'packages/testing/src/**'],
    rules: { 'walls/kit-entries': ['error', { allow: 'internal' }] },
  },
  // `.server.ts` modules never reach the bundle (the .server.ts wall above and the Vite plugin see to it), so they may
  // use Node; compiled with the workflow definitions, they still take no React.
  {
    files: ['src/**', `${D}/preview/**`, `${D}/preview.ts`],
    ignores: ['src/**/*.server.ts'],
    rules: { 'no-restricted-imports': restrictPackages(serverPackages) },
  },
  { files: [`${P}/**`], rules: { 'no-restricted-imports': restrictPackages(serverPackages, staticPreviewImport) } },
  {
    files: [...appIsomorphicFiles, `${W}/**`],
    ignores: ['src/**/*.server.ts'],
    rules: { 'no-restricted-imports': restrictPackages(serverPackages, pagePackages) },
  },
  { files: ['src/**/*.server.ts'], rules: { 'no-restricted-imports': restrictPackages(pagePackages) } },
  { files: [`${S}/upstream/**`], rules: { 'no-restricted-imports': restrictPackages(databasePackages) } },
  { files: [`${S}/store/**`], rules: { 'no-restricted-imports': restrictPackages(httpPackages) } },
);
