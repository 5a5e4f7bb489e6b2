import { Domain, LandingResponse, PreviewCreated, SiteResponse, type SiteMessage } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { markDomainVerified, rowCounts } from '../../../test/fixtures';
import { api } from '../../../test/server';
import {
  PREFIXES,
  demoLead,
  expectVisitorError,
  pageId,
  previewTokenOf,
  read,
  siteRequest,
  useVisitorServer,
  type Answer,
} from '../../../test/visitor';
import { hashToken } from '../../lib/tokens';

/**
 * The calls that resolve a visitor's page (visitor-behaviour §3, §7; architecture §5.1, §5.2), against a real server
 * with the demo seeded: POST /api/funnel/site, /funnel/site/preview and /funnel/landing.
 */

const CUSTOM_HOST = 'promo.embudo-test.example';
const LANDING_FIELDS = [
  'buttonAction',
  'buttonCopy',
  'headline',
  'headlineColor',
  'language',
  'showHeadLine',
  'showSubHeadLine',
  'showTopLine',
  'subHeadlineColor',
  'subheadline',
  'topLineColor',
  'topline',
];

describe.each(TEST_DIALECTS)('visitor site API on %s', (dialect) => {
  const h = useVisitorServer(dialect);

  const post = (path: string, body: unknown): Promise<Answer> => api(h.server, 'POST', path, { body });

  /** A site answer: HTTP 200 with the envelope, whatever the message (the page reads the message). */
  function siteAnswer(answer: Answer): SiteResponse {
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(answer.body as object).sort()).toEqual(['codeResponse', 'data', 'message', 'result']);
    return read(SiteResponse, answer);
  }

  function expectNoPage(response: SiteResponse, message: SiteMessage, codeResponse: number): void {
    expect(response).toEqual({ codeResponse, result: false, message, data: null });
  }

  async function accountId(slug: string): Promise<string> {
    const account = await h.server.services.accounts.findBySlug(slug);
    if (!account) throw new Error(`no account ${slug}`);
    return account.id;
  }

  describe('POST /funnel/site', () => {
    it.each(PREFIXES)('%s/funnel/site answers PAGE_FOUNDED with the lead’s current page', async (prefix) => {
      const ana = demoLead(h.vsl, 'Ana');
      const response = siteAnswer(await post(`${prefix}/funnel/site`, siteRequest(h, ana.token)));
      expect(response).toMatchObject({ codeResponse: 200, result: true, message: 'PAGE_FOUNDED' });
      expect(response.data).toMatchObject({
        idPage: pageId(h.vsl, 0),
        idFunnel: h.vsl.id,
        headline: 'Clase 1: <strong>el método</strong> que cambia tus ventas',
        lead: { name: 'Ana' },
        buttonTime: { hours: 0, minutes: 0, seconds: 8 },
        buttonAction: 'NEXT-PAGE',
        language: 'es',
        typeFunnel: 'VSL',
        action: { method: 'NEXT-PAGE', url: null, nextPreviewPageToken: null },
        isComplete: false,
        previewToken: null,
        lastVideoSession: null,
      });
    });

    it('answers the WhatsApp lead’s landing page with its chat link as the action', async () => {
      const diego = demoLead(h.whatsapp, 'Diego');
      const response = siteAnswer(await post('/api/funnel/site', siteRequest(h, diego.token)));
      expect(response.message).toBe('PAGE_FOUNDED');
      expect(response.data).toMatchObject({
        idFunnel: h.whatsapp.id,
        layout: 'landing',
        buttonAction: 'LPI-REDIRECT-WPP',
        lead: { name: 'Diego' },
        action: { method: 'OPEN-WINDOW', url: expect.stringMatching(/^https:\/\/wa\.me\//) as unknown },
      });
    });

    it('needs only domain, token and type; slug case does not matter', async () => {
      const ana = demoLead(h.vsl, 'Ana');
      for (const body of [
        { domain: h.server.url, slug: 'demo', token: ana.token, type: 'BASE' },
        { domain: '127.0.0.1', slug: 'DEMO', token: ana.token, type: 'BASE' },
      ]) {
        const response = siteAnswer(await post('/api/funnel/site', body));
        expect(response.message, JSON.stringify(body)).toBe('PAGE_FOUNDED');
        expect(response.data?.lead.name).toBe('Ana');
      }
    });

    const UNKNOWN_CASES: { name: string; request: (token: string) => Record<string, unknown> }[] = [
      { name: 'an unknown token', request: () => ({ token: 'x'.repeat(32) }) },
      { name: 'an empty token', request: () => ({ token: '' }) },
      { name: 'a wrong slug', request: (token) => ({ token, slug: 'no-such-account' }) },
      { name: 'another account’s slug', request: (token) => ({ token, slug: 'enigma' }) },
      { name: 'no slug on a base domain', request: (token) => ({ token, slug: null }) },
      {
        name: 'a custom domain nobody connected',
        request: (token) => ({ token, slug: null, type: 'CUSTOM', domain: 'https://unknown.example.org' }),
      },
    ];

    it.each(UNKNOWN_CASES)('answers DONT_EXIST_TOKEN_OR_URL for $name', async ({ request }) => {
      const ana = demoLead(h.vsl, 'Ana');
      for (const prefix of PREFIXES) {
        const answer = await post(`${prefix}/funnel/site`, siteRequest(h, ana.token, request(ana.token)));
        expectNoPage(siteAnswer(answer), 'DONT_EXIST_TOKEN_OR_URL', 404);
      }
    });

    it('answers INACTIVE_SUBSCRIPTION while the account’s subscription is inactive', async () => {
      const enigma = h.demo.otherAccounts.find((a) => a.accountSlug === 'enigma');
      const fernanda = enigma?.funnels[0]?.leads[0];
      if (!fernanda) throw new Error('no enigma lead');
      const body = siteRequest(h, fernanda.token, { slug: 'enigma' });
      const id = await accountId('enigma');
      expect(siteAnswer(await post('/api/funnel/site', body)).message).toBe('PAGE_FOUNDED');
      await h.server.services.accounts.setSubscription(id, 'inactive');
      try {
        for (const prefix of PREFIXES) {
          expectNoPage(siteAnswer(await post(`${prefix}/funnel/site`, body)), 'INACTIVE_SUBSCRIPTION', 403);
        }
      } finally {
        await h.server.services.accounts.setSubscription(id, 'active');
      }
      expect(siteAnswer(await post('/api/funnel/site', body)).message).toBe('PAGE_FOUNDED');
    });

    describe('on a custom domain', () => {
      it('finds the lead by token alone once the owner connected the domain', async () => {
        const ana = demoLead(h.vsl, 'Ana');
        const custom = { type: 'CUSTOM', slug: null, domain: `https://${CUSTOM_HOST}` };
        expectNoPage(
          siteAnswer(await post('/api/funnel/site', siteRequest(h, ana.token, custom))),
          'DONT_EXIST_TOKEN_OR_URL',
          404,
        );

        const connected = await api(h.server, 'POST', '/api/owner/domains', {
          key: h.demo.apiKey,
          body: { host: CUSTOM_HOST },
        });
        expect(connected.status, connected.text).toBe(201);
        expect(read(Domain, connected).host).toBe(CUSTOM_HOST);
        // Connected but not verified: nothing is served there yet (decision 27).
        expectNoPage(
          siteAnswer(await post('/api/funnel/site', siteRequest(h, ana.token, custom))),
          'DONT_EXIST_TOKEN_OR_URL',
          404,
        );
        await markDomainVerified(h.server.database.db, CUSTOM_HOST);

        for (const domain of [
          `https://${CUSTOM_HOST}`,
          `http://${CUSTOM_HOST}:8080`,
          `HTTPS://${CUSTOM_HOST.toUpperCase()}`,
          CUSTOM_HOST,
        ]) {
          for (const prefix of PREFIXES) {
            const answer = await post(
              `${prefix}/funnel/site`,
              siteRequest(h, ana.token, { ...custom, domain }),
            );
            const response = siteAnswer(answer);
            expect(response.message, `${prefix} ${domain}`).toBe('PAGE_FOUNDED');
            expect(response.data).toMatchObject({ idFunnel: h.vsl.id, lead: { name: 'Ana' } });
          }
        }
      });

      it('does not open another account’s lead on it', async () => {
        const enigmaLead = h.demo.otherAccounts[0]?.funnels[0]?.leads[0];
        if (!enigmaLead) throw new Error('no enigma lead');
        // The domain belongs to the demo account (connected in the test above, or now).
        await api(h.server, 'POST', '/api/owner/domains', {
          key: h.demo.apiKey,
          body: { host: CUSTOM_HOST },
        });
        await markDomainVerified(h.server.database.db, CUSTOM_HOST);
        const answer = await post(
          '/api/funnel/site',
          siteRequest(h, enigmaLead.token, { type: 'CUSTOM', slug: null, domain: `https://${CUSTOM_HOST}` }),
        );
        expectNoPage(siteAnswer(answer), 'DONT_EXIST_TOKEN_OR_URL', 404);
      });
    });
  });

  describe('POST /funnel/site/preview', () => {
    it.each(PREFIXES)(
      '%s/funnel/site/preview walks the funnel by nextPreviewPageToken and writes nothing',
      async (prefix) => {
        const before = await rowCounts(h.server.database.db);
        const seen: string[] = [];
        let token: string | null = previewTokenOf(h.vsl);
        let step = 0;
        while (token !== null) {
          const answer = await post(`${prefix}/funnel/site/preview`, { domain: h.server.url, token });
          const response = siteAnswer(answer);
          expect(response).toMatchObject({ codeResponse: 200, result: true, message: 'PAGE_FOUNDED' });
          const data = response.data;
          if (!data) throw new Error('a preview without page data');
          expect(data).toMatchObject({
            idPage: pageId(h.vsl, step),
            idFunnel: h.vsl.id,
            previewToken: token,
            lead: { name: '' },
            isComplete: false,
            lastVideoSession: null,
          });
          seen.push(data.idPage);
          token = data.action.nextPreviewPageToken;
          step += 1;
          if (step > 5) throw new Error('the preview chain does not end');
        }
        expect(seen).toEqual(h.vsl.pages.map((p) => p.id));
        expect(await rowCounts(h.server.database.db)).toEqual(before);
      },
    );

    it('answers the first page with a forward token and no lead', async () => {
      const response = siteAnswer(
        await post('/funnel/site/preview', { domain: h.server.url, token: previewTokenOf(h.vsl) }),
      );
      expect(response.data?.action.nextPreviewPageToken).toEqual(expect.any(String));
      expect(response.data?.action.nextPreviewPageToken).not.toBe(previewTokenOf(h.vsl));
    });

    it.each([
      { name: 'an unknown token', token: () => 'y'.repeat(32) },
      { name: 'a lead’s token', token: () => demoLead(h.vsl, 'Ana').token },
    ])('answers DONT_EXIST_TOKEN_OR_URL for $name', async ({ token }) => {
      for (const prefix of PREFIXES) {
        const answer = await post(`${prefix}/funnel/site/preview`, { domain: h.server.url, token: token() });
        expectNoPage(siteAnswer(answer), 'DONT_EXIST_TOKEN_OR_URL', 404);
      }
    });

    it('an expired preview token answers DONT_EXIST_TOKEN_OR_URL', async () => {
      const created = await api(h.server, 'POST', `/api/owner/pages/${pageId(h.vsl, 1)}/preview`, {
        key: h.demo.apiKey,
        body: { ttlMinutes: 5 },
      });
      expect(created.status, created.text).toBe(201);
      const { token } = read(PreviewCreated, created);
      const request = { domain: h.server.url, token };
      expect(siteAnswer(await post('/api/funnel/site/preview', request)).data?.idPage).toBe(pageId(h.vsl, 1));
      await h.server.database.db
        .updateTable('previewTokens')
        .set({ expiresAt: Date.now() - 1000 })
        .where('tokenHash', '=', hashToken(token))
        .execute();
      expectNoPage(
        siteAnswer(await post('/api/funnel/site/preview', request)),
        'DONT_EXIST_TOKEN_OR_URL',
        404,
      );
    });

    it('on a custom domain opens only that domain owner’s previews', async () => {
      await api(h.server, 'POST', '/api/owner/domains', { key: h.demo.apiKey, body: { host: CUSTOM_HOST } });
      await markDomainVerified(h.server.database.db, CUSTOM_HOST);
      const own = await post('/api/funnel/site/preview', {
        domain: `https://${CUSTOM_HOST}`,
        token: previewTokenOf(h.vsl),
      });
      expect(siteAnswer(own).data?.idPage).toBe(pageId(h.vsl, 0));
      const enigmaFunnel = h.demo.otherAccounts[0]?.funnels[0];
      if (!enigmaFunnel) throw new Error('no enigma funnel');
      const foreign = await post('/api/funnel/site/preview', {
        domain: `https://${CUSTOM_HOST}`,
        token: previewTokenOf(enigmaFunnel),
      });
      expectNoPage(siteAnswer(foreign), 'DONT_EXIST_TOKEN_OR_URL', 404);
    });

    it('a preview token is not a lead token on /funnel/site', async () => {
      const answer = await post('/api/funnel/site', siteRequest(h, previewTokenOf(h.vsl)));
      expectNoPage(siteAnswer(answer), 'DONT_EXIST_TOKEN_OR_URL', 404);
    });
  });

  describe('POST /funnel/landing', () => {
    const landingRequest = (token: string) => ({
      userDomain: h.server.url,
      userSlug: h.demo.accountSlug,
      userToken: token,
      type: 'BASE',
      origin: 'LANDING-REQUEST',
      ip: 'unknown',
      userAgent: 'unknown',
      location: {},
    });

    it.each(PREFIXES)('%s/funnel/landing answers message and exactly the landing fields', async (prefix) => {
      const diego = demoLead(h.whatsapp, 'Diego');
      const answer = await post(`${prefix}/funnel/landing`, landingRequest(diego.token));
      expect(answer.status, answer.text).toBe(200);
      expect(Object.keys(answer.body as object).sort()).toEqual(['data', 'message']);
      const response = read(LandingResponse, answer);
      expect(response.message).toBe('PAGE_FOUNDED');
      expect(Object.keys((answer.body as { data: object }).data).sort()).toEqual(LANDING_FIELDS);
      expect(response.data).toEqual({
        language: 'es',
        topline: 'Grupo privado y gratuito',
        headline: 'Únete al grupo de <strong>WhatsApp</strong> del lanzamiento',
        subheadline: 'Recibe las clases y el aviso de apertura antes que nadie.',
        buttonCopy: 'Entrar al grupo',
        buttonAction: 'LPI-REDIRECT-WPP',
        showTopLine: true,
        showHeadLine: true,
        showSubHeadLine: true,
        topLineColor: expect.stringMatching(/^#[0-9a-f]{6}$/i) as unknown,
        headlineColor: expect.stringMatching(/^#[0-9a-f]{6}$/i) as unknown,
        subHeadlineColor: expect.stringMatching(/^#[0-9a-f]{6}$/i) as unknown,
      });
    });

    it('takes the minimal payload (ip, userAgent, location default)', async () => {
      const diego = demoLead(h.whatsapp, 'Diego');
      const answer = await post('/api/funnel/landing', {
        userDomain: h.server.url,
        userSlug: 'demo',
        userToken: diego.token,
        type: 'BASE',
      });
      expect(read(LandingResponse, answer).message).toBe('PAGE_FOUNDED');
    });

    it.each([
      { name: 'an unknown token', patch: { userToken: 'z'.repeat(32) } },
      { name: 'a wrong slug', patch: { userSlug: 'no-such-account' } },
    ])('answers DONT_EXIST_TOKEN_OR_URL and no data for $name', async ({ patch }) => {
      const diego = demoLead(h.whatsapp, 'Diego');
      const answer = await post('/api/funnel/landing', { ...landingRequest(diego.token), ...patch });
      expect(answer.status, answer.text).toBe(200);
      expect(read(LandingResponse, answer)).toEqual({ message: 'DONT_EXIST_TOKEN_OR_URL', data: null });
    });
  });

  describe('bad input', () => {
    const site = () => siteRequest(h, demoLead(h.vsl, 'Ana').token);
    const without = (body: Record<string, unknown>, key: string) =>
      Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
    const landing = () => ({
      userDomain: h.server.url,
      userSlug: 'demo',
      userToken: demoLead(h.whatsapp, 'Diego').token,
      type: 'BASE',
    });
    const preview = () => ({ domain: h.server.url, token: previewTokenOf(h.vsl) });
    const longDomain = `https://${'a'.repeat(293)}`; // 301 characters: over the 300 the contract allows

    const CASES: { name: string; path: string; body: () => unknown; field: string }[] = [
      {
        name: 'site without token',
        path: '/funnel/site',
        body: () => without(site(), 'token'),
        field: 'body.token',
      },
      {
        name: 'site with a numeric token',
        path: '/funnel/site',
        body: () => ({ ...site(), token: 42 }),
        field: 'body.token',
      },
      {
        name: 'site with an unknown type',
        path: '/funnel/site',
        body: () => ({ ...site(), type: 'OTHER' }),
        field: 'body.type',
      },
      {
        name: 'site with a 301-character domain',
        path: '/funnel/site',
        body: () => ({ ...site(), domain: longDomain }),
        field: 'body.domain',
      },
      {
        name: 'site with a 201-character token',
        path: '/funnel/site',
        body: () => ({ ...site(), token: 't'.repeat(201) }),
        field: 'body.token',
      },
      {
        name: 'preview without token',
        path: '/funnel/site/preview',
        body: () => without(preview(), 'token'),
        field: 'body.token',
      },
      {
        name: 'preview with a numeric domain',
        path: '/funnel/site/preview',
        body: () => ({ ...preview(), domain: 7 }),
        field: 'body.domain',
      },
      {
        name: 'preview with a 301-character domain',
        path: '/funnel/site/preview',
        body: () => ({ ...preview(), domain: longDomain }),
        field: 'body.domain',
      },
      {
        name: 'landing without userToken',
        path: '/funnel/landing',
        body: () => without(landing(), 'userToken'),
        field: 'body.userToken',
      },
      {
        name: 'landing with a boolean type',
        path: '/funnel/landing',
        body: () => ({ ...landing(), type: true }),
        field: 'body.type',
      },
      {
        name: 'landing with a 301-character userDomain',
        path: '/funnel/landing',
        body: () => ({ ...landing(), userDomain: longDomain }),
        field: 'body.userDomain',
      },
    ];

    it.each(CASES)('$name → 400 with the envelope, naming $field', async ({ path, body, field }) => {
      const before = await rowCounts(h.server.database.db);
      for (const prefix of PREFIXES) {
        const error = expectVisitorError(await post(`${prefix}${path}`, body()), 400);
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(error.issues?.map((i) => i.path)).toContain(field);
      }
      expect(await rowCounts(h.server.database.db)).toEqual(before);
    });

    it('a body that is not JSON → 400 with the envelope', async () => {
      for (const prefix of PREFIXES) {
        const answer = await api(h.server, 'POST', `${prefix}/funnel/site`, { rawBody: '{"token":' });
        expect(expectVisitorError(answer, 400).code).toBe('INVALID_JSON');
      }
    });
  });
});
