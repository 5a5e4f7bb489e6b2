import type { LeadCreated, PreviewCreated } from '@embudo/contracts';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDomainVerified } from '../apps/server/test/fixtures';
import { api, startTestServer, type TestServer } from '../apps/server/test/server';
import { launchChromium } from './chromium';

/**
 * Every branch of visitor-behaviour §2.2, shown in English wherever an English configuration can reach it, in
 * Debian's Chromium against the real server and database. The test builds its own accounts, funnels,
 * pages, leads and custom domains through the services and the owner API, so it never touches the
 * demo data the other end-to-end files use.
 *
 * The texts asserted are those of visitor-behaviour §2.5 and of the English catalogue (apps/web/src/i18n/catalog.ts).
 *
 * Which language a view is in: `<html lang>` and the texts come from the page configuration's
 * `language` (visitor-behaviour §2.2, "default es"). Only a resolved funnel carries one. Whenever the server
 * resolves no funnel (no token in the address, an unknown token, an account that cannot show pages),
 * the view speaks the visitor's language, from the browser's Accept-Language (es when it names none
 * Embudo speaks), whatever the account's funnels are written in. The browsers here speak English
 * unless a test gives another locale.
 */

/** A custom domain of the English account, and a reserved test domain it also connected (RFC 2606). */
const CUSTOM_HOST = 'promo-en.test';
const RESERVED_HOST = 'example.com';

/** The English catalogue's texts (apps/web/src/i18n/catalog.ts), as visitor-behaviour §2.5 gives them. */
const EN = {
  loading: 'Loading…',
  notFoundTitle: 'Page not found! 404',
  notFoundDescription: 'The page you are looking for is not available.',
  invalidLinkTitle: (name: string) => `Hmmmm... I don't know ${name}, it looks fake!`,
  invalidLinkDescription:
    "Something's not right here. I suggest accessing with the links exactly as we provided them.",
  expiredTitle: 'You missed the plane!',
  expiredSubtitle: 'Your benefit has expired...',
  expiredDescription: "That's why I told you to come in quickly to the training content.",
  greeting: 'Hey',
  notAffiliated:
    'This site is not a part of the Facebook website or Meta Platforms, Inc. Additionally, this site is NOT endorsed by Facebook in any way. FACEBOOK is a trademark of Meta Platforms, Inc.',
  chatNotice:
    'By clicking the button, you will start a conversation on WhatsApp. Messages are sent by the business, not by WhatsApp. You can stop receiving messages at any time by writing STOP.',
  terms: 'Terms and conditions',
  privacy: 'Privacy policy',
} as const;

/**
 * The Spanish texts: what a visitor whose browser asks for Spanish, or for a language Embudo does not
 * speak, sees where no funnel's language applies.
 */
const ES = {
  notFoundTitle: '¡Página no encontrada! 404',
  notFoundDescription: 'La página que buscas no está disponible.',
  invalidLinkTitle: (name: string) => `Hmmmm... No conozco a ${name}, ¡parece falso!`,
  invalidLinkDescription:
    'Algo no está bien aquí. Te sugiero acceder con los enlaces exactamente como te los proporcionamos.',
} as const;

const VSL_HEADLINE = 'Lesson 1: <strong>the method</strong> that changes your sales';
const VSL_HEADLINE_TEXT = 'Lesson 1: the method that changes your sales';
const CHAT_HEADLINE_TEXT = 'Join the launch WhatsApp group';

/** What the landing shows, as the page reports it while it redirects to the chat. */
interface Shown {
  reason: string;
  href: string;
  lang: string;
  spinners: number;
  spinnerLabel: string | null;
  spinnerVisible: boolean;
  busy: boolean;
  fullScreen: boolean;
  rootText: string;
}

interface Lead {
  name: string;
  token: string;
  /** On the base domain: {server}/{slug}/{token}. */
  url: string;
  /** On the account's custom domain: http://promo-en.test:{port}/{token}. */
  customUrl: string;
}

describe('visitor views in English in Chromium (visitor-behaviour §2.2)', () => {
  let server: TestServer;
  let browser: Browser;
  /** http://{host}:{port}: the test server, under each name the browser can reach it by. */
  const serverOrigins: string[] = [];
  /** Every request the browser sent anywhere else, and how many it sent to the test server. */
  const foreign: string[] = [];
  let local = 0;
  const contexts: BrowserContext[] = [];

  let enKey = '';
  let inactiveAccountId = '';
  let chatUrl = '';
  const leads = {} as Record<
    | 'alice'
    | 'phone'
    | 'greeted'
    | 'expiredOwn'
    | 'expiredExcepted'
    | 'expiredStandard'
    | 'chatSpinner'
    | 'chatOnce'
    | 'chatOff'
    | 'inactive',
    Lead
  >;
  let enPreviewToken = '';

  const originOf = (host: string) => `http://${host}:${new URL(server.url).port}`;

  /** An owner API call that must answer `status`; its JSON body. */
  async function owner<T>(
    key: string,
    method: string,
    path: string,
    body: unknown,
    status: number,
  ): Promise<T> {
    const answer = await api(server, method, `/api/owner${path}`, { key, body });
    if (answer.status !== status) {
      throw new Error(`${method} ${path} answered ${answer.status}, not ${status}: ${answer.text}`);
    }
    return answer.body as T;
  }

  async function createLead(key: string, funnelId: string, input: Record<string, unknown>): Promise<Lead> {
    const created = await owner<LeadCreated>(key, 'POST', `/funnels/${funnelId}/leads`, input, 201);
    return {
      name: created.lead.name,
      token: created.token,
      url: created.url,
      customUrl: `${originOf(CUSTOM_HOST)}/${encodeURIComponent(created.token)}`,
    };
  }

  /** A funnel with its pages, in the owner's account. */
  async function createFunnel(
    key: string,
    funnel: Record<string, unknown>,
    pages: Record<string, unknown>[],
  ): Promise<{ id: string; pageIds: string[] }> {
    const { id } = await owner<{ id: string }>(key, 'POST', '/funnels', funnel, 201);
    const pageIds: string[] = [];
    for (const page of pages) {
      pageIds.push((await owner<{ id: string }>(key, 'POST', `/funnels/${id}/pages`, page, 201)).id);
    }
    return { id, pageIds };
  }

  beforeAll(async () => {
    server = await startTestServer('sqlite', { RATE_LIMIT_PER_MINUTE: '0' });
    for (const host of ['127.0.0.1', 'localhost', CUSTOM_HOST, RESERVED_HOST]) {
      serverOrigins.push(originOf(host));
    }
    // Debian's Chromium, as ./chromium.ts launches it, plus a resolver rule so that the custom domains
    // reach the test server. Every other name fails to resolve: nothing can leave this machine.
    browser = await launchChromium([
      `--host-resolver-rules=MAP ${CUSTOM_HOST} 127.0.0.1, MAP ${RESERVED_HOST} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost`,
    ]);

    // The English owner: an account, two custom domains, and one funnel per situation.
    const created = await server.services.accounts.create({
      slug: 'english-owner',
      name: 'English owner',
      settings: { contactEmail: 'help@promo-en.test', lpiButtonBgColor: null },
    });
    enKey = created.apiKey;
    await owner(enKey, 'POST', '/domains', { host: CUSTOM_HOST }, 201);
    // The owner API accepts a reserved test domain; the visitor app never serves pages on it (visitor-behaviour §2.2 step 3).
    await owner(enKey, 'POST', '/domains', { host: RESERVED_HOST }, 201);
    // Both proved by DNS, as if their records had been seen (decision 27).
    for (const host of [CUSTOM_HOST, RESERVED_HOST]) await markDomainVerified(server.database.db, host);
    const poster = `${server.url}/assets/demo/poster.jpg`;
    chatUrl = `${server.url}/api/health?chat=en`;

    const vsl = await createFunnel(enKey, { name: 'English VSL', typeFunnel: 'VSL', language: 'en' }, [
      {
        buttonAction: 'NEXT-PAGE',
        headline: VSL_HEADLINE,
        subheadline: '{name}, watch the whole video: the button appears at the end.',
        showSubHeadLine: true,
        buttonCopy: 'Watch lesson 2',
        bgImageUrl: poster,
      },
      { buttonAction: 'NEXT-PAGE', headline: 'Lesson 2: the <em>three mistakes</em>' },
    ]);
    leads.alice = await createLead(enKey, vsl.id, { name: 'Alice Smith' });
    // A phone number saved as the name: the default greeting (visitor-behaviour §2.4), in English 'Hey'.
    leads.phone = await createLead(enKey, vsl.id, { name: '+1 555 0100' });
    const firstPage = vsl.pageIds[0] ?? expect.unreachable('the English VSL has a first page');
    enPreviewToken = (await owner<PreviewCreated>(enKey, 'POST', `/pages/${firstPage}/preview`, {}, 201))
      .token;

    const greeted = await createFunnel(enKey, { name: 'English greeting', language: 'en' }, [
      { buttonAction: 'NEXT-PAGE', headline: '{name}, <strong>this class</strong> is for you' },
    ]);
    leads.greeted = await createLead(enKey, greeted.id, { name: 'Grace Hopper' });

    const past = new Date(Date.now() - 60 * 60_000).toISOString();
    const expiredOwn = await createFunnel(
      enKey,
      {
        name: 'English expired, own texts',
        language: 'en',
        deadline: { mode: 'fixed', at: past },
        isDeadlineExceptionOn: false,
        expiredPage: {
          title: 'Too late, friend',
          subtitle: 'The launch is closed',
          description: 'Doors open again next spring.',
          highlight: 'See you soon',
          bgImageUrl: poster,
        },
      },
      [{ buttonAction: 'NEXT-PAGE', headline: 'Still open for you' }],
    );
    leads.expiredOwn = await createLead(enKey, expiredOwn.id, { name: 'Oscar' });
    // The same funnel, for a lead the owner granted the deadline exception to.
    leads.expiredExcepted = await createLead(enKey, expiredOwn.id, {
      name: 'Xavier',
      deadlineExceptionOn: true,
    });

    const expiredStandard = await createFunnel(
      enKey,
      {
        name: 'English expired, standard texts',
        language: 'en',
        deadline: { mode: 'fixed', at: past },
        isDeadlineExceptionOn: false,
      },
      [{ buttonAction: 'NEXT-PAGE', headline: 'Never shown' }],
    );
    leads.expiredStandard = await createLead(enKey, expiredStandard.id, { name: 'Sam' });

    const chatPage = {
      layout: 'landing',
      buttonAction: 'LPI-REDIRECT-WPP',
      topline: 'Private and free group',
      showTopLine: true,
      headline: 'Join the launch <strong>WhatsApp</strong> group',
      buttonCopy: 'Join the group',
      buttonUrl: chatUrl,
    };
    const chat = await createFunnel(enKey, { name: 'English WhatsApp', typeFunnel: 'LPI', language: 'en' }, [
      chatPage,
    ]);
    leads.chatSpinner = await createLead(enKey, chat.id, { name: 'Diana' });
    leads.chatOnce = await createLead(enKey, chat.id, { name: 'Ethan' });
    const chatOff = await createFunnel(
      enKey,
      { name: 'English WhatsApp, switched off', typeFunnel: 'LPI', language: 'en' },
      [{ ...chatPage, isLpiOn: false }],
    );
    leads.chatOff = await createLead(enKey, chatOff.id, { name: 'Fiona' });

    // A second English owner, whose subscription the load-error test switches off and on.
    const inactive = await server.services.accounts.create({ slug: 'english-lapsed', name: 'Lapsed' });
    inactiveAccountId = inactive.account.id;
    const lapsed = await createFunnel(inactive.apiKey, { name: 'Lapsed VSL', language: 'en' }, [
      { buttonAction: 'NEXT-PAGE', headline: 'A page of a <em>lapsed</em> account' },
    ]);
    leads.inactive = await createLead(inactive.apiKey, lapsed.id, { name: 'Ivy' });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser.close();
    await server.close();
  });

  function record(request: Request): void {
    const url = request.url();
    if (serverOrigins.some((origin) => url === origin || url.startsWith(`${origin}/`))) local += 1;
    else foreign.push(url);
  }

  /**
   * A fresh browser context (its own per-tab storage) and tab, whose browser speaks `locale` (English,
   * the audience of these funnels, unless a test says); every request it makes is recorded.
   */
  async function newTab(locale = 'en-US'): Promise<Page> {
    const context = await browser.newContext({ locale });
    contexts.push(context);
    context.on('request', record);
    return context.newPage();
  }

  async function open(url: string, locale?: string): Promise<{ page: Page; status: number | undefined }> {
    const page = await newTab(locale);
    const response = await page.goto(url);
    return { page, status: response?.status() };
  }

  const lang = (page: Page) => page.getAttribute('html', 'lang');
  const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim();

  /** The page is hydrated: React has taken over the server's HTML. */
  const hydrated = (page: Page) =>
    expect
      .poll(() =>
        page.evaluate(() =>
          Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
        ),
      )
      .toBe(true);

  async function expectNotFound(page: Page, texts: { notFoundTitle: string; notFoundDescription: string }) {
    expect(await text(page, 'main.not-found h1')).toBe(texts.notFoundTitle);
    expect(await text(page, 'main.not-found p')).toBe(texts.notFoundDescription);
    expect(await page.locator('.headline').count()).toBe(0);
  }

  // visitor-behaviour §2.2 step 1 ------------------------------------------------------------------------------------

  // The spinner "while the page configuration loads" cannot be observed in this product today: the
  // server resolves the configuration and inlines it in the first HTML (architecture §3), and the browser
  // starts from that data and fetches none (decision 0009: client-side transitions, preview navigation
  // included, are full page loads for now). The spinner "while redirecting to the chat" can: the
  // browser is held on its way to the chat, and the landing reports what it shows meanwhile.
  // (Playwright cannot query a document whose frame has a navigation pending, so the page itself
  // reports, through an exposed function, at the moment it starts leaving and then while it waits.)
  it('shows the full-screen spinner, labelled in English, while it redirects to the chat (open=wpp)', async () => {
    const page = await newTab();
    const landing = `${leads.chatSpinner.url}?open=wpp`;
    let held = false;
    const seen: (Shown & { held: boolean })[] = [];
    await page.exposeFunction('__embudoShown', (shown: Shown) => {
      seen.push({ ...shown, held });
    });
    await page.addInitScript(() => {
      const report = (reason: string) => {
        const spinner = document.querySelector('[role="status"]');
        const box = spinner?.getBoundingClientRect();
        const main = document.querySelector('main');
        const shown: Shown = {
          reason,
          href: location.href,
          lang: document.documentElement.lang,
          spinners: document.querySelectorAll('[role="status"]').length,
          spinnerLabel: spinner?.getAttribute('aria-label') ?? null,
          spinnerVisible: box !== undefined && box.width > 0 && box.height > 0,
          busy: main?.getAttribute('aria-busy') === 'true',
          fullScreen: (main?.getBoundingClientRect().height ?? 0) >= window.innerHeight,
          rootText: (document.getElementById('root')?.innerText ?? '').trim(),
        };
        void (window as unknown as { __embudoShown: (s: Shown) => Promise<void> }).__embudoShown(shown);
      };
      // The Navigation API announces the redirect synchronously, before the browser leaves.
      const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
      navigation?.addEventListener('navigate', (event) => {
        report(`navigate ${(event as Event & { destination: { url: string } }).destination.url}`);
      });
      setInterval(() => {
        report('while waiting');
      }, 100);
    });
    let reached!: () => void;
    const redirecting = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.href === chatUrl,
      async (route) => {
        held = true;
        reached();
        await released;
        await route.continue();
      },
    );
    const response = await page.goto(landing, { waitUntil: 'commit' });
    expect(response?.status()).toBe(200);
    await redirecting;
    await expect.poll(() => seen.some((s) => s.held && s.href === landing)).toBe(true);
    release();
    await page.waitForURL(chatUrl);
    expect(await page.locator('body').textContent()).toContain('"status":"ok"');

    const spinnerOnly = {
      href: landing,
      lang: 'en',
      spinners: 1,
      spinnerLabel: EN.loading,
      spinnerVisible: true,
      busy: true,
      fullScreen: true,
      rootText: '',
    };
    // At the moment the browser starts leaving for the chat, the landing shows only the spinner…
    const leaving = seen.find((s) => s.reason === `navigate ${chatUrl}`);
    expect(leaving).toMatchObject(spinnerOnly);
    // …and it still does while the chat is on its way.
    expect(seen.find((s) => s.held && s.href === landing)).toMatchObject(spinnerOnly);
    // Nothing else was ever painted on the landing: no headline, no footer, no page text.
    expect(seen.filter((s) => s.href === landing && s.rootText !== '')).toEqual([]);
  });

  it('goes to the chat once with open=wpp, and shows the English landing when the visitor comes back', async () => {
    const page = await newTab();
    const chatVisits: string[] = [];
    page.on('request', (request) => {
      if (request.url() === chatUrl) chatVisits.push(request.url());
    });
    const landing = `${leads.chatOnce.url}?open=wpp`;
    await page.goto(landing);
    await page.waitForURL(chatUrl);
    await page.goBack();
    await expect.poll(() => page.locator('.landing-chat .headline').count()).toBe(1);
    await hydrated(page);
    // Rendering the page needs the browser to have read the per-tab flag, which happens after the
    // redirect effect of the same render ran: had it gone to the chat again, it would have by now.
    expect(page.url()).toBe(landing);
    expect(chatVisits).toHaveLength(1);
    expect(await lang(page)).toBe('en');
    expect(await text(page, '.landing-chat .headline')).toBe(CHAT_HEADLINE_TEXT);
    expect(await text(page, '.landing-chat .topline')).toBe('Private and free group');
    const footer = page.locator('.site-footer p');
    expect(await footer.allTextContents()).toEqual([EN.notAffiliated, EN.chatNotice]);
    expect(await page.getByRole('status').count()).toBe(0);
  });

  // visitor-behaviour §2.2 step 2 ------------------------------------------------------------------------------------

  it.each([
    ['terms', EN.terms, 'Terms and Conditions', 10, '1. About this site'],
    ['privacy', EN.privacy, 'Privacy Policy', 12, '1. Who we are'],
  ] as const)(
    'shows the %s page in English on the custom domain, with the domain and contact address filled in',
    async (kind, title, heading, sections, first) => {
      const { page, status } = await open(`${leads.alice.customUrl}?page=${kind}`);
      expect(status).toBe(200);
      expect(await lang(page)).toBe('en');
      expect(await page.title()).toBe(title);
      expect(await text(page, '.legal-page h1')).toBe(heading);
      expect(await text(page, '.legal-page .legal-updated')).toBe('Last updated: May 2025');
      expect(await page.locator('.legal-page section h2').count()).toBe(sections);
      expect((await page.locator('.legal-page section h2').first().textContent())?.trim()).toBe(first);
      const body = (await page.locator('.legal-page').textContent()) ?? '';
      expect(body).toContain(CUSTOM_HOST);
      expect(body).toContain('help@promo-en.test');
      expect(body).not.toContain('{domain}');
      expect(body).not.toContain('{email}');
      // The legal page replaces the page: no headline, no footer.
      expect(await page.locator('.headline').count()).toBe(0);
      await hydrated(page);
      expect(await text(page, '.legal-page h1')).toBe(heading);
    },
  );

  it('opens the English legal pages in a new tab from the footer: the current path plus page=', async () => {
    const { page } = await open(leads.alice.customUrl);
    const privacy = page.locator('.site-footer a', { hasText: EN.privacy });
    expect(await privacy.getAttribute('target')).toBe('_blank');
    expect(await privacy.getAttribute('href')).toBe(`/${leads.alice.token}?page=privacy`);
    expect(await page.locator('.site-footer a', { hasText: EN.terms }).getAttribute('href')).toBe(
      `/${leads.alice.token}?page=terms`,
    );
    await hydrated(page);
    const [popup] = await Promise.all([page.waitForEvent('popup'), privacy.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(`${leads.alice.customUrl}?page=privacy`);
    expect(await lang(popup)).toBe('en');
    expect(await popup.title()).toBe(EN.privacy);
    expect(await text(popup, '.legal-page h1')).toBe('Privacy Policy');
    expect(await popup.locator('.legal-page section').count()).toBe(12);
  });

  it('shows the normal English page for a page= value that is neither terms nor privacy', async () => {
    const { page, status } = await open(`${leads.alice.url}?page=faq`);
    expect(status).toBe(200);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(VSL_HEADLINE_TEXT);
    expect(await text(page, '.funnel .headline')).toBe(VSL_HEADLINE_TEXT);
    expect(await page.locator('.legal-page').count()).toBe(0);
  });

  // visitor-behaviour §2.2 step 3 ------------------------------------------------------------------------------------

  // The empty domain cannot be reached from a browser: every address it can open has a host, and
  // userDomain is protocol plus host (visitor-behaviour §2.1). The two restricted cases can, in English, when the
  // address still resolves an English funnel: a preview link on a base domain without a slug, and a
  // lead link on a reserved test domain the owner connected.
  it('shows the English not-found view on a base domain without a slug, for an English preview', async () => {
    const { page, status } = await open(`${server.url}/?previewToken=${enPreviewToken}`);
    expect(status).toBe(404);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(EN.notFoundTitle);
    await expectNotFound(page, EN);
    expect(await page.locator('.preview-badge').count()).toBe(0);
    await hydrated(page);
    await expectNotFound(page, EN);
  });

  it('shows the English not-found view on a reserved test domain, even for a valid English lead', async () => {
    const { page, status } = await open(`${originOf(RESERVED_HOST)}/${leads.alice.token}`);
    expect(status).toBe(404);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(EN.notFoundTitle);
    await expectNotFound(page, EN);
    await hydrated(page);
    await expectNotFound(page, EN);
  });

  it.each([
    ['en-US', 'en', EN],
    ['es-MX', 'es', ES],
    ['fr-FR', 'es', ES],
  ] as const)(
    "speaks the browser's language (%s → %s) on a restricted domain when no funnel is resolved",
    async (locale, language, texts) => {
      // No token, so no funnel and no configured language: the visitor's Accept-Language decides,
      // es when it names no language Embudo speaks.
      for (const url of [`${server.url}/`, `${originOf('localhost')}/`, `${originOf(RESERVED_HOST)}/`]) {
        const { page, status } = await open(url, locale);
        expect(status, url).toBe(404);
        expect(await lang(page), url).toBe(language);
        await expectNotFound(page, texts);
        await hydrated(page);
        await expectNotFound(page, texts);
      }
    },
  );

  // visitor-behaviour §2.2 step 4 ------------------------------------------------------------------------------------

  // A load error in English cannot be reached. The browser never loads the configuration itself
  // (see step 1), so there is no client-side request to fail; the load errors that exist are the
  // account's (INACTIVE_SUBSCRIPTION, CANT_GET_USER, visitor-behaviour §4.1), whose answer carries no page data and
  // so no funnel language: the not-found view is in the visitor's own language (English here).
  it("shows the not-found view, in the visitor's language, when an English owner's subscription lapses", async () => {
    const before = await open(leads.inactive.url);
    expect(before.status).toBe(200);
    expect(await lang(before.page)).toBe('en');
    expect(await before.page.title()).toBe('A page of a lapsed account');
    await server.services.accounts.setSubscription(inactiveAccountId, 'inactive');
    try {
      const { page, status } = await open(leads.inactive.url);
      expect(status).toBe(404);
      expect(await lang(page)).toBe('en');
      expect(await page.title()).toBe(EN.notFoundTitle);
      await expectNotFound(page, EN);
      await hydrated(page);
      await expectNotFound(page, EN);
      const spanish = await open(leads.inactive.url, 'es-ES');
      expect(await lang(spanish.page)).toBe('es');
      await expectNotFound(spanish.page, ES);
    } finally {
      await server.services.accounts.setSubscription(inactiveAccountId, 'active');
    }
  });

  // visitor-behaviour §2.2 step 5 ------------------------------------------------------------------------------------

  it("shows the expired view with the owner's texts and background image, in an English page", async () => {
    const poster = `${server.url}/assets/demo/poster.jpg`;
    const page = await newTab();
    const image = page.waitForResponse(poster);
    const response = await page.goto(leads.expiredOwn.url);
    expect(response?.status()).toBe(200);
    expect(await lang(page)).toBe('en');
    expect(await text(page, 'main.expired h1')).toBe('Too late, friend');
    expect(await text(page, 'main.expired h2')).toBe('The launch is closed');
    expect(await text(page, 'main.expired p:not(.highlight)')).toBe('Doors open again next spring.');
    expect(await text(page, 'main.expired .highlight')).toBe('See you soon');
    expect(await page.locator('.headline').count()).toBe(0);
    expect(await page.locator('main.expired').evaluate((el) => getComputedStyle(el).backgroundImage)).toBe(
      `url("${poster}")`,
    );
    expect((await image).status()).toBe(200);
  });

  it('shows the standard English expired texts when the owner wrote none', async () => {
    const { page, status } = await open(leads.expiredStandard.url);
    expect(status).toBe(200);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(EN.expiredTitle);
    expect(await text(page, 'main.expired h1')).toBe(EN.expiredTitle);
    expect(await text(page, 'main.expired h2')).toBe(EN.expiredSubtitle);
    expect(await page.locator('main.expired p').allTextContents()).toEqual([EN.expiredDescription]);
    expect(await page.locator('main.expired').evaluate((el) => getComputedStyle(el).backgroundImage)).toBe(
      'none',
    );
    await hydrated(page);
    expect(await text(page, 'main.expired h1')).toBe(EN.expiredTitle);
  });

  it('shows the English page, not the expired view, to a lead with the deadline exception', async () => {
    const { page, status } = await open(leads.expiredExcepted.url);
    expect(status).toBe(200);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe('Still open for you');
    expect(await text(page, '.funnel .headline')).toBe('Still open for you');
    expect(await page.locator('main.expired').count()).toBe(0);
  });

  // visitor-behaviour §2.2 step 6 ------------------------------------------------------------------------------------

  // The server answers an unknown token (or an unknown slug or host, an expired preview, a funnel
  // without pages) with no page data, so no funnel language, even on an address that names an English
  // account: its custom domain or its slug. The invalid-link view speaks the visitor's language.
  it.each([
    ['en-US', 'en', EN],
    ['es-ES', 'es', ES],
  ] as const)(
    "shows the invalid-link view in the browser's language (%s → %s) for an unknown token on the English owner’s addresses",
    async (locale, language, texts) => {
      const token = 'no-such-lead-token';
      for (const url of [`${originOf(CUSTOM_HOST)}/${token}`, `${server.url}/english-owner/${token}`]) {
        const { page, status } = await open(url, locale);
        expect(status, url).toBe(404);
        expect(await lang(page), url).toBe(language);
        expect(await text(page, 'main.not-found h1'), url).toBe(texts.invalidLinkTitle(token));
        expect(await text(page, 'main.not-found p'), url).toBe(texts.invalidLinkDescription);
      }
    },
  );

  it('shows the English not-found view, not "it looks fake", when the English WhatsApp landing is switched off', async () => {
    // A Spanish browser: the funnel's language, English, still applies.
    const { page, status } = await open(leads.chatOff.url, 'es-ES');
    expect(status).toBe(404);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(EN.notFoundTitle);
    await expectNotFound(page, EN);
    await hydrated(page);
    await expectNotFound(page, EN);
    expect(await page.locator('#root').innerText()).not.toContain('looks fake');
    // Not asserted: with open=wpp the browser still goes to the chat, since visitor-behaviour §2.2 puts the chat
    // redirect (step 1 and the closing paragraph) before the isLpiOn check of step 6.
  });

  // visitor-behaviour §2.2 step 7 ------------------------------------------------------------------------------------

  it('shows the main page in English: lang, title without markup, greeting, background, footer', async () => {
    const { page, status } = await open(leads.alice.url);
    expect(status).toBe(200);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(VSL_HEADLINE_TEXT);
    expect(await text(page, '.funnel .headline')).toBe(VSL_HEADLINE_TEXT);
    expect(await text(page, '.funnel .headline strong')).toBe('the method');
    expect(await text(page, '.funnel .subheadline')).toBe(
      'Alice, watch the whole video: the button appears at the end.',
    );
    expect(await page.locator('.funnel').evaluate((el) => getComputedStyle(el).backgroundImage)).toBe(
      `url("${server.url}/assets/demo/poster.jpg")`,
    );
    expect(await page.locator('.site-footer p').allTextContents()).toEqual([EN.notAffiliated]);
    expect(await page.locator('.site-footer a').allTextContents()).toEqual([EN.terms, EN.privacy]);
    await hydrated(page);
    expect(await text(page, '.funnel .headline')).toBe(VSL_HEADLINE_TEXT);
  });

  it("greets a lead whose name is a phone number with the English default, 'Hey'", async () => {
    const { page } = await open(leads.phone.url);
    expect(await lang(page)).toBe('en');
    expect(await text(page, '.funnel .subheadline')).toBe(
      `${EN.greeting}, watch the whole video: the button appears at the end.`,
    );
  });

  it('shows the English page on the custom domain too', async () => {
    const { page, status } = await open(leads.alice.customUrl);
    expect(status).toBe(200);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(VSL_HEADLINE_TEXT);
    expect(await text(page, '.funnel .headline')).toBe(VSL_HEADLINE_TEXT);
  });

  it('titles the page with the headline the visitor reads, greeting included', async () => {
    const { page } = await open(leads.greeted.url);
    expect(await lang(page)).toBe('en');
    expect(await text(page, '.funnel .headline')).toBe('Grace, this class is for you');
    // visitor-behaviour §2.4: the page title is the headline with markup removed. The headline reads "Grace, …";
    // a "{name}" placeholder must not show in the browser tab.
    expect(await page.title()).toBe('Grace, this class is for you');
  });

  // visitor-behaviour §2.2 step 8 ------------------------------------------------------------------------------------

  // "Otherwise": the server answers PAGE_FOUNDED with page data, or one of the messages above with
  // none. What falls through is an address with nothing to resolve, such as the root of a custom
  // domain, shown in the visitor's language.
  it.each([
    ['the root of the custom domain', () => `${originOf(CUSTOM_HOST)}/`],
    ["the English owner's slug without a token", () => `${server.url}/english-owner`],
  ])("shows the not-found view in the visitor's language for anything else: %s", async (_case, url) => {
    const { page, status } = await open(url());
    expect(status).toBe(404);
    expect(await lang(page)).toBe('en');
    expect(await page.title()).toBe(EN.notFoundTitle);
    await expectNotFound(page, EN);
    await hydrated(page);
    await expectNotFound(page, EN);
    const portuguese = await open(url(), 'pt-BR');
    expect(await lang(portuguese.page)).toBe('pt');
    expect(await portuguese.page.title()).toBe('Página não encontrada! 404');
  });

  it('asked no host but the test server for anything during these tests', () => {
    expect(local).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
  });
});
