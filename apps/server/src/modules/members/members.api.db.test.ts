import {
  ApiError,
  ErrorCode,
  Invitation,
  InvitationCreated,
  InvitationPreview,
  Member,
  StudioSession,
} from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, rowCounts } from '../../../test/fixtures';
import { startTestServer, type TestServer } from '../../../test/server';
import { cookieOf, newPerson, signIn, studio } from '../../../test/studio';
import type { Dialect } from '../../db/dialect';

/** Members, invitation links and the first run, over HTTP as the Studio calls them (issue 18). */

function useServer(dialect: Dialect, env: Record<string, string> = {}) {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(dialect, { SIGN_IN_ATTEMPTS: '1000', ...env });
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

const tokenOf = (url: string) => url.split('/').at(-1) ?? '';

describe.each(TEST_DIALECTS)('members and invitations on %s', (dialect) => {
  describe('members', () => {
    const server = useServer(dialect);

    it('lists members; an account keeps at least one owner (409 on demoting or removing the last)', async () => {
      const s = server();
      const account = await newAccount(s.services);
      const owner = await newPerson(s.services, account, 'owner');
      const viewer = await newPerson(s.services, account, 'viewer');
      const cookie = await signIn(s, owner);
      const list = await studio(s, 'GET', '/api/owner/members', { cookie });
      expect(list.status).toBe(200);
      const members = z.array(Member).parse(list.body);
      expect(members.map((m) => [m.email, m.role])).toEqual([
        [owner.email, 'owner'],
        [viewer.email, 'viewer'],
      ]);
      const before = await rowCounts(s.database.db);
      expectError(
        await studio(s, 'PATCH', `/api/owner/members/${owner.userId}`, { cookie, body: { role: 'editor' } }),
        409,
        ErrorCode.conflict,
      );
      expectError(
        await studio(s, 'DELETE', `/api/owner/members/${owner.userId}`, { cookie }),
        409,
        ErrorCode.conflict,
      );
      expect(await rowCounts(s.database.db)).toEqual(before);
      // With a second owner, the first may step down.
      expect(
        (await studio(s, 'PATCH', `/api/owner/members/${viewer.userId}`, { cookie, body: { role: 'owner' } }))
          .status,
      ).toBe(200);
      const stepDown = await studio(s, 'PATCH', `/api/owner/members/${owner.userId}`, {
        cookie,
        body: { role: 'viewer' },
      });
      expect(stepDown.status, stepDown.text).toBe(200);
      // Now a viewer: the members routes' writes are the owner's.
      expectError(
        await studio(s, 'DELETE', `/api/owner/members/${viewer.userId}`, { cookie }),
        403,
        ErrorCode.roleRequired,
      );
    });

    it("another account's member is a 404, as is an unknown id", async () => {
      const s = server();
      const account = await newAccount(s.services);
      const other = await newAccount(s.services);
      const owner = await newPerson(s.services, account, 'owner');
      const stranger = await newPerson(s.services, other, 'editor');
      const cookie = await signIn(s, owner);
      expectError(
        await studio(s, 'PATCH', `/api/owner/members/${stranger.userId}`, {
          cookie,
          body: { role: 'viewer' },
        }),
        404,
        ErrorCode.notFound,
      );
      expectError(
        await studio(s, 'DELETE', `/api/owner/members/${stranger.userId}`, { cookie }),
        404,
        ErrorCode.notFound,
      );
      expect((await s.services.members.membership(stranger.userId, other.id))?.role).toBe('editor');
    });
  });

  describe('invitations', () => {
    const server = useServer(dialect);

    it('a link shown once, stored hashed, 7 days; a new person creates their user with it and is signed in', async () => {
      const s = server();
      const account = await newAccount(s.services);
      const owner = await newPerson(s.services, account, 'owner');
      const cookie = await signIn(s, owner);
      const created = await studio(s, 'POST', '/api/owner/invitations', {
        cookie,
        body: { role: 'editor', email: 'New.Person@Example.com' },
      });
      expect(created.status, created.text).toBe(201);
      const { invitation, url } = InvitationCreated.parse(created.body);
      expect(url).toMatch(new RegExp(`^${s.config.publicUrl}/studio/invite/[A-Za-z0-9_-]{32}$`));
      expect(invitation).toMatchObject({ role: 'editor', email: 'new.person@example.com' });
      expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(
        7 * 24 * 60 * 60 * 1000,
      );
      const token = tokenOf(url);
      const stored = await s.database.db
        .selectFrom('invitations')
        .selectAll()
        .where('id', '=', invitation.id)
        .executeTakeFirstOrThrow();
      expect(stored.tokenHash).not.toContain(token);
      const listed = z
        .array(Invitation)
        .parse((await studio(s, 'GET', '/api/owner/invitations', { cookie })).body);
      expect(listed.map((i) => i.id)).toEqual([invitation.id]);

      const preview = await studio(s, 'GET', `/api/auth/invitations/${token}`);
      expect(preview.status).toBe(200);
      expect(InvitationPreview.parse(preview.body)).toMatchObject({
        accountName: account.name,
        role: 'editor',
      });

      const common = await studio(s, 'POST', `/api/auth/invitations/${token}/accept`, {
        body: { name: 'Nueva', email: 'nueva@example.com', password: 'qwertyuiop' },
      });
      expectError(common, 400, ErrorCode.validation);
      expect((common.body as ApiError).issues?.[0]).toMatchObject({ path: 'body.password' });

      const accepted = await studio(s, 'POST', `/api/auth/invitations/${token}/accept`, {
        body: { name: 'Nueva', email: 'nueva@example.com', password: 'a long new passphrase' },
      });
      expect(accepted.status, accepted.text).toBe(200);
      expect(StudioSession.parse(accepted.body)).toMatchObject({
        currentAccountId: account.id,
        role: 'editor',
      });
      const newCookie = cookieOf(accepted.headers);
      expect(
        (await studio(s, 'POST', '/api/owner/funnels', { cookie: newCookie, body: { name: 'Hers' } })).status,
      ).toBe(201);

      // Used: gone from the list, and the link is a 404 for anyone else.
      expect(
        z.array(Invitation).parse((await studio(s, 'GET', '/api/owner/invitations', { cookie })).body),
      ).toEqual([]);
      expectError(await studio(s, 'GET', `/api/auth/invitations/${token}`), 404, ErrorCode.notFound);
      const before = await rowCounts(s.database.db);
      const again = await studio(s, 'POST', `/api/auth/invitations/${token}/accept`, {
        body: { name: 'Otra', email: 'otra@example.com', password: 'another long passphrase' },
      });
      expectError(again, 404, ErrorCode.notFound);
      expect(await rowCounts(s.database.db)).toEqual(before);
    });

    it('a signed-in user joins with their own user; an existing e-mail without a session must sign in first (409)', async () => {
      const s = server();
      const account = await newAccount(s.services);
      const elsewhere = await newAccount(s.services);
      const owner = await newPerson(s.services, account, 'owner');
      const joiner = await newPerson(s.services, elsewhere, 'owner');
      const ownerCookie = await signIn(s, owner);
      const { url } = InvitationCreated.parse(
        (await studio(s, 'POST', '/api/owner/invitations', { cookie: ownerCookie, body: { role: 'viewer' } }))
          .body,
      );
      const token = tokenOf(url);
      const before = await rowCounts(s.database.db);
      const taken = await studio(s, 'POST', `/api/auth/invitations/${token}/accept`, {
        body: { name: 'Joiner', email: joiner.email, password: 'whatever long passphrase' },
      });
      expectError(taken, 409, ErrorCode.conflict);
      expect((taken.body as ApiError).message).toMatch(/sign in first/);
      expect(await rowCounts(s.database.db)).toEqual(before);

      const joinerCookie = await signIn(s, joiner);
      const joined = await studio(s, 'POST', `/api/auth/invitations/${token}/accept`, {
        cookie: joinerCookie,
      });
      expect(joined.status, joined.text).toBe(200);
      const session = StudioSession.parse(joined.body);
      expect(session).toMatchObject({ currentAccountId: account.id, role: 'viewer' });
      expect(session.memberships.map((m) => m.account.id).sort()).toEqual([account.id, elsewhere.id].sort());
      expect((await studio(s, 'GET', '/api/owner/funnels', { cookie: joinerCookie })).status).toBe(200);
    });

    it("a revoked link is a 404; revoking another account's invitation is a 404 that revokes nothing", async () => {
      const s = server();
      const account = await newAccount(s.services);
      const other = await newAccount(s.services);
      const owner = await newPerson(s.services, account, 'owner');
      const otherOwner = await newPerson(s.services, other, 'owner');
      const cookie = await signIn(s, owner);
      const otherCookie = await signIn(s, otherOwner);
      const { invitation, url } = InvitationCreated.parse(
        (await studio(s, 'POST', '/api/owner/invitations', { cookie, body: { role: 'editor' } })).body,
      );
      expectError(
        await studio(s, 'DELETE', `/api/owner/invitations/${invitation.id}`, { cookie: otherCookie }),
        404,
        ErrorCode.notFound,
      );
      expect((await studio(s, 'GET', `/api/auth/invitations/${tokenOf(url)}`)).status).toBe(200);
      expect((await studio(s, 'DELETE', `/api/owner/invitations/${invitation.id}`, { cookie })).status).toBe(
        204,
      );
      expectError(await studio(s, 'GET', `/api/auth/invitations/${tokenOf(url)}`), 404, ErrorCode.notFound);
      expectError(
        await studio(s, 'DELETE', `/api/owner/invitations/${invitation.id}`, { cookie }),
        404,
        ErrorCode.notFound,
      );
    });
  });

  describe('the first run', () => {
    const server = useServer(dialect, { PUBLIC_URL: 'https://studio.example' });

    it('says setup is needed until the first user exists, creates them as owner of a new account, then 409', async () => {
      const s = server();
      const origin = 'https://studio.example';
      expect((await studio(s, 'GET', '/api/auth/setup', { origin })).body).toEqual({ needed: true });
      const body = {
        name: 'Primera',
        email: 'First@Example.com',
        password: 'the very first passphrase',
        accountName: 'Mi negocio',
        accountSlug: 'mi-negocio',
        language: 'es',
      };
      const common = await studio(s, 'POST', '/api/auth/setup', {
        origin,
        body: { ...body, password: 'password123' },
      });
      expectError(common, 400, ErrorCode.validation);
      expect((common.body as ApiError).issues).toEqual([
        { path: 'body.password', message: expect.stringMatching(/too common/) as string },
      ]);
      expect(await s.services.accounts.findBySlug('mi-negocio')).toBeUndefined();

      // Two at once: one wins, the other is a 409.
      const [a, b] = await Promise.all([
        studio(s, 'POST', '/api/auth/setup', { origin, body }),
        studio(s, 'POST', '/api/auth/setup', {
          origin,
          body: { ...body, email: 'second@example.com', accountSlug: 'otro' },
        }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([201, 409]);
      const won = a.status === 201 ? a : b;
      const session = StudioSession.parse(won.body);
      expect(session.role).toBe('owner');
      expect(session.user.language).toBe('es');
      // Served over https: the cookie is Secure.
      expect(won.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      expect((await studio(s, 'GET', '/api/auth/setup', { origin })).body).toEqual({ needed: false });
      expect(await s.database.db.selectFrom('users').select('id').execute()).toHaveLength(1);
      const later = await studio(s, 'POST', '/api/auth/setup', {
        origin,
        body: { ...body, accountSlug: 'tercero' },
      });
      expectError(later, 409, ErrorCode.conflict);
      expect(await s.services.accounts.findBySlug('tercero')).toBeUndefined();
    });
  });
});
