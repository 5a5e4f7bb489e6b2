import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Every React app the server hosts, by name (decision 0020). An app named `x` is the workspace package
 * `@embudo/x` in apps/x: its `vite.config.ts` builds `src/entry-client.tsx` into apps/x/dist, with
 * `base` equal to the prefix below. `npm run build` builds each app listed here, and the server serves
 * each one's dist under its prefix. The visitor app keeps `/static/`, the URLs it always had; any other
 * app takes `/static/<name>/`, which no visitor page can own. Adding an app is one line here.
 */
export const VITE_APPS = {
  web: { urlPrefix: '/static/' },
  studio: { urlPrefix: '/static/studio/' },
} as const satisfies Record<string, { urlPrefix: string }>;

export type ViteAppName = keyof typeof VITE_APPS;

/** Every app's entry module, relative to its folder (what the Vite manifest is keyed by). */
export const VITE_ENTRY = 'src/entry-client.tsx';

/** Where `npm run build` puts an app's browser bundle (found the same from the server's bundle). */
export function viteAppDistDir(name: ViteAppName): string {
  return join(dirname(createRequire(import.meta.url).resolve(`@embudo/${name}/package.json`)), 'dist');
}

/** Where an app is, for a test or a tool to point at another one (a fixture). */
export interface ViteAppLocation {
  distDir: string;
  urlPrefix: string;
}

export function viteAppLocation(name: ViteAppName): ViteAppLocation {
  return { distDir: viteAppDistDir(name), urlPrefix: VITE_APPS[name].urlPrefix };
}

/** What a page of one app loads, read from that app's Vite manifest. */
export interface ViteApp {
  name: string;
  /** The entry script's URL, or null when the bundle was not built (pages still render, static). */
  entryScript: string | null;
  /** Chunks the entry imports statically: fetched at once beside it (`modulepreload`). */
  preload: string[];
  /** Stylesheets of the entry and of the chunks it imports statically. */
  styles: string[];
}

const Manifest = z.record(
  z.string(),
  z.object({
    file: z.string(),
    css: z.array(z.string()).optional(),
    imports: z.array(z.string()).optional(),
  }),
);

/**
 * Reads an app's Vite manifest; once at start-up. A listed app is found by its name alone; another
 * (a test's fixture) says where it is.
 */
export function loadViteApp(name: ViteAppName): ViteApp;
export function loadViteApp(name: string, location: ViteAppLocation): ViteApp;
export function loadViteApp(name: string, location?: ViteAppLocation): ViteApp {
  const { distDir, urlPrefix } = location ?? viteAppLocation(name as ViteAppName);
  const unbuilt: ViteApp = { name, entryScript: null, preload: [], styles: [] };
  const file = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return unbuilt;
  const manifest = Manifest.parse(JSON.parse(readFileSync(file, 'utf8')));
  const entry = manifest[VITE_ENTRY];
  if (!entry) return unbuilt;
  // The entry's static imports, depth first, each once: what the browser needs before the entry runs.
  const chunks: string[] = [];
  const visit = (key: string) => {
    if (chunks.includes(key)) return;
    chunks.push(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(VITE_ENTRY);
  const url = (path: string) => `${urlPrefix}${path}`;
  const found = chunks.flatMap((key) => {
    const chunk = manifest[key];
    return chunk ? [chunk] : [];
  });
  return {
    name,
    entryScript: url(entry.file),
    preload: found.slice(1).map((chunk) => url(chunk.file)),
    styles: [...new Set(found.flatMap((chunk) => chunk.css ?? []))].map(url),
  };
}

const escapeAttribute = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** What a page puts in its document; the shell adds the charset, the viewport and the app's bundle. */
export interface DocumentParts {
  /** The document's language (`<html lang>`), already a safe language tag. */
  lang: string;
  /** Trusted HTML for the head, after the charset and viewport: the title, inline styles. */
  head: string;
  /** Trusted HTML for the body, before the app's entry script: the rendered tree, inlined state. */
  body: string;
}

/**
 * One HTML document of one app: the page's parts, with that app's stylesheets and preloads at the end
 * of the head and its entry script at the end of the body (the page's HTML paints before any of it
 * runs).
 */
export function renderDocument({ app, lang, head, body }: DocumentParts & { app: ViteApp }): string {
  const links = [
    ...app.styles.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`),
    ...app.preload.map((href) => `<link rel="modulepreload" href="${escapeAttribute(href)}">`),
  ].join('');
  const script = app.entryScript
    ? `<script type="module" src="${escapeAttribute(app.entryScript)}"></script>`
    : '';
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${head}${links}</head><body>${body}${script}</body></html>`;
}

/**
 * Serves each listed app's hashed bundle under its prefix, cached for a year (a new build has new
 * names). A longer prefix wins over `/static/`, so `/static/<name>/` never reaches the visitor app's
 * folder.
 */
export async function serveViteApps(
  server: FastifyInstance,
  apps: readonly ViteAppLocation[] = Object.keys(VITE_APPS).map((name) =>
    viteAppLocation(name as ViteAppName),
  ),
): Promise<void> {
  for (const { distDir, urlPrefix } of apps) {
    await server.register(fastifyStatic, {
      root: distDir,
      prefix: urlPrefix,
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      // The build's own files (.vite/manifest.json) are the server's business, not the public's.
      allowedPath: (pathName) => !pathName.split('/').some((segment) => segment.startsWith('.')),
    });
  }
}
