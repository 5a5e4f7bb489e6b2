import { ErrorCode, roleIncludes, type Account, type Role } from '@embudo/contracts';
import { forbidden, HttpError, notFound } from '../../lib/http-errors';

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

/** Methods that only read: an account whose subscription is inactive may still use them. */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * An account whose subscription is inactive keeps read access to its owner API (its funnels, pages
 * and leads stay readable, for export) but may change nothing: every other method is a 403.
 */
export function requireWriteAccess(owner: Pick<Account, 'subscriptionStatus'>, method: string): void {
  if (owner.subscriptionStatus === 'active' || READ_METHODS.has(method)) return;
  throw forbidden(
    "this account's subscription is inactive: its owner API only reads (GET); writes are refused " +
      'until the subscription is active again',
  );
}

/** Who is calling the owner API, in which account, with which role (an API key acts as the owner). */
export interface OwnerAccess {
  account: Account;
  role: Role;
  /** The signed-in user; null for an API key. */
  userId: string | null;
}

/**
 * The account to act on, if the caller's role includes `needed`; a 403 naming the role otherwise
 * (`requiredRole` in the answer, so the Studio can say which role is needed).
 */
export function requireRole(access: OwnerAccess, needed: Role): Account {
  if (roleIncludes(access.role, needed)) return access.account;
  throw new HttpError(
    403,
    ErrorCode.roleRequired,
    `this needs the ${needed} role in this account; yours is ${access.role}`,
    undefined,
    { requiredRole: needed },
  );
}
