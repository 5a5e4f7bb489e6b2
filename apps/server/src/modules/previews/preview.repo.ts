import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type PreviewTokenRow = Database['previewTokens'];

export function createPreviewRepo(db: Db) {
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
    findByTokenHash: (tokenHash: string) =>
      db.selectFrom('previewTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst(),
    async deleteExpired(before: number): Promise<number> {
      const result = await db.deleteFrom('previewTokens').where('expiresAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type PreviewRepo = ReturnType<typeof createPreviewRepo>;
