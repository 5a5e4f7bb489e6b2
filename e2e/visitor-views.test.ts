import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSummary } from '../apps/server/src/modules/demo/demo.seed';
import { startTestServer, type TestServer } from '../apps/server/test/server';
import { launchChromium } from './chromium';

/** visitor-behaviour §2.2's entry views, the legal pages, preview navigation and the chat redirect, in Chromium. */
describe('visitor views in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let demo: DemoSummary;
  const foreign: string[] = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite', { RATE_LIMIT_PER_MINUTE: '0' });
    demo = await seedDemo(server.services, server.url);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  /** A visitor whose browser speaks `locale` (Spanish, as the demo's audience, unless a test says). */
  async function open(url: string, locale = 'es-ES'): Promise<{ page: Page; status: number | undefined }> {
    const page = await browser.newPage({ locale });
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreign.push(request.url());
    });
    const response = await page.goto(url);
    return { page, status: response?.status() };
  }

  const owner = (method: string, path: string, body: unknown) =>
    fetch(`${server.url}/api/owner${path}`, {
      method,
      headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** Whether React has taken over the server's HTML. */
  const hydrated = (page: Page) => () =>
    page.evaluate(() =>
      Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
    );

  const vsl = () => demo.funnels[0] ?? expect.unreachable('the demo has a VSL funnel');
  const lpi = () => demo.funnels[1] ?? expect.unreachable('the demo has a WhatsApp funnel');
  const lead = (funnel: DemoSummary['funnels'][number], i = 0) =>
    funnel.leads[i] ?? expect.unreachable('a demo lead');

  it.each([
    ['terms', 10, 'Términos y condiciones', 'mayo de 2025'],
    ['privacy', 12, 'Política de privacidad', 'mayo de 2025'],
  ] as const)(
    'opens the %s page with its %i sections and the domain substituted',
    async (kind, sections, title, date) => {
      const { page, status } = await open(`${lead(vsl()).url}?page=${kind}`);
      expect(status).toBe(200);
      expect(await page.title()).toBe(title);
      expect(await page.locator('.legal-page section h2').count()).toBe(sections);
      expect(await page.locator('.legal-page').textContent()).toContain('127.0.0.1');
      expect(await page.locator('.legal-page').textContent()).toContain(date);
      // The demo account's own contact address, never an empty one ("escribe a .").
      await expect.poll(hydrated(page)).toBe(true);
      const text = (await page.locator('.legal-page').textContent()) ?? '';
      expect(text).toContain('escribe a hola@demo.example.com.');
      expect(text).not.toMatch(/(escrib\w* a)\s*[.,;]/);
      await page.close();
    },
  );

  it('names who to write to on a legal page when no contact address applies, never an empty one', async () => {
    // An unknown link: no account's address, and this server sets no LEGAL_CONTACT_EMAIL.
    const { page } = await open(`${server.url}/demo/nobody-has-this-token-at-all?page=privacy`);
    await expect.poll(hydrated(page)).toBe(true);
    const text = (await page.locator('.legal-page').textContent()) ?? '';
    expect(text).toContain('escribe a quien te envió este enlace.');
    expect(text).not.toMatch(/(escrib\w* a)\s*[.,;]/);
    await page.close();
  });

  it('links the legal pages from the footer, opening in a new tab', async () => {
    const { page } = await open(lead(vsl()).url);
    const terms = page.locator('.site-footer a', { hasText: 'Términos y condiciones' });
    expect(await terms.getAttribute('target')).toBe('_blank');
    const [popup] = await Promise.all([page.waitForEvent('popup'), terms.click()]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).searchParams.get('page')).toBe('terms');
    expect(await popup.locator('.legal-page section').count()).toBe(10);
    await popup.close();
    await page.close();
  });

  it.each([
    ['es-ES', 'es', '¡Página no encontrada! 404', 'La página que buscas no está disponible.'],
    ['pt-BR', 'pt', 'Página não encontrada! 404', 'A página que você está procurando não está disponível.'],
    ['en-US', 'en', 'Page not found! 404', 'The page you are looking for is not available.'],
    // A language the product does not speak: the default, Spanish.
    ['de-DE', 'es', '¡Página no encontrada! 404', 'La página que buscas no está disponible.'],
  ] as const)(
    "shows the not-found view of an address with no account behind it in the browser's language (%s → %s)",
    async (locale, language, title, description) => {
      for (const url of [`${server.url}/`, `${server.url}/demo`]) {
        const { page, status } = await open(url, locale);
        expect(status, url).toBe(404);
        expect(await page.getAttribute('html', 'lang'), url).toBe(language);
        expect(await page.title(), url).toBe(title);
        expect(await page.locator('h1').textContent(), url).toBe(title);
        expect(await page.locator('main p').textContent(), url).toBe(description);
        // Still so once the page has hydrated.
        await expect.poll(hydrated(page)).toBe(true);
        expect(await page.locator('h1').textContent(), url).toBe(title);
        expect(await page.getAttribute('html', 'lang'), url).toBe(language);
        await page.close();
      }
    },
  );

  it('speaks English when the funnel does: lang, title and screens', async () => {
    expect((await owner('PATCH', `/funnels/${vsl().id}`, { language: 'en' })).status).toBe(200);
    try {
      const { page } = await open(lead(vsl()).url);
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await page.locator('.site-footer a').first().textContent()).toBe('Terms and conditions');
      await page.close();
      const legal = await open(`${lead(vsl()).url}?page=privacy`);
      expect(await legal.page.getAttribute('html', 'lang')).toBe('en');
      expect(await legal.page.locator('.legal-page').textContent()).toContain('May 2025');
      await legal.page.close();
      const unknown = await open(`${server.url}/demo/nobody-has-this-token-at-all`);
      expect(await unknown.page.locator('h1').textContent()).toBe(
        'Hmmmm... No conozco a nobody-has-this-token-at-all, ¡parece falso!',
      );
      await unknown.page.close();
    } finally {
      expect((await owner('PATCH', `/funnels/${vsl().id}`, { language: 'es' })).status).toBe(200);
    }
  });

  it('shows the expired view once the deadline passed without the exception, and the page with it', async () => {
    const funnel = vsl();
    const expired = {
      title: 'Se acabó',
      subtitle: 'El beneficio expiró',
      description: 'Vuelve al próximo lanzamiento',
      highlight: 'Hasta pronto',
    };
    const past = new Date(Date.now() - 60_000).toISOString();
    await owner('PATCH', `/funnels/${funnel.id}`, {
      deadline: { mode: 'fixed', at: past },
      isDeadlineExceptionOn: false,
      expiredPage: expired,
    });
    const { page } = await open(lead(funnel).url);
    expect(await page.locator('h1').textContent()).toBe('Se acabó');
    expect(await page.locator('.highlight').textContent()).toBe('Hasta pronto');
    await page.close();
    await owner('PATCH', `/funnels/${funnel.id}`, { isDeadlineExceptionOn: true });
    const withException = await open(lead(funnel).url);
    expect(await withException.page.locator('.headline').count()).toBe(1);
    await withException.page.close();
    await owner('PATCH', `/funnels/${funnel.id}`, { deadline: { mode: 'none' } });
  });

  it('shows the standard expired texts in English when the owner wrote none', async () => {
    const funnel = vsl();
    const past = new Date(Date.now() - 60_000).toISOString();
    const empty = { title: '', subtitle: '', description: '', highlight: '' };
    await owner('PATCH', `/funnels/${funnel.id}`, {
      language: 'en',
      deadline: { mode: 'fixed', at: past },
      isDeadlineExceptionOn: false,
      expiredPage: empty,
    });
    try {
      const { page, status } = await open(lead(funnel).url);
      expect(status).toBe(200);
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await page.locator('h1').textContent()).toBe('You missed the plane!');
      expect(await page.locator('h2').textContent()).toBe('Your benefit has expired...');
      expect(await page.locator('.expired p').first().textContent()).toBe(
        "That's why I told you to come in quickly to the training content.",
      );
      await page.close();
    } finally {
      await owner('PATCH', `/funnels/${funnel.id}`, {
        language: 'es',
        deadline: { mode: 'none' },
        isDeadlineExceptionOn: true,
      });
    }
  });

  it("shows the not-found screen when the owner's subscription is inactive", async () => {
    const account = await server.services.accounts.findBySlug('demo');
    if (!account) throw new Error('demo account missing');
    await server.services.accounts.setSubscription(account.id, 'inactive');
    try {
      const { page, status } = await open(lead(vsl()).url);
      expect(status).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('¡Página no encontrada! 404');
      await page.close();
    } finally {
      await server.services.accounts.setSubscription(account.id, 'active');
    }
  });

  it('shows the not-found screen, not "it looks fake", when the WhatsApp landing is switched off', async () => {
    const pageId = lpi().pages[0]?.id ?? '';
    await owner('PATCH', `/pages/${pageId}`, { isLpiOn: false });
    try {
      // A real lead, in an English browser: the funnel's language (es) applies.
      const { page, status } = await open(lead(lpi()).url, 'en-US');
      expect(status).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('¡Página no encontrada! 404');
      expect(await page.locator('main p').textContent()).toBe('La página que buscas no está disponible.');
      expect(await page.locator('#root').innerText()).not.toContain('parece falso');
      expect(await page.locator('.headline').count()).toBe(0);
      await page.close();
    } finally {
      await owner('PATCH', `/pages/${pageId}`, { isLpiOn: true });
    }
  });

  it('shows the landing variant with its chat disclaimers', async () => {
    const { page } = await open(lead(lpi()).url);
    expect(await page.locator('.landing-chat .headline').textContent()).toBe(
      'Únete al grupo de WhatsApp del lanzamiento',
    );
    expect(await page.locator('.landing-chat .topline').textContent()).toBe('Grupo privado y gratuito');
    expect(await page.locator('.site-footer').textContent()).toContain('WhatsApp');
    await page.close();
  });

  it('goes to the chat once with open=wpp, and shows the page when the visitor comes back', async () => {
    const chatUrl = `${server.url}/api/health?chat=1`;
    const pageId = lpi().pages[0]?.id ?? '';
    expect((await owner('PATCH', `/pages/${pageId}`, { buttonUrl: chatUrl })).status).toBe(200);
    const { page } = await open(`${lead(lpi(), 1).url}?open=wpp`);
    await page.waitForURL(chatUrl);
    await page.goBack();
    await expect.poll(() => page.locator('.headline').count()).toBe(1);
    expect(page.url()).toContain('open=wpp');
    await page.close();
  });

  it('moves forward and back through a funnel in preview mode', async () => {
    const { page } = await open(vsl().previewUrl);
    // Each arrow loads a new document, whose server HTML shows the arrows before React can act on a click.
    const click = async (name: string) => {
      await expect.poll(hydrated(page)).toBe(true);
      await page.getByRole('button', { name }).click();
    };
    expect(await page.locator('.preview-badge').textContent()).toBe('Modo previsualización');
    expect(await page.locator('.headline').textContent()).toContain('Clase 1');
    expect(await page.getByRole('button', { name: 'Página anterior' }).count()).toBe(0);
    await click('Siguiente página');
    await expect.poll(() => page.locator('.headline').textContent()).toContain('Clase 2');
    await click('Siguiente página');
    await expect.poll(() => page.locator('.headline').textContent()).toContain('Clase final');
    // The last page has no forward arrow; back returns through the visited pages.
    expect(await page.getByRole('button', { name: 'Siguiente página' }).count()).toBe(0);
    await click('Página anterior');
    await expect.poll(() => page.locator('.headline').textContent()).toContain('Clase 2');
    await click('Página anterior');
    await expect.poll(() => page.locator('.headline').textContent()).toContain('Clase 1');
    expect(await page.getByRole('button', { name: 'Página anterior' }).count()).toBe(0);
    await page.close();
  });

  it('asked no third-party host for anything during these tests', () => {
    expect(foreign).toEqual([]);
  });
});
