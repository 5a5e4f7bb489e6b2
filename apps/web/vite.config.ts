import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The visitor app's browser bundle. The server renders the first HTML (architecture §3); this bundle only
 * hydrates it. Hashed file names under /static/ are cached for a year.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/static/',
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2020',
    // hls.js (about 580 kB) is its own chunk, loaded only for an HLS video in a browser that cannot
    // play HLS itself; what a visitor loads first is held to its budget by `npm run bench`.
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      input: fileURLToPath(new URL('src/entry-client.tsx', import.meta.url)),
      // The contracts have no side effects (conventions: zod and plain values only). Said here, a
      // module of theirs that the page does not use stays out of the first bundle even when
      // `@embudo/contracts/runtime` re-exports it: the sanitiser policy loads with the sanitiser.
      treeshake: {
        moduleSideEffects: (id) => (/[\\/]packages[\\/]contracts[\\/]/.test(id) ? false : undefined),
      },
      // TanStack Query marks its modules "use client" for React Server Components; meaningless here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic', development: false } },
  // Always React's production build: a test runner's NODE_ENV=test must not change what ships.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
});
