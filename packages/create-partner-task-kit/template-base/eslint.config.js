import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The kit's public entries, read from the "exports" of each installed @partner-task-kit package (kit-internal ones,
 * ./internal, left out): an import of any other path of the kit is refused.
 */
const require = createRequire(import.meta.url);
const publicEntries = ['workflow', 'page', 'server', 'testing', 'vite-plugin'].flatMap((name) => {
  const manifest = JSON.parse(readFileSync(require.resolve(`@partner-task-kit/${name}/package.json`), 'utf8'));
  const internal = new Set(['./package.json', './internal']);
  return Object.keys(manifest.exports)
    .filter((key) => !internal.has(key))
    .map((key) => (key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`));
});
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const kitEntries = {
  regex: `^@partner-task-kit/(?!(${publicEntries.map((entry) => escape(entry.slice('@partner-task-kit/'.length))).join('|')})$)`,
  message: `Import the kit through its public entries: ${publicEntries.join(', ')}. Any other path is the kit's own, which a release may move or remove.`,
};
const serverModules = {
  group: ['**/*.server', '**/*.server.ts'],
  message: 'Page code never imports a .server.ts module: it would ship its secrets to the browser.',
};

export default tseslint.config(
  { ignores: ['dist', 'build', 'node_modules'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.browser, ...globals.node }, parserOptions: { tsconfigRootDir: import.meta.dirname } } },
  { files: ['**/*.tsx'], plugins: { 'react-hooks': reactHooks }, rules: reactHooks.configs.recommended.rules },
  { rules: { 'no-restricted-imports': ['error', { patterns: [kitEntries] }] } },
  {
    // The wall between the page and the server: a `.server.ts` module holds what the browser must never get (a
    // quiz's answer key), and the page build refuses it too (src/workflows/README.md).
    files: ['src/**'],
    ignores: ['src/**/*.server.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [kitEntries, serverModules] }] },
  },
);
