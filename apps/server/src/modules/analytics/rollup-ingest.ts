import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../../db';
import type { StatementText } from '../../db/reusable-query';
import type { Database } from '../../db/schema';
import { dayOfZone } from '../../lib/zone-days';
import type { DayOf } from './analytics-types';
import type { AnalyticsRepo } from './analytics.repo';
import type { DatabaseRollups } from './database-rollups';
import type { DayOfLead, RawEvent } from './rollup-batch';
import type { RollupLock } from './rollup-lock';

/** The raw writes of one event-writer batch that the rollups count. */
export interface WrittenBatch {
  sessions: readonly Insertable<Database['pageSessions']>[];
  videoRecords: readonly Insertable<Database['videoRecords']>[];
  actions: readonly Insertable<Database['actions']>[];
  /** Real ends, in the order the batch applies them. */
  ends: readonly { id: string; leadId: string; endReason: string }[];
}

export interface RollupIngestDeps {
  db: Db;
  analytics: Pick<AnalyticsRepo, 'existingIds' | 'storedSessions' | 'leadTimeZones'>;
  rollups: Pick<DatabaseRollups, 'plan' | 'apply'>;
  lock: RollupLock;
}

/** What a video record's details say that analytics reads. */
function recordDetails(details: string): { state: string; videoDuration: number } {
  try {
    const parsed = JSON.parse(details) as { state?: unknown; videoDuration?: unknown };
    return {
      state: typeof parsed.state === 'string' ? parsed.state : '',
      videoDuration: typeof parsed.videoDuration === 'number' ? parsed.videoDuration : 0,
    };
  } catch {
    return { state: '', videoDuration: 0 };
  }
}

/**
 * The rollups of the event writer's batches (decision 25): which of a batch's rows are new (the
 * writer is the only writer of these tables and its batches commit one after another, so a read
 * before the batch is exact), which real ends change their session, each lead's time zone, and the
 * statements that keep the rollups, to go in the batch's own transaction.
 */
export function createRollupIngest({ db, analytics, rollups, lock }: RollupIngestDeps) {
  async function newRows<Row extends { id: string }>(
    table: 'pageSessions' | 'videoRecords' | 'actions',
    rows: readonly Row[],
  ): Promise<Row[]> {
    const seen = await analytics.existingIds(
      db,
      table,
      rows.map((row) => row.id),
    );
    return rows.filter((row) => {
      if (seen.has(row.id)) return false;
      seen.add(row.id);
      return true;
    });
  }

  /** Day numbers for each lead, in its account's time zone. */
  async function dayOfLeads(reader: Kysely<Database>, leadIds: Iterable<string>): Promise<DayOfLead> {
    const zones = await analytics.leadTimeZones(reader, [...new Set(leadIds)]);
    const days = new Map<string, DayOf>();
    return (leadId) => {
      const zone = zones.get(leadId) ?? 'UTC';
      let dayOf = days.get(zone);
      if (dayOf === undefined) {
        dayOf = dayOfZone(zone);
        days.set(zone, dayOf);
      }
      return dayOf;
    };
  }

  return {
    lock,

    /** New leads, inside the transaction that stores them (their funnel's day of entry). */
    async leadsStored(
      trx: Kysely<Database>,
      rows: readonly Pick<Database['leads'], 'id' | 'funnelId' | 'createdAt'>[],
    ): Promise<void> {
      const events = rows.map((row): RawEvent => ({
        kind: 'lead',
        row: { id: row.id, funnelId: row.funnelId, createdAt: row.createdAt },
      }));
      await rollups.apply(
        trx,
        events,
        await dayOfLeads(
          trx,
          rows.map((row) => row.id),
        ),
      );
    },

    /** A new conversion, inside the transaction that stores it. */
    async conversionStored(trx: Kysely<Database>, row: Database['conversions']): Promise<void> {
      const event: RawEvent = {
        kind: 'conversion',
        row: {
          id: row.id,
          leadId: row.leadId,
          funnelId: row.funnelId,
          pageId: row.pageId,
          kind: row.kind,
          createdAt: row.createdAt,
        },
      };
      await rollups.apply(trx, [event], await dayOfLeads(trx, [row.leadId]));
    },

    async planFor(batch: WrittenBatch): Promise<StatementText[]> {
      const sessions = await newRows('pageSessions', batch.sessions);
      const records = await newRows('videoRecords', batch.videoRecords);
      const actions = await newRows('actions', batch.actions);
      // A real end replaces an inferred one or none, never another real one, and only a session of
      // the lead that sends it (event.repo.ts): another lead's end changes nothing.
      const endOpen = new Map<string, { leadId: string; open: boolean }>();
      for (const stored of await analytics.storedSessions(
        db,
        batch.ends.map((end) => end.id),
      ))
        endOpen.set(stored.id, { leadId: stored.leadId, open: stored.endAt === null || stored.endInferred });
      for (const session of sessions)
        endOpen.set(session.id, {
          leadId: session.leadId,
          open: (session.endAt ?? null) === null || session.endInferred === 1,
        });
      const ends: RawEvent[] = [];
      for (const end of batch.ends) {
        const session = endOpen.get(end.id);
        if (session?.open !== true || session.leadId !== end.leadId) continue;
        session.open = false;
        ends.push({ kind: 'sessionEnd', sessionId: end.id, endReason: end.endReason });
      }
      const events: RawEvent[] = [
        ...sessions.map((row): RawEvent => ({
          kind: 'session',
          row: {
            id: row.id,
            leadId: row.leadId,
            funnelId: row.funnelId,
            pageId: row.pageId,
            startAt: row.startAt,
            endReason: row.endReason ?? null,
          },
        })),
        ...records.map((row): RawEvent => ({
          kind: 'videoRecord',
          row: {
            id: row.id,
            pageSessionId: row.pageSessionId,
            leadId: row.leadId,
            startViewTime: row.startViewTime,
            endViewTime: row.endViewTime,
            startTimeVideo: row.startTimeVideo,
            endTimeVideo: row.endTimeVideo,
            ...recordDetails(row.details),
          },
        })),
        ...actions.map((row): RawEvent => ({
          kind: 'action',
          row: {
            id: row.id,
            pageSessionId: row.pageSessionId ?? null,
            leadId: row.leadId,
            action: row.action,
            receivedAt: row.receivedAt,
          },
        })),
        ...ends,
      ];
      if (events.length === 0) return [];
      const leadIds = new Set([
        ...sessions.map((row) => row.leadId),
        ...records.map((row) => row.leadId),
        ...actions.map((row) => row.leadId),
        ...batch.ends.map((end) => end.leadId),
      ]);
      const dayOfLead = await dayOfLeads(db, leadIds);
      return rollups.plan(db, events, dayOfLead);
    },
  };
}
export type RollupIngest = ReturnType<typeof createRollupIngest>;

/**
 * The rollups switched off (ANALYTICS_ROLLUPS=off): the writer, new leads and conversions store raw
 * rows only. Before the first of them, a rebuild is marked (`analytics_rebuild`), which the next start
 * with the rollups on runs, so that what was stored meanwhile counts.
 */
export function createRollupsOff({
  db,
  analytics,
  lock,
}: {
  db: Db;
  analytics: Pick<AnalyticsRepo, 'markRebuildPending'>;
  lock: RollupLock;
}): RollupIngest {
  // The writer's batches mark once per process, before their first one; leads and conversions in
  // their own transaction (on SQLite, a statement outside it would wait for it forever).
  let marked: Promise<void> | undefined;
  return {
    lock,
    leadsStored: (trx: Kysely<Database>) => analytics.markRebuildPending(trx),
    conversionStored: (trx: Kysely<Database>) => analytics.markRebuildPending(trx),
    planFor: async (): Promise<StatementText[]> => {
      marked ??= analytics.markRebuildPending(db).catch((error: unknown) => {
        marked = undefined;
        throw error;
      });
      await marked;
      return [];
    },
  };
}
