import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSummary } from '../apps/server/src/modules/demo/demo.seed';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { launchChromium } from './chromium';

/** What Chromium's network layer reports about one request, read over the DevTools protocol. */
interface Fetched {
  status?: number;
  mimeType?: string;
  /** loadingFinished or loadingFailed arrived. */
  done: boolean;
  failure?: string;
}

describe('the favicon in Chromium', () => {
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

  it('a lead page loads /favicon.ico as an icon: no failed request and no console error for it', async () => {
    const lead = demo.funnels[0]?.leads[0];
    if (!lead) throw new Error('demo has no VSL lead');
    const context = await browser.newContext();
    const page = await context.newPage();
    const favicon = `${server.url}/favicon.ico`;
    const problems: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url() === favicon) problems.push(`failed: ${request.failure()?.errorText ?? '?'}`);
    });
    page.on('response', (response) => {
      if (response.url() === favicon && response.status() >= 400) problems.push(`HTTP ${response.status()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && `${message.location().url} ${message.text()}`.includes('favicon.ico'))
        problems.push(`console: ${message.text()}`);
    });
    // Chromium fetches the icon for the tab itself: Playwright's request events leave it out, the
    // DevTools protocol's Network events show it.
    const fetches = new Map<string, Fetched>();
    const cdp = await context.newCDPSession(page);
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.request.url === favicon) fetches.set(event.requestId, { done: false });
    });
    cdp.on('Network.responseReceived', (event) => {
      const fetched = fetches.get(event.requestId);
      if (fetched)
        Object.assign(fetched, { status: event.response.status, mimeType: event.response.mimeType });
    });
    cdp.on('Network.loadingFinished', (event) => {
      const fetched = fetches.get(event.requestId);
      if (fetched) fetched.done = true;
    });
    cdp.on('Network.loadingFailed', (event) => {
      const fetched = fetches.get(event.requestId);
      if (fetched) Object.assign(fetched, { done: true, failure: event.errorText });
    });
    await cdp.send('Network.enable');

    const response = await page.goto(lead.url);
    expect(response?.status()).toBe(200);
    // Chromium asks for the icon after the page has loaded; wait until that request has ended.
    await expect.poll(() => [...fetches.values()].some((f) => f.done)).toBe(true);
    expect([...fetches.values()]).toEqual([{ status: 200, mimeType: 'image/x-icon', done: true }]);
    // One round trip to the page, so that a console line sent with the answer has arrived.
    await page.evaluate(() => document.readyState);
    expect(problems).toEqual([]);
    await context.close();
  });
});
