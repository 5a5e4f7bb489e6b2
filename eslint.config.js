// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';

/**
 * The layers of one React app (Bulletproof React), each a list of folders under `<app>/src`, each
 * folder one unit: foundation code imports no feature or page; a feature imports foundation code and
 * itself, never another feature or a page; pages compose features. The files directly in src (the
 * entries) import anything. A folder under src that no layer lists is an error, so a new folder takes
 * its place in a layer before it holds code.
 *
 * @typedef {{ foundation: string[]; features: string[]; pages: string[] }} Layers
 */
const LAYER_PLUGIN = {
  rules: {
    layers: {
      meta: {
        type: 'problem',
        docs: {
          description: "imports across an app's layers, and folders in no layer (docs/conventions.md)",
        },
        schema: false,
      },
      create(context) {
        /** @type {{ src: string; layers: Layers }} */
        const { src, layers } = context.options[0];
        const root = path.resolve(context.cwd, src);
        /** @param {string} file the top folder under src of a file, or null for a file in src itself */
        const folderOf = (file) => {
          const parts = path.relative(root, file).split(path.sep);
          return parts.length > 1 && parts[0] !== '..' ? parts[0] : null;
        };
        /** @param {string} folder */
        const layerOf = (folder) =>
          layers.foundation.includes(folder)
            ? 'foundation'
            : layers.features.includes(folder)
              ? 'features'
              : layers.pages.includes(folder)
                ? 'pages'
                : null;
        const file = context.filename;
        const folder = folderOf(file);
        if (folder === null) return {};
        const layer = layerOf(folder);
        if (layer === null)
          return {
            Program(node) {
              context.report({
                node,
                message: `${src}/${folder}/ is in no layer: add it to foundation, features or pages in layerRules('${path.dirname(src)}', …) (eslint.config.js, docs/conventions.md)`,
              });
            },
          };
        // Tests may reach across layers to set up what they test.
        if (layer === 'pages' || /\.test\.tsx?$/.test(file)) return {};
        /** @param {import('estree').Node & { source?: import('estree').Node | null }} node */
        const check = (node) => {
          const source = node.source;
          if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
          if (!source.value.startsWith('.')) return;
          const target = folderOf(path.resolve(path.dirname(file), source.value));
          if (target === null || target === folder) return;
          const targetLayer = layerOf(target);
          if (targetLayer === null || targetLayer === 'foundation') return;
          context.report({
            node: source,
            message:
              layer === 'foundation'
                ? `foundation code (${folder}/) may not import ${targetLayer === 'pages' ? 'a page' : 'a feature'} (${target}/): see docs/conventions.md`
                : `a feature (${folder}/) may not import ${targetLayer === 'pages' ? 'a page' : 'another feature'} (${target}/): see docs/conventions.md`,
          });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};

/**
 * The config block that holds one app to its layers (see LAYER_PLUGIN); each app passes its own.
 *
 * @param {string} app the app's folder, e.g. 'apps/web'
 * @param {Layers} layers
 */
function layerRules(app, layers) {
  return {
    files: [`${app}/src/**/*.{ts,tsx}`],
    plugins: { embudo: LAYER_PLUGIN },
    rules: { 'embudo/layers': ['error', { src: `${app}/src`, layers }] },
  };
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
            {
              group: ['@embudo/studio', '@embudo/studio/*', '**/apps/studio/**'],
              message: 'nothing of the Studio ships to visitor pages (decision 0023)',
            },
          ],
        },
      ],
    },
  },
  // The visitor app's layers.
  layerRules('apps/web', {
    foundation: ['api', 'i18n', 'lib', 'layout', 'site-context'],
    features: [
      'button',
      'legal',
      'location',
      'modals',
      'persuasion',
      'preview',
      'screens',
      'tracking',
      'video',
    ],
    pages: ['app', 'funnel-page', 'landing', 'page-actions'],
  }),
  // The Studio (decision 0023): a browser app of its own; it may use the contracts' schemas (its forms
  // check the same rules the server applies), never the server's code nor the visitor app's.
  {
    files: ['apps/studio/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // TanStack Router leaves a route by throwing its redirect.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@tanstack/router-core', name: 'Redirect' }] },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@embudo/server', '**/apps/server/**'],
              message: 'the Studio talks to the server through contracts and HTTP only',
            },
            {
              group: ['@embudo/web', '@embudo/web/*', '**/apps/web/**'],
              message: 'the Studio shares no code with the visitor app (decision 0023)',
            },
          ],
        },
      ],
    },
  },
  // The Studio's layers: a feature folder per area of the app; `app` assembles the routes.
  layerRules('apps/studio', {
    foundation: ['api', 'funnel-frame', 'i18n', 'layout', 'routing', 'session', 'ui'],
    features: ['analytics', 'auth', 'funnels', 'leads', 'profile', 'settings'],
    pages: ['app'],
  }),
  // Server-side rendering and tests run in Node: they may use the schemas.
  {
    files: ['apps/web/src/entry-server.tsx', 'apps/web/vite.config.ts', 'apps/web/**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
