import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type PreviewTokenRow = Database['previewTokens'];

export function createPreviewRepo(db: Db) {
  const byTokenHash = reusableQuery(db, ['tokenHash'], ({ tokenHash }) =>
    db.selectFrom('previewTokens').selectAll().where('tokenHash', '=', tokenHash),
  );
  return {
    /** Stores the chain; a token already stored (an idempotent re-run) only gets its expiry moved. */
    async upsertMany(rows: PreviewTokenRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('previewTokens')
        .values(rows)
        .onConflict((oc) =>
          oc.column('tokenHash').doUpdateSet((eb) => ({ expiresAt: eb.ref('excluded.expiresAt') })),
        )
        .execute();
    },
    findByTokenHash: async (tokenHash: string) => (await byTokenHash({ tokenHash }))[0],
    async deleteExpired(before: number): Promise<number> {
      const result = await db.deleteFrom('previewTokens').where('expiresAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type PreviewRepo = ReturnType<typeof createPreviewRepo>;
