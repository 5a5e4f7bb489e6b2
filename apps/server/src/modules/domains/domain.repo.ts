import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type DomainRow = Database['domains'];

export function createDomainRepo(db: Db) {
  const byHost = reusableQuery(db, ['host'], ({ host }) =>
    db.selectFrom('domains').selectAll().where('host', '=', host),
  );
  return {
    async insert(row: DomainRow): Promise<void> {
      await db.insertInto('domains').values(row).execute();
    },
    findById: (id: string) => db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst(),
    findByHost: async (host: string) => (await byHost({ host }))[0],
    /** Whether the host belongs to an account that may serve pages (an active subscription). */
    async isActiveHost(host: string): Promise<boolean> {
      const row = await db
        .selectFrom('domains')
        .innerJoin('accounts', 'accounts.id', 'domains.accountId')
        .select('domains.id')
        .where('domains.host', '=', host)
        .where('accounts.subscriptionStatus', '=', 'active')
        .executeTakeFirst();
      return row !== undefined;
    },
    listByAccount: (accountId: string) =>
      db.selectFrom('domains').selectAll().where('accountId', '=', accountId).orderBy('host').execute(),
    async delete(id: string): Promise<void> {
      await db.deleteFrom('domains').where('id', '=', id).execute();
    },
  };
}
export type DomainRepo = ReturnType<typeof createDomainRepo>;
