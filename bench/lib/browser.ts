/**
 * Headless Chromium as Lighthouse's mobile profile sees a page: a mid-range phone's screen, and the
 * network and CPU slowed through the DevTools protocol with Lighthouse's own figures ("devtools"
 * throttling: 150 ms RTT × 3.75, 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up, CPU 4× slower).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) ' +
    'Chrome/136.0.0.0 Mobile Safari/537.36',
} as const;

export const THROTTLING = {
  latencyMs: 562.5,
  downloadKbps: 1474.56,
  uploadKbps: 675,
  cpuSlowdown: 4,
} as const;

export interface MobilePage {
  context: BrowserContext;
  page: Page;
}

/** A fresh context (no cache, no cookies, no storage) with one mobile page in it. */
export async function openMobilePage(browser: Browser, throttled: boolean): Promise<MobilePage> {
  const context = await browser.newContext({ ...MOBILE });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: THROTTLING.latencyMs,
      // The protocol takes bytes per second.
      downloadThroughput: (THROTTLING.downloadKbps * 1024) / 8,
      uploadThroughput: (THROTTLING.uploadKbps * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
  }
  return { context, page };
}

/** Waits for the load event, then for the network to go quiet (at most `quietMs`), touching nothing. */
export async function loadUntouched(page: Page, url: string, quietMs: number): Promise<number> {
  const response = await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForLoadState('networkidle', { timeout: quietMs }).catch(() => undefined);
  return response?.status() ?? 0;
}
