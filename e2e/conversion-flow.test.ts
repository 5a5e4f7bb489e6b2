import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSummary } from '../apps/server/src/modules/demo/demo.seed';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { launchChromium } from './chromium';

/**
 * The conversion flow of visitor-behaviour §4.3 to §4.7 in Chromium, with the self-hosted demo video (12 s):
 * every assertion reads the rows the server stored, not a mock.
 */
describe('video, button and tracking sessions in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let demo: DemoSummary;
  const foreign: string[] = [];
  /** Every lead token the tests made, for the last test's look through the server's log. */
  const madeTokens: string[] = [];

  beforeAll(async () => {
    // The pixel outbox is read, not forwarded: nothing leaves this machine.
    server = await startTestServer('sqlite', { RATE_LIMIT_PER_MINUTE: '0', PIXEL_WORKER: 'off' });
    demo = await seedDemo(server.services, server.url);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  const vsl = () => demo.funnels[0] ?? expect.unreachable('the demo has a VSL funnel');
  /** The funnel's n-th page, counting from 1. */
  const pageId = (n: number) =>
    [...vsl().pages].sort((a, b) => a.position - b.position)[n - 1]?.id ?? expect.unreachable(`page ${n}`);

  const owner = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}/api/owner${path}`, {
      method,
      headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return (await response.json()) as T;
  };

  /** A lead of its own for each test, so the tests do not depend on each other. */
  async function newLead(name = 'Lucía'): Promise<{ id: string; url: string; token: string }> {
    const created = await owner<{ lead: { id: string }; url: string; token: string }>(
      'POST',
      `/funnels/${vsl().id}/leads`,
      { name },
    );
    madeTokens.push(created.token);
    return { id: created.lead.id, url: created.url, token: created.token };
  }

  /** The lead watched these pages (the visitor API's "video viewed"): it moves on past them. */
  async function watched(token: string, ...pageIds: string[]): Promise<void> {
    for (const idPage of pageIds) {
      const answer = await fetch(`${server.url}/api/funnel/site/complete`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, idPage }),
      });
      expect(answer.status).toBe(200);
    }
  }

  const opened: Page[] = [];
  afterEach(async () => {
    // A test that failed half-way leaves no page behind to write rows into the next one.
    await Promise.all(opened.splice(0).map((page) => page.close()));
  });

  async function newPage(): Promise<Page> {
    const page = await browser.newPage();
    opened.push(page);
    return page;
  }

  async function open(url: string): Promise<Page> {
    const page = await newPage();
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreign.push(request.url());
    });
    await page.goto(url);
    return page;
  }

  /**
   * Opens the link and waits until the page knows its tracking session: its row can be in the
   * database before the answer reaches the page, and a page that closes before then has no session
   * to end.
   */
  async function gotoTracked(page: Page, url: string): Promise<void> {
    const started = page.waitForResponse((response) => response.url().endsWith('/funnel/track/page'));
    await page.goto(url);
    await started;
    // React takes the answer in on a later task.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
  }

  /** The visitor taps the page (a user gesture), then the video plays. */
  async function play(page: Page, rate = 1): Promise<void> {
    await page.locator('video').waitFor({ state: 'attached' });
    await page.mouse.click(2, 2);
    await page.evaluate(async (playbackRate) => {
      const video = document.querySelector('video');
      if (!video) throw new Error('no video');
      video.playbackRate = playbackRate;
      await video.play();
    }, rate);
  }

  const videoTime = (page: Page) => page.evaluate(() => document.querySelector('video')?.currentTime ?? -1);
  const db = () => server.database.db;
  const sessions = (leadId: string) =>
    db().selectFrom('pageSessions').selectAll().where('leadId', '=', leadId).orderBy('startAt').execute();
  const videoStates = async (leadId: string) =>
    (
      await db()
        .selectFrom('videoRecords')
        .select(['details', 'startViewTime'])
        .where('leadId', '=', leadId)
        .execute()
    )
      .sort((a, b) => a.startViewTime - b.startViewTime)
      .map((r) => JSON.parse(r.details) as { state: string; videoProgressUpdate?: { percent: number } });
  /** The demo's first two pages' headlines without their markup (visitor-behaviour §2.4: the tab's title). */
  const PAGE_1_TITLE = 'Clase 1: el método que cambia tus ventas';
  const PAGE_2_TITLE = 'Clase 2: los tres errores que frenan tu embudo';
  const buttonVisible = (page: Page) =>
    page.locator('.cta').evaluate((el) => getComputedStyle(el).visibility === 'visible');

  it('keeps the button hidden until buttonTime, then shows it; starts one INITIAL_LOAD session and a visit', async () => {
    const lead = await newLead();
    const page = await open(lead.url);
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(1);
    expect((await sessions(lead.id))[0]).toMatchObject({ startReason: 'INITIAL_LOAD', pageId: pageId(1) });
    const visits = await db().selectFrom('visits').selectAll().where('leadId', '=', lead.id).execute();
    expect(visits.map((v) => v.visitorType)).toEqual(['NEW']);
    expect(await buttonVisible(page)).toBe(false);
    expect(await page.locator('.cta-button').isDisabled()).toBe(true);

    await play(page);
    // Page 1 shows its button at 8 s of playback.
    await expect.poll(() => buttonVisible(page), { timeout: 15_000 }).toBe(true);
    expect(await videoTime(page)).toBeGreaterThanOrEqual(8);
    expect(await page.locator('.cta-button').textContent()).toBe('Ver la clase 2');
    await page.close();
  });

  it('shows the button at once for a video shorter than buttonTime (duration minus 30 s, not below 0)', async () => {
    const lead = await newLead();
    await owner('PATCH', `/pages/${pageId(2)}`, { buttonTime: { hours: 0, minutes: 2, seconds: 0 } });
    try {
      // Move the lead to page 2 through the visitor API, as watching page 1 would.
      await watched(lead.token, pageId(1));
      const page = await open(lead.url);
      expect(await page.locator('.headline').textContent()).toContain('Clase 2');
      await play(page);
      await expect.poll(() => buttonVisible(page), { timeout: 5000 }).toBe(true);
      expect(await videoTime(page)).toBeLessThan(8);
      await page.close();
    } finally {
      await owner('PATCH', `/pages/${pageId(2)}`, { buttonTime: { hours: 0, minutes: 0, seconds: 8 } });
    }
  });

  it('stores PLAYING, the 25/50/75 % milestones once each and ENDED, then moves to the next page with a new session', async () => {
    const lead = await newLead();
    const page = await open(lead.url);
    expect(await page.title()).toBe(PAGE_1_TITLE);
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(1);
    await play(page, 2);
    // The video ends (12 s at double speed), the next-video countdown runs, then page 2 loads.
    await expect
      .poll(() => page.locator('.headline').textContent(), { timeout: 20_000 })
      .toContain('Clase 2');
    // The tab's title follows the page shown: its headline without markup.
    await expect.poll(() => page.title()).toBe(PAGE_2_TITLE);
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(2);
    const [first, second] = await sessions(lead.id);
    expect(first).toMatchObject({ pageId: pageId(1), endReason: 'VIDEO_ENDED' });
    expect(second).toMatchObject({ pageId: pageId(2), startReason: 'INITIAL_LOAD', endReason: null });

    const states = await videoStates(lead.id);
    expect(states[0]?.state).toBe('PLAYING');
    expect(states.filter((s) => s.state === 'PROGRESS').map((s) => s.videoProgressUpdate?.percent)).toEqual([
      25, 50, 75,
    ]);
    expect(states.filter((s) => s.state === 'ENDED')).toHaveLength(1);
    const conversions = await db()
      .selectFrom('conversions')
      .selectAll()
      .where('leadId', '=', lead.id)
      .execute();
    expect(conversions.map((c) => [c.kind, c.pageId])).toEqual([['VIDEO_VIEWED', pageId(1)]]);
    // The new page's button starts hidden again.
    expect(await buttonVisible(page)).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.close();
  });

  it('on a NEXT-PAGE click records the click, renews the session and shows the next page', async () => {
    const lead = await newLead();
    const page = await open(lead.url);
    await play(page, 2);
    await expect.poll(() => buttonVisible(page), { timeout: 15_000 }).toBe(true);
    expect(await page.title()).toBe(PAGE_1_TITLE);
    await page.locator('.cta-button').click();
    await expect
      .poll(() => page.locator('.headline').textContent(), { timeout: 10_000 })
      .toContain('Clase 2');
    await expect.poll(() => page.title()).toBe(PAGE_2_TITLE);
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(2);
    const [first, second] = await sessions(lead.id);
    expect(first).toMatchObject({ pageId: pageId(1), endReason: 'BUTTON_CLICK' });
    expect(second).toMatchObject({ pageId: pageId(2), startReason: 'INITIAL_LOAD' });
    const actions = await db().selectFrom('actions').selectAll().where('leadId', '=', lead.id).execute();
    expect(actions.map((a) => [a.action, a.pageSessionId])).toEqual([['BUTTON_CLICK', first?.id]]);
    // The video told what it had played before the page changed.
    await expect
      .poll(async () => (await videoStates(lead.id)).filter((s) => s.state === 'PLAYING').length)
      .toBeGreaterThanOrEqual(2);
    await page.close();
  });

  it('resumes 15 s before the stored point, and from 0 when that lies beyond the end', async () => {
    const lead = await newLead();
    const page = await open(lead.url);
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(1);
    const sessionId = (await sessions(lead.id))[0]?.id ?? '';
    const report = (endTimeVideo: number) =>
      fetch(`${server.url}/api/funnel/track/video`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          token: lead.token,
          idTrackingPageSession: sessionId,
          startViewTime: Date.now(),
          endViewTime: Date.now(),
          startTimeVideo: 0,
          endTimeVideo,
          details: { state: 'PAUSE' },
        }),
      });
    expect((await report(20)).status).toBe(200);
    await page.close();
    const again = await open(lead.url);
    await expect.poll(() => videoTime(again), { timeout: 10_000 }).toBeCloseTo(5, 1);
    await again.close();

    expect((await report(40)).status).toBe(200);
    const beyond = await open(lead.url);
    await beyond.locator('video').waitFor({ state: 'attached' });
    await expect
      .poll(() => beyond.evaluate(() => (document.querySelector('video')?.readyState ?? 0) >= 1))
      .toBe(true);
    expect(await videoTime(beyond)).toBe(0);
    await beyond.close();
  });

  it('sends a skip record 1 s after a seek', async () => {
    const lead = await newLead();
    const page = await open(lead.url);
    await play(page);
    await expect.poll(() => videoTime(page), { timeout: 10_000 }).toBeGreaterThan(1);
    await page.evaluate(() => {
      const video = document.querySelector('video');
      if (video) video.currentTime = 7;
    });
    await expect
      .poll(async () => (await videoStates(lead.id)).filter((s) => s.state === 'SKIP').length, {
        timeout: 5000,
      })
      .toBe(1);
    const skip = await db()
      .selectFrom('videoRecords')
      .select(['startTimeVideo', 'endTimeVideo', 'startViewTime', 'endViewTime', 'details'])
      .where('leadId', '=', lead.id)
      .execute();
    const record = skip.find((r) => r.details.includes('"SKIP"'));
    expect(record?.endTimeVideo).toBeCloseTo(7, 0);
    expect(record?.startTimeVideo).toBeLessThan(7);
    expect(Number(record?.endViewTime) - Number(record?.startViewTime)).toBeGreaterThanOrEqual(1000);
    await page.close();
  });

  it('stores PAGE_CLOSE and an INTERRUPTED record when the visitor closes the page', async () => {
    const lead = await newLead();
    const page = await newPage();
    await gotoTracked(page, lead.url);
    await play(page);
    await expect.poll(() => videoTime(page), { timeout: 10_000 }).toBeGreaterThan(1);
    await page.close({ runBeforeUnload: true });
    await expect
      .poll(async () => (await sessions(lead.id))[0]?.endReason, { timeout: 5000 })
      .toBe('PAGE_CLOSE');
    await expect
      .poll(async () => (await videoStates(lead.id)).map((s) => s.state), { timeout: 5000 })
      .toContain('INTERRUPTED');
  });

  it('on the OFFERT page stores the offer when the button shows and ends the session with OFFERT', async () => {
    const lead = await newLead();
    await watched(lead.token, pageId(1), pageId(2));
    // The offer link, on this machine: nothing may leave for the internet.
    const offer = `${server.url}/api/health?offer=1`;
    await owner('PATCH', `/pages/${pageId(3)}`, { buttonUrl: offer });
    const page = await open(lead.url);
    expect(await page.locator('.headline').textContent()).toContain('Clase final');
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(1);
    await play(page);
    await expect.poll(() => buttonVisible(page), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => (await sessions(lead.id))[0]?.endReason, { timeout: 5000 }).toBe('OFFERT');
    const kinds = async () =>
      (
        await db()
          .selectFrom('conversions')
          .select(['kind', 'pageId'])
          .where('leadId', '=', lead.id)
          .execute()
      )
        .filter((c) => c.pageId === pageId(3))
        .map((c) => c.kind)
        .sort();
    await expect.poll(kinds).toEqual(['OFFERT', 'VIDEO_VIEWED']);
    // The offer link opens in a new tab.
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('.cta-button').click()]);
    expect(popup.url()).toBe(offer);
    await popup.close();
    await page.close();
    // A completed OFFERT page starts no session (visitor-behaviour §4.3).
    const again = await open(lead.url);
    await expect.poll(() => buttonVisible(again), { timeout: 5000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await sessions(lead.id)).toHaveLength(1);
    await again.close();
  });

  /** A lead of the demo's WhatsApp landing funnel. */
  async function newLandingLead(name = 'Lola'): Promise<{ id: string; url: string; token: string }> {
    const lpi = demo.funnels[1] ?? expect.unreachable('the demo has a WhatsApp funnel');
    const created = await owner<{ lead: { id: string }; url: string; token: string }>(
      'POST',
      `/funnels/${lpi.id}/leads`,
      { name },
    );
    madeTokens.push(created.token);
    return { id: created.lead.id, url: created.url, token: created.token };
  }

  it.each([
    ['a video page', '.funnel', () => newLead()],
    ['a landing page', '.landing', () => newLandingLead()],
  ] as const)(
    'on %s, 15 idle minutes end the session with INACTIVITY and open the modal; Continuar starts AFTER_INACTIVITY',
    async (_kind, layout, makeLead) => {
      const lead = await makeLead();
      const page = await newPage();
      await page.clock.install();
      // The idle count starts when the page knows its session.
      await gotoTracked(page, lead.url);
      expect(await page.locator(layout).count()).toBe(1);
      await expect.poll(async () => (await sessions(lead.id)).length).toBe(1);
      await page.clock.fastForward('14:59');
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.clock.fastForward('00:02');
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.count()).toBe(1);
      expect(await dialog.locator('h2').textContent()).toBe('¿Sigues ahí?');
      expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
      await expect.poll(async () => (await sessions(lead.id))[0]?.endReason).toBe('INACTIVITY');
      await dialog.getByRole('button', { name: 'Continuar' }).click();
      await expect.poll(async () => (await sessions(lead.id)).length).toBe(2);
      expect((await sessions(lead.id))[1]).toMatchObject({
        startReason: 'AFTER_INACTIVITY',
        endReason: null,
      });
      expect(await page.getByRole('dialog').count()).toBe(0);
    },
  );

  it('after inactivity, a reload starts a fresh session and the button click is recorded in it', async () => {
    const lead = await newLandingLead('Leo');
    const lpi = demo.funnels[1] ?? expect.unreachable('the demo has a WhatsApp funnel');
    const chat = `${server.url}/api/health?chat=reload`;
    await owner('PATCH', `/pages/${lpi.pages[0]?.id ?? ''}`, { buttonUrl: chat });
    const page = await newPage();
    await page.clock.install();
    await gotoTracked(page, lead.url);
    await page.clock.fastForward('15:01');
    // The modal's code loads on first use (apps/web/src/modals/lazy.ts): a fetch, slow on a busy machine.
    await expect.poll(() => page.getByRole('dialog').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await sessions(lead.id))[0]?.endReason).toBe('INACTIVITY');
    // The visitor reloads instead of answering: they are back, so the page starts over.
    const started = page.waitForResponse((response) => response.url().endsWith('/funnel/track/page'));
    await page.reload();
    await started;
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(2);
    const [, second] = await sessions(lead.id);
    expect(second).toMatchObject({ startReason: 'INITIAL_LOAD', endReason: null });
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    await Promise.all([page.waitForURL(chat), page.locator('.cta-button').click()]);
    const actions = await db().selectFrom('actions').selectAll().where('leadId', '=', lead.id).execute();
    expect(actions.map((a) => [a.action, a.pageSessionId])).toEqual([['BUTTON_CLICK', second?.id]]);
  });

  it('does not count idle time while the video plays', async () => {
    const lead = await newLead();
    const page = await newPage();
    await page.clock.install();
    await page.goto(lead.url);
    await play(page);
    await expect.poll(() => videoTime(page), { timeout: 10_000 }).toBeGreaterThan(0.5);
    // The session is stored before the 16 minutes pass (its start may still be on its way on a
    // loaded machine), so that what is checked after them is that session.
    await expect.poll(async () => (await sessions(lead.id)).length, { timeout: 10_000 }).toBe(1);
    await page.clock.fastForward('16:00');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const [session, ...others] = await sessions(lead.id);
    expect(others).toEqual([]);
    expect(session?.endReason).toBeNull();
    await page.close();
  });

  it('writes no row of any kind in preview', async () => {
    const counts = async () =>
      Promise.all(
        (['pageSessions', 'videoRecords', 'actions', 'visits', 'conversions'] as const).map(async (table) =>
          Number(
            (
              await db()
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirst()
            )?.n ?? 0,
          ),
        ),
      );
    // Pages closed by earlier tests may still be sending their last records: start from a count
    // that has stood still for half a second.
    let before = await counts();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await counts();
      if (now.every((n, i) => n === before[i])) break;
      before = now;
    }
    const page = await open(vsl().previewUrl);
    await play(page, 2);
    await expect.poll(() => buttonVisible(page), { timeout: 15_000 }).toBe(true);
    await page.locator('.cta-button').click();
    await expect
      .poll(() => page.locator('.headline').textContent(), { timeout: 10_000 })
      .toContain('Clase 2');
    await page.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await counts()).toEqual(before);
  });

  it('counts a NEW then a RETURNING visit, and stores the device details of visitor-behaviour §3', async () => {
    const lead = await newLead();
    // One browser profile: the visit counter lives in its storage.
    const context = await browser.newContext();
    const page = await context.newPage();
    await gotoTracked(page, lead.url);
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(1);
    await page.close({ runBeforeUnload: true });
    await expect.poll(async () => (await sessions(lead.id))[0]?.endReason).toBe('PAGE_CLOSE');
    const again = await context.newPage();
    await again.goto(lead.url);
    await expect.poll(async () => (await sessions(lead.id)).length).toBe(2);
    const visits = await db()
      .selectFrom('visits')
      .selectAll()
      .where('leadId', '=', lead.id)
      .orderBy('createdAt')
      .execute();
    expect(visits.map((v) => v.visitorType)).toEqual(['NEW', 'RETURNING']);
    const details = JSON.parse((await sessions(lead.id))[1]?.details ?? '{}') as Record<string, unknown>;
    expect(details).toMatchObject({
      videoStatus: 'INCOMPLETED',
      sessionCount: 2,
      visitorType: 'RETURNING',
      browser: { name: expect.any(String) as string, version: expect.any(String) as string },
      os: { name: 'Linux' },
      display: { viewportWidth: 1280, viewportHeight: 720, zoom: 1 },
      capabilities: { cookiesEnabled: true, localStorageAvailable: true },
      preferences: { mainLanguage: expect.any(String) as string },
      privacySensitiveData: { deviceId: expect.stringMatching(/^device_\d+_/) as string },
    });
    expect(String(details.userAgent)).toContain('Chrome');
    await context.close();
  });

  it('shows the blocked-window modal when the browser refuses the popup; Continuar is a real link', async () => {
    const lead = await newLead();
    const offer = `${server.url}/api/health?offer=2`;
    await owner('PATCH', `/pages/${pageId(3)}`, { buttonUrl: offer });
    await watched(lead.token, pageId(1), pageId(2));
    const page = await newPage();
    // A popup blocker: window.open gives nothing back.
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await page.goto(lead.url);
    await play(page);
    await expect.poll(() => buttonVisible(page), { timeout: 10_000 }).toBe(true);
    await page.locator('.cta-button').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.locator('h2').textContent()).toBe('Ventana bloqueada');
    const link = dialog.getByRole('link', { name: 'Continuar' });
    expect(await link.getAttribute('href')).toBe(offer);
    expect(await link.getAttribute('target')).toBe('_blank');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('on the WhatsApp landing sends the pixel event, then opens the chat in the same tab', async () => {
    const lpi = demo.funnels[1] ?? expect.unreachable('the demo has a WhatsApp funnel');
    const lpiPage = lpi.pages[0]?.id ?? expect.unreachable('a landing page');
    const chat = `${server.url}/api/health?chat=lpi`;
    await owner('PATCH', `/funnels/${lpi.id}`, {
      pixel: { pixelId: '123456789012345', accessToken: 'test-access-token', testEventCode: null },
    });
    await owner('PATCH', `/pages/${lpiPage}`, { buttonUrl: chat });
    const created = await owner<{ lead: { id: string }; url: string; token: string }>(
      'POST',
      `/funnels/${lpi.id}/leads`,
      { name: 'Rosa' },
    );
    madeTokens.push(created.token);
    // The link as a lead may open it, with an ad's query on it.
    const page = await open(`${created.url}?utm_source=fb&fbclid=IwAR0`);
    const order: string[] = [];
    const pixelBodies: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/track/pixel')) {
        order.push('pixel');
        pixelBodies.push(request.postData() ?? '');
      }
      if (request.url() === chat) order.push('chat');
    });
    expect(await buttonVisible(page)).toBe(true);
    await Promise.all([page.waitForURL(chat), page.locator('.cta-button').click()]);
    expect(order).toEqual(['pixel', 'chat']);
    // The page names itself without the lead's token (its credential) or the query.
    const sent = JSON.parse(pixelBodies[0] ?? '{}') as {
      token?: string;
      eventData?: { eventSource?: string };
    };
    expect(sent.token).toBe(created.token);
    expect(sent.eventData?.eventSource).toBe(`${server.url}/${demo.accountSlug}`);
    const outbox = await db().selectFrom('pixelOutbox').selectAll().where('funnelId', '=', lpi.id).execute();
    expect(outbox).toHaveLength(1);
    const payload = JSON.parse(outbox[0]?.payload ?? '{}') as {
      event_name?: string;
      event_source_url?: string;
    };
    expect(payload.event_name).toBe('Lead');
    expect(payload.event_source_url).toBe(`${server.url}/${demo.accountSlug}`);
    expect(JSON.stringify(outbox[0])).not.toContain(created.token);
  });

  it("shows 'Error al cargar video' with 'Refresca la página' when the video cannot load", async () => {
    await owner('PATCH', `/pages/${pageId(1)}`, { videoUrl: '/assets/demo/missing.mp4' });
    try {
      const lead = await newLead();
      const page = await open(lead.url);
      const panel = page.getByRole('alert');
      await expect.poll(() => panel.count()).toBe(1);
      expect(await panel.locator('.video-error-title').textContent()).toBe('Error al cargar video');
      expect(await panel.getByRole('button').textContent()).toBe('Refresca la página');
      // The headline and the button's place stay where they were.
      expect(await page.locator('.headline').textContent()).toContain('Clase 1');
    } finally {
      await owner('PATCH', `/pages/${pageId(1)}`, { videoUrl: '/assets/demo/vsl.mp4' });
    }
  });

  it('shows the button once buttonTime has passed on the wall clock when the video cannot load', async () => {
    await owner('PATCH', `/pages/${pageId(1)}`, { videoUrl: '/assets/demo/missing.mp4' });
    try {
      const lead = await newLead();
      const page = await newPage();
      await page.clock.install();
      await page.goto(lead.url);
      // The video fails: no play event will ever start the button's timers.
      await expect.poll(() => page.getByRole('alert').count()).toBe(1);
      expect(await buttonVisible(page)).toBe(false);
      // The demo's first page waits 8 s.
      await page.clock.runFor(6500);
      expect(await buttonVisible(page)).toBe(false);
      await page.clock.runFor(2000);
      await expect.poll(() => buttonVisible(page)).toBe(true);
      expect(await page.locator('.cta-button').isDisabled()).toBe(false);
    } finally {
      await owner('PATCH', `/pages/${pageId(1)}`, { videoUrl: '/assets/demo/vsl.mp4' });
    }
  });

  it('plays the video again 100 ms after Continuar', async () => {
    const lead = await newLead();
    const page = await newPage();
    await page.clock.install();
    await page.goto(lead.url);
    await play(page);
    await expect.poll(() => videoTime(page)).toBeGreaterThan(0.3);
    await page.evaluate(() => {
      document.querySelector('video')?.pause();
    });
    await page.clock.fastForward('15:01');
    const dialog = page.getByRole('dialog');
    // The modal's code loads on first use (apps/web/src/modals/lazy.ts): a fetch, slow on a busy machine.
    await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1);
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await page.clock.fastForward(200);
    await expect.poll(() => page.evaluate(() => document.querySelector('video')?.paused)).toBe(false);
    expect((await sessions(lead.id)).map((s) => s.startReason)).toEqual(['INITIAL_LOAD', 'AFTER_INACTIVITY']);
  });

  it('keeps the button within 350, 450 and 850 px by screen width, and bounces it every 3 s', async () => {
    const lead = await newLead();
    const page = await newPage();
    await page.goto(lead.url);
    const widths: number[] = [];
    for (const width of [390, 800, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      widths.push(
        await page.locator('.cta-button').evaluate((el) => parseFloat(getComputedStyle(el).maxWidth)),
      );
    }
    expect(widths).toEqual([350, 450, 850]);
    await play(page, 2);
    await expect.poll(() => buttonVisible(page), { timeout: 15_000 }).toBe(true);
    const animation = await page.locator('.cta-button').evaluate((el) => ({
      name: getComputedStyle(el).animationName,
      duration: getComputedStyle(el).animationDuration,
    }));
    expect(animation).toEqual({ name: 'bounce', duration: '3s' });
  });

  it('asked no third-party host for anything', () => {
    expect(foreign).toEqual([]);
  });

  it('wrote no lead token, preview token or API key to its log in all of the above', () => {
    const accounts = [demo, ...demo.otherAccounts];
    const secrets = [
      ...madeTokens,
      ...accounts.map((account) => account.apiKey),
      ...accounts.flatMap((account) =>
        account.funnels.flatMap((funnel) => [
          ...funnel.leads.map((lead) => lead.token),
          new URL(funnel.previewUrl).searchParams.get('previewToken') ?? '',
        ]),
      ),
    ];
    expect(madeTokens.length).toBeGreaterThan(10);
    expect(secrets.every((secret) => secret.length >= 32)).toBe(true);
    const log = server.logs();
    // The log holds every request of the tests above, its address with the token taken out.
    expect(log.split('\n').filter((line) => line.includes('[token]')).length).toBeGreaterThan(
      madeTokens.length,
    );
    expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
  });
});
