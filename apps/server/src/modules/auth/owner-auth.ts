import type { Account, Role } from '@embudo/contracts';
import type { FastifyRequest } from 'fastify';
import type { RateLimitRule } from '../../http/rate-limit';
import { unauthorized } from '../../lib/http-errors';
import { API_KEY_PREFIX, hashToken } from '../../lib/tokens';
import type { AccountService } from '../accounts/account.service';
import { requireRole as roleCheck, requireWriteAccess, type OwnerAccess } from './permissions';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the owner API's authentication hook. */
    ownerAccess: OwnerAccess | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;

/**
 * onRequest hook for /api/owner: runs before the body is read, so a stranger learns nothing else.
 * It finds the key's account (401 otherwise), and lets an account whose subscription is inactive read
 * but not write (403).
 */
export function ownerAuthHook(accounts: Pick<AccountService, 'authenticate'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (header === undefined || header === '')
      throw unauthorized('send your API key as Authorization: Bearer <key>');
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

/**
 * The permission check at the top of each owner route: the account the request acts on, when the
 * caller's role there includes `needed` (401 unauthenticated, 403 naming the role otherwise).
 */
export function requireRole(request: FastifyRequest, needed: Role): Account {
  if (!request.ownerAccess) throw unauthorized('not authenticated');
  return roleCheck(request.ownerAccess, needed);
}

/**
 * The owner API's request limit: OWNER_RATE_LIMIT_PER_MINUTE per API key (each key on its own, of one
 * account or another), counted after the key is known, so an unknown key is a 401 and not counted.
 */
export function ownerRateLimit(perMinute: number): RateLimitRule {
  return {
    perMinute,
    hook: 'preHandler',
    keyOf: (request) => hashToken(BEARER.exec(request.headers.authorization ?? '')?.[1] ?? ''),
    refusal: (seconds) =>
      `too many requests with this API key: at most ${String(perMinute)} a minute ` +
      `(OWNER_RATE_LIMIT_PER_MINUTE); try again in ${String(seconds)} s`,
  };
}
