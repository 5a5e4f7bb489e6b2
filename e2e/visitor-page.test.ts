import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSummary } from '../apps/server/src/modules/demo/demo.seed';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { launchChromium } from './chromium';

describe('a lead link in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let demo: DemoSummary;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    demo = await seedDemo(server.services, server.url);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  const vsl = () => {
    const funnel = demo.funnels[0];
    if (!funnel?.leads[0]) throw new Error('demo has no VSL lead');
    return { funnel, lead: funnel.leads[0] };
  };

  it('shows the headline with JavaScript off: it is in the server-rendered HTML', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(vsl().lead.url);
    expect(response?.status()).toBe(200);
    await expect
      .poll(() => page.locator('.headline').textContent())
      .toBe('Clase 1: el método que cambia tus ventas');
    expect(await page.title()).toBe('Clase 1: el método que cambia tus ventas');
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.locator('.headline strong').textContent()).toBe('el método');
    await context.close();
  });

  it('cannot be framed by another site: Chromium refuses it for frame-ancestors, the frame stays empty', async () => {
    // Another origin on this machine: a second server on another port.
    const framing = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><iframe src="${vsl().lead.url}" width="400" height="600"></iframe>`);
    });
    await new Promise<void>((listening) => {
      framing.listen(0, '127.0.0.1', listening);
    });
    const { port } = framing.address() as AddressInfo;
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes("frame-ancestors 'none'")) refusals.push(message.text());
    });
    try {
      await page.goto(`http://127.0.0.1:${String(port)}/`, { waitUntil: 'load' });
      await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame?.url()).toMatch(/^chrome-error:/);
      expect(await frame?.locator('.headline').count()).toBe(0);
    } finally {
      await page.close();
      framing.close();
    }
  });

  it('hydrates the server-rendered page without a mismatch, and asks no third-party host for anything', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreign.push(request.url());
    });
    await page.goto(vsl().lead.url);
    await expect
      .poll(() =>
        page.evaluate(() =>
          Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
        ),
      )
      .toBe(true);
    expect(await page.locator('.headline').textContent()).toBe('Clase 1: el método que cambia tus ventas');
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('changes what the visitor sees when the owner PATCHes the page', async () => {
    const { funnel, lead } = vsl();
    const pageId = funnel.pages[0]?.id ?? '';
    const patched = await fetch(`${server.url}/api/owner/pages/${pageId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        headline: 'Nuevo <em>titular</em><img src=x onerror="window.pwned=1">',
        headlineColor: '#ff0000',
      }),
    });
    expect(patched.status).toBe(200);
    const page = await browser.newPage();
    await page.goto(lead.url);
    expect(await page.locator('.headline').textContent()).toBe('Nuevo titular');
    expect(await page.locator('.headline').evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(255, 0, 0)',
    );
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await page.close();
  });

  it('shows the invalid-link screen for an unknown token, with a 404', async () => {
    // A Spanish-speaking visitor: with no funnel behind the link, the browser's language applies.
    const page = await browser.newPage({ locale: 'es-ES' });
    const response = await page.goto(`${server.url}/demo/unknown-token-that-does-not-exist`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe(
      'Hmmmm... No conozco a unknown-token-that-does-not-exist, ¡parece falso!',
    );
    await page.close();
  });

  it('opens a preview link on the page it points to', async () => {
    // A preview of the funnel's second page: its own headline, not the first page's.
    const { funnel } = vsl();
    const second = funnel.pages[1] ?? expect.unreachable('the VSL funnel has a second page');
    const created = await fetch(`${server.url}/api/owner/pages/${second.id}/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const { url } = (await created.json()) as { url: string };
    const page = await browser.newPage();
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await expect
      .poll(() => page.locator('.headline').textContent())
      .toBe('Clase 2: los tres errores que frenan tu embudo');
    expect(await page.title()).toBe('Clase 2: los tres errores que frenan tu embudo');
    // The demo's own preview link points to the first page, and opens that one.
    const first = await page.goto(funnel.previewUrl);
    expect(first?.status()).toBe(200);
    expect(await page.locator('.headline').textContent()).not.toBe(
      'Clase 2: los tres errores que frenan tu embudo',
    );
    expect(await page.locator('.headline').count()).toBe(1);
    await page.close();
  });
});
