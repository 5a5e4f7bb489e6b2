import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';

/** Reads the tracking rules need; every write goes through the event writer. */
export function createTrackingRepo(db: Db) {
  const sessionContext = reusableQuery(db, ['tokenHash', 'sessionId'], ({ tokenHash, sessionId }) =>
    db
      .selectFrom('leads')
      .leftJoin('pageSessions', (join) =>
        join.on('pageSessions.id', '=', sessionId).onRef('pageSessions.leadId', '=', 'leads.id'),
      )
      .leftJoin('pages', 'pages.id', 'pageSessions.pageId')
      .leftJoin('leadPageProgress', (join) =>
        join
          .onRef('leadPageProgress.leadId', '=', 'leads.id')
          .onRef('leadPageProgress.pageId', '=', 'pageSessions.pageId'),
      )
      .select([
        'leads.id as leadId',
        'pageSessions.id as sessionId',
        'pageSessions.pageId as pageId',
        'pages.buttonAction as buttonAction',
        'leadPageProgress.completedAt as completedAt',
      ])
      .where('leads.tokenHash', '=', tokenHash),
  );
  return {
    /**
     * In one read, for a record sent within a session: the lead the token names, the session if it is
     * that lead's, and what decides whether the session's page still takes tracking (spec §5).
     */
    sessionContext: async (tokenHash: string, sessionId: string) =>
      (await sessionContext({ tokenHash, sessionId }))[0],
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
