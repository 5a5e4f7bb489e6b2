import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerEvent, VideoSource } from '../apps/web/src/video/player';
import { launchChromium } from './chromium';
import type { Harness, MountState, ProviderName } from './provider-stand-ins/harness';
import {
  closeRouted,
  startStandIns,
  type Failure,
  type Network,
  type StandIns,
} from './provider-stand-ins/stand-ins';

/**
 * The Vimeo, Panda Video, VTurb and generic-embed adapters in real Chromium, each against a local
 * stand-in that speaks its provider's real protocol (e2e/provider-stand-ins). Every provider host is
 * routed to the stand-ins; any other third-party request is aborted and fails the test.
 */

/** The demo MP4 lasts 12 s (measured in Chromium). */
const VIDEO_SECONDS = 12;
/** The harness sits at a lead-link-shaped path: a token the providers must never be told. */
const HARNESS_PATH = '/acme/lead-token-7f3c9d2e1b';
const HARNESS_HTML = `<!doctype html>
<html>
  <head><meta charset="utf-8" /><title>Video provider harness</title></head>
  <body>
    <button id="gesture" type="button">Tap</button>
    <div id="player" style="width: 640px; aspect-ratio: 16 / 9; background: #111"></div>
    <script type="module" src="/harness/harness.js"></script>
  </body>
</html>`;
/** Longer than the adapters' load deadline (20 s), for tests that run the page's fake clock. */
const PAST_LOAD_DEADLINE_MS = 25_000;

const VIMEO_ID = '123456789';
const PANDA_LIBRARY = 'a1b2c3d4-e5f';
const PANDA_VIDEO = '0f8fad5b-d9cb-469f-a165-70867728950e';
const PANDA_ORIGIN = `https://player-vz-${PANDA_LIBRARY}.tv.pandavideo.com.br`;
const VTURB_ACCOUNT = '2f1e7c3a-5b6d-4e8f-9a0b-1c2d3e4f5a6b';
const VTURB_PLAYER = '65f0c1d2e3a4b5c6d7e8f901';
const EMBED_URL = 'https://videos.example.com/watch/42';

const SOURCES = {
  vimeo: { hostingVideo: 'VIMEO', videoId: VIMEO_ID },
  panda: { hostingVideo: 'PANDA', videoId: PANDA_VIDEO, videoLibrary: PANDA_LIBRARY },
  vturb: { hostingVideo: 'VTURB', videoId: VTURB_PLAYER, videoLibrary: VTURB_ACCOUNT },
  embed: { hostingVideo: 'EMBED', videoUrl: EMBED_URL },
} satisfies Record<ProviderName, Partial<VideoSource>>;

interface Session {
  context: BrowserContext;
  page: Page;
  network: Network;
  consoleErrors: string[];
  pageErrors: string[];
}

type HarnessWindow = Window & { harness: Harness };

let standIns: StandIns;
let outDir = '';
let origin = '';
let browser: Browser;

async function openSession(
  options: { fail?: Partial<Record<ProviderName, Failure>>; clock?: boolean } = {},
): Promise<Session> {
  const context = await browser.newContext();
  const network = await standIns.route(context, options.fail);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  if (options.clock) await page.clock.install();
  // The harness is a module script: it has run once the page has loaded.
  await page.goto(standIns.origin + HARNESS_PATH);
  return { context, page, network, consoleErrors, pageErrors };
}

/** No request reached a real third-party host: each went to 127.0.0.1 or was answered by a route. */
function expectNoThirdPartyTraffic(network: Network): void {
  expect(network.unexpected).toEqual([]);
  const unaccounted = network.requests.filter(
    (url) => new URL(url).hostname !== '127.0.0.1' && !network.routed.has(url),
  );
  expect(unaccounted).toEqual([]);
}

async function withSession(
  options: Parameters<typeof openSession>[0],
  test: (session: Session) => Promise<void>,
): Promise<void> {
  const session = await openSession(options);
  try {
    await test(session);
    expectNoThirdPartyTraffic(session.network);
    expect(session.pageErrors).toEqual([]);
  } finally {
    await closeRouted(session.context);
  }
}

const mount = (page: Page, provider: ProviderName, source: Partial<VideoSource>, startAt = 0) =>
  page.evaluate(([p, s, t]) => (window as unknown as HarnessWindow).harness.mount(p, s, t), [
    provider,
    source,
    startAt,
  ] as const);
const events = (page: Page): Promise<PlayerEvent[]> =>
  page.evaluate(() => (window as unknown as HarnessWindow).harness.events());
const state = (page: Page): Promise<MountState> =>
  page.evaluate(() => (window as unknown as HarnessWindow).harness.state());
const currentTime = (page: Page) =>
  page.evaluate(() => (window as unknown as HarnessWindow).harness.currentTime());
const playerChildren = (page: Page) => page.locator('#player > *').count();

/** Chromium lets a page play with sound after a user gesture: tap, then play. */
async function play(page: Page): Promise<void> {
  await page.click('#gesture');
  expect(await page.evaluate(() => (window as unknown as HarnessWindow).harness.play())).toBeNull();
}

function timesOf(list: PlayerEvent[], type: 'play' | 'pause' | 'timeupdate' | 'seeked' | 'ended'): number[] {
  return list.flatMap((event) => (event.type === type ? [event.time] : []));
}

beforeAll(async () => {
  standIns = await startStandIns({ path: HARNESS_PATH, html: HARNESS_HTML });
  origin = standIns.origin;
  outDir = standIns.outDir;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await standIns.close();
});

describe('video provider adapters in Chromium, against stand-ins of the real players', () => {
  it.each(['vimeo', 'panda', 'vturb'] as const)(
    '%s: mounts, reports ready and duration, plays, pauses, seeks, ends, and destroy removes it',
    async (provider) => {
      await withSession({}, async ({ page }) => {
        expect(await mount(page, provider, SOURCES[provider])).toEqual({ state: 'mounted' });
        await expect.poll(async () => (await events(page)).map((e) => e.type)).toContain('duration');
        const first = await events(page);
        expect(first[0]).toEqual({ type: 'ready' });
        const durations = first.flatMap((e) => (e.type === 'duration' ? [e.duration] : []));
        expect(durations).toHaveLength(1);
        expect(durations[0]).toBeCloseTo(VIDEO_SECONDS, 0);
        expect(
          await page.evaluate(() => (window as unknown as HarnessWindow).harness.duration()),
        ).toBeCloseTo(VIDEO_SECONDS, 0);

        // Plays: a play event, then time updates that move forward.
        await play(page);
        await expect
          .poll(async () => timesOf(await events(page), 'timeupdate').filter((t) => t > 1.5).length, {
            timeout: 15_000,
          })
          .toBeGreaterThan(0);
        const playing = await events(page);
        expect(timesOf(playing, 'play')).toHaveLength(1);
        const ticks = timesOf(playing, 'timeupdate');
        expect(ticks.length).toBeGreaterThanOrEqual(3);
        ticks.slice(1).forEach((t, i) => {
          expect(t).toBeGreaterThanOrEqual(ticks[i] ?? 0);
        });
        expect(ticks.at(-1) ?? 0).toBeGreaterThan(ticks[0] ?? 0);

        // Pauses: a pause event at the time reached, and the position stays there.
        await page.evaluate(() => {
          (window as unknown as HarnessWindow).harness.pause();
        });
        await expect.poll(async () => timesOf(await events(page), 'pause')).toHaveLength(1);
        const pausedAt = timesOf(await events(page), 'pause')[0] ?? 0;
        expect(pausedAt).toBeGreaterThan(1.5);
        expect(pausedAt).toBeLessThan(VIDEO_SECONDS);
        expect((await currentTime(page)) ?? -1).toBeCloseTo(pausedAt, 0);

        // Seeks: a seeked event at the new position.
        await page.evaluate(() => {
          (window as unknown as HarnessWindow).harness.seek(5);
        });
        await expect.poll(async () => timesOf(await events(page), 'seeked')).toHaveLength(1);
        expect(timesOf(await events(page), 'seeked')[0]).toBeCloseTo(5, 0);
        await expect.poll(() => currentTime(page)).toBeCloseTo(5, 0);

        // Plays to the end: ended at the duration.
        await page.evaluate((to) => {
          (window as unknown as HarnessWindow).harness.seek(to);
        }, VIDEO_SECONDS - 1.5);
        await expect.poll(async () => timesOf(await events(page), 'seeked')).toHaveLength(2);
        await play(page);
        await expect
          .poll(async () => timesOf(await events(page), 'ended'), { timeout: 15_000 })
          .toHaveLength(1);
        expect(timesOf(await events(page), 'ended')[0]).toBeCloseTo(VIDEO_SECONDS, 0);

        // Destroy: the player leaves the page, and nothing of it keeps playing.
        await page.evaluate(() => {
          (window as unknown as HarnessWindow).harness.destroy();
        });
        expect(await playerChildren(page)).toBe(0);
        expect(await page.locator('video').count()).toBe(0);
        expect(page.frames()).toHaveLength(1);
        expect(await page.locator('script[src*="converteai"]').count()).toBe(0);
      });
    },
  );

  it.each(['vimeo', 'panda', 'vturb'] as const)(
    '%s: starts at startAt, without reporting that positioning as a seek',
    async (provider) => {
      await withSession({}, async ({ page }) => {
        expect(await mount(page, provider, SOURCES[provider], 6)).toEqual({ state: 'mounted' });
        await expect.poll(() => currentTime(page)).toBeCloseTo(6, 0);
        await play(page);
        await expect.poll(async () => timesOf(await events(page), 'timeupdate').length).toBeGreaterThan(1);
        const list = await events(page);
        const firstTime = list.find((e) => e.type === 'play' || e.type === 'timeupdate');
        expect(firstTime?.type === 'play' || firstTime?.type === 'timeupdate').toBe(true);
        const time = firstTime && 'time' in firstTime ? firstTime.time : -1;
        expect(time).toBeGreaterThanOrEqual(5.9);
        expect(time).toBeLessThan(7.5);
        expect(timesOf(list, 'seeked')).toEqual([]);
      });
    },
  );

  it.each(['vimeo', 'panda', 'vturb'] as const)(
    '%s: a resume point beyond the duration starts the video at 0',
    async (provider) => {
      await withSession({}, async ({ page }) => {
        expect(await mount(page, provider, SOURCES[provider], 30)).toEqual({ state: 'mounted' });
        await play(page);
        await expect.poll(async () => timesOf(await events(page), 'timeupdate').length).toBeGreaterThan(1);
        const ticks = timesOf(await events(page), 'timeupdate');
        expect(ticks[0]).toBeLessThan(1.5);
        expect(timesOf(await events(page), 'ended')).toEqual([]);
      });
    },
  );

  it('vimeo: an id/hash id puts h=<hash> in the player URL that is loaded', async () => {
    await withSession({}, async ({ page, network }) => {
      expect(
        await mount(page, 'vimeo', { hostingVideo: 'VIMEO', videoId: `${VIMEO_ID}/0a1b2c3d4e` }),
      ).toEqual({
        state: 'mounted',
      });
      const src = new URL((await page.locator('#player iframe').getAttribute('src')) ?? '');
      expect(src.origin + src.pathname).toBe(`https://player.vimeo.com/video/${VIMEO_ID}`);
      expect(src.searchParams.get('h')).toBe('0a1b2c3d4e');
      // The player document really was requested with the hash.
      const loaded = network.requests.map((u) => new URL(u)).find((u) => u.pathname === `/video/${VIMEO_ID}`);
      expect(loaded?.searchParams.get('h')).toBe('0a1b2c3d4e');
    });
  });

  it('vimeo: @vimeo/player loads on demand, from its own chunk, when a Vimeo player mounts', async () => {
    await withSession({}, async ({ page, network }) => {
      const scripts = () => network.requests.filter((url) => url.startsWith(`${origin}/harness/`));
      expect(scripts()).toEqual([`${origin}/harness/harness.js`]);
      // A string only the SDK has (its DRM-embed fallback flag).
      const marker = 'VimeoDRMEmbedsUpdated';
      expect(await readFile(join(outDir, 'harness', 'harness.js'), 'utf8')).not.toContain(marker);
      expect(await mount(page, 'vimeo', SOURCES.vimeo)).toEqual({ state: 'mounted' });
      const chunks = scripts().slice(1);
      expect(chunks).toHaveLength(1);
      const chunk = new URL(chunks[0] ?? '').pathname;
      expect(await readFile(join(outDir, chunk), 'utf8')).toContain(marker);
    });
  });

  it.each([
    ['vimeo', { hostingVideo: 'VIMEO', videoId: 'abc' }],
    ['vimeo', { hostingVideo: 'VIMEO', videoId: '123/has space' }],
    ['vimeo', { hostingVideo: 'VIMEO', videoUrl: 'https://evil.example/video/123' }],
    [
      'vturb',
      {
        hostingVideo: 'VTURB',
        videoUrl: `https://evil.example/${VTURB_ACCOUNT}/players/${VTURB_PLAYER}/player.js`,
      },
    ],
    ['vturb', { hostingVideo: 'VTURB', videoId: VTURB_PLAYER, videoLibrary: '../../evil' }],
  ] as const)('%s: an invalid source (%j) rejects and loads nothing', async (provider, source) => {
    await withSession({}, async ({ page, network, consoleErrors }) => {
      expect(await mount(page, provider, source)).toMatchObject({ state: 'rejected' });
      expect(consoleErrors).toHaveLength(1);
      expect(await playerChildren(page)).toBe(0);
      expect(network.requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    });
  });

  it("vimeo: tells the player nothing of the page's address (the lead's token)", async () => {
    await withSession({}, async ({ page }) => {
      expect(await mount(page, 'vimeo', SOURCES.vimeo)).toEqual({ state: 'mounted' });
      const frame = page.frames().find((f) => f.url().startsWith('https://player.vimeo.com/video/'));
      if (!frame) throw new Error('no Vimeo frame');
      const received = () =>
        frame.evaluate(
          () => (window as unknown as { __standInReceived?: { data: unknown }[] }).__standInReceived ?? [],
        );
      // getDuration is posted after the SDK's own ready handlers ran: anything they send comes first.
      await expect.poll(async () => JSON.stringify(await received())).toContain('getDuration');
      const text = JSON.stringify(await received());
      expect(text).not.toContain('lead-token');
      expect(text).not.toContain('appendVideoMetadata');
    });
  });

  it.each(['vimeo', 'panda'] as const)(
    '%s: ignores player messages from any frame but its own player',
    async (provider) => {
      await withSession({}, async ({ page }) => {
        expect(await mount(page, provider, SOURCES[provider])).toEqual({ state: 'mounted' });
        const forged =
          provider === 'vimeo'
            ? { event: 'timeupdate', data: { seconds: 42, percent: 0.5, duration: 84 } }
            : { message: 'panda_timeupdate', video: PANDA_VIDEO, currentTime: 42 };
        const sameOrigin = provider === 'vimeo' ? 'https://player.vimeo.com' : PANDA_ORIGIN;
        const fragment = encodeURIComponent(JSON.stringify(forged));
        // From another site, from another frame of the provider's own origin, and from the page itself.
        await page.evaluate(
          ([urls, message]) => {
            for (const url of urls) {
              const frame = document.createElement('iframe');
              frame.src = url;
              document.body.append(frame);
            }
            window.postMessage(message, '*');
          },
          [
            [
              `https://evil.example/__stand-in/forge.html#${fragment}`,
              `${sameOrigin}/__stand-in/forge.html#${fragment}`,
            ],
            forged,
          ] as const,
        );
        const delivered = (from: string) =>
          page.evaluate(
            ([o, needle]) =>
              JSON.stringify((window as unknown as HarnessWindow).harness.messagesFrom(o)).includes(needle),
            [from, '42'] as const,
          );
        await expect.poll(() => delivered('https://evil.example')).toBe(true);
        await expect.poll(() => delivered(sameOrigin)).toBe(true);
        await expect.poll(() => delivered(origin)).toBe(true);
        const list = await events(page);
        expect(list.filter((e) => 'time' in e && e.time === 42)).toEqual([]);
        expect(list.filter((e) => e.type === 'duration' && e.duration === 84)).toEqual([]);
        expect(await currentTime(page)).not.toBe(42);
      });
    },
  );

  it('panda: an invalid URL logs an error and rejects, and loads nothing', async () => {
    await withSession({}, async ({ page, consoleErrors, network }) => {
      const invalid: Partial<VideoSource>[] = [
        { hostingVideo: 'PANDA', videoUrl: 'https://evil.example/embed/?v=abc' },
        {
          hostingVideo: 'PANDA',
          videoUrl: `http://player-vz-${PANDA_LIBRARY}.tv.pandavideo.com.br/embed/?v=abc`,
        },
        { hostingVideo: 'PANDA', videoUrl: 'not a url' },
        { hostingVideo: 'PANDA', videoUrl: `${PANDA_ORIGIN}/embed/` },
        { hostingVideo: 'PANDA', videoId: PANDA_VIDEO, videoLibrary: 'evil.example/x' },
      ];
      for (const source of invalid) {
        expect(await mount(page, 'panda', source)).toEqual({
          state: 'rejected',
          error: 'Invalid Panda video URL',
        });
      }
      expect(consoleErrors.filter((text) => text.includes('Invalid Panda video URL'))).toHaveLength(
        invalid.length,
      );
      expect(await playerChildren(page)).toBe(0);
      expect(network.requests.filter((url) => !url.startsWith(origin))).toEqual([]);
      expect(await events(page)).toEqual([]);
    });
  });

  it('panda: a full embed URL mounts that embed', async () => {
    await withSession({}, async ({ page }) => {
      const videoUrl = `${PANDA_ORIGIN}/embed/?v=${PANDA_VIDEO}`;
      expect(await mount(page, 'panda', { hostingVideo: 'PANDA', videoUrl })).toEqual({ state: 'mounted' });
      expect(await page.locator('#player iframe').getAttribute('src')).toBe(videoUrl);
      expect((await events(page))[0]).toEqual({ type: 'ready' });
    });
  });

  it('vturb: the v4 script URL mounts the <vturb-smartplayer> web component embed', async () => {
    await withSession({}, async ({ page }) => {
      const videoUrl = `https://scripts.converteai.net/${VTURB_ACCOUNT}/players/${VTURB_PLAYER}/v4/player.js`;
      expect(await mount(page, 'vturb', { hostingVideo: 'VTURB', videoUrl })).toEqual({ state: 'mounted' });
      expect(await page.locator(`#player vturb-smartplayer#vid-${VTURB_PLAYER} video`).count()).toBe(1);
      expect((await events(page))[0]).toEqual({ type: 'ready' });
    });
  });

  it.each([
    ['vimeo', 'notFound'],
    ['vimeo', 'abort'],
    ['panda', 'notFound'],
    ['panda', 'abort'],
  ] as const)('%s: a player frame that fails to load (%s) makes mount reject', async (provider, failure) => {
    await withSession({ fail: { [provider]: failure }, clock: true }, async ({ page, network }) => {
      await page.evaluate(
        ([p, s]) => {
          (window as unknown as HarnessWindow).harness.startMount(p, s);
        },
        [provider, SOURCES[provider]] as const,
      );
      // The player's document was asked for and refused...
      const host = provider === 'vimeo' ? 'https://player.vimeo.com/video/' : `${PANDA_ORIGIN}/embed/`;
      await expect.poll(() => [...network.routed].some((url) => url.startsWith(host))).toBe(true);
      // ...so it never says it is ready: past the load deadline, mount rejects and leaves nothing.
      await page.clock.runFor(PAST_LOAD_DEADLINE_MS);
      await expect.poll(() => state(page)).toMatchObject({ state: 'rejected' });
      expect(await events(page)).toEqual([]);
      expect(await playerChildren(page)).toBe(0);
    });
  });

  it.each(['notFound', 'abort'] as const)(
    'vturb: a script that fails to load (%s) makes mount reject at once',
    async (failure) => {
      // The fake clock never moves: the rejection comes from the script's error, not the deadline.
      await withSession({ fail: { vturb: failure }, clock: true }, async ({ page }) => {
        expect(await mount(page, 'vturb', SOURCES.vturb)).toEqual({
          state: 'rejected',
          error: 'The VTurb player script could not be loaded',
        });
        expect(await playerChildren(page)).toBe(0);
        expect(await page.locator('script[src*="converteai"]').count()).toBe(0);
      });
    },
  );

  it('embed: mounts the URL in an iframe, reports ready and nothing else, and destroy removes it', async () => {
    await withSession({}, async ({ page }) => {
      expect(await mount(page, 'embed', SOURCES.embed)).toEqual({ state: 'mounted' });
      expect(await page.locator('#player iframe').getAttribute('src')).toBe(EMBED_URL);
      expect(await page.frameLocator('#player iframe').locator('video').count()).toBe(1);
      expect(await events(page)).toEqual([{ type: 'ready' }]);
      expect(await page.evaluate(() => (window as unknown as HarnessWindow).harness.play())).toBeNull();
      expect(await currentTime(page)).toBe(0);
      expect(await page.evaluate(() => (window as unknown as HarnessWindow).harness.duration())).toBeNull();
      await page.evaluate(() => {
        (window as unknown as HarnessWindow).harness.destroy();
      });
      expect(await playerChildren(page)).toBe(0);
      expect(page.frames()).toHaveLength(1);
    });
  });

  it('embed: anything but an http(s) URL rejects and loads nothing', async () => {
    await withSession({}, async ({ page }) => {
      for (const videoUrl of [
        'javascript:alert(1)',
        'data:text/html,<p>hi</p>',
        'ftp://videos.example.com/a',
        'nope',
        null,
      ]) {
        expect(await mount(page, 'embed', { hostingVideo: 'EMBED', videoUrl })).toEqual({
          state: 'rejected',
          error: 'Invalid embedded video URL',
        });
      }
      expect(await playerChildren(page)).toBe(0);
      expect(page.frames()).toHaveLength(1);
    });
  });

  it("embed: a click inside the embedded page cannot navigate the visitor's page away", async () => {
    await withSession({}, async ({ page, consoleErrors, network }) => {
      expect(await mount(page, 'embed', SOURCES.embed)).toEqual({ state: 'mounted' });
      const before = page.url();
      await page.frameLocator('#player iframe').locator('#escape').click();
      // Chromium refuses the navigation (the stand-in logs the refusal); a navigation would instead
      // ask for the new page.
      await expect
        .poll(
          () =>
            consoleErrors.some((text) => text.includes('permission to navigate')) ||
            network.unexpected.length > 0 ||
            page.url() !== before,
        )
        .toBe(true);
      expect(page.url()).toBe(before);
      expect(network.unexpected).toEqual([]);
    });
  });
});
