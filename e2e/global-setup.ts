import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { CHROMIUM_MISSING, chromiumAvailable } from './chromium';

/**
 * Fails the end-to-end tier at once, with the fix, when Chromium is missing; builds the visitor
 * app's browser bundle that the pages hydrate with.
 */
export default async function setup(): Promise<void> {
  if (!chromiumAvailable()) throw new Error(CHROMIUM_MISSING);
  await build({
    configFile: fileURLToPath(new URL('../apps/web/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}
