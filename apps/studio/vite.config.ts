import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The Studio's browser bundle (decision 0023): a single-page app the server serves at /studio on the
 * operator's host, its hashed files under /static/studio/ (decision 0020). It shares nothing with the
 * visitor app's bundle.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/static/studio/',
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      input: fileURLToPath(new URL('src/entry-client.tsx', import.meta.url)),
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  css: { modules: { localsConvention: 'camelCaseOnly' } },
  oxc: { jsx: { runtime: 'automatic', development: false } },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
});
