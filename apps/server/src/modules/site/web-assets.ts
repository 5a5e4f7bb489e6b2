import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/** Where `npm run build` puts the visitor app's browser bundle (found the same from the server's bundle). */
export const WEB_DIST_DIR = join(
  dirname(createRequire(import.meta.url).resolve('@embudo/web/package.json')),
  'dist',
);
const MANIFEST = `${WEB_DIST_DIR}/.vite/manifest.json`;
const ENTRY = 'src/entry-client.tsx';

const Manifest = z.record(z.string(), z.object({ file: z.string(), css: z.array(z.string()).optional() }));

export interface WebAssets {
  /** The hydration script's URL, or null when the bundle was not built (pages still render). */
  entryScript: string | null;
  styles: string[];
}

/** Reads the Vite manifest once at start-up. */
export function loadWebAssets(): WebAssets {
  if (!existsSync(MANIFEST)) return { entryScript: null, styles: [] };
  const entry = Manifest.parse(JSON.parse(readFileSync(MANIFEST, 'utf8')))[ENTRY];
  if (!entry) return { entryScript: null, styles: [] };
  return { entryScript: `/static/${entry.file}`, styles: (entry.css ?? []).map((file) => `/static/${file}`) };
}
