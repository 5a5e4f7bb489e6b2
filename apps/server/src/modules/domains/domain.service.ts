import type { Account, Domain, DomainCreate } from '@embudo/contracts';
import { badRequest, conflict } from '../../lib/http-errors';
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
  domains: DomainRepo;
  baseDomains: readonly string[];
  now?: () => number;
}

export function createDomainService({ domains, baseDomains, now = Date.now }: DomainServiceDeps) {
  return {
    async list(owner: Pick<Account, 'id'>): Promise<Domain[]> {
      return (await domains.listByAccount(owner.id)).map(toDomain);
    },

    async create(owner: Pick<Account, 'id'>, input: DomainCreate): Promise<Domain> {
      if (baseDomains.includes(input.host)) throw badRequest(`${input.host} is a base domain of this server`);
      const taken = await domains.findByHost(input.host);
      if (taken)
        throw conflict(
          taken.accountId === owner.id
            ? `${input.host} is already yours`
            : `${input.host} is connected to another account`,
        );
      const row: DomainRow = { id: newId(), accountId: owner.id, host: input.host, createdAt: now() };
      try {
        await domains.insert(row);
      } catch (error) {
        if (await domains.findByHost(input.host))
          throw conflict(`${input.host} was connected at the same moment`);
        throw error;
      }
      return toDomain(row);
    },

    async remove(owner: Pick<Account, 'id'>, id: string): Promise<void> {
      requireOwned(owner, await domains.findById(id), 'domain');
      await domains.delete(id);
    },

    /** For a TLS front (Caddy on-demand TLS): does this host belong to an account? */
    async isServed(host: string): Promise<boolean> {
      return baseDomains.includes(host) || (await domains.findByHost(host)) !== undefined;
    },
  };
}
export type DomainService = ReturnType<typeof createDomainService>;
