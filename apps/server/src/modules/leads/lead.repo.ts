import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type LeadRow = Database['leads'];

/** SQLite allows 32,766 bound values per statement; 11 columns × 500 rows stays far below. */
const INSERT_CHUNK = 500;

export function createLeadRepo(db: Db) {
  const byTokenHash = reusableQuery(db, ['tokenHash'], ({ tokenHash }) =>
    db.selectFrom('leads').selectAll().where('tokenHash', '=', tokenHash),
  );
  return {
    /** Inserts all the leads in one transaction: an import lands whole or not at all. */
    async insertMany(rows: LeadRow[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          await trx
            .insertInto('leads')
            .values(rows.slice(i, i + INSERT_CHUNK))
            .execute();
        }
      });
    },
    findById: (id: string) => db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst(),
    findByTokenHash: async (tokenHash: string) => (await byTokenHash({ tokenHash }))[0],
    existingTokenHashes: async (hashes: string[]): Promise<Set<string>> => {
      if (hashes.length === 0) return new Set();
      const rows = await db
        .selectFrom('leads')
        .select('tokenHash')
        .where('tokenHash', 'in', hashes)
        .execute();
      return new Set(rows.map((r) => r.tokenHash));
    },
    /** A page of a funnel's leads, oldest first, after the (createdAt, id) cursor. */
    listByFunnel: (funnelId: string, limit: number, after?: { createdAt: number; id: string }) => {
      let query = db.selectFrom('leads').selectAll().where('funnelId', '=', funnelId);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('createdAt', '>', after.createdAt),
            eb.and([eb('createdAt', '=', after.createdAt), eb('id', '>', after.id)]),
          ]),
        );
      }
      return query.orderBy('createdAt').orderBy('id').limit(limit).execute();
    },
    async update(
      id: string,
      values: Partial<Pick<LeadRow, 'name' | 'email' | 'phone' | 'deadlineExceptionOn'>>,
    ): Promise<void> {
      // An empty patch changes nothing (SQL has no empty SET).
      if (Object.keys(values).length === 0) return;
      await db.updateTable('leads').set(values).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('leads').where('id', '=', id).execute();
    },
  };
}
export type LeadRepo = ReturnType<typeof createLeadRepo>;
