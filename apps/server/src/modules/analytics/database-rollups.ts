import { CompiledQuery, type Kysely } from 'kysely';
import type { Db } from '../../db';
import type { StatementText } from '../../db/reusable-query';
import type { Database } from '../../db/schema';
import type { DayRange, FunnelNumbers, PageInput, PageNumbers } from './analytics-types';
import type { AnalyticsRepo } from './analytics.repo';
import {
  applyBatch,
  leadPageKey,
  leadPagesOf,
  sessionsAndLeadsOf,
  type DayOfLead,
  type RawEvent,
} from './rollup-batch';
import { assembleFunnelNumbers, assemblePageNumbers } from './rollup-answers';

/**
 * The rollups kept in the database (decision 25): a batch of new raw rows loads the state rows it
 * touches (locked on PostgreSQL), runs the batch applier over them and writes what changed; answers
 * assemble the aggregate rows of one page or funnel.
 */
export function createDatabaseRollups({ db, analytics }: { db: Db; analytics: AnalyticsRepo }) {
  /**
   * The statements that keep the rollups of new rows (each id once, a session before its events),
   * reading the state rows on `reader`: inside the batch's transaction on PostgreSQL (locking them),
   * or, on SQLite, on the connection that sees every batch the single writer committed.
   */
  async function plan(reader: Kysely<Database>, given: readonly RawEvent[], dayOfLead: DayOfLead) {
    if (given.length === 0) return [];
    const sessions = new Map(
      (await analytics.sessions(reader, sessionsAndLeadsOf(given).sessionIds, true)).map((session) => [
        session.sessionId,
        session,
      ]),
    );
    // A session stored before the rollups knew of it (before migration 0010, until a rebuild) comes
    // in first, as it is stored, so that its new events count.
    const startedHere = new Set(given.flatMap((event) => (event.kind === 'session' ? [event.row.id] : [])));
    const unknown = sessionsAndLeadsOf(given).sessionIds.filter(
      (id) => !sessions.has(id) && !startedHere.has(id),
    );
    const earlier: RawEvent[] = (await analytics.storedSessions(reader, unknown)).map(
      ({ endAt: _endAt, endInferred: _endInferred, ...row }) => ({ kind: 'session', row }),
    );
    const events = [...earlier, ...given];
    const { leadIds } = sessionsAndLeadsOf(events);
    // A lead arriving in this batch is new to the rollups even though its row is stored already.
    const arriving = new Set(events.flatMap((event) => (event.kind === 'lead' ? [event.row.id] : [])));
    const leads = await analytics.leads(
      reader,
      leadIds.filter((id) => !arriving.has(id)),
      dayOfLead,
    );
    const leadPages = await analytics.leadPages(reader, leadPagesOf(events, sessions), true);
    const outcome = applyBatch(
      events,
      {
        leads: new Map(leads.map((lead) => [lead.leadId, lead])),
        sessions,
        leadPages: new Map(leadPages.map((state) => [leadPageKey(state.leadId, state.pageId), state])),
      },
      dayOfLead,
    );
    return analytics.writeStatements(reader, outcome);
  }

  /** Applies new rows inside `trx`. */
  async function apply(
    trx: Kysely<Database>,
    events: readonly RawEvent[],
    dayOfLead: DayOfLead,
  ): Promise<void> {
    const statements: StatementText[] = await plan(trx, events, dayOfLead);
    for (const { sql, parameters } of statements)
      await trx.executeQuery(CompiledQuery.raw(sql, [...parameters]));
  }

  return {
    plan,
    apply,
    /** Applies new rows in a transaction of their own. */
    ingest: (events: readonly RawEvent[], dayOfLead: DayOfLead): Promise<void> =>
      db.transaction().execute((trx) => apply(trx, events, dayOfLead)),
    async pageNumbers(page: PageInput, range: DayRange): Promise<PageNumbers> {
      return assemblePageNumbers({ page, range, ...(await analytics.pageRows(db, page.id, range)) });
    },
    async funnelNumbers(
      funnelId: string,
      pages: readonly PageInput[],
      range: DayRange,
    ): Promise<FunnelNumbers> {
      const rows = await analytics.funnelRows(
        db,
        funnelId,
        pages.map((page) => page.id),
        range,
      );
      return assembleFunnelNumbers({ funnelId, pages, range, ...rows });
    },
  };
}
export type DatabaseRollups = ReturnType<typeof createDatabaseRollups>;
