import { sql } from 'kysely';
import { batchedRead, inJsonList } from '../../db/batched-read';
import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { Dialect } from '../../db/dialect';
import { keptReads } from '../../db/kept-reads';
import type { VisitorContextChanges } from '../../db/visitor-context';

/**
 * Reads the tracking rules need; every write goes through the event writer (event.repo.ts). The lead a
 * token names for calls outside a session is read by lead progress (modules/lead-progress).
 */
/** What a record sent within a session needs to know of it (tracking.service.ts, `sessionOf`). */
const SESSION_CONTEXT = [
  'leads.id as leadId',
  'accounts.subscriptionStatus as subscriptionStatus',
  'pageSessions.id as sessionId',
  'pageSessions.pageId as pageId',
  'pages.buttonAction as buttonAction',
  'leadPageProgress.completedAt as completedAt',
] as const;

export function createTrackingRepo(db: Db, dialect: Dialect, changes?: VisitorContextChanges) {
  // The hot read of every record sent within a session, gathered by session (db/batched-read.ts): the
  // session with its lead's token, so that a session of another lead is told apart in the answer.
  // Kept in memory until its lead, account or page changes (decision 42).
  const readSessionWithLead = batchedRead(
    db,
    (ids) =>
      db
        .selectFrom('pageSessions')
        .innerJoin('leads', 'leads.id', 'pageSessions.leadId')
        .innerJoin('accounts', 'accounts.id', 'leads.accountId')
        .leftJoin('pages', 'pages.id', 'pageSessions.pageId')
        .leftJoin('leadPageProgress', (join) =>
          join
            .onRef('leadPageProgress.leadId', '=', 'leads.id')
            .onRef('leadPageProgress.pageId', '=', 'pageSessions.pageId'),
        )
        .select([...SESSION_CONTEXT, 'leads.tokenHash as tokenHash'])
        .where(inJsonList(dialect, 'pageSessions.id', ids)),
    (row) => row.sessionId,
  );
  /** A session's context as the hot read returns it. */
  type SessionWithLead = NonNullable<Awaited<ReturnType<typeof readSessionWithLead>>>;
  const keptSessions = changes ? keptReads(changes, readSessionWithLead, (row) => row.leadId) : null;
  const sessionWithLead = keptSessions?.read ?? readSessionWithLead;
  // When the session is not the token's lead's (or not there), what the token names on its own.
  const sessionContext = reusableQuery(db, ['tokenHash', 'sessionId'], ({ tokenHash, sessionId }) =>
    db
      .selectFrom('leads')
      .innerJoin('accounts', 'accounts.id', 'leads.accountId')
      .leftJoin('pageSessions', (join) =>
        join.on('pageSessions.id', '=', sessionId).onRef('pageSessions.leadId', '=', 'leads.id'),
      )
      .leftJoin('pages', 'pages.id', 'pageSessions.pageId')
      .leftJoin('leadPageProgress', (join) =>
        join
          .onRef('leadPageProgress.leadId', '=', 'leads.id')
          .onRef('leadPageProgress.pageId', '=', 'pageSessions.pageId'),
      )
      .select(SESSION_CONTEXT)
      .where('leads.tokenHash', '=', tokenHash),
  );
  // What the tracking caps count (tracking-caps.ts), each through an index: a lead's sessions by
  // (lead_id, start_at), its actions by (lead_id, …), its video records by their session's id.
  const leadCounts = reusableQuery(db, ['leadId', 'since'], ({ leadId, since }) =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom('pageSessions')
        .select((c) => c.fn.countAll<number | string>().as('n'))
        .where('pageSessions.leadId', '=', leadId)
        .where('pageSessions.startAt', '>=', since)
        .as('sessions'),
      eb
        .selectFrom('actions')
        .select((c) => c.fn.countAll<number | string>().as('n'))
        .where('actions.leadId', '=', leadId)
        .where('actions.receivedAt', '>=', since)
        .as('actions'),
      eb
        .selectFrom('videoRecords')
        .select((c) => c.fn.countAll<number | string>().as('n'))
        .where('videoRecords.pageSessionId', 'in', (sub) =>
          sub.selectFrom('pageSessions').select('pageSessions.id').where('pageSessions.leadId', '=', leadId),
        )
        .where('videoRecords.receivedAt', '>=', since)
        .as('videos'),
    ]),
  );
  // Read on a session's first event in this process, gathered by session (db/batched-read.ts). The
  // actions are found through their lead's index, as the session's lead is at hand.
  const sessionCounts = batchedRead(
    db,
    (ids) =>
      db
        .selectFrom('pageSessions')
        .select((eb) => [
          'pageSessions.id as sessionId',
          eb
            .selectFrom('actions')
            .select((c) => c.fn.countAll<number | string>().as('n'))
            .whereRef('actions.leadId', '=', 'pageSessions.leadId')
            .whereRef('actions.pageSessionId', '=', 'pageSessions.id')
            .as('actions'),
          eb
            .selectFrom('videoRecords')
            .select((c) => c.fn.countAll<number | string>().as('n'))
            .whereRef('videoRecords.pageSessionId', '=', 'pageSessions.id')
            .as('videos'),
        ])
        .where(inJsonList(dialect, 'pageSessions.id', ids)),
    (row) => row.sessionId,
  );
  return {
    /** The changes heard so far, for `keepStartedSession`; null when nothing is kept. */
    changesHeard: (): number | null => changes?.generation ?? null,
    /**
     * Keeps the context of a session this process has just stored, as its start's own checks found it
     * (decision 42), so that its first record reads nothing; unless a change was heard since `since`.
     */
    keepStartedSession(row: SessionWithLead, since: number): void {
      keptSessions?.keep(row.sessionId, row, since);
    },
    /**
     * A lead's page sessions started, and actions and video records received, since `since`. The
     * actions are found by the lead's index: all the lead's, then those since `since` (actions have no
     * index by session or time of receipt).
     */
    async leadCounts(
      leadId: string,
      since: number,
    ): Promise<Record<'sessions' | 'actions' | 'videos', number>> {
      const [row] = await leadCounts({ leadId, since });
      return {
        sessions: Number(row?.sessions ?? 0),
        actions: Number(row?.actions ?? 0),
        videos: Number(row?.videos ?? 0),
      };
    },
    /** A page session's actions and video records (none for a session that is not stored). */
    async sessionCounts(sessionId: string): Promise<Record<'actions' | 'videos', number>> {
      const row = await sessionCounts(sessionId);
      return { actions: Number(row?.actions ?? 0), videos: Number(row?.videos ?? 0) };
    },
    /**
     * In one read, for a record sent within a session: the lead the token names, whether its account
     * is active, the session if it is that lead's, and what decides whether the session's page still
     * takes tracking (visitor-behaviour §5).
     */
    async sessionContext(tokenHash: string, sessionId: string) {
      const found = await sessionWithLead(sessionId);
      if (found?.tokenHash === tokenHash)
        return {
          leadId: found.leadId,
          subscriptionStatus: found.subscriptionStatus,
          sessionId: found.sessionId,
          pageId: found.pageId,
          buttonAction: found.buttonAction,
          completedAt: found.completedAt,
        };
      return (await sessionContext({ tokenHash, sessionId }))[0];
    },
    findSession: (id: string) =>
      db
        .selectFrom('pageSessions')
        .select(['id', 'leadId', 'pageId', 'funnelId', 'endAt', 'endInferred'])
        .where('id', '=', id)
        .executeTakeFirst(),
    /**
     * Closes sessions whose end never arrived (architecture §5.9); returns how many. Each ends at its
     * last activity: `last_seen_at`, which the event writer moves at most once a minute (decision 39),
     * or its newest video record or action, whichever came last.
     */
    async closeStale(idleBefore: number): Promise<number> {
      const largest = sql.raw(dialect === 'postgres' ? 'greatest' : 'max');
      const lastActivity = sql<number>`${largest}(page_sessions.last_seen_at,
        coalesce((select max(v.received_at) from video_records v where v.page_session_id = page_sessions.id), 0),
        coalesce((select max(a.received_at) from actions a
          where a.lead_id = page_sessions.lead_id and a.page_session_id = page_sessions.id), 0))`;
      const result = await db
        .updateTable('pageSessions')
        .set({ endAt: lastActivity, endReason: 'PAGE_CLOSE', endInferred: 1 })
        .where('endAt', 'is', null)
        .where('lastSeenAt', '<', idleBefore)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
export type TrackingRepo = ReturnType<typeof createTrackingRepo>;
