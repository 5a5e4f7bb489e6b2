import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium';
import {
  buildStudio,
  screenshot,
  seriousViolations,
  signIn,
  startStudioServer,
  type StudioServer,
} from './studio-session';

/**
 * The Studio's analytics screens in Chromium against a real server (issue 19): a demo lead watches
 * the first 6 s of the demo video (12 s) and leaves, and the open dashboard's retention shows it
 * without a reload; then a scripted mix of visits fills the page dashboard, the funnel's steps, the
 * follow-ups and a lead's timeline, each checked by axe-core at 1280 and 390 px.
 */
describe('Studio: analytics in Chromium', () => {
  let running: StudioServer;
  let browser: Browser;
  let funnelId: string;
  let page1: string;
  /** Anything the Studio's policy refused, or an uncaught error: none is expected. */
  const problems: string[] = [];

  beforeAll(async () => {
    await buildStudio();
    running = await startStudioServer();
    browser = await launchChromium();
    funnelId = vsl().id;
    page1 = [...vsl().pages].sort((a, b) => a.position - b.position)[0]?.id ?? expect.unreachable('page 1');
  });

  afterAll(async () => {
    await browser.close();
    await running.server.close();
  });

  /** A phone's browser, as the visitor app describes it when a session starts. */
  const DEVICE = {
    userAgent:
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
    browser: { name: 'Chrome', version: '131' },
    os: { name: 'Android', version: '14' },
  };
  const vsl = () => running.demo.funnels[0] ?? expect.unreachable('the demo has a VSL funnel');

  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  };

  const owner = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${running.server.url}/api/owner${path}`, {
      method,
      headers: { authorization: `Bearer ${running.demo.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const visitor = async <T>(method: string, path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${running.server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const newLead = (name: string, email: string | null = null) =>
    owner<{ lead: { id: string }; url: string; token: string }>('POST', `/funnels/${funnelId}/leads`, {
      name,
      email,
    });

  /** The retention the dashboard plots, as the figure carries it. */
  const plotted = (page: Page, attribute: 'data-reach' | 'data-views') =>
    page.evaluate((name) => {
      const value = document.querySelector('[data-testid="retention"]')?.getAttribute(name);
      return value === null || value === undefined ? null : value.split(',').map(Number);
    }, attribute);

  it('shows a lead who watched the first 6 s as reach 1 for seconds 0 to 5 and 0 after, live, without a reload', async () => {
    const { context, page: studio } = await signIn(browser, running);
    watch(studio);
    try {
      await studio.goto(`${running.server.url}/studio/funnels/${funnelId}/analytics/pages/${page1}`);
      await studio.getByText('No visits in this range').waitFor();
      // Marks this document: a reload would drop it.
      await studio.evaluate(() => {
        (window as { stillHere?: boolean }).stillHere = true;
      });

      const lead = await newLead('Acceptance lead');
      const visit = await browser.newPage();
      const started = visit.waitForResponse((response) => response.url().endsWith('/funnel/track/page'));
      await visit.goto(lead.url);
      await started;
      await visit.locator('video').waitFor({ state: 'attached' });
      await visit.mouse.click(2, 2);
      // Plays from 0 and pauses at 5.9 s, checked every frame: seconds 0 to 5, none of second 6. From
      // 5 s on it plays at a tenth of the speed, so that a late frame on a busy machine still stops
      // it before 6 s.
      const pausedAt = await visit.evaluate(async () => {
        const video = document.querySelector('video');
        if (!video) throw new Error('no video');
        video.currentTime = 0;
        await video.play();
        return new Promise<number>((resolve) => {
          const check = () => {
            if (video.currentTime >= 5 && video.playbackRate === 1) video.playbackRate = 0.1;
            if (video.currentTime >= 5.9) {
              video.pause();
              resolve(video.currentTime);
            } else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        });
      });
      expect(pausedAt).toBeGreaterThanOrEqual(5.9);
      expect(pausedAt).toBeLessThan(6);
      await visit.close({ runBeforeUnload: true });
      const left = Date.now();

      // Live: the open screen shows it without a reload (it asks every 3 s). How long it took is
      // printed, not asserted (timings stay out of pass/fail tests; the 5 s is a figure).
      await expect
        .poll(() => plotted(studio, 'data-reach'), { timeout: 20_000, interval: 100 })
        .toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
      console.log(`the retention chart showed the visit ${String(Date.now() - left)} ms after the lead left`);
      // Drawn on a canvas (uPlot loads with the first chart).
      await studio.locator('[data-testid="retention"] canvas').first().waitFor();
      expect(await studio.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true);
      const stat = (key: string) => studio.locator(`[data-stat="${key}"] dd`).first().textContent();
      expect(await stat('uniqueViewers')).toBe('1');
      expect(await stat('plays')).toBe('1');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /**
   * A mix of visits through the visitor API as the visitor app sends them: leads who watch more or
   * less of page 1's video (12 s, button at 8 s), replay, click, and one who converts.
   */
  async function visitMix(): Promise<string> {
    const now = Date.now();
    const plan: {
      name: string;
      watched: [number, number][];
      click?: boolean;

      convert?: boolean;
    }[] = [
      {
        name: 'Ana Souza',
        watched: [
          [0, 5],
          [0, 12],
        ],
        click: true,
        convert: true,
      },
      { name: 'Bruno Alves', watched: [[0, 11]] },
      { name: 'Carla Mendes', watched: [[0, 9]], click: true },
      {
        name: 'Diego Rocha',
        watched: [
          [0, 4],
          [0, 10],
        ],
      },
      { name: 'Elena Ruiz', watched: [[0, 7]] },
      { name: 'Fábio Lima', watched: [[0, 3]] },
      { name: 'Gabi Torres', watched: [] },
    ];
    let timelineLead = '';
    for (const [i, entry] of plan.entries()) {
      const lead = await newLead(entry.name, `lead${i}@example.com`);
      if (entry.name === 'Ana Souza') timelineLead = lead.lead.id;
      const session = await visitor<{ data: { idTrackingPageSession: string } }>(
        'POST',
        '/funnel/track/page',
        {
          token: lead.token,
          startReason: 'INITIAL_LOAD',
          details: DEVICE,
        },
      );
      const id = session.data.idTrackingPageSession;
      let clock = now - 60_000;
      for (const [from, to] of entry.watched) {
        await visitor('POST', '/funnel/track/video', {
          token: lead.token,
          idTrackingPageSession: id,
          startViewTime: clock,
          endViewTime: clock + (to - from) * 1000,
          startTimeVideo: from,
          endTimeVideo: to,
          details: { state: 'PAUSE', videoDuration: 12 },
        });
        clock += (to - from) * 1000 + 1000;
      }
      if (entry.click) {
        await visitor('POST', '/funnel/track/action', {
          token: lead.token,
          idTrackingPageSession: id,
          action: 'BUTTON_CLICK',
          timestamp: clock,
        });
      }
      await visitor('PUT', `/funnel/track/page/${id}`, { token: lead.token, endReason: 'PAGE_CLOSE' });
      if (entry.convert) {
        // Watched each page up to the offer, then bought there.
        const pages = [...vsl().pages].sort((a, b) => a.position - b.position);
        for (const page of pages.slice(
          0,
          pages.findIndex((p) => p.buttonAction === 'OFFERT'),
        ))
          await visitor('PUT', '/api/funnel/site/complete', { token: lead.token, idPage: page.id });
        const offer = await visitor<{ data: { idTrackingPageSession: string } }>(
          'POST',
          '/funnel/track/page',
          { token: lead.token, startReason: 'INITIAL_LOAD', details: DEVICE },
        );
        await visitor('POST', '/api/funnel/track/event/offert', { token: lead.token });
        await visitor('PUT', `/funnel/track/page/${offer.data.idTrackingPageSession}`, { token: lead.token });
      }
    }
    return timelineLead;
  }

  it('shows the page dashboard, the funnel steps, the follow-ups and a timeline, with no serious axe violation at 1280 and 390 px', async () => {
    const timelineLead = await visitMix();
    const screens = [
      {
        name: 'page',
        path: `/funnels/${funnelId}/analytics/pages/${page1}`,
        ready: (page: Page) => page.locator('[data-testid="retention"] canvas').first().waitFor(),
      },
      {
        name: 'funnel',
        path: `/funnels/${funnelId}/analytics`,
        ready: (page: Page) => page.locator('[data-page]').first().waitFor(),
      },
      {
        name: 'follow-ups',
        path: `/funnels/${funnelId}/analytics/follow-ups`,
        ready: (page: Page) => page.getByRole('link', { name: 'Bruno Alves' }).waitFor(),
      },
      {
        name: 'timeline',
        path: `/funnels/${funnelId}/analytics/leads/${timelineLead}`,
        ready: (page: Page) => page.getByText('Clicked the button').waitFor(),
      },
    ];
    for (const width of [1280, 390]) {
      const { context, page } = await signIn(browser, running, width);
      watch(page);
      try {
        for (const screen of screens) {
          await page.goto(`${running.server.url}/studio${screen.path}`);
          await screen.ready(page);
          expect(await seriousViolations(page), `${screen.name} at ${width}`).toEqual([]);
          // Nothing wider than the screen.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${screen.name} at ${width}`).toBeLessThanOrEqual(0);
          await screenshot(page, `studio-analytics-${screen.name}-${width}`);
        }
      } finally {
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  });

  it('follows a lead from the follow-up list and from the leads table to the timeline', async () => {
    const { context, page } = await signIn(browser, running);
    try {
      await page.goto(`${running.server.url}/studio/funnels/${funnelId}/analytics/follow-ups`);
      // Past the button (8 s) and not converted, furthest first: Bruno (11 s), Diego (10 s), Carla (9 s).
      await page.getByRole('link', { name: 'Bruno Alves' }).waitFor();
      const names = await page.locator('tbody th a').allTextContents();
      expect(names).toEqual(['Bruno Alves', 'Diego Rocha', 'Carla Mendes']);
      await page.getByRole('link', { name: 'Diego Rocha' }).click();
      await page.getByRole('heading', { name: "Diego Rocha's visits" }).waitFor();
      expect(
        await page
          .locator('[data-intervals]')
          .evaluateAll((tracks) => tracks.map((t) => t.getAttribute('data-intervals'))),
      ).toEqual(['0-4', '0-10']);

      await page.goto(`${running.server.url}/studio/funnels/${funnelId}/leads`);
      await page.getByRole('link', { name: 'Ana Souza' }).click();
      await page.getByRole('heading', { name: "Ana Souza's visits" }).waitFor();
      await page.getByText('Clicked the button').waitFor();
    } finally {
      await context.close();
    }
  });
});
