import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type FunnelRow = Database['funnels'];

export function createFunnelRepo(db: Db) {
  const withPageCount = () =>
    db
      .selectFrom('funnels')
      .selectAll('funnels')
      .select((eb) =>
        eb
          .selectFrom('pages')
          .select((p) => p.fn.countAll<number>().as('n'))
          .whereRef('pages.funnelId', '=', 'funnels.id')
          .as('pageCount'),
      );
  const byId = reusableQuery(db, ['id'], ({ id }) => withPageCount().where('funnels.id', '=', id));
  return {
    /**
     * Inserts a funnel if `guard`, told how many funnels its account has, lets it: in one transaction
     * with the account's row locked (PostgreSQL: a second writer waits; SQLite writes one at a time),
     * so that two creations at once cannot both pass a limit. A guard that throws writes nothing.
     */
    async insert(row: FunnelRow, guard?: (funnelsOfAccount: number) => void): Promise<void> {
      if (!guard) {
        await db.insertInto('funnels').values(row).execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('accounts')
          .set((eb) => ({ slug: eb.ref('slug') }))
          .where('id', '=', row.accountId)
          .execute();
        const counted = await trx
          .selectFrom('funnels')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('accountId', '=', row.accountId)
          .executeTakeFirst();
        guard(Number(counted?.n ?? 0));
        await trx.insertInto('funnels').values(row).execute();
      });
    },
    findById: async (id: string) => (await byId({ id }))[0],
    listByAccount: (accountId: string) =>
      withPageCount()
        .where('funnels.accountId', '=', accountId)
        .orderBy('funnels.createdAt')
        .orderBy('funnels.id')
        .execute(),
    findByName: (accountId: string, name: string) =>
      db
        .selectFrom('funnels')
        .selectAll()
        .where('accountId', '=', accountId)
        .where('name', '=', name)
        .executeTakeFirst(),
    async update(
      id: string,
      values: Partial<Omit<FunnelRow, 'id' | 'accountId' | 'createdAt'>>,
    ): Promise<void> {
      await db.updateTable('funnels').set(values).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('funnels').where('id', '=', id).execute();
    },
  };
}
export type FunnelRepo = ReturnType<typeof createFunnelRepo>;
