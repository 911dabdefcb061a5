// ESLint for every workspace: the JavaScript and TypeScript recommendations everywhere, the rules
// of hooks in the web app. Import cycles and the layers between folders are checked by
// dependency-cruiser (.dependency-cruiser.cjs), unused files, exports and dependencies by knip.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    '**/coverage/',
    'reports/',
    'e2e/test-results/',
    'e2e/playwright-report/',
    '**/*.tsbuildinfo',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A name that starts with an underscore is unused on purpose (a required parameter, a
      // rest sibling that drops a property).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read JSON answers whose shape the assertions themselves check.
    files: ['**/*.test.{ts,tsx}', '**/*.test-support.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Playwright finds a fixture's dependencies in its first parameter, which is `{}` when it has none.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // The rules of hooks, and effects and memos that list what they read. The plugin's React
    // Compiler checks are not enabled: the app is not built with the compiler.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
]);
