import type { Db } from '../../db';

/** Reads the tracking rules need; every write goes through the event writer. */
export function createTrackingRepo(db: Db) {
  return {
    findSession: (id: string) =>
      db
        .selectFrom('pageSessions')
        .select(['id', 'leadId', 'pageId', 'funnelId', 'endAt', 'endInferred'])
        .where('id', '=', id)
        .executeTakeFirst(),
    /** Closes sessions whose end never arrived (DESIGN §5.9); returns how many. */
    async closeStale(idleBefore: number): Promise<number> {
      const result = await db
        .updateTable('pageSessions')
        .set((eb) => ({ endAt: eb.ref('lastSeenAt'), endReason: 'PAGE_CLOSE', endInferred: 1 }))
        .where('endAt', 'is', null)
        .where('lastSeenAt', '<', idleBefore)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
export type TrackingRepo = ReturnType<typeof createTrackingRepo>;
