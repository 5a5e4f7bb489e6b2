import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
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
 * The Studio's leads screen in Chromium against a real server (issue 18): typed search and filter in
 * the address, a CSV of 1,000 leads with one bad row refused and named, then imported with its
 * links downloaded; a lead's new link (the old one stops) and its erasure.
 */
describe('Studio: leads in Chromium', () => {
  let running: StudioServer;
  let browser: Browser;
  /** The demo's VSL funnel, and a line of its first page's headline that its leads see. */
  let funnelId: string;
  const HEADLINE = 'que cambia tus ventas';

  beforeAll(async () => {
    await buildStudio();
    running = await startStudioServer();
    browser = await launchChromium();
    funnelId = running.demo.funnels[0]?.id ?? expect.unreachable('the demo has a VSL funnel');
  });

  afterAll(async () => {
    await browser.close();
    await running.server.close();
  });

  const owner = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${running.server.url}/api/owner${path}`, {
      method,
      headers: { authorization: `Bearer ${running.demo.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const leadCount = async () => (await owner<{ leadCount: number }>('GET', `/funnels/${funnelId}`)).leadCount;

  async function openLeads(width = 1280): Promise<{ page: Page; close: () => Promise<void> }> {
    const { context, page } = await signIn(browser, running, width);
    await page.goto(`${running.server.url}/studio/funnels/${funnelId}/leads`);
    await page.getByRole('table').waitFor();
    return { page, close: () => context.close() };
  }

  function csv(count: number, bad?: { index: number; line: string }): string {
    const lines = ['name,email,phone'];
    for (let i = 1; i <= count; i += 1)
      lines.push(`Importado ${i},importado${i}@example.com,+55 11 9000 ${String(i).padStart(4, '0')}`);
    if (bad) lines[bad.index] = bad.line;
    return lines.join('\n');
  }

  it('keeps the search and the page filter in the address, and pages through leads by cursor', async () => {
    const { page, close } = await openLeads();
    try {
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'studio-leads-1280');
      await page.getByLabel('Search').fill('zzzz-nobody');
      await page.waitForURL(/[?&]q=zzzz-nobody/);
      await page.getByText('No lead matches').waitFor();
      await page.getByLabel('Search').fill('');
      await page.waitForURL((url) => !url.searchParams.has('q'));
      await page.getByLabel('Current page').selectOption({ label: 'Page 1' });
      await page.waitForURL(/[?&]page=[0-9a-f-]{36}/);
      // An address typed by hand with a bad filter is read as no filter, not an error.
      await page.goto(`${running.server.url}/studio/funnels/${funnelId}/leads?page=not-a-page`);
      await page.getByRole('table').waitFor();
      expect(await page.getByLabel('Current page').inputValue()).toBe('');

      // 30 more leads: the table shows 25 a page, the next page by the server's cursor.
      for (let i = 0; i < 30; i += 1)
        await owner('POST', `/funnels/${funnelId}/leads`, { name: `Paginado ${i}` });
      await page.reload();
      const rows = page.getByRole('table').locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(25);
      await page.getByRole('button', { name: 'Next →' }).click();
      await page.getByRole('navigation', { name: 'Leads pages' }).getByText('Page 2').waitFor();
      await expect.poll(() => rows.count()).toBe((await leadCount()) - 25);
      await page.getByRole('button', { name: '← Previous' }).click();
      await expect.poll(() => rows.count()).toBe(25);
    } finally {
      await close();
    }
  });

  it('refuses a CSV with a bad row and names it, then imports the fixed file and downloads the links', async () => {
    const { page, close } = await openLeads();
    try {
      const before = await leadCount();
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import leads from a CSV' });
      // Lead 618 (row 619 of the file) has an e-mail without its @.
      await dialog.getByLabel('CSV file').setInputFiles({
        name: 'leads.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv(1000, { index: 618, line: 'Importado 618,importado618.example.com,' })),
      });
      const report = dialog.getByRole('table', { name: 'Problems by row' });
      await report.waitFor();
      expect(await report.locator('tbody tr').allTextContents()).toEqual([
        expect.stringMatching(/^619email/),
      ]);
      expect(await dialog.getByRole('button', { name: /^Import \d+ leads$/ }).isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'studio-leads-import-1280', false);
      expect(await leadCount()).toBe(before);

      await dialog.getByLabel('CSV file').setInputFiles({
        name: 'leads.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv(1000)),
      });
      await dialog.getByText('1000 leads ready to import.').waitFor();
      await dialog.getByRole('button', { name: 'Import 1000 leads' }).click();
      await dialog.getByText('1000 leads imported.').waitFor({ timeout: 60_000 });
      await dialog.getByText(/shown only this once/).waitFor();
      expect(await leadCount()).toBe(before + 1000);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Download links (CSV)' }).click(),
      ]);
      const rows = Papa.parse<string[]>((await readFile(await download.path(), 'utf8')).trim()).data;
      expect(rows[0]).toEqual(['name', 'email', 'phone', 'url']);
      expect(rows).toHaveLength(1001);
      expect(rows[1]?.slice(0, 3)).toEqual(['Importado 1', 'importado1@example.com', '+55 11 9000 0001']);
      // A downloaded link is a working lead link.
      const visitor = await browser.newContext({ locale: 'es-ES' });
      try {
        const lead = await visitor.newPage();
        await lead.goto(rows[1]?.[3] ?? expect.unreachable('a url'));
        await expect.poll(() => lead.textContent('body')).toContain(HEADLINE);
      } finally {
        await visitor.close();
      }
    } finally {
      await close();
    }
  });

  it('gives a lead a new link (the old one stops) and erases a lead with its events', async () => {
    const made = await owner<{ url: string; lead: { id: string } }>('POST', `/funnels/${funnelId}/leads`, {
      name: 'Renata Enlace',
    });
    const visitor = await browser.newContext({ locale: 'es-ES' });
    const { page, close } = await openLeads(390);
    try {
      const lead = await visitor.newPage();
      await lead.goto(made.url);
      await expect.poll(() => lead.textContent('body')).toContain(HEADLINE);

      await page.getByLabel('Search').fill('Renata');
      await page.waitForURL(/[?&]q=Renata/);
      await expect.poll(() => page.getByRole('table').locator('tbody tr').count()).toBe(1);
      await screenshot(page, 'studio-leads-390');
      await page.getByRole('button', { name: 'New link for Renata Enlace' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Make a new link for Renata Enlace?' });
      await confirm.getByText('The old link stops working').waitFor();
      await confirm.getByRole('button', { name: 'Make link' }).click();
      const link = page.getByLabel('Personal link');
      await link.waitFor();
      const fresh = await link.inputValue();
      expect(fresh).not.toBe(made.url);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Done' }).click();

      await lead.goto(made.url);
      await expect.poll(async () => (await lead.textContent('body')) ?? '').not.toContain(HEADLINE);
      await lead.goto(fresh);
      await expect.poll(() => lead.textContent('body')).toContain(HEADLINE);

      const before = await leadCount();
      await page.getByRole('button', { name: 'Delete Renata Enlace' }).click();
      const erase = page.getByRole('alertdialog', { name: 'Delete Renata Enlace?' });
      await erase.getByText(/every recorded event/).waitFor();
      await erase.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No lead matches').waitFor();
      expect(await leadCount()).toBe(before - 1);
      const gone = await fetch(`${running.server.url}/api/owner/leads/${made.lead.id}`, {
        headers: { authorization: `Bearer ${running.demo.apiKey}` },
      });
      expect(gone.status).toBe(404);
    } finally {
      await visitor.close();
      await close();
    }
  });
});
