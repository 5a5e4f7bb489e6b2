import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../apps/server/test/dns-server';
import { launchChromium } from './chromium';
import {
  buildStudio,
  screenshot,
  seriousViolations,
  signIn,
  startStudioServer,
  type StudioServer,
} from './studio-session';

const TARGET = 'edge.embudo.test';

/**
 * The Studio's domains screen in Chromium (issue 20, decision 27), against a real server whose DNS
 * checks ask a DNS server of the test's own: the owner adds domains, copies the two records, and
 * presses Check now; each domain shows its state (pending, verified, failing) with the reason and
 * when it was last checked, at 1280 and at 390 px without sideways scrolling.
 */
describe('Studio: custom domains in Chromium', () => {
  let dns: TestDnsServer;
  let running: StudioServer;
  let browser: Browser;

  beforeAll(async () => {
    await buildStudio();
    dns = await startTestDnsServer();
    dns.set(TARGET, { a: ['203.0.113.10'] });
    running = await startStudioServer({ DNS_SERVERS: dns.address, DOMAIN_TARGET: TARGET });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await running.server.close();
    await dns.close();
  });

  const item = (page: Page, host: string) => page.getByRole('listitem').filter({ hasText: host });
  const checkNow = async (page: Page, host: string, toast: string) => {
    await page.getByRole('button', { name: `Check now: ${host}` }).click();
    await expect.poll(() => page.getByText(toast).last().isVisible()).toBe(true);
  };
  const add = async (page: Page, host: string) => {
    await page.getByRole('textbox', { name: 'Domain' }).fill(host);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await item(page, host).waitFor();
  };
  /** The two records as the screen shows them to copy. */
  const records = async (page: Page, host: string) => {
    const fields = item(page, host).getByRole('textbox');
    return {
      txtName: await fields.nth(0).inputValue(),
      txtValue: await fields.nth(1).inputValue(),
      cnameName: await fields.nth(2).inputValue(),
      cnameValue: await fields.nth(3).inputValue(),
    };
  };

  it('shows each domain’s state, why, and when it was last checked, with the records to copy', async () => {
    const { context, page } = await signIn(browser, running);
    await page.goto(`${running.server.url}/studio/settings/domains`);
    await expect.poll(() => page.getByText('No domains yet').isVisible()).toBe(true);

    // Pending: added, records shown, not checked yet; checked with nothing set, the TXT is missing.
    await add(page, 'ofertas.acme.test');
    const pending = item(page, 'ofertas.acme.test');
    expect(await pending.getByText('Pending', { exact: true }).isVisible()).toBe(true);
    expect(await pending.getByText('Not checked yet').isVisible()).toBe(true);
    const shown = await records(page, 'ofertas.acme.test');
    expect(shown.txtName).toBe('_embudo-verify.ofertas.acme.test');
    expect(shown.txtValue).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(shown).toMatchObject({ cnameName: 'ofertas.acme.test', cnameValue: TARGET });
    await checkNow(page, 'ofertas.acme.test', 'Not verified yet.');
    await expect.poll(() => pending.getByText("The TXT record wasn't found.").isVisible()).toBe(true);
    expect(await pending.getByText(/^Checked /).isVisible()).toBe(true);

    // Verified: both records set as the screen showed them.
    await add(page, 'promo.acme.test');
    const set = await records(page, 'promo.acme.test');
    dns.set(set.txtName, { txt: [set.txtValue] });
    dns.set(set.cnameName, { cname: set.cnameValue });
    await checkNow(page, 'promo.acme.test', 'Domain verified.');
    const verified = item(page, 'promo.acme.test');
    await expect.poll(() => verified.getByText('Verified', { exact: true }).isVisible()).toBe(true);
    expect(await verified.getByText('Verified: your funnels open at this domain.').isVisible()).toBe(true);

    // Failing: verified once, then its CNAME went elsewhere; it still serves for a while.
    await add(page, 'launch.acme.test');
    const lapsing = await records(page, 'launch.acme.test');
    dns.set(lapsing.txtName, { txt: [lapsing.txtValue] });
    dns.set(lapsing.cnameName, { cname: lapsing.cnameValue });
    await checkNow(page, 'launch.acme.test', 'Domain verified.');
    dns.set(lapsing.cnameName, { a: ['198.51.100.7'] });
    await checkNow(page, 'launch.acme.test', 'Not verified yet.');
    const failing = item(page, 'launch.acme.test');
    await expect.poll(() => failing.getByText('Failing', { exact: true }).isVisible()).toBe(true);
    expect(await failing.getByText(`The domain doesn't point at ${TARGET}.`).isVisible()).toBe(true);
    expect(await failing.getByText(/keeps opening your funnels for up to 7 days/).isVisible()).toBe(true);

    // What the screen shows is what the server keeps.
    await page.reload();
    await expect.poll(() => failing.getByText('Failing', { exact: true }).isVisible()).toBe(true);
    expect(await verified.getByText('Verified', { exact: true }).isVisible()).toBe(true);
    expect(await pending.getByText('Pending', { exact: true }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'studio-settings-domains-1280');

    await page.setViewportSize({ width: 390, height: 800 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'studio-settings-domains-390');
    await context.close();
  });

  it('shows an error with a retry when the domains cannot be loaded', async () => {
    const { context, page } = await signIn(browser, running);
    await page.route('**/api/owner/domains', (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.goto(`${running.server.url}/studio/settings/domains`);
    await expect.poll(() => page.getByRole('button', { name: /retry|try again/i }).isVisible()).toBe(true);
    await context.close();
  });
});
