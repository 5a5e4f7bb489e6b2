import type { Account, Domain, DomainCreate } from '@embudo/contracts';
import { conflict } from '../../lib/http-errors';
import { toIso } from '../../lib/json';
import { newId } from '../../lib/tokens';
import { requireOwned } from '../auth/permissions';
import type { DomainRepo, DomainRow } from './domain.repo';

const toDomain = (row: DomainRow): Domain => ({
  id: row.id,
  host: row.host,
  createdAt: toIso(row.createdAt),
});

export interface DomainServiceDeps {
  domains: Pick<
    DomainRepo,
    'delete' | 'findByHost' | 'findById' | 'insert' | 'isActiveHost' | 'listByAccount'
  >;
  baseDomains: readonly string[];
  now?: () => number;
}

export function createDomainService({ domains, baseDomains, now = Date.now }: DomainServiceDeps) {
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
      const row: DomainRow = { id: newId(), accountId: owner.id, host: input.host, createdAt: now() };
      try {
        await domains.insert(row);
      } catch (error) {
        if (await domains.findByHost(input.host)) throw unavailable();
        throw error;
      }
      return toDomain(row);
    },

    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      requireOwned(owner, await domains.findById(id), 'domain');
      await domains.delete(id);
    },

    /**
     * For a TLS front (Caddy on-demand TLS): does this host serve pages? A base domain, or a custom
     * domain of an active account. (Proof that the owner holds the domain comes with DNS verification.)
     */
    async isServed(host: string): Promise<boolean> {
      return baseDomains.includes(host) || (await domains.isActiveHost(host));
    },
  };
}
export type DomainService = ReturnType<typeof createDomainService>;
