// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The visitor app's layers (Bulletproof React): shared code imports no feature; a feature imports
 * shared code and itself, never another feature; pages compose features. Each folder is one unit.
 */
const WEB_LAYERS = {
  shared: ['api', 'i18n', 'lib', 'layout', 'site-context'],
  feature: ['button', 'legal', 'location', 'modals', 'persuasion', 'preview', 'screens', 'tracking', 'video'],
  page: ['app', 'funnel-page', 'landing', 'page-actions'],
};
const WEB_BASE_RESTRICTIONS = {
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
};
/** One config block per folder of the visitor app, forbidding imports across its layer's bounds. */
function webLayerBlocks() {
  const blocks = [];
  for (const [layer, folders] of Object.entries(WEB_LAYERS)) {
    for (const folder of folders) {
      const forbidden =
        layer === 'shared'
          ? [...WEB_LAYERS.feature, ...WEB_LAYERS.page]
          : layer === 'feature'
            ? [...WEB_LAYERS.feature.filter((f) => f !== folder), ...WEB_LAYERS.page]
            : [];
      if (forbidden.length === 0) continue;
      blocks.push({
        files: [`apps/web/src/${folder}/**/*.{ts,tsx}`],
        ignores: ['apps/web/**/*.test.{ts,tsx}'],
        rules: {
          '@typescript-eslint/no-restricted-imports': [
            'error',
            {
              ...WEB_BASE_RESTRICTIONS,
              patterns: [
                ...WEB_BASE_RESTRICTIONS.patterns,
                {
                  group: forbidden.map((f) => `../${f}/*`),
                  message: `${layer} code (${folder}/) may not import ${layer === 'shared' ? 'features or pages' : 'another feature or a page'}: see docs/conventions.md`,
                },
              ],
            },
          ],
        },
      });
    }
  }
  return blocks;
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'eslint.config.js',
      // Third-party test data (XSS corpora), kept byte for byte as published.
      'apps/server/test/xss-corpora/**',
    ],
  },
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
  ...webLayerBlocks(),
  // Server-side rendering and tests run in Node: they may use the schemas.
  {
    files: ['apps/web/src/entry-server.tsx', 'apps/web/vite.config.ts', 'apps/web/**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
