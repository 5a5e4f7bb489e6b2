import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The visitor app's browser bundle. The server renders the first HTML (DESIGN §3); this bundle only
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
    rollupOptions: { input: fileURLToPath(new URL('src/entry-client.tsx', import.meta.url)) },
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
