import type { Account } from '@embudo/contracts';
import { notFound } from '../../lib/http-errors';

/** Permission checks are plain functions (one rule each), called by services. */

export function ownsResource(owner: Pick<Account, 'id'>, resource: { accountId: string }): boolean {
  return owner.id === resource.accountId;
}

/**
 * The resource if the owner may see it. Another account's resource answers exactly like a missing
 * one (404), so ids of other tenants cannot even be confirmed.
 */
export function requireOwned<T extends { accountId: string }>(
  owner: Pick<Account, 'id'>,
  resource: T | undefined,
  what: string,
): T {
  if (!resource || !ownsResource(owner, resource)) throw notFound(what);
  return resource;
}
