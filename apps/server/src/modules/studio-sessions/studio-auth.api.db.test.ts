import { ApiError, ErrorCode, StudioSession } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, rowCounts } from '../../../test/fixtures';
import { startTestServer, type TestServer } from '../../../test/server';
import { cookieOf, newPerson, signIn, studio } from '../../../test/studio';
import type { Dialect } from '../../db/dialect';

/**
 * The Studio's sign-in over HTTP (issue 18, decision 21): the cookie, one answer for every failed
 * sign-in, the limits on attempts, sessions that end, and no write from another site.
 */

/** Tests other than the limit's sign in often from one address: the limit is far off for them. */
function useServer(dialect: Dialect, env: Record<string, string> = { SIGN_IN_ATTEMPTS: '1000' }) {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(dialect, env);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the server runs only inside tests');
    return server;
  };
}

const expectError = (
  answer: { status: number; body: unknown; text: string },
  status: number,
  code: string,
) => {
  expect(answer.status, answer.text).toBe(status);
  expect(ApiError.strict().parse(answer.body)).toMatchObject({ statusCode: status, code });
};

describe.each(TEST_DIALECTS)('Studio sign-in on %s', (dialect) => {
  describe('signing in', () => {
    const server = useServer(dialect);

    it('sets an HttpOnly, SameSite=Lax, Path=/ cookie (not Secure on http) that opens the session', async () => {
      const s = server();
      const account = await newAccount(s.services);
      const person = await newPerson(s.services, account, 'editor');
      const answer = await studio(s, 'POST', '/api/auth/sign-in', {
        body: { email: person.email.toUpperCase(), password: person.password },
      });
      expect(answer.status, answer.text).toBe(200);
      const set = answer.headers.get('set-cookie') ?? '';
      const attributes = set.split(';').map((part) => part.trim());
      expect(attributes[0]).toMatch(/^embudo_session=[A-Za-z0-9_-]{43}$/);
      expect(attributes).toEqual(
        expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=2592000']),
      );
      expect(attributes).not.toContain('Secure');
      const session = StudioSession.parse(answer.body);
      expect(session).toMatchObject({ currentAccountId: account.id, role: 'editor' });
      expect(session.user.email).toBe(person.email);
      const again = await studio(s, 'GET', '/api/auth/session', { cookie: cookieOf(answer.headers) });
      expect(again.status).toBe(200);
      expect(StudioSession.parse(again.body)).toEqual(session);
      // Only the token's hash is stored.
      const token = attributes[0]?.split('=')[1] ?? '';
      const rows = await s.database.db.selectFrom('sessions').select('tokenHash').execute();
      expect(rows.some((row) => row.tokenHash.includes(token))).toBe(false);
    });

    it('answers an unknown e-mail and a wrong password with byte-identical bodies', async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'owner');
      const wrong = await studio(s, 'POST', '/api/auth/sign-in', {
        body: { email: person.email, password: 'not the password' },
      });
      const unknown = await studio(s, 'POST', '/api/auth/sign-in', {
        body: { email: 'nobody-here@example.com', password: 'not the password' },
      });
      expectError(wrong, 401, ErrorCode.unauthorized);
      expect(unknown.status).toBe(401);
      expect(unknown.text).toBe(wrong.text);
      expect(wrong.headers.get('set-cookie')).toBeNull();
    });

    it('without a session, /api/auth/session is a 401 and an unknown query parameter a 400', async () => {
      const s = server();
      expectError(await studio(s, 'GET', '/api/auth/session'), 401, ErrorCode.unauthorized);
      expectError(
        await studio(s, 'GET', '/api/auth/session', { cookie: 'embudo_session=madeup' }),
        401,
        ErrorCode.unauthorized,
      );
      expectError(await studio(s, 'GET', '/api/auth/setup?x=1'), 400, ErrorCode.validation);
      expectError(await studio(s, 'GET', '/api/auth/nothing-here'), 404, ErrorCode.notFound);
    });
  });

  describe('the limit on sign-in attempts', () => {
    const server = useServer(dialect, { SIGN_IN_ATTEMPTS: '10', TRUST_PROXY: 'true' });

    it('refuses the 11th attempt from one address with 429 and Retry-After, even with the right password', async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'owner');
      const from = { 'x-forwarded-for': '203.0.113.7' };
      for (let i = 0; i < 10; i += 1) {
        const answer = await studio(s, 'POST', '/api/auth/sign-in', {
          body: { email: `guess-${String(i)}@example.com`, password: 'wrong password' },
          headers: from,
        });
        expect(answer.status).toBe(401);
      }
      const refused = await studio(s, 'POST', '/api/auth/sign-in', {
        body: { email: person.email, password: person.password },
        headers: from,
      });
      expectError(refused, 429, ErrorCode.rateLimited);
      expect((refused.body as ApiError).message).toMatch(
        /too many sign-in attempts from this address: at most 10 in 15 minutes/,
      );
      const retry = Number(refused.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(15 * 60);
      // Another address is not held back.
      const other = await studio(s, 'POST', '/api/auth/sign-in', {
        body: { email: person.email, password: person.password },
        headers: { 'x-forwarded-for': '203.0.113.8' },
      });
      expect(other.status).toBe(200);
    });

    it('refuses the 11th attempt on one e-mail whatever the address', async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'owner');
      for (let i = 0; i < 10; i += 1) {
        const answer = await studio(s, 'POST', '/api/auth/sign-in', {
          body: { email: person.email, password: 'wrong password' },
          headers: { 'x-forwarded-for': `198.51.100.${String(i + 1)}` },
        });
        expect(answer.status).toBe(401);
      }
      const refused = await studio(s, 'POST', '/api/auth/sign-in', {
        body: { email: person.email.toUpperCase(), password: person.password },
        headers: { 'x-forwarded-for': '198.51.100.200' },
      });
      expectError(refused, 429, ErrorCode.rateLimited);
      expect((refused.body as ApiError).message).toMatch(/too many sign-in attempts for this e-mail/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('sessions that end', () => {
    const server = useServer(dialect);

    it('sign-out: the old cookie is a 401 on /api/auth/session and on the owner API', async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'owner');
      const cookie = await signIn(s, person);
      expect((await studio(s, 'GET', '/api/owner/funnels', { cookie })).status).toBe(200);
      const out = await studio(s, 'POST', '/api/auth/sign-out', { cookie });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(
        /^embudo_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/,
      );
      expectError(await studio(s, 'GET', '/api/auth/session', { cookie }), 401, ErrorCode.unauthorized);
      expectError(await studio(s, 'GET', '/api/owner/funnels', { cookie }), 401, ErrorCode.unauthorized);
    });

    it('a password change ends the other sessions and keeps this one', async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'viewer');
      const here = await signIn(s, person);
      const elsewhere = await signIn(s, person);
      const wrongCurrent = await studio(s, 'PUT', '/api/auth/password', {
        cookie: here,
        body: { currentPassword: 'not it at all', newPassword: 'a brand new passphrase' },
      });
      expectError(wrongCurrent, 400, ErrorCode.validation);
      expect((wrongCurrent.body as ApiError).issues?.[0]?.path).toBe('body.currentPassword');
      expect((await studio(s, 'GET', '/api/auth/session', { cookie: elsewhere })).status).toBe(200);

      const common = await studio(s, 'PUT', '/api/auth/password', {
        cookie: here,
        body: { currentPassword: person.password, newPassword: 'Password123' },
      });
      expectError(common, 400, ErrorCode.validation);
      expect((common.body as ApiError).issues).toEqual([
        { path: 'body.newPassword', message: expect.stringMatching(/this password is too common/) as string },
      ]);

      const changed = await studio(s, 'PUT', '/api/auth/password', {
        cookie: here,
        body: { currentPassword: person.password, newPassword: 'a brand new passphrase' },
      });
      expect(changed.status, changed.text).toBe(204);
      expect((await studio(s, 'GET', '/api/auth/session', { cookie: here })).status).toBe(200);
      expect((await studio(s, 'GET', '/api/owner/funnels', { cookie: here })).status).toBe(200);
      expectError(
        await studio(s, 'GET', '/api/auth/session', { cookie: elsewhere }),
        401,
        ErrorCode.unauthorized,
      );
      expectError(
        await studio(s, 'GET', '/api/owner/funnels', { cookie: elsewhere }),
        401,
        ErrorCode.unauthorized,
      );
      // The old password no longer signs in; the new one does.
      const old = await studio(s, 'POST', '/api/auth/sign-in', {
        body: { email: person.email, password: person.password },
      });
      expect(old.status).toBe(401);
      await signIn(s, { email: person.email, password: 'a brand new passphrase' });
    });

    it('a removed member is refused in that account at once, and keeps their other account', async () => {
      const s = server();
      const account = await newAccount(s.services);
      const other = await newAccount(s.services);
      const owner = await newPerson(s.services, account, 'owner');
      const member = await newPerson(s.services, account, 'editor');
      await s.services.members.add(member.userId, other.id, 'viewer');
      const ownerCookie = await signIn(s, owner);
      const memberCookie = await signIn(s, member);
      const inOther = await signIn(s, member);
      const switched = await studio(s, 'PUT', '/api/auth/session/account', {
        cookie: inOther,
        body: { accountId: other.id },
      });
      expect(switched.status, switched.text).toBe(200);
      expect(StudioSession.parse(switched.body)).toMatchObject({
        currentAccountId: other.id,
        role: 'viewer',
      });
      expect((await studio(s, 'GET', '/api/owner/funnels', { cookie: memberCookie })).status).toBe(200);

      const removed = await studio(s, 'DELETE', `/api/owner/members/${member.userId}`, {
        cookie: ownerCookie,
      });
      expect(removed.status, removed.text).toBe(204);
      expectError(
        await studio(s, 'GET', '/api/owner/funnels', { cookie: memberCookie }),
        401,
        ErrorCode.unauthorized,
      );
      const write = await studio(s, 'POST', '/api/owner/funnels', {
        cookie: memberCookie,
        body: { name: 'After removal' },
      });
      expectError(write, 401, ErrorCode.unauthorized);
      expect((await studio(s, 'GET', '/api/owner/funnels', { cookie: inOther })).status).toBe(200);
      // Switching back into the account is a 404: not a member.
      const back = await studio(s, 'PUT', '/api/auth/session/account', {
        cookie: inOther,
        body: { accountId: account.id },
      });
      expectError(back, 404, ErrorCode.notFound);
    });

    it('a role changed by the owner counts from the next request', async () => {
      const s = server();
      const account = await newAccount(s.services);
      const owner = await newPerson(s.services, account, 'owner');
      const member = await newPerson(s.services, account, 'editor');
      const ownerCookie = await signIn(s, owner);
      const memberCookie = await signIn(s, member);
      expect(
        (await studio(s, 'POST', '/api/owner/funnels', { cookie: memberCookie, body: { name: 'Uno' } }))
          .status,
      ).toBe(201);
      const demoted = await studio(s, 'PATCH', `/api/owner/members/${member.userId}`, {
        cookie: ownerCookie,
        body: { role: 'viewer' },
      });
      expect(demoted.status, demoted.text).toBe(200);
      expect(demoted.body).toMatchObject({ userId: member.userId, role: 'viewer' });
      const refused = await studio(s, 'POST', '/api/owner/funnels', {
        cookie: memberCookie,
        body: { name: 'Dos' },
      });
      expectError(refused, 403, ErrorCode.roleRequired);
      expect(refused.body).toMatchObject({ requiredRole: 'editor' });
    });
  });

  describe('requests from another site', () => {
    const server = useServer(dialect);

    it("a cookie-signed write needs the Studio's Origin: another site's or none is a 403 writing nothing", async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'owner');
      const cookie = await signIn(s, person);
      const before = await rowCounts(s.database.db);
      const evil = await studio(s, 'POST', '/api/owner/funnels', {
        cookie,
        origin: 'https://evil.example',
        body: { name: 'Planted' },
      });
      expectError(evil, 403, ErrorCode.forbidden);
      expect((evil.body as ApiError).message).toMatch(
        /comes from https:\/\/evil\.example, not from the Studio/,
      );
      const none = await studio(s, 'POST', '/api/owner/funnels', {
        cookie,
        origin: null,
        body: { name: 'Planted' },
      });
      expectError(none, 403, ErrorCode.forbidden);
      expect((none.body as ApiError).message).toMatch(/must carry the Origin header/);
      expect(await rowCounts(s.database.db)).toEqual(before);
      const own = await studio(s, 'POST', '/api/owner/funnels', { cookie, body: { name: 'Mine' } });
      expect(own.status, own.text).toBe(201);
      // Reads need no Origin.
      expect((await studio(s, 'GET', '/api/owner/funnels', { cookie, origin: null })).status).toBe(200);
    });

    it('every write under /api/auth needs it too, sign-in and sign-out included', async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'owner');
      const cookie = await signIn(s, person);
      const signInFromElsewhere = await studio(s, 'POST', '/api/auth/sign-in', {
        origin: 'https://evil.example',
        body: { email: person.email, password: person.password },
      });
      expectError(signInFromElsewhere, 403, ErrorCode.forbidden);
      expect(signInFromElsewhere.headers.get('set-cookie')).toBeNull();
      expectError(
        await studio(s, 'POST', '/api/auth/sign-out', { cookie, origin: null }),
        403,
        ErrorCode.forbidden,
      );
      expectError(
        await studio(s, 'PATCH', '/api/auth/profile', {
          cookie,
          origin: 'http://127.0.0.1:1',
          body: { name: 'X' },
        }),
        403,
        ErrorCode.forbidden,
      );
      expect((await studio(s, 'GET', '/api/auth/session', { cookie })).status).toBe(200);
    });

    it('an API key needs no Origin', async () => {
      const s = server();
      const { apiKey } = await s.services.accounts.create({
        slug: `k-${Math.random().toString(36).slice(2, 8)}`,
        name: 'K',
      });
      const answer = await studio(s, 'POST', '/api/owner/funnels', {
        origin: null,
        headers: { authorization: `Bearer ${apiKey}` },
        body: { name: 'By key' },
      });
      expect(answer.status, answer.text).toBe(201);
    });
  });

  describe('profile and accounts', () => {
    const server = useServer(dialect);

    it('updates name and language (null follows the browser), and refuses a language it does not know', async () => {
      const s = server();
      const person = await newPerson(s.services, await newAccount(s.services), 'viewer');
      const cookie = await signIn(s, person);
      const updated = await studio(s, 'PATCH', '/api/auth/profile', {
        cookie,
        body: { name: 'Ana', language: 'pt' },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(StudioSession.parse(updated.body).user).toMatchObject({ name: 'Ana', language: 'pt' });
      const cleared = await studio(s, 'PATCH', '/api/auth/profile', { cookie, body: { language: null } });
      expect(StudioSession.parse(cleared.body).user).toMatchObject({ name: 'Ana', language: null });
      expectError(
        await studio(s, 'PATCH', '/api/auth/profile', { cookie, body: { language: 'fr' } }),
        400,
        ErrorCode.validation,
      );
    });
  });
});
