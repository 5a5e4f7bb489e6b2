import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadViteApp, renderDocument, serveViteApps, VITE_APPS, viteAppDistDir } from './vite-apps';

/** A second app's build, as Vite writes it: an entry with a static import, CSS, and a lazy chunk. */
const STUDIO_MANIFEST = {
  'src/entry-client.tsx': {
    file: 'assets/entry-client-AAAA.js',
    src: 'src/entry-client.tsx',
    isEntry: true,
    imports: ['_vendor-BBBB.js'],
    dynamicImports: ['src/charts.tsx'],
    css: ['assets/entry-client-CCCC.css'],
  },
  '_vendor-BBBB.js': {
    file: 'assets/vendor-BBBB.js',
    imports: ['src/entry-client.tsx'],
    css: ['assets/vendor-DDDD.css', 'assets/entry-client-CCCC.css'],
  },
  'src/charts.tsx': { file: 'assets/charts-EEEE.js', isDynamicEntry: true },
};

const root = mkdtempSync(join(tmpdir(), 'embudo-vite-apps-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Writes a dist folder with the given manifest (or none) and one built file. */
function distWith(name: string, manifest?: object): string {
  const distDir = join(root, name);
  mkdirSync(join(distDir, '.vite'), { recursive: true });
  mkdirSync(join(distDir, 'assets'), { recursive: true });
  if (manifest) writeFileSync(join(distDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(join(distDir, 'assets', 'entry-client-AAAA.js'), `console.log(${JSON.stringify(name)});`);
  return distDir;
}

describe('loadViteApp', () => {
  it("reads a second app's entry, its static imports and their styles from its manifest, under its prefix", () => {
    const studio = loadViteApp('studio', {
      distDir: distWith('studio', STUDIO_MANIFEST),
      urlPrefix: '/static/studio/',
    });
    expect(studio).toEqual({
      name: 'studio',
      entryScript: '/static/studio/assets/entry-client-AAAA.js',
      // A chunk imported back by the entry is listed once; a lazy chunk is not preloaded.
      preload: ['/static/studio/assets/vendor-BBBB.js'],
      styles: ['/static/studio/assets/entry-client-CCCC.css', '/static/studio/assets/vendor-DDDD.css'],
    });
  });

  it('answers an app that was not built with no script, so its pages still render', () => {
    expect(
      loadViteApp('studio', { distDir: join(root, 'never-built'), urlPrefix: '/static/studio/' }),
    ).toEqual({
      name: 'studio',
      entryScript: null,
      preload: [],
      styles: [],
    });
  });

  it('finds a listed app by its name alone, in its workspace package', () => {
    expect(viteAppDistDir('web')).toMatch(/apps[\\/]web[\\/]dist$/);
    expect(VITE_APPS.web.urlPrefix).toBe('/static/');
    const web = loadViteApp('web');
    expect(web.name).toBe('web');
    if (web.entryScript) expect(web.entryScript).toMatch(/^\/static\/assets\/entry-client-[\w-]+\.js$/);
  });

  it('lists the Studio under /static/studio/, in its own workspace package (decision 0023)', () => {
    expect(VITE_APPS.studio.urlPrefix).toBe('/static/studio/');
    expect(viteAppDistDir('studio')).toMatch(/apps[\\/]studio[\\/]dist$/);
    const studio = loadViteApp('studio');
    if (studio.entryScript)
      expect(studio.entryScript).toMatch(/^\/static\/studio\/assets\/entry-client-[\w-]+\.js$/);
  });
});

describe('renderDocument', () => {
  it("writes the page's parts with the app's styles and preloads in the head and its entry script last", () => {
    const app = loadViteApp('studio', {
      distDir: distWith('studio', STUDIO_MANIFEST),
      urlPrefix: '/static/studio/',
    });
    expect(
      renderDocument({ app, lang: 'en', head: '<title>Studio</title>', body: '<div id="root"></div>' }),
    ).toBe(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
        '<title>Studio</title>' +
        '<link rel="stylesheet" href="/static/studio/assets/entry-client-CCCC.css">' +
        '<link rel="stylesheet" href="/static/studio/assets/vendor-DDDD.css">' +
        '<link rel="modulepreload" href="/static/studio/assets/vendor-BBBB.js">' +
        '</head><body><div id="root"></div>' +
        '<script type="module" src="/static/studio/assets/entry-client-AAAA.js"></script></body></html>',
    );
  });

  it('writes the document a visitor page always had for an app with one script and no styles', () => {
    const app = { name: 'web', entryScript: '/static/assets/entry-client-X.js', preload: [], styles: [] };
    expect(
      renderDocument({ app, lang: 'pt-BR', head: '<title>T</title>', body: '<div id="root">R</div>' }),
    ).toBe(
      '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>T</title></head><body><div id="root">R</div><script type="module" src="/static/assets/entry-client-X.js"></script></body></html>',
    );
  });
});

describe('serveViteApps', () => {
  it("serves each app's dist under its own prefix, and never a build's own files", async () => {
    const server = Fastify();
    await serveViteApps(server, [
      { distDir: distWith('web', {}), urlPrefix: '/static/' },
      { distDir: distWith('studio', STUDIO_MANIFEST), urlPrefix: '/static/studio/' },
    ]);
    try {
      const get = (url: string) => server.inject({ method: 'GET', url });
      const web = await get('/static/assets/entry-client-AAAA.js');
      expect(web.statusCode).toBe(200);
      expect(web.body).toBe('console.log("web");');
      expect(web.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const studio = await get('/static/studio/assets/entry-client-AAAA.js');
      expect(studio.statusCode).toBe(200);
      expect(studio.body).toBe('console.log("studio");');
      expect((await get('/static/studio/.vite/manifest.json')).statusCode).toBe(404);
      expect((await get('/static/.vite/manifest.json')).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });
});
