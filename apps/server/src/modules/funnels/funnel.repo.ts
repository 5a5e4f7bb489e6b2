import { reusableQuery } from '../../db/reusable-query';
import type { Transaction } from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type FunnelRow = Database['funnels'];

/** Takes the account's row lock for a funnel count (PostgreSQL: a second writer waits; SQLite writes one at a time). */
async function funnelsOfAccount(trx: Transaction<Database>, accountId: string): Promise<number> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({ slug: eb.ref('slug') }))
    .where('id', '=', accountId)
    .execute();
  const counted = await trx
    .selectFrom('funnels')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return Number(counted?.n ?? 0);
}

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
  // The owner's view adds the number of leads, which triggers keep in funnel_lead_counts (migration
  // 0009): one row read per funnel, never its leads counted; the visitor's reads (byId) skip it.
  const withCounts = () =>
    withPageCount().select((eb) =>
      eb
        .selectFrom('funnelLeadCounts')
        .select('funnelLeadCounts.leadCount')
        .whereRef('funnelLeadCounts.funnelId', '=', 'funnels.id')
        .as('leadCount'),
    );
  const byId = reusableQuery(db, ['id'], ({ id }) => withPageCount().where('funnels.id', '=', id));
  const ownerOf = reusableQuery(db, ['id'], ({ id }) =>
    db.selectFrom('funnels').select('accountId').where('id', '=', id),
  );
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
        guard(await funnelsOfAccount(trx, row.accountId));
        await trx.insertInto('funnels').values(row).execute();
      });
    },
    /**
     * Inserts `row` as a copy of the funnel `sourceId` with a copy of each of its pages (new ids from
     * `newPageId`, same positions and content), in one transaction and if `guard` lets it, as insert
     * does. Leads and their events are not copied.
     */
    async insertCopy(
      row: FunnelRow,
      sourceId: string,
      newPageId: () => string,
      guard: (funnelsOfAccount: number) => void,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        guard(await funnelsOfAccount(trx, row.accountId));
        await trx.insertInto('funnels').values(row).execute();
        const pages = await trx.selectFrom('pages').selectAll().where('funnelId', '=', sourceId).execute();
        if (pages.length === 0) return;
        await trx
          .insertInto('pages')
          .values(
            pages.map((page) => ({
              ...page,
              id: newPageId(),
              funnelId: row.id,
              createdAt: row.createdAt,
              updatedAt: row.createdAt,
            })),
          )
          .execute();
      });
    },
    findById: async (id: string) => (await byId({ id }))[0],
    /** Only whose the funnel is: what a list of its leads checks, without reading the funnel. */
    findOwner: async (id: string) => (await ownerOf({ id }))[0],
    /** A funnel with its numbers of pages and leads, for its owner. */
    findWithCounts: (id: string) => withCounts().where('funnels.id', '=', id).executeTakeFirst(),
    /** The account's funnels with their numbers of pages and leads, in one statement. */
    listByAccount: (accountId: string) =>
      withCounts()
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
