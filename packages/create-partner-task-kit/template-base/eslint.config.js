import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'build', 'node_modules'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.browser, ...globals.node }, parserOptions: { tsconfigRootDir: import.meta.dirname } } },
  { files: ['**/*.tsx'], plugins: { 'react-hooks': reactHooks }, rules: reactHooks.configs.recommended.rules },
  {
    // The wall between the page and the server: a `.server.ts` module holds what the browser must never get (a
    // quiz's answer key), and the page build refuses it too (src/workflows/README.md).
    files: ['src/**'],
    ignores: ['src/**/*.server.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/*.server', '**/*.server.ts'],
              message: 'Page code never imports a .server.ts module: it would ship its secrets to the browser.',
            },
          ],
        },
      ],
    },
  },
);
