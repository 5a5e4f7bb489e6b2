import type { Account, Role } from '@embudo/contracts';
import type { FastifyRequest } from 'fastify';
import type { RateLimitRule } from '../../http/rate-limit';
import { forbidden, unauthorized } from '../../lib/http-errors';
import { API_KEY_PREFIX, hashToken } from '../../lib/tokens';
import type { AccountService } from '../accounts/account.service';
import type { MemberService } from '../members/member.service';
import { readCookie, SESSION_COOKIE } from '../studio-sessions/cookie';
import type { LiveSession, SessionService } from '../studio-sessions/session.service';
import { requireRole as roleCheck, requireWriteAccess, type OwnerAccess } from './permissions';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the owner API's authentication hook. */
    ownerAccess: OwnerAccess | null;
    /** The Studio session the request's cookie opens, under /api/auth (set by its hook). */
    studioSession: LiveSession | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;

/** Methods that change nothing: a cross-site request may make them (they get no answer it can read). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a session cookie needs to be checked: the sessions, the memberships, the Studio's origin. */
export interface CookieAuth {
  sessions: Pick<SessionService, 'resolve'>;
  members: Pick<MemberService, 'membership'>;
  /** The origin of PUBLIC_URL, where the Studio is served. */
  studioOrigin: string;
}

/** The session cookie's token, if the request carries one. */
export const sessionToken = (request: FastifyRequest): string | undefined => {
  const token = readCookie(request.headers.cookie, SESSION_COOKIE);
  return token === undefined || token === '' ? undefined : token;
};

/**
 * A request the cookie authenticates and that may change something must come from the Studio's own
 * pages: its Origin header names the Studio's origin (decision 21). Another site's form or script
 * cannot set it, so it cannot act with a signed-in owner's cookie (403).
 */
export function requireStudioOrigin(request: FastifyRequest, studioOrigin: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin === undefined || origin === '')
    throw forbidden(
      `a ${request.method} signed in with the Studio's cookie must carry the Origin header of the Studio ` +
        `(${studioOrigin}); browsers send it, so this request did not come from the Studio`,
    );
  if (origin !== studioOrigin)
    throw forbidden(
      `refused: this ${request.method} comes from ${origin}, not from the Studio (${studioOrigin}); ` +
        'another site may not act with your sign-in',
    );
}

/**
 * onRequest hook for /api/owner: runs before the body is read, so a stranger learns nothing else.
 * Two ways in: an API key (`Authorization: Bearer emb_…`, acting as its account's owner), or the
 * Studio's session cookie (the session's current account, with the user's role there, read on every
 * request so that a removed member or a changed role counts at once). 401 otherwise. An account whose
 * subscription is inactive may read but not write (403).
 */
export function ownerAuthHook(accounts: Pick<AccountService, 'authenticate'>, studio: CookieAuth) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    const cookie = sessionToken(request);
    if ((header === undefined || header === '') && cookie !== undefined) {
      request.ownerAccess = await cookieAccess(request, cookie, studio);
      return;
    }
    if (header === undefined || header === '')
      throw unauthorized('send your API key as Authorization: Bearer <key>, or sign in to the Studio');
    const key = BEARER.exec(header)?.[1];
    if (key === undefined || !key.startsWith(API_KEY_PREFIX)) {
      throw unauthorized(`the Authorization header must be 'Bearer ${API_KEY_PREFIX}…'`);
    }
    const owner = await accounts.authenticate(key);
    if (!owner) throw unauthorized('unknown API key');
    requireWriteAccess(owner, request.method);
    // An API key acts as its account's owner.
    request.ownerAccess = { account: owner, role: 'owner', userId: null };
  };
}

async function cookieAccess(
  request: FastifyRequest,
  token: string,
  studio: CookieAuth,
): Promise<OwnerAccess> {
  const session = await studio.sessions.resolve(token);
  if (!session) throw unauthorized('your Studio session has ended: sign in again');
  requireStudioOrigin(request, studio.studioOrigin);
  const membership = await studio.members.membership(session.userId, session.currentAccountId);
  if (!membership) throw unauthorized('you are no longer a member of this account: sign in again');
  requireWriteAccess(membership.account, request.method);
  return { account: membership.account, role: membership.role, userId: session.userId };
}

/**
 * The permission check at the top of each owner route: the account the request acts on, when the
 * caller's role there includes `needed` (401 unauthenticated, 403 naming the role otherwise).
 */
export function requireRole(request: FastifyRequest, needed: Role): Account {
  if (!request.ownerAccess) throw unauthorized('not authenticated');
  return roleCheck(request.ownerAccess, needed);
}

/**
 * The owner API's request limit: OWNER_RATE_LIMIT_PER_MINUTE per API key or per Studio session (each
 * on its own), counted after the caller is known, so an unknown key is a 401 and not counted.
 */
export function ownerRateLimit(perMinute: number): RateLimitRule {
  return {
    perMinute,
    hook: 'preHandler',
    keyOf: (request) => {
      const key = BEARER.exec(request.headers.authorization ?? '')?.[1];
      return key !== undefined ? hashToken(key) : `session:${hashToken(sessionToken(request) ?? '')}`;
    },
    refusal: (seconds) =>
      `too many requests with this API key or Studio session: at most ${String(perMinute)} a minute ` +
      `(OWNER_RATE_LIMIT_PER_MINUTE); try again in ${String(seconds)} s`,
  };
}
