import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Route } from 'playwright-core';
import { build } from 'vite';
import type { ProviderName } from './harness';

/**
 * The video providers' stand-ins, served by a local HTTP server, and the routing that sends a
 * browser context's requests for each provider's real host to them. Requests for any other
 * third-party host are aborted and recorded, for the test to fail on.
 */

const STAND_INS = fileURLToPath(new URL('./', import.meta.url));
const MEDIA = fileURLToPath(new URL('../../apps/server/assets/demo/vsl.mp4', import.meta.url));

export type Failure = 'notFound' | 'abort';
type StandIn = ProviderName | 'forge';

export interface Network {
  /** Every URL the browser asked for, in any frame. */
  requests: string[];
  /** Third-party URLs a route answered (stand-in, 404 or abort on purpose). */
  routed: Set<string>;
  /** Third-party URLs no stand-in exists for: aborted, and a test failure. */
  unexpected: string[];
}

export interface StandIns {
  /** http://127.0.0.1:{port} of the stand-ins' server. */
  origin: string;
  /** Where the bundles were built. */
  outDir: string;
  /** Routes every non-loopback request of `context` to the stand-ins; returns what it saw. */
  route(context: BrowserContext, fail?: Partial<Record<ProviderName, Failure>>): Promise<Network>;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mp4': 'video/mp4',
};

/** The adapters' harness: a page that mounts any provider's adapter on demand (e2e/video-providers). */
export interface HarnessPage {
  path: string;
  html: string;
}

/** Builds the harness (ES modules, @vimeo/player in its own chunk) when asked, and the stand-ins' scripts. */
async function buildBundles(outDir: string, harness: boolean): Promise<void> {
  if (harness) {
    await build({
      configFile: false,
      root: STAND_INS,
      base: '/harness/',
      publicDir: false,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir: join(outDir, 'harness'),
        emptyOutDir: true,
        target: 'es2020',
        minify: false,
        rolldownOptions: {
          input: join(STAND_INS, 'harness.ts'),
          output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
        },
      },
    });
  }
  // One classic script each (VTurb's player.js is loaded by a plain <script>), so one build each.
  for (const name of ['vimeo', 'panda', 'vturb-player']) {
    await build({
      configFile: false,
      root: STAND_INS,
      publicDir: false,
      logLevel: 'warn',
      build: {
        outDir: join(outDir, 'stand-ins'),
        emptyOutDir: false,
        target: 'es2020',
        minify: false,
        rolldownOptions: {
          input: join(STAND_INS, `${name}.ts`),
          output: { format: 'iife', entryFileNames: '[name].js' },
        },
      },
    });
  }
}

/** The local file behind a path of the stand-ins' server, or null. */
function localFile(outDir: string, path: string): string | null {
  if (path === '/media/vsl.mp4') return MEDIA;
  if (/^\/harness\/[\w.-]+\.js$/.test(path) || /^\/stand-ins\/[\w-]+\.js$/.test(path))
    return join(outDir, path);
  if (/^\/stand-ins\/[\w-]+\.html$/.test(path)) return join(STAND_INS, path.slice('/stand-ins/'.length));
  return null;
}

/** Which stand-in a third-party URL belongs to, and the local path that plays it. */
function standInFor(url: URL): { standIn: StandIn; entry: boolean; path: string } | null {
  const shared = /^\/__stand-in\/([\w-]+\.(?:js|html|mp4))$/.exec(url.pathname)?.[1];
  const sharedPath =
    shared === undefined ? null : shared.endsWith('.mp4') ? '/media/vsl.mp4' : `/stand-ins/${shared}`;
  let standIn: StandIn | null = null;
  let entryPath: string | null = null;
  if (url.hostname === 'player.vimeo.com') {
    standIn = 'vimeo';
    if (/^\/video\/\d+$/.test(url.pathname)) entryPath = '/stand-ins/vimeo.html';
  } else if (/^player-vz-[a-z0-9-]+\.tv\.pandavideo\.com\.br$/.test(url.hostname)) {
    standIn = 'panda';
    if (url.pathname === '/embed/') entryPath = '/stand-ins/panda.html';
  } else if (url.hostname === 'scripts.converteai.net') {
    standIn = 'vturb';
    if (/^\/[\w-]+\/players\/\w+\/(v4\/)?player\.js$/.test(url.pathname))
      entryPath = '/stand-ins/vturb-player.js';
  } else if (url.hostname === 'videos.example.com') {
    standIn = 'embed';
    if (url.pathname.startsWith('/watch/')) entryPath = '/stand-ins/embed.html';
  } else if (url.hostname === 'evil.example') {
    standIn = 'forge';
  }
  if (!standIn || url.protocol !== 'https:') return null;
  if (entryPath) return { standIn, entry: true, path: entryPath };
  return sharedPath ? { standIn, entry: false, path: sharedPath } : null;
}

/**
 * Closes a routed context. A player may still be streaming its video through a route when a test
 * ends; that answer is dropped rather than failing on a closed context.
 */
export async function closeRouted(context: BrowserContext): Promise<void> {
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.close();
}

/**
 * Builds the stand-ins (and the harness, when given) and serves them, with the demo MP4 (with byte
 * ranges, so seeking works), on a free loopback port.
 */
export async function startStandIns(harness?: HarnessPage): Promise<StandIns> {
  const outDir = await mkdtemp(join(tmpdir(), 'embudo-stand-ins-'));
  await buildBundles(outDir, harness !== undefined);
  const server = createServer((request, response) => {
    const send = (
      status: number,
      type: string,
      body: Buffer | string,
      headers: Record<string, string> = {},
    ) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      response.end(body);
    };
    const serve = async () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      if (harness && path === harness.path) {
        send(200, 'text/html; charset=utf-8', harness.html);
        return;
      }
      const file = localFile(outDir, path);
      if (!file) {
        send(404, 'text/plain', 'not found');
        return;
      }
      const body = await readFile(file);
      const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
      if (!range) {
        send(200, type, body, { 'accept-ranges': 'bytes' });
        return;
      }
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      send(206, type, body.subarray(start, end + 1), {
        'accept-ranges': 'bytes',
        'content-range': `bytes ${start}-${end}/${body.length}`,
      });
    };
    serve().catch((error: unknown) => {
      send(500, 'text/plain', String(error));
    });
  });
  const origin = await new Promise<string>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '');
    });
  });

  return {
    origin,
    outDir,
    async route(context, fail = {}) {
      const network: Network = { requests: [], routed: new Set(), unexpected: [] };
      context.on('request', (request) => {
        network.requests.push(request.url());
      });
      // Every request that is not for 127.0.0.1 lands here, before any network.
      await context.route(
        (url) => url.hostname !== '127.0.0.1',
        async (route: Route) => {
          const url = new URL(route.request().url());
          const target = standInFor(url);
          if (!target) {
            network.unexpected.push(url.href);
            await route.abort('blockedbyclient');
            return;
          }
          network.routed.add(url.href);
          const failure = target.standIn === 'forge' ? undefined : fail[target.standIn];
          if (failure && target.entry) {
            if (failure === 'abort') await route.abort('connectionrefused');
            else await route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>Not found</h1>' });
            return;
          }
          const range = await route.request().headerValue('range');
          const response = await route.fetch({ url: origin + target.path, headers: range ? { range } : {} });
          await route.fulfill({ response });
        },
      );
      return network;
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
