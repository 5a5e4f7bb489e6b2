import type { Browser } from 'playwright-core';
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
 * The Studio's funnels, funnel settings and pages screens in Chromium against a real server (issue
 * 18): a funnel from the VSL template, a page's headline and button time changed, and a lead's link
 * showing the new headline.
 */
describe('Studio: funnels and pages in Chromium', () => {
  let running: StudioServer;
  let browser: Browser;

  beforeAll(async () => {
    await buildStudio();
    running = await startStudioServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await running.server.close();
  });

  it('creates a funnel from the VSL template, edits a page, and a new lead sees the change', async () => {
    const { context, page } = await signIn(browser, running);
    try {
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'studio-funnels-1280');

      await page.getByRole('button', { name: 'New funnel' }).click();
      const dialog = page.getByRole('dialog', { name: 'New funnel' });
      await expect.poll(() => dialog.getByLabel('Template: VSL launch').isChecked()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByLabel('Name').fill('Black Friday launch');
      await dialog.getByRole('button', { name: 'Create funnel' }).click();

      // The new funnel's pages, copied from the template, in order.
      await page.getByRole('heading', { level: 1, name: 'Black Friday launch' }).waitFor();
      const pages = page.getByRole('list', { name: 'Pages' }).getByRole('listitem');
      await expect.poll(() => pages.count()).toBeGreaterThan(1);
      expect(await seriousViolations(page)).toEqual([]);

      await page
        .getByRole('link', { name: /^Edit / })
        .first()
        .click();
      await page.getByLabel('Headline', { exact: true }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // The page form by its own address (and without the creation's notice over it).
      await page.reload();
      await page.getByLabel('Headline', { exact: true }).waitFor();
      await screenshot(page, 'studio-page-form-1280');
      await page.getByLabel('Headline', { exact: true }).fill('Only today: the launch class');
      await page.getByLabel('Minutes', { exact: true }).fill('1');
      await page.getByLabel('Seconds', { exact: true }).fill('30');
      await page.getByRole('button', { name: 'Save page' }).click();
      await page.getByText('Page saved.', { exact: true }).waitFor();

      // What the server stored, through the owner API.
      const funnels = (await (
        await fetch(`${running.server.url}/api/owner/funnels`, {
          headers: { authorization: `Bearer ${running.demo.apiKey}` },
        })
      ).json()) as { id: string; name: string }[];
      const funnel =
        funnels.find((item) => item.name === 'Black Friday launch') ?? expect.unreachable('funnel');
      const stored = (await (
        await fetch(`${running.server.url}/api/owner/funnels/${funnel.id}/pages`, {
          headers: { authorization: `Bearer ${running.demo.apiKey}` },
        })
      ).json()) as { position: number; headline: string; buttonTime: unknown }[];
      const first = [...stored].sort((a, b) => a.position - b.position)[0];
      expect(first?.headline).toContain('Only today: the launch class');
      expect(first?.buttonTime).toEqual({ hours: 0, minutes: 1, seconds: 30 });

      // A lead of the funnel opens its link in a context of its own and sees the new headline.
      await page
        .getByRole('navigation', { name: 'Funnel sections' })
        .getByRole('link', { name: 'Leads' })
        .click();
      await page.getByRole('button', { name: 'New lead' }).click();
      const leadDialog = page.getByRole('dialog', { name: 'New lead' });
      await leadDialog.getByLabel('Name').fill('Lucía Pérez');
      await leadDialog.getByLabel(/^E-mail/).fill('lucia@example.com');
      await leadDialog.getByRole('button', { name: 'Create lead' }).click();
      const link = page.getByLabel('Personal link');
      await link.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const url = await link.inputValue();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

      const visitor = await browser.newContext({ locale: 'es-ES' });
      try {
        const lead = await visitor.newPage();
        await lead.goto(url);
        await expect.poll(() => lead.textContent('body')).toContain('Only today: the launch class');
      } finally {
        await visitor.close();
      }
    } finally {
      await context.close();
    }
  });

  it('shows the funnel settings, with the pixel token write-only and the note on fake elements', async () => {
    const { context, page } = await signIn(browser, running);
    try {
      await page
        .getByRole('list', { name: 'Your funnels' })
        .getByRole('link', { name: 'Settings', exact: true })
        .first()
        .click();
      await page.getByRole('form', { name: 'Funnel settings' }).waitFor();
      await expect.poll(() => page.getByText('Not set', { exact: true }).isVisible()).toBe(true);
      await page.getByLabel('Online-visitors count').check();
      await page
        .getByText(/consumer-protection rules in the EU, Brazil and the US/)
        .first()
        .waitFor();
      await page.getByLabel('Pixel ID').fill('123456789012');
      await page.getByLabel('New access token').fill('EAAB-a-token-of-the-owner');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'studio-funnel-settings-1280');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Settings saved.', { exact: true }).waitFor();
      // The token is never shown again: only that one is set.
      await expect.poll(() => page.getByText('Set', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByLabel('New access token').inputValue()).toBe('');
    } finally {
      await context.close();
    }
  });

  it('reorders pages by keyboard and reads at 390 px', async () => {
    const { context, page } = await signIn(browser, running, 390);
    try {
      await screenshot(page, 'studio-funnels-390');
      await page
        .getByRole('list', { name: 'Your funnels' })
        .getByRole('link', { name: 'Pages', exact: true })
        .first()
        .click();
      const items = page.getByRole('list', { name: 'Pages' }).getByRole('listitem');
      await expect.poll(() => items.count()).toBeGreaterThan(1);
      const firstTitle = await items.nth(0).getByRole('link').first().textContent();
      const down = items.nth(0).getByRole('button', { name: /^Move .* down$/ });
      await down.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => items.nth(1).getByRole('link').first().textContent()).toBe(firstTitle);
      await page.getByRole('status').filter({ hasText: 'is now page 2' }).waitFor({ state: 'attached' });
      expect(await seriousViolations(page)).toEqual([]);
      // And back by dragging it with the mouse; the server keeps the order.
      await items.nth(1).dragTo(items.nth(0));
      await expect.poll(() => items.nth(0).getByRole('link').first().textContent()).toBe(firstTitle);
      await page.reload();
      await expect.poll(() => items.nth(0).getByRole('link').first().textContent()).toBe(firstTitle);
      await page
        .getByRole('link', { name: /^Edit / })
        .first()
        .click();
      await page.getByLabel('Headline', { exact: true }).waitFor();
      await screenshot(page, 'studio-page-form-390');
      await page
        .getByRole('navigation', { name: 'Funnel sections' })
        .getByRole('link', { name: 'Settings' })
        .click();
      await page.getByRole('form', { name: 'Funnel settings' }).waitFor();
      await screenshot(page, 'studio-funnel-settings-390');
    } finally {
      await context.close();
    }
  });

  it('duplicates and deletes a page, and renames, duplicates and deletes a funnel', async () => {
    const { context, page } = await signIn(browser, running);
    try {
      const cards = page.getByRole('list', { name: 'Your funnels' }).getByRole('listitem');
      const card = cards.filter({ hasText: 'WhatsApp landing' }).first();
      await card.getByRole('link', { name: 'Pages', exact: true }).click();
      const items = page.getByRole('list', { name: 'Pages' }).getByRole('listitem');
      await expect.poll(() => items.count()).toBe(1);
      // Preview: a link made now, opened in a new tab without an opener.
      const [preview] = await Promise.all([
        context.waitForEvent('page'),
        page.getByRole('button', { name: /^Preview / }).click(),
      ]);
      const shown = await page.getByRole('link', { name: 'Open preview' }).getAttribute('href');
      expect(shown).toBeTruthy();
      await preview.waitForLoadState();
      expect(preview.url()).toBe(shown);
      expect(await preview.evaluate(() => window.opener === null)).toBe(true);
      expect(await page.getByRole('link', { name: 'Open preview' }).getAttribute('rel')).toContain(
        'noopener',
      );
      await preview.close();
      await page.getByRole('button', { name: /^Duplicate / }).click();
      await page.getByText('Page duplicated.', { exact: true }).waitFor();
      await expect.poll(() => items.count()).toBe(2);
      await page
        .getByRole('button', { name: /^Delete / })
        .nth(1)
        .click();
      const confirmPage = page.getByRole('alertdialog');
      await confirmPage.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => items.count()).toBe(1);

      await page.getByRole('link', { name: /All funnels/ }).click();
      await card.getByRole('button', { name: 'Rename' }).click();
      const rename = page.getByRole('dialog', { name: /^Rename/ });
      await rename.getByLabel('Name').fill('WhatsApp landing (May)');
      await rename.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Funnel renamed.', { exact: true }).waitFor();
      const renamed = cards.filter({
        has: page.getByRole('heading', { name: 'WhatsApp landing (May)', exact: true }),
      });
      await renamed.getByRole('button', { name: 'Duplicate' }).click();
      const duplicate = page.getByRole('dialog', { name: /^Duplicate/ });
      expect(await duplicate.getByLabel('Name').inputValue()).toBe('WhatsApp landing (May) (copy)');
      await duplicate.getByRole('button', { name: 'Duplicate' }).click();
      await page.getByText('Funnel duplicated.', { exact: true }).waitFor();
      const copy = cards.filter({ hasText: 'WhatsApp landing (May) (copy)' });
      await expect.poll(() => copy.textContent()).toContain('1 page');
      // The copy has no leads: its deletion says so; the original's says how many it loses.
      await renamed.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: /^Delete/ });
      await confirm.getByText(/its pages \(1\), its leads \(2\) and every recorded event/).waitFor();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await copy.getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('alertdialog', { name: /^Delete/ })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByText('Funnel deleted.', { exact: true }).waitFor();
      await expect.poll(() => copy.count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
