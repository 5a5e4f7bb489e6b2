import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type SessionRow = Database['sessions'];

/** Studio sessions, found by their token's SHA-256 (the token itself is never stored). */
export function createSessionRepo(db: Db) {
  return {
    async insert(row: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(row).execute();
    },
    findByHash: (tokenHash: string) =>
      db.selectFrom('sessions').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst(),
    async touch(id: string, at: number): Promise<void> {
      await db.updateTable('sessions').set({ lastSeenAt: at }).where('id', '=', id).execute();
    },
    async setAccount(id: string, accountId: string): Promise<void> {
      await db.updateTable('sessions').set({ currentAccountId: accountId }).where('id', '=', id).execute();
    },
    async remove(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },
    /** Ends every session of the user but `keepId` (none kept when it is null). */
    async removeOfUser(userId: string, keepId: string | null): Promise<void> {
      await db
        .deleteFrom('sessions')
        .where('userId', '=', userId)
        .$if(keepId !== null, (q) => q.where('id', '<>', keepId ?? ''))
        .execute();
    },
    /** Ends the user's sessions working in the account, in the caller's transaction. */
    async removeInAccount(trx: Db, userId: string, accountId: string): Promise<void> {
      await trx
        .deleteFrom('sessions')
        .where('userId', '=', userId)
        .where('currentAccountId', '=', accountId)
        .execute();
    },
    /** Sessions past their absolute expiry (idle ones are refused when read, and go with the rest). */
    async removeExpired(now: number): Promise<void> {
      await db.deleteFrom('sessions').where('expiresAt', '<=', now).execute();
    },
  };
}
export type SessionRepo = ReturnType<typeof createSessionRepo>;
