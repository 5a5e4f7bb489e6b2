import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';

export type PageRow = Database['pages'];

/**
 * Serialises changes to one funnel's page order. Touching the funnel row takes its row lock on
 * PostgreSQL (a second writer waits); SQLite already runs one write transaction at a time.
 */
async function lockFunnel(trx: Transaction<Database>, funnelId: string): Promise<void> {
  await trx
    .updateTable('funnels')
    .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
    .where('id', '=', funnelId)
    .execute();
}

export function createPageRepo(db: Db) {
  /** A page with the account that owns it, for permission checks. */
  const withOwner = () =>
    db
      .selectFrom('pages')
      .innerJoin('funnels', 'funnels.id', 'pages.funnelId')
      .selectAll('pages')
      .select('funnels.accountId');
  const byId = reusableQuery(db, ['id'], ({ id }) => withOwner().where('pages.id', '=', id));
  const byFunnel = reusableQuery(db, ['funnelId'], ({ funnelId }) =>
    withOwner().where('pages.funnelId', '=', funnelId).orderBy('pages.position'),
  );
  // A page's place and action without its content, for tracking and conversions.
  const refFields = ['id', 'buttonAction', 'position'] as const;
  const refInFunnel = reusableQuery(db, ['pageId', 'funnelId'], ({ pageId, funnelId }) =>
    db.selectFrom('pages').select(refFields).where('id', '=', pageId).where('funnelId', '=', funnelId),
  );
  const firstRef = reusableQuery(db, ['funnelId'], ({ funnelId }) =>
    db.selectFrom('pages').select(refFields).where('funnelId', '=', funnelId).orderBy('position').limit(1),
  );
  return {
    findRefInFunnel: async (pageId: string, funnelId: string) => (await refInFunnel({ pageId, funnelId }))[0],
    findFirstRef: async (funnelId: string) => (await firstRef({ funnelId }))[0],
    findById: async (id: string) => (await byId({ id }))[0],
    listByFunnel: (funnelId: string) => byFunnel({ funnelId }),
    /** Appends the page after the funnel's last one, in one transaction. */
    async append(row: Omit<PageRow, 'position'>): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await lockFunnel(trx, row.funnelId);
        const last = await trx
          .selectFrom('pages')
          .select((eb) => eb.fn.max('position').as('max'))
          .where('funnelId', '=', row.funnelId)
          .executeTakeFirst();
        const position = last?.max == null ? 0 : last.max + 1;
        await trx
          .insertInto('pages')
          .values({ ...row, position })
          .execute();
        return position;
      });
    },
    async update(
      id: string,
      values: Partial<Pick<PageRow, 'layout' | 'buttonAction' | 'content' | 'updatedAt'>>,
    ): Promise<void> {
      await db.updateTable('pages').set(values).where('id', '=', id).execute();
    },
    /** Deletes a page and closes the gap, keeping positions 0..n-1 (and unique at every step). */
    async delete(page: Pick<PageRow, 'id' | 'funnelId' | 'position'>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockFunnel(trx, page.funnelId);
        await trx.deleteFrom('pages').where('id', '=', page.id).execute();
        const after = (q: typeof trx) => q.updateTable('pages').where('funnelId', '=', page.funnelId);
        await after(trx)
          .set((eb) => ({ position: eb.neg(eb.ref('position')) }))
          .where('position', '>', page.position)
          .execute();
        await after(trx)
          .set((eb) => ({ position: eb(eb.neg(eb.ref('position')), '-', 1) }))
          .where('position', '<', 0)
          .execute();
      });
    },
  };
}
export type PageRepo = ReturnType<typeof createPageRepo>;
