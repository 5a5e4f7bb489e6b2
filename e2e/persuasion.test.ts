import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { launchChromium } from './chromium';

describe('probe', () => {
  let server: TestServer;
  let browser: Browser;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { RATE_LIMIT_PER_MINUTE: '0', PIXEL_WORKER: 'off' });
    ({ apiKey } = await server.services.accounts.create({ slug: 'persuasion', name: 'Persuasion' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
  });
  const owner = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}/api/owner${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path} ${text}`).toBeLessThan(300);
    return JSON.parse(text) as T;
  };
  it('probe', async () => {
    const T0 = Date.now();
    const funnel = await owner<{ id: string }>('POST', '/funnels', {
      name: 'probe',
      language: 'en',
      deadline: { mode: 'fixed', at: new Date(T0 + 2 * 86400000 + 3 * 3600000 + 4 * 60000 + 30500).toISOString() },
      isFakeUserOnlineOn: true,
      isFomoOn: true,
      fomo: { video: { fomoApplied: true }, source: 'messages', intervalSeconds: 10, position: 'right', messages: [{ name: 'Ana', location: 'Monterrey', countryCode: 'MX' }] },
    });
    await owner('POST', `/funnels/${funnel.id}/pages`, { headline: 'Probe', buttonCopy: 'Go', showFakeProgress: true, barProgressPercent: 63, barProgressTextColor: '#fde047' });
    await owner('POST', `/funnels/${funnel.id}/pages`, { headline: 'Two' });
    const lead = await owner<{ url: string }>('POST', `/funnels/${funnel.id}/leads`, { name: 'Zoe' });
    console.log(lead.url);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('console', (m) => console.log('console', m.type(), m.text()));
    page.on('request', (r) => console.log('req', r.method(), r.url()));
    await page.clock.install({ time: T0 });
    await page.clock.pauseAt(T0 + 1000);
    await page.goto(lead.url);
    console.log('after goto', await page.evaluate(() => [Date.now(), performance.now()]));
    await new Promise((r) => setTimeout(r, 1000));
    console.log('after 1s', await page.evaluate(() => [Date.now(), performance.now()]));
    console.log(await page.evaluate(() => document.querySelector('main')?.outerHTML));
    await page.clock.runFor(0);
    await new Promise((r) => setTimeout(r, 500));
    console.log('after runFor0', await page.evaluate(() => [Date.now(), performance.now()]));
    await page.clock.runFor(5000);
    await new Promise((r) => setTimeout(r, 200));
    console.log('after 5000', await page.evaluate(() => [Date.now(), performance.now()]));
    console.log(await page.evaluate(() => document.querySelector('main')?.outerHTML));
    await context.close();
  });
});
