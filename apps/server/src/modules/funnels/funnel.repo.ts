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
    async insert(row: FunnelRow): Promise<void> {
      await db.insertInto('funnels').values(row).execute();
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
