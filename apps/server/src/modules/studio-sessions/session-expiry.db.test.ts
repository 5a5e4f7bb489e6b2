import { ErrorCode } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS } from '../../../test/databases';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';

/**
 * A session ends SESSION_MAX_AGE_DAYS after sign-in however busy, and SESSION_IDLE_DAYS after its last
 * request (decision 21): the clock is the app's, moved by the test.
 */
const DAY = 24 * 60 * 60 * 1000;
const ORIGIN = 'http://localhost:3000';

describe.each(TEST_DIALECTS)('session expiry on %s', (dialect) => {
  async function setUp() {
    let clock = Date.UTC(2026, 0, 1);
    const database = await createTestDatabase(dialect);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      PUBLIC_URL: ORIGIN,
      SESSION_MAX_AGE_DAYS: '30',
      SESSION_IDLE_DAYS: '7',
    });
    const app = await buildApp({ config, database, now: () => clock });
    const { account } = await app.services.accounts.create({ slug: 'expiry', name: 'Expiry' });
    const user = await app.services.users.create({
      email: 'e@example.com',
      name: 'E',
      password: 'expiring passphrase',
    });
    await app.services.members.add(user.id, account.id, 'owner');
    const signIn = async () => {
      const answer = await app.server.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { origin: ORIGIN, host: 'localhost:3000' },
        payload: { email: 'e@example.com', password: 'expiring passphrase' },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return String(answer.headers['set-cookie']).split(';')[0] ?? '';
    };
    const status = async (cookie: string, url: string) =>
      (await app.server.inject({ method: 'GET', url, headers: { cookie, host: 'localhost:3000' } }))
        .statusCode;
    const codeOf = async (cookie: string) =>
      (
        await app.server.inject({
          method: 'GET',
          url: '/api/auth/session',
          headers: { cookie, host: 'localhost:3000' },
        })
      ).json<{
        code?: string;
      }>().code;
    return {
      app,
      database,
      signIn,
      status,
      codeOf,
      advance: (ms: number) => {
        clock += ms;
      },
      close: async () => {
        await app.server.close();
        await database.close();
      },
    };
  }

  it('ends a session idle for SESSION_IDLE_DAYS, and keeps one used every few days', async () => {
    const t = await setUp();
    try {
      const busy = await t.signIn();
      const idle = await t.signIn();
      t.advance(6 * DAY);
      expect(await t.status(busy, '/api/owner/funnels')).toBe(200);
      t.advance(2 * DAY);
      // 8 days after sign-in: the idle one's last request was 8 days ago, the busy one's 2.
      expect(await t.status(busy, '/api/auth/session')).toBe(200);
      expect(await t.status(idle, '/api/owner/funnels')).toBe(401);
      expect(await t.codeOf(idle)).toBe(ErrorCode.unauthorized);
    } finally {
      await t.close();
    }
  });

  it('ends every session SESSION_MAX_AGE_DAYS after sign-in, however busy', async () => {
    const t = await setUp();
    try {
      const cookie = await t.signIn();
      for (let day = 0; day < 29; day += 5) {
        t.advance(5 * DAY);
        const expected = day + 5 < 30 ? 200 : 401;
        expect(await t.status(cookie, '/api/auth/session')).toBe(expected);
      }
      t.advance(DAY);
      expect(await t.status(cookie, '/api/owner/funnels')).toBe(401);
      expect(await t.status(cookie, '/api/auth/session')).toBe(401);
      // Signing in again opens a new one.
      expect(await t.status(await t.signIn(), '/api/owner/funnels')).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("writes a session's last use at most once a minute", async () => {
    const t = await setUp();
    try {
      const cookie = await t.signIn();
      const lastSeen = async () =>
        (await t.database.db.selectFrom('sessions').select('lastSeenAt').executeTakeFirstOrThrow())
          .lastSeenAt;
      const first = await lastSeen();
      t.advance(30_000);
      await t.status(cookie, '/api/auth/session');
      expect(await lastSeen()).toBe(first);
      t.advance(31_000);
      await t.status(cookie, '/api/auth/session');
      expect(await lastSeen()).toBe(first + 61_000);
    } finally {
      await t.close();
    }
  });
});
