import type { Account, Domain, DomainCheckFailure, DomainCreate } from '@embudo/contracts';
import { DomainCheckFailure as CheckFailure } from '@embudo/contracts';
import { conflict } from '../../lib/http-errors';
import { toIso } from '../../lib/json';
import { newId, newToken } from '../../lib/tokens';
import { requireOwned } from '../auth/permissions';
import { checkDomainRecords, verifyRecordName, type DnsLookups } from './dns-check';
import type { DomainCheckRecord, DomainRepo, DomainRow } from './domain.repo';
import { createServedHostCache, type DomainChanges } from './served-hosts';

/** A verified domain whose records are gone keeps serving this long, then stops (decision 27). */
export const FAILING_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** Domains one periodic pass checks at most; the rest wait for the next pass. */
const CHECK_BATCH = 50;
const CHECKS_AT_ONCE = 10;

export interface DomainServiceDeps {
  domains: Pick<
    DomainRepo,
    | 'claimDue'
    | 'delete'
    | 'findByHost'
    | 'findById'
    | 'insert'
    | 'isActiveServingHost'
    | 'listByAccount'
    | 'recordCheck'
    | 'servingAccountOf'
  >;
  baseDomains: readonly string[];
  /** The host custom domains point at (DOMAIN_TARGET): a CNAME to it, or its addresses. */
  target: string;
  dns: DnsLookups;
  /** How often a domain is checked again (DOMAIN_CHECK_MINUTES). */
  checkIntervalMs: number;
  /** Where a change of a domain is told, so that answers kept in memory are dropped. */
  changes: DomainChanges;
  /** How long the TLS ask's answers are kept. */
  askCacheMs?: number;
  now?: () => number;
}

/** Whether a domain serves visitors at `now`: verified, or failing for less than the grace. */
export function isServing(row: Pick<DomainRow, 'state' | 'failingSince'>, now: number): boolean {
  return (
    row.state === 'verified' ||
    (row.state === 'failing' && row.failingSince !== null && row.failingSince > now - FAILING_GRACE_MS)
  );
}

/** The state a check leaves: a domain is verified while its records hold; once verified, it fails. */
export function afterCheck(
  row: Pick<DomainRow, 'state' | 'failingSince'>,
  failure: DomainCheckFailure | null,
  now: number,
): DomainCheckRecord {
  if (failure === null) return { state: 'verified', failure: null, checkedAt: now, failingSince: null };
  if (row.state === 'pending') return { state: 'pending', failure, checkedAt: now, failingSince: null };
  return { state: 'failing', failure, checkedAt: now, failingSince: row.failingSince ?? now };
}

export function createDomainService({
  domains,
  baseDomains,
  target,
  dns,
  checkIntervalMs,
  changes,
  askCacheMs,
  now = Date.now,
}: DomainServiceDeps) {
  const toDomain = (row: DomainRow): Domain => ({
    id: row.id,
    host: row.host,
    createdAt: toIso(row.createdAt),
    state: row.state,
    failure: row.failure === null ? null : CheckFailure.catch('DNS_ERROR').parse(row.failure),
    checkedAt: row.checkedAt === null ? null : toIso(row.checkedAt),
    serving: isServing(row, now()),
    records: {
      ownership: { type: 'TXT', name: verifyRecordName(row.host), value: row.verifyToken },
      target: { type: 'CNAME', name: row.host, value: target },
    },
  });

  const servedHosts = createServedHostCache({
    lookup: async (host) =>
      baseDomains.includes(host) || (await domains.isActiveServingHost(host, now() - FAILING_GRACE_MS)),
    changes,
    ...(askCacheMs !== undefined ? { ttlMs: askCacheMs } : {}),
    now,
  });

  /** Looks the records up and keeps what was found; the domain as the check left it. */
  async function check(row: DomainRow): Promise<DomainRow> {
    const failure = await checkDomainRecords(dns, { host: row.host, token: row.verifyToken, target });
    const at = now();
    const record = afterCheck(row, failure, at);
    await domains.recordCheck(row.id, record, at + checkIntervalMs);
    changes.publish(row.host);
    return { ...row, ...record, nextCheckAt: at + checkIntervalMs };
  }

  return {
    async list(owner: Pick<Account, 'id'>): Promise<Domain[]> {
      return (await domains.listByAccount(owner.id)).map(toDomain);
    },

    async create(owner: Pick<Account, 'id'>, input: DomainCreate): Promise<Domain> {
      // A host this server uses and one another account holds get the same answer: which hosts other
      // accounts have connected is not this owner's to learn.
      const unavailable = () => conflict(`${input.host} cannot be connected to this account`);
      if (baseDomains.includes(input.host)) throw unavailable();
      const taken = await domains.findByHost(input.host);
      if (taken)
        throw taken.accountId === owner.id ? conflict(`${input.host} is already yours`) : unavailable();
      const at = now();
      const row: DomainRow = {
        id: newId(),
        accountId: owner.id,
        host: input.host,
        createdAt: at,
        // Not a secret (anyone can read it in DNS), so kept in clear, to be shown again.
        verifyToken: newToken(),
        state: 'pending',
        failure: null,
        checkedAt: null,
        failingSince: null,
        nextCheckAt: at + checkIntervalMs,
      };
      try {
        await domains.insert(row);
      } catch (error) {
        if (await domains.findByHost(input.host)) throw unavailable();
        throw error;
      }
      changes.publish(row.host);
      return toDomain(row);
    },

    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      const row = requireOwned(owner, await domains.findById(id), 'domain');
      await domains.delete(id);
      changes.publish(row.host);
    },

    /** The owner's "Check now": the records looked up at once. */
    async verify(owner: Pick<Account, 'id'>, id: string): Promise<Domain> {
      const row = requireOwned(owner, await domains.findById(id), 'domain');
      return toDomain(await check(row));
    },

    /**
     * One periodic pass: claims the domains due for a check (so that no other runner checks them)
     * and checks them. Resolves how many were checked.
     */
    async checkDue(): Promise<number> {
      const at = now();
      const due = await domains.claimDue(at, at + checkIntervalMs, CHECK_BATCH);
      // A few at a time: a domain whose DNS does not answer waits for its timeout, not the others.
      for (let i = 0; i < due.length; i += CHECKS_AT_ONCE)
        await Promise.all(due.slice(i, i + CHECKS_AT_ONCE).map(check));
      return due.length;
    },

    /**
     * The account whose pages a custom host serves now: none for a pending domain, nor for one
     * failing longer than the grace (decision 27).
     */
    servingAccountOf: (host: string): Promise<string | undefined> =>
      domains.servingAccountOf(host, now() - FAILING_GRACE_MS),

    /**
     * For a TLS front (Caddy's on-demand TLS): may this host have a certificate? A base domain, or a
     * custom domain that serves (verified, or within the grace of failing) of an active account.
     * Answered from memory when known (decision 27).
     */
    isServed: (host: string): Promise<boolean> => servedHosts.isServed(host),
  };
}
export type DomainService = ReturnType<typeof createDomainService>;
