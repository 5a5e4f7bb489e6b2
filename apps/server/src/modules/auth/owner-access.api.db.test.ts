import { ApiError, ErrorCode, Funnel, Page } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { rowCounts } from '../../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../../test/server';
import type { Dialect } from '../../db/dialect';
import { newApiKey } from '../../lib/tokens';

/**
 * Who may do what on the owner API (issue 16): each API key makes at most OWNER_RATE_LIMIT_PER_MINUTE
 * requests a minute (429 past it, in the API's error shape), and an account whose subscription is
 * inactive may read (GET) but not write (403).
 */

/** A real server with these settings for the tests of the enclosing block, and an owner's calls. */
function useServer(dialect: Dialect, env: Record<string, string>) {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(dialect, env);
  });
  afterAll(async () => {
    await server?.close();
  });
  const get = () => {
    if (!server) throw new Error('the server runs only inside tests');
    return server;
  };
  return {
    get server() {
      return get();
    },
    newOwner: () =>
      get().services.accounts.create({
        slug: `acc-${Math.random().toString(36).slice(2, 10)}`,
        name: 'Owner',
      }),
    owner: (key: string, method: string, path: string, body?: unknown) =>
      api(get(), method, `/api/owner${path}`, { key, ...(body === undefined ? {} : { body }) }),
  };
}

describe.each(TEST_DIALECTS)('the owner API on %s', (dialect) => {
  describe('per-key rate limit', () => {
    const h = useServer(dialect, { OWNER_RATE_LIMIT_PER_MINUTE: '5' });
    const { newOwner, owner } = h;
    it('answers 429 in the error shape past OWNER_RATE_LIMIT_PER_MINUTE requests of one key, writing nothing', async () => {
      const { apiKey } = await newOwner();
      for (let i = 0; i < 5; i += 1) {
        const answer = await owner(apiKey, 'GET', '/funnels');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
      }
      const before = await rowCounts(h.server.database.db);
      const refused = await owner(apiKey, 'POST', '/funnels', { name: 'Uno de más' });
      expect(refused.status).toBe(429);
      const error = ApiError.strict().parse(refused.body);
      expect(error).toMatchObject({ statusCode: 429, code: ErrorCode.rateLimited });
      expect(error.message).toMatch(
        /^too many requests with this API key or Studio session: at most 5 a minute \(OWNER_RATE_LIMIT_PER_MINUTE\); try again in \d+ s$/,
      );
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(await rowCounts(h.server.database.db)).toEqual(before);
    });

    it('counts each key on its own: another key, of the same account or another, is not held back', async () => {
      const first = await newOwner();
      const second = await newOwner();
      const spare = newApiKey();
      await h.server.services.accounts.addApiKey(first.account.id, spare, 'spare');
      for (let i = 0; i < 6; i += 1) await owner(first.apiKey, 'GET', '/account');
      expect((await owner(first.apiKey, 'GET', '/account')).status).toBe(429);
      expect((await owner(spare, 'GET', '/account')).status).toBe(200);
      expect((await owner(second.apiKey, 'GET', '/account')).status).toBe(200);
    });

    it('an unknown key is a 401 however often it is tried, and is not counted', async () => {
      const stranger = newApiKey();
      for (let i = 0; i < 8; i += 1) expect((await owner(stranger, 'GET', '/funnels')).status).toBe(401);
    });
  });

  describe('an account whose subscription is inactive', () => {
    const h = useServer(dialect, {});
    const { newOwner, owner } = h;
    it('reads its funnels, pages and leads, and may write nothing (403) until it is active again', async () => {
      const { account, apiKey } = await newOwner();
      const funnel = Funnel.parse((await owner(apiKey, 'POST', '/funnels', { name: 'Antes' })).body);
      const page = Page.parse(
        (await owner(apiKey, 'POST', `/funnels/${funnel.id}/pages`, { headline: 'Uno' })).body,
      );
      await h.server.services.accounts.setSubscription(account.id, 'inactive');

      for (const path of ['/account', '/funnels', `/funnels/${funnel.id}`, `/funnels/${funnel.id}/pages`])
        expect((await owner(apiKey, 'GET', path)).status, path).toBe(200);
      expect((await owner(apiKey, 'GET', `/pages/${page.id}`)).body).toMatchObject({ headline: 'Uno' });
      expect((await owner(apiKey, 'GET', `/funnels/${funnel.id}/leads`)).status).toBe(200);

      const before = await rowCounts(h.server.database.db);
      const writes: [string, string, unknown?][] = [
        ['POST', '/funnels', { name: 'Nuevo' }],
        ['PATCH', `/funnels/${funnel.id}`, { name: 'Cambiado' }],
        ['DELETE', `/funnels/${funnel.id}`],
        ['POST', `/funnels/${funnel.id}/pages`, { headline: 'Dos' }],
        ['PATCH', `/pages/${page.id}`, { headline: 'Cambiado' }],
        ['DELETE', `/pages/${page.id}`],
        ['POST', `/funnels/${funnel.id}/leads`, { name: 'Ana' }],
        ['POST', `/pages/${page.id}/preview`, {}],
        ['PATCH', '/account', { name: 'Otro nombre' }],
        ['POST', '/domains', { host: 'promo.example.com' }],
      ];
      for (const [method, path, body] of writes) {
        const answer = await owner(apiKey, method, path, body);
        expect(answer.status, `${method} ${path}`).toBe(403);
        const error = ApiError.strict().parse(answer.body);
        expect(error.code).toBe('FORBIDDEN');
        expect(error.message).toBe(
          "this account's subscription is inactive: its owner API only reads (GET); writes are refused " +
            'until the subscription is active again',
        );
      }
      expect(await rowCounts(h.server.database.db)).toEqual(before);
      expect((await owner(apiKey, 'GET', `/pages/${page.id}`)).body).toMatchObject({ headline: 'Uno' });
      expect((await owner(apiKey, 'GET', '/account')).body).toMatchObject({ name: 'Owner' });

      await h.server.services.accounts.setSubscription(account.id, 'active');
      expect((await owner(apiKey, 'PATCH', `/pages/${page.id}`, { headline: 'Dos' })).status).toBe(200);
    }, 60_000);
  });
});
