import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/test/free-port';
import { buildServerBundle, SERVER_NODE_FLAGS } from '../scripts/build-server';
import { launchChromium } from './chromium';
import { buildStudio } from './studio-session';

/**
 * Issue 18's walk through the Studio, in one go, as an owner would do it: the real `npm start`
 * process (the built server bundle on a fresh embedded database), signed in to with the demo owner's
 * e-mail and password exactly as it prints them; a funnel from the VSL template, a page's headline and
 * button time changed, a lead created and its link opened by the lead; a CSV of 1,000 leads with one
 * bad row refused (the row named, nothing imported), fixed, imported, and its links downloaded; then
 * sign-out, after which the old session cookie opens nothing.
 */
describe('Studio, end to end from the demo sign-in npm start prints', () => {
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let browser: Browser | undefined;
  // A port the system gives: one picked at random can be a connection's own port of another test.
  let port = 0;
  let base = '';

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${String(port)}`;
    await buildStudio();
    dir = mkdtempSync(join(tmpdir(), 'embudo-studio-'));
    child = spawn(process.execPath, [...SERVER_NODE_FLAGS, await buildServerBundle()], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(dir, 'embudo.db')}`,
        PUBLIC_URL: base,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const until = Date.now() + 60_000;
    while (!output.includes('Embudo is serving on')) {
      if (Date.now() > until) throw new Error(`the server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** How many leads the funnel of that name has, read through the owner API with the printed key. */
  async function leadsOf(name: string): Promise<number> {
    const apiKey = /API key: (emb_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? expect.unreachable('the API key');
    const answer = await fetch(`${base}/api/owner/funnels`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const funnels = (await answer.json()) as { name: string; leadCount: number }[];
    return funnels.find((funnel) => funnel.name === name)?.leadCount ?? expect.unreachable(name);
  }

  /** A CSV of `count` new leads; `bad` replaces one of its rows (0-based) with a line of its own. */
  const csv = (count: number, bad?: { index: number; line: string }) =>
    [
      'name,email,phone',
      ...Array.from({ length: count }, (_, i) =>
        i === bad?.index
          ? bad.line
          : `Comprador ${String(i)},comprador${String(i)}@example.com,+52 55 1000 ${String(1000 + i)}`,
      ),
    ].join('\n');

  it('signs in, builds a funnel, adds and imports leads, and signs out for good', async () => {
    const printed = /Studio: (\S+)\n {2}e-mail: {3}(\S+)\n {2}password: (\S+)\n/.exec(output);
    const [, studioUrl = '', email = '', password = ''] = printed ?? expect.unreachable(output);
    expect(studioUrl).toBe(`${base}/studio`);

    const chromium = browser ?? expect.unreachable('Chromium');
    const context = await chromium.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      // Sign in with what npm start printed.
      await page.goto(studioUrl);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Funnels' }).waitFor();

      // A funnel from the VSL template.
      await page.getByRole('button', { name: 'New funnel' }).click();
      const create = page.getByRole('dialog', { name: 'New funnel' });
      await create.getByLabel('Template: VSL launch').check();
      await create.getByLabel('Name').fill('Lanzamiento de diciembre');
      await create.getByRole('button', { name: 'Create funnel' }).click();
      await page.getByRole('heading', { level: 1, name: 'Lanzamiento de diciembre' }).waitFor();

      // Its first page: a new headline and button time.
      await page
        .getByRole('link', { name: /^Edit / })
        .first()
        .click();
      await page.getByLabel('Headline', { exact: true }).fill('La clase de diciembre empieza hoy');
      await page.getByLabel('Minutes', { exact: true }).fill('2');
      await page.getByLabel('Seconds', { exact: true }).fill('15');
      await page.getByRole('button', { name: 'Save page' }).click();
      await page.getByText('Page saved.', { exact: true }).waitFor();

      // A lead, whose link (shown once) opens the changed page for them.
      await page
        .getByRole('navigation', { name: 'Funnel sections' })
        .getByRole('link', { name: 'Leads' })
        .click();
      await page.getByRole('button', { name: 'New lead' }).click();
      const newLead = page.getByRole('dialog', { name: 'New lead' });
      await newLead.getByLabel('Name').fill('Valentina Rojas');
      await newLead.getByRole('button', { name: 'Create lead' }).click();
      const leadUrl = await page.getByLabel('Personal link').inputValue();
      expect(leadUrl).toMatch(new RegExp(`^${base}/demo/[A-Za-z0-9_-]{32}$`));
      await page.getByRole('button', { name: 'Done' }).click();
      const visitor = await chromium.newContext({ locale: 'es-ES' });
      try {
        const lead = await visitor.newPage();
        await lead.goto(leadUrl);
        await expect.poll(() => lead.textContent('body')).toContain('La clase de diciembre empieza hoy');
      } finally {
        await visitor.close();
      }

      // A CSV of 1,000 leads with one bad row: refused, the row named, nothing imported.
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import leads from a CSV' });
      await dialog.getByLabel('CSV file').setInputFiles({
        name: 'leads.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv(1000, { index: 411, line: 'Comprador 411,no-es-un-correo,' })),
      });
      const report = dialog.getByRole('table', { name: 'Problems by row' });
      await report.waitFor();
      // Row 413 of the file: its header is row 1, lead 0 row 2.
      expect(await report.locator('tbody tr').allTextContents()).toEqual([
        expect.stringMatching(/^413email/),
      ]);
      expect(await dialog.getByRole('button', { name: /^Import \d+ leads$/ }).isDisabled()).toBe(true);
      expect(await leadsOf('Lanzamiento de diciembre')).toBe(1);
      await page.keyboard.press('Escape');

      // Fixed, imported, and the new links downloaded.
      await page.getByRole('button', { name: 'Import CSV' }).click();
      await dialog.getByLabel('CSV file').setInputFiles({
        name: 'leads.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv(1000)),
      });
      await dialog.getByRole('button', { name: 'Import 1000 leads' }).click();
      await dialog.getByText('1000 leads imported.').waitFor({ timeout: 60_000 });
      expect(await leadsOf('Lanzamiento de diciembre')).toBe(1001);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Download links (CSV)' }).click(),
      ]);
      const rows = Papa.parse<string[]>((await readFile(await download.path(), 'utf8')).trim()).data;
      expect(rows).toHaveLength(1001);
      const header = rows[0] ?? [];
      const urlColumn = header.indexOf('url');
      const last = rows[1000] ?? [];
      expect(last[header.indexOf('name')]).toBe('Comprador 999');
      const importedUrl = last[urlColumn] ?? '';
      const opened = await fetch(importedUrl);
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain('La clase de diciembre empieza hoy');

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // Sign out: the cookie the browser held no longer opens the Studio's session or the owner API.
      const [cookie] = await context.cookies(base);
      const held = `${cookie?.name ?? ''}=${cookie?.value ?? ''}`;
      expect((await fetch(`${base}/api/auth/session`, { headers: { cookie: held } })).status).toBe(200);
      await page.getByRole('button', { name: /User menu/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect((await fetch(`${base}/api/auth/session`, { headers: { cookie: held } })).status).toBe(401);
      expect((await fetch(`${base}/api/owner/funnels`, { headers: { cookie: held } })).status).toBe(401);
    } finally {
      await context.close();
    }
  });
});
