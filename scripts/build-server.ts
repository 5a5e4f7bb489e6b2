/**
 * Bundles the server for `npm start` (decision 0014): one ES module with the workspace packages
 * inlined and every npm dependency left in node_modules, plus the SQLite write thread beside it.
 * Plain node then runs it, without a TypeScript loader and its second thread (about 45 MB less
 * memory, and a faster start).
 *
 *   npx tsx scripts/build-server.ts      (part of `npm run build`)
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { z } from 'zod';
import { APP_FOLDERS } from './build-apps';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'apps/server');
/** What `npm start` runs: the entry (ENTRY below), which imports the bundle, `dist/server.mjs`. */
export const SERVER_ENTRY = join(SERVER, 'dist/main.mjs');
const SERVER_MODULE = join(SERVER, 'dist/server.mjs');

/**
 * The entry in front of the bundle. React (and any library that asks) reads NODE_ENV once, when it is
 * first imported, and an ES module's imports all run before its first line; so the bundle cannot set
 * it itself, and without it server rendering ran React's development build (decision 0014). The bundle
 * is what ships: it always runs the production builds, as the browser bundles do (vite.config.ts).
 */
const ENTRY = `// Written by scripts/build-server.ts: sets NODE_ENV before the bundle's imports run.
process.env.NODE_ENV = 'production';
await import('./server.mjs');
`;
/**
 * How `npm start` runs the bundle (package.json and deploy/systemd repeat them; main.system.test.ts
 * checks both agree): stack traces through the source map, a heap sized for a small server
 * (decision 0014), one collector helper thread instead of four (decision 0035), and no pretenuring
 * by allocation site, which under load moved every request's objects to the old generation (decision 0037).
 */
export const SERVER_NODE_FLAGS = [
  '--enable-source-maps',
  '--max-semi-space-size=8',
  '--max-old-space-size=128',
  '--v8-pool-size=1',
  '--no-allocation-site-pretenuring',
];

const Manifest = z.object({
  dependencies: z.record(z.string(), z.string()).optional(),
  devDependencies: z.record(z.string(), z.string()).optional(),
});

/** Every npm package the workspaces name, which node resolves at run time; our own are bundled. */
function npmPackages(): string[] {
  const names = new Set<string>();
  for (const folder of ['.', 'apps/server', ...APP_FOLDERS, 'packages/contracts']) {
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')));
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }))
      if (!name.startsWith('@embudo/')) names.add(name);
  }
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

/** Writes apps/server/dist/main.mjs, the bundle it runs, and the write thread beside them. */
export async function buildServerBundle(): Promise<string> {
  await build({
    entryPoints: [join(SERVER, 'src/main.ts')],
    outfile: SERVER_MODULE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    external: npmPackages(),
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  mkdirSync(join(SERVER, 'dist'), { recursive: true });
  writeFileSync(SERVER_ENTRY, ENTRY);
  copyFileSync(join(SERVER, 'src/db/sqlite-write-worker.mjs'), join(SERVER, 'dist/sqlite-write-worker.mjs'));
  return SERVER_ENTRY;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServerBundle();
