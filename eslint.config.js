import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
/** One resolver for the walls and the cycle rule, so both see an import as the same file. */
const resolver = createTypeScriptImportResolver({ project: path.join(root, 'tsconfig.json') });

// docs/architecture.md#walls: the import rules that keep the architecture the one drawn there. Each message says why,
// so a failing lint teaches the design (docs/decisions/010-walls-are-code.md).

/** Request handlers: they answer a request inside its transaction and never wait on the platform. */
// server/tenants is read by the session route (default deny) as much as by the relay: it counts as a handler's room.
const requestHandlers = [
  'server/http',
  'server/page',
  'server/session',
  'server/task-api',
  'server/task-progress',
  'server/uploads',
  'server/tenants',
  'server/partner-api',
  'server/partner-backend',
];

/**
 * The part of src/ compiled into both the page and the server: the HTTP contract and the workflow definitions (steps,
 * schemas, grading, labels; `.server.ts` for what only the server may hold; `definition.<part>.ts` for a part of a
 * definition the first screen imports without the rest; workflow-path.ts, the path through a workflow's steps;
 * sensitive.ts, the mark of a sensitive field; file-field.ts, a field naming an upload). Screens, their texts, step props and registry.views.ts are
 * page code. tsconfig.server.json lists the same files: keep the two in step.
 */
const isomorphicFiles = [
  'src/contract/**',
  'src/workflows/{registry,registry.server,workflow-definition,workflow-catalog,workflow-path,sensitive,file-field}.ts',
  'src/workflows/*/definition{,.*}.ts',
];
/** `except` of import-x/no-restricted-paths must be globs when `from` is one, and they match absolute paths. */
const absolute = (glob) => path.join(root, glob);

const wallZones = [
  {
    target: 'src/**',
    from: 'server',
    message:
      'The task page never imports server/: everything it imports is bundled for the browser, and server code holds ' +
      'secrets and Node-only modules. Share schemas and header names through src/contract/.',
  },
  {
    target: 'src/**/!(*.server).{ts,tsx}',
    from: 'src/**/*.server.ts',
    message:
      'A .server.ts module is server-only (graders, answer keys): imported by page code it would ship them to the ' +
      'browser (docs/decisions/001-the-server-is-the-authority.md). Import the isomorphic definition.ts instead.',
  },
  {
    target: 'server/**',
    from: 'src/**',
    except: isomorphicFiles.map(absolute),
    message:
      'server/ imports from src/ only the contract (src/contract/) and the workflow definitions (registry.ts, ' +
      'registry.server.ts, workflow-definition.ts, workflow-catalog.ts, workflow-path.ts, sensitive.ts, file-field.ts, <id>/definition.ts and its parts <id>/definition.*.ts): ' +
      'the rest of src/ is React screens, texts and browser code. Move what both sides need into one of those.',
  },
  {
    target: isomorphicFiles,
    from: 'src/**',
    except: isomorphicFiles.map(absolute),
    message:
      'src/contract/ and the workflow definitions are compiled into both the page and the server, so they import only ' +
      'each other: anything else they pulled in would reach the server through them.',
  },
  {
    target: requestHandlers.map((room) => `${room}/**`),
    from: ['server/upstream', 'server/delivery'],
    message:
      'A request handler never calls the platform (docs/decisions/002-outbox-not-dual-writes.md): it records the update ' +
      'in its transaction and the outbox relay delivers it. Handlers (http, page, session, task-api, task-progress, tenants, ' +
      'partner-api) ' +
      'import neither server/upstream/ nor server/delivery/; take what you need as a dependency.',
  },
  {
    target: 'server/emulator/**',
    from: ['server/**', 'src/**'],
    except: [absolute('server/emulator/**'), absolute('src/contract/**')],
    message:
      'The emulator stands in for the platform, so it imports nothing of ours but the contract (src/contract/): ' +
      'borrowing our server code would test the server against a copy of itself and tie the emulator to the code it ' +
      'is there to check.',
  },
  {
    // server/main.ts is the app's entry: it hands the engine the app's workflows (docs/architecture.md#dependencies-passed-in).
    // Engine tests run on fixture workflows of their own (tests/fixtures/workflows); the app's tests (tests/app/: its
    // workflows, its build's budgets) and its browser tests (tests/e2e/) run its own.
    target: ['server/!(main|app-migrations).ts', 'server/*/**', 'tests/{unit,integration,helpers,fixtures,setup}/**', 'bench/**'],
    from: ['src/workflows/registry*', 'src/workflows/*/**', 'server/app-migrations*'],
    message:
      "The engine names nothing of the app: the app's entry (server/main.ts) hands its workflows and migrations in " +
      '(runKit(argv, { workflows, migrations })), so a partner may change or delete every example. Engine tests use ' +
      'tests/fixtures/workflows.',
  },
  {
    // The same for the page and its build: the engine's files of src/ (all but the app's entry src/main.tsx, its
    // registries src/workflows/registry*.ts and its workflows, every folder of src/workflows/) and packages/.
    target: ['src/!(main).{ts,tsx}', 'src/!(workflows)/**', 'src/workflows/!(registry*)', 'packages/**'],
    from: ['src/workflows/registry*', 'src/workflows/*/**'],
    message:
      "The engine's page code and build never import the app's workflows (src/workflows/<id>/) nor its registries " +
      '(src/workflows/registry*.ts): the app hands them in, its table of screens through src/main.tsx ' +
      '(mountTaskPage) and where its registries are to the build (partnerTaskKit in vite.config.ts), so a partner may ' +
      'change or delete every example (docs/architecture.md#what-the-app-hands-the-engine).',
  },
  {
    // Every file of the page outside the simulator, except src/app-routes.tsx, whose lazy route may load it with a
    // dynamic import() (checked by no-restricted-imports below, which sees static imports only).
    target: ['src/!(preview)/**', 'src/!(app-routes).{ts,tsx}'],
    from: 'src/preview',
    message:
      'The task page never imports src/preview/ (the worker-portal simulator): it would enter the bundle every worker ' +
      'downloads. Only the lazy route in src/app-routes.tsx loads it, with a dynamic import().',
  },
  {
    target: 'server/upstream/**',
    from: 'server/store',
    message:
      'server/upstream/ is the HTTP client of the platform and knows no database: the outbox relay reads the store ' +
      'and hands the client what to send.',
  },
  {
    target: 'server/store/**',
    from: ['server/http', 'server/page', 'server/session', 'server/task-api', 'server/partner-api', 'server/upstream'],
    message:
      'server/store/ is the database layer and knows no HTTP (routes, requests, the platform client): handlers, ' +
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
    'src/contract/ and the workflow definitions are compiled into the server too: no React here; screens live beside ' +
    'the definition in *.tsx files.',
};
const staticPreviewImport = {
  regex: '(^|/)preview($|/)',
  message:
    'src/app-routes.tsx loads src/preview/ only through the dynamic import() of its lazy route, so the simulator ' +
    'stays in its own chunk and out of the task page; no static import of it here, not even of a type.',
};
const databasePackages = {
  regex: '^(kysely|pg|pg-[^/]+|better-sqlite3)($|/)',
  message:
    'server/upstream/ is the HTTP client of the platform and knows no database: the outbox relay reads the store ' +
    'and hands the client what to send.',
};
const httpPackages = {
  regex: '^((node:)?https?|(node:)?http2|fastify|fastify-[^/]+|@fastify/[^/]+)($|/)',
  message:
    'server/store/ is the database layer and knows no HTTP: handlers, services and the relay call the repositories, ' +
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
  // tests/fixtures/lint-cycle holds a deliberate cycle; tests/unit/lint-walls.test.ts lints it with ignores off.
  { ignores: ['build', 'dist', 'data', 'node_modules', 'test-results', 'playwright-report', 'docs', 'tests/fixtures/lint-cycle'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // docs/architecture.md#configuration-in-one-module: only server/config.ts reads the environment.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through server/config.ts.' },
      ],
    },
  },
  {
    files: ['server/config.ts', 'tests/helpers/**', 'playwright.config.ts', 'vitest.config.ts', 'vitest.container.config.ts', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { 'import-x': importX, walls: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: { 'import-x/resolver-next': [resolver] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: wallZones }],
      'walls/no-import-cycle': 'error',
    },
  },
  // `.server.ts` modules never reach the bundle (the .server.ts wall above and packages/vite-plugin see to it), so they
  // may use Node; compiled with the workflow definitions, they still take no React.
  { files: ['src/**'], ignores: ['src/**/*.server.ts'], rules: { 'no-restricted-imports': restrictPackages(serverPackages) } },
  { files: ['src/app-routes.tsx'], rules: { 'no-restricted-imports': restrictPackages(serverPackages, staticPreviewImport) } },
  {
    files: isomorphicFiles,
    ignores: ['src/**/*.server.ts'],
    rules: { 'no-restricted-imports': restrictPackages(serverPackages, pagePackages) },
  },
  { files: ['src/**/*.server.ts'], rules: { 'no-restricted-imports': restrictPackages(pagePackages) } },
  { files: ['server/upstream/**'], rules: { 'no-restricted-imports': restrictPackages(databasePackages) } },
  { files: ['server/store/**'], rules: { 'no-restricted-imports': restrictPackages(httpPackages) } },
);
