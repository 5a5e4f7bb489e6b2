import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { newPerson } from '../apps/server/test/studio';
import { launchChromium } from './chromium';
import { screenshot } from './studio-session';

/**
 * The Studio in Chromium against the real server (issue 18, items 3 and 5): the first run, sign-in
 * with a wrong then the right password, a lost session that comes back to the same screen after
 * signing in, the settings screens (account, members with an invitation accepted in another browser,
 * domains), and axe-core over each screen. Every test runs in order on one server: the first creates
 * the owner the others use.
 */

const OWNER = { name: 'Ana Souza', email: 'ana@acme.example', password: 'a long and unusual passphrase' };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now (injected over DevTools: the
 * Studio's policy refuses inline script, as it should). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: Document) => Promise<{ violations: Violation[] }> } })
      .axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact ?? '?'}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('the Studio in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  /** Anything the page's policy refused, or an uncaught error: none is expected anywhere. */
  const problems: string[] = [];

  const watch = (target: Page) => {
    target.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        problems.push(message.text());
    });
    target.on('pageerror', (error) => problems.push(error.message));
  };

  beforeAll(async () => {
    await build({
      configFile: fileURLToPath(new URL('../apps/studio/vite.config.ts', import.meta.url)),
      logLevel: 'warn',
    });
    server = await startTestServer('sqlite');
    browser = await launchChromium();
    // The owner's browser is in Bogotá: the first run gives the account that time zone.
    owner = await browser.newContext({
      locale: 'en-US',
      timezoneId: 'America/Bogota',
      viewport: { width: 1280, height: 800 },
    });
    await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await owner.newPage();
    watch(page);
  });

  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  it('first run: /studio offers to create the first owner and account, then opens the Studio', async () => {
    await page.goto(`${server.url}/studio`);
    await page.waitForURL(/\/studio\/setup$/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByLabel('Account name').fill('Acme Launches');
    await page.getByLabel('Handle').fill('acme');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/studio\/funnels$/);
    await expect.poll(() => page.getByText('Acme Launches').first().isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sign-in: a wrong password is refused on its field, the right one signs in', async () => {
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/studio\/sign-in/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.title()).toBe('Sign in · Embudo Studio');
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText("The e-mail or password isn't right.").isVisible()).toBe(true);
    expect(await page.getByLabel('E-mail').inputValue()).toBe(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/studio\/funnels$/);
  });

  it('a session that ends sends to sign-in, and back to the screen the owner was on', async () => {
    await page.goto(`${server.url}/studio/settings/account`);
    await expect.poll(() => page.getByLabel('Account name').inputValue()).toBe('Acme Launches');
    await owner.clearCookies();
    await page.getByRole('link', { name: 'Members' }).click();
    await page.waitForURL(/\/studio\/sign-in\?next=%2Fsettings%2Fmembers/);
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/studio\/settings\/members$/);
    await expect.poll(() => page.getByText(OWNER.email).first().isVisible()).toBe(true);
  });

  it('account settings: saved, kept after a reload; a bad colour is refused on its field', async () => {
    await page.goto(`${server.url}/studio/settings/account`);
    await expect.poll(() => page.getByLabel('Account name').inputValue()).toBe('Acme Launches');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('America/Bogota');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Time zone').selectOption('America/Sao_Paulo');
    await page.getByRole('textbox', { name: 'Contact e-mail (optional)' }).fill('hello@acme.example');
    await page.getByRole('textbox', { name: 'WhatsApp button colour (optional)' }).fill('green-ish');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText("The format isn't valid.").isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'WhatsApp button colour (optional)' }).fill('#128c7e');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText('Changes saved.').isVisible()).toBe(true);
    await page.reload();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Contact e-mail (optional)' }).inputValue())
      .toBe('hello@acme.example');
    expect(await page.getByRole('textbox', { name: 'WhatsApp button colour (optional)' }).inputValue()).toBe(
      '#128c7e',
    );
    expect(await page.getByLabel('Time zone').inputValue()).toBe('America/Sao_Paulo');
    await screenshot(page, 'studio-settings-1280');
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, 'studio-settings-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('members: an invitation link shown once is accepted in another browser; the owner changes the role and removes the member', async () => {
    await page.goto(`${server.url}/studio/settings/members`);
    await page.getByRole('button', { name: 'Invite' }).click();
    const dialog = page.getByRole('dialog');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Role').selectOption('editor');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const link = dialog.getByLabel('Link to share');
    await expect.poll(() => link.inputValue()).toContain('/studio/invite/');
    const url = await link.inputValue();
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const guest = await browser.newContext({ locale: 'pt-BR' });
    const guestPage = await guest.newPage();
    watch(guestPage);
    await guestPage.goto(url);
    await expect
      .poll(() => guestPage.getByRole('heading', { level: 1 }).textContent())
      .toBe('Você foi convidado para Acme Launches');
    expect(await seriousViolations(guestPage)).toEqual([]);
    await guestPage.getByLabel('Seu nome').fill('Bruno Lima');
    await guestPage.getByLabel('E-mail').fill('bruno@acme.example');
    await guestPage.getByLabel('Senha').fill('another long passphrase');
    await guestPage.getByRole('button', { name: 'Entrar na conta' }).click();
    await guestPage.waitForURL(/\/studio\/funnels$/);
    await guest.close();

    await page.reload();
    await expect.poll(() => page.getByText('bruno@acme.example', { exact: false }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Bruno Lima's role").selectOption('viewer');
    await expect.poll(() => page.getByText("Bruno Lima's role is now Viewer.").isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Remove: Bruno Lima' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect.poll(() => confirm.getByText('Remove Bruno Lima?').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByText('Bruno Lima is no longer a member.').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByText(OWNER.email).first().isVisible()).toBe(true);
    expect(await page.getByText('bruno@acme.example').count()).toBe(0);
  });

  it('a member of another account joins with their own user, then switches between the two accounts', async () => {
    const { account: other } = await server.services.accounts.create({ slug: 'beta', name: 'Beta Courses' });
    const carla = await newPerson(server.services, other, 'owner');
    await page.goto(`${server.url}/studio/settings/members`);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Create link' }).click();
    const link = page.getByRole('dialog').getByLabel('Link to share');
    await expect.poll(() => link.inputValue()).toContain('/studio/invite/');
    const url = await link.inputValue();
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

    const context = await browser.newContext({ locale: 'en-US' });
    const other_ = await context.newPage();
    watch(other_);
    await other_.goto(`${server.url}/studio/sign-in`);
    await other_.getByLabel('E-mail').fill(carla.email);
    await other_.getByLabel('Password').fill(carla.password);
    await other_.getByRole('button', { name: 'Sign in' }).click();
    await other_.waitForURL(/\/studio\/funnels$/);
    await other_.goto(url);
    await other_.getByRole('button', { name: /^Join as / }).click();
    await other_.waitForURL(/\/studio\/funnels$/);
    // Joined and now working in Acme; the switcher offers both accounts.
    await other_.getByRole('button', { name: /Switch account: Acme Launches/ }).click();
    expect(await seriousViolations(other_)).toEqual([]);
    await other_.getByRole('menuitemradio', { name: /Beta Courses/ }).click();
    await expect.poll(() => other_.getByText("You're now working in Beta Courses.").isVisible()).toBe(true);
    await other_.goto(`${server.url}/studio/settings/account`);
    await expect.poll(() => other_.getByLabel('Account name').inputValue()).toBe('Beta Courses');
    await context.close();
  });

  it('domains: added, refused when malformed, removed with a confirmation', async () => {
    await page.goto(`${server.url}/studio/settings/domains`);
    await expect.poll(() => page.getByText('No domains yet').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'Domain' }).fill('not a domain');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => page.getByText("The format isn't valid.").isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Domain' }).fill('offers.acme.example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => page.getByText('Domain added.').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByText('offers.acme.example').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Remove: offers.acme.example' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByText('No domains yet').isVisible()).toBe(true);
  });

  it('API keys: a new key is shown once and opens the owner API; revoked, it opens nothing', async () => {
    await page.goto(`${server.url}/studio/settings/api-keys`);
    await page.getByRole('button', { name: 'New key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Name').fill('Zapier');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const revealed = page.getByRole('dialog', { name: 'Your new key' });
    const shown = revealed.getByRole('textbox', { name: 'Zapier' });
    await shown.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const key = await shown.inputValue();
    expect(key).toMatch(/^emb_/);
    const withKey = { headers: { authorization: `Bearer ${key}` } };
    expect((await fetch(`${server.url}/api/owner/funnels`, withKey)).status).toBe(200);
    await revealed.getByRole('button', { name: 'Done' }).click();
    // Listed by its first characters only: the key itself is never on the page again.
    await expect.poll(() => page.getByText('Zapier', { exact: true }).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(key);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Revoke: Zapier' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.getByText('Key revoked.').isVisible()).toBe(true);
    expect((await fetch(`${server.url}/api/owner/funnels`, withKey)).status).toBe(401);
  });

  it("profile: the language chosen is the Studio's at once and after a reload", async () => {
    await page.goto(`${server.url}/studio/profile`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Studio language').selectOption('es');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Perfil');
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Perfil');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
  });

  it('at 390 px the sidebar is a drawer, reachable and closable by keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/studio/settings/account`);
    await page.getByRole('button', { name: 'Abrir menú' }).focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menú' });
    await expect.poll(() => drawer.isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("nothing was refused by the Studio's policy, and no page threw", () => {
    expect(problems).toEqual([]);
  });
});
