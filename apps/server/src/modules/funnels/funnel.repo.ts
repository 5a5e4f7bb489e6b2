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
  return {
    async insert(row: FunnelRow): Promise<void> {
      await db.insertInto('funnels').values(row).execute();
    },
    findById: (id: string) => withPageCount().where('funnels.id', '=', id).executeTakeFirst(),
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
