// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Contracts are shared by server and browser: they may depend on nothing but zod.
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@embudo/server', '@embudo/web', '@embudo/web/*', 'node:*'],
              message: 'contracts must stay runtime-neutral',
            },
          ],
        },
      ],
    },
  },
  // The web app never reaches into the server, and ships no schema library.
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@embudo/contracts',
              allowTypeImports: true,
              message:
                'browser code takes run-time values from @embudo/contracts/runtime (no zod in the bundle); only types from @embudo/contracts',
            },
          ],
          patterns: [
            {
              group: ['@embudo/server', '**/apps/server/**'],
              message: 'the web app talks to the server through contracts and HTTP only',
            },
          ],
        },
      ],
    },
  },
  // Server-side rendering and tests run in Node: they may use the schemas.
  {
    files: ['apps/web/src/entry-server.tsx', 'apps/web/vite.config.ts', 'apps/web/**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
