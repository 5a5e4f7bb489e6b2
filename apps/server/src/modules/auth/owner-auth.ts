import type { Account } from '@embudo/contracts';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../lib/http-errors';
import { API_KEY_PREFIX } from '../../lib/tokens';
import type { AccountService } from '../accounts/account.service';

declare module 'fastify' {
  interface FastifyRequest {
    owner: Account | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;

/** onRequest hook for /api/owner: runs before the body is read, so a stranger learns nothing else. */
export function ownerAuthHook(accounts: AccountService) {
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
    request.owner = owner;
  };
}

/** The authenticated owner of a request that passed ownerAuthHook. */
export function ownerOf(request: FastifyRequest): Account {
  if (!request.owner) throw unauthorized('not authenticated');
  return request.owner;
}
