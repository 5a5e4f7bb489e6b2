/**
 * Builds the browser bundle of every app the server hosts (VITE_APPS in apps/server/src/http/vite-apps.ts,
 * decision 0020), each with its own apps/<name>/vite.config.ts into apps/<name>/dist.
 *
 *   npx tsx scripts/build-apps.ts      (part of `npm run build`)
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, resolveConfig } from 'vite';
import { VITE_APPS, type ViteAppName } from '../apps/server/src/http/vite-apps';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The folder of each listed app, relative to the repository (for tools that visit every workspace). */
export const APP_FOLDERS = Object.keys(VITE_APPS).map((name) => `apps/${name}`);

/** Builds each listed app, one after the other; an app whose `base` is not its prefix fails the build. */
export async function buildApps(): Promise<void> {
  for (const [name, { urlPrefix }] of Object.entries(VITE_APPS)) {
    const configFile = join(ROOT, 'apps', name, 'vite.config.ts');
    const { base } = await resolveConfig({ configFile, logLevel: 'warn' }, 'build');
    if (base !== urlPrefix)
      throw new Error(
        `apps/${name}/vite.config.ts has base '${base}', but the server serves ${name as ViteAppName} under '${urlPrefix}' (VITE_APPS)`,
      );
    await build({ configFile, logLevel: 'warn' });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildApps();
