import { videoRecordDetails } from './video-record-details';
import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../../db';
import type { StatementText } from '../../db/reusable-query';
import type { Database } from '../../db/schema';
import type { AnalyticsRepo, StoredIds, StoredSession } from './analytics.repo';
import type { DatabaseRollups } from './database-rollups';
import type { RawEvent } from './rollup-batch';
import type { RollupLock } from './rollup-lock';

/** The raw writes of one event-writer batch that the rollups count. */
export interface WrittenBatch {
  sessions: readonly Insertable<Database['pageSessions']>[];
  videoRecords: readonly Insertable<Database['videoRecords']>[];
  actions: readonly Insertable<Database['actions']>[];
  /** Real ends, in the order the batch applies them. */
  ends: readonly { id: string; leadId: string; endReason: string; endAt: number }[];
}

export interface RollupIngestDeps {
  db: Db;
  analytics: Pick<AnalyticsRepo, 'existingIds'>;
  rollups: Pick<
    DatabaseRollups,
    | 'load'
    | 'planLoaded'
    | 'apply'
    | 'erase'
    | 'committed'
    | 'failed'
    | 'discarded'
    | 'holdAcrossProcesses'
    | 'holdForBatch'
  >;
  lock: RollupLock;
}

/** The rows whose ids were not stored before, each id once. */
function newRows<Row extends { id: string }>(rows: readonly Row[], stored: ReadonlySet<string>): Row[] {
  const seen = new Set(stored);
  return rows.filter((row) => {
    if (seen.has(row.id)) return false;
    seen.add(row.id);
    return true;
  });
}

/**
 * The rollups of the event writer's batches (decision 25): which of a batch's rows are new (the
 * writer is the only writer of these tables and its batches commit one after another, so a read
 * before the batch is exact), which real ends change their session, each lead's time zone, and the
 * statements that keep the rollups, to go in the batch's own transaction. What a batch reads is read
 * at once, side by side: which ids are stored, the sessions its records, actions and ends name (with
 * their state rows), and its leads with their lead–page state rows.
 */
export function createRollupIngest({ db, analytics, rollups, lock }: RollupIngestDeps) {
  return {
    lock,
    /** Takes the lock of several processes in `trx` (PostgreSQL; nothing on SQLite). */
    holdAcrossProcesses: (trx: Kysely<Database>): Promise<void> => rollups.holdAcrossProcesses(trx),

    /** New leads, inside the transaction that stores them (their funnel's day of entry). */
    async leadsStored(
      trx: Kysely<Database>,
      rows: readonly Pick<Database['leads'], 'id' | 'funnelId' | 'createdAt'>[],
    ): Promise<void> {
      const events = rows.map((row): RawEvent => ({
        kind: 'lead',
        row: { id: row.id, funnelId: row.funnelId, createdAt: row.createdAt },
      }));
      await rollups.apply(trx, events);
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
      await rollups.apply(trx, [event]);
    },

    /** A lead about to be erased, inside the transaction that deletes it: what it added is taken away. */
    async leadErased(trx: Kysely<Database>, leadId: string): Promise<void> {
      await rollups.erase(trx, leadId);
    },

    /**
     * The statements that keep the rollups of a batch. Given the batch's transaction (PostgreSQL),
     * it reads there, after taking the lock of several processes, before the batch's own statements
     * run; without one (SQLite), it reads before the batch, under this process's lock. Given the
     * ids stored already, it takes them instead of reading them: the event writer's guarded batch
     * on SQLite passes none, and its write thread checks that (decision 36); on PostgreSQL the
     * batch's inserts ran first and answered the ids they stored (decision 38).
     */
    async planFor(
      batch: WrittenBatch,
      trx?: Kysely<Database>,
      storedIds?: StoredIds | Promise<StoredIds>,
    ): Promise<StatementText[]> {
      if (trx !== undefined) await rollups.holdForBatch(trx);
      const reader = trx ?? db;
      const named = new Set<string>();
      for (const row of batch.videoRecords) named.add(row.pageSessionId);
      for (const row of batch.actions) if (row.pageSessionId) named.add(row.pageSessionId);
      for (const end of batch.ends) named.add(end.id);
      const leadIds = new Set<string>();
      for (const rows of [batch.sessions, batch.videoRecords, batch.actions, batch.ends])
        for (const row of rows) leadIds.add(row.leadId);
      const given = storedIds === undefined ? undefined : await storedIds;
      // A session the batch stores is new: its row is in the batch, and there is nothing to read.
      if (given !== undefined)
        for (const row of batch.sessions) if (!given.sessions.has(row.id)) named.delete(row.id);
      const [stored, loaded] = await Promise.all([
        given ??
          analytics.existingIds(reader, {
            sessions: batch.sessions.map((row) => row.id),
            records: batch.videoRecords.map((row) => row.id),
            actions: batch.actions.map((row) => row.id),
          }),
        rollups.load(reader, named, leadIds),
      ]);
      const sessions = newRows(batch.sessions, stored.sessions);
      const records = newRows(batch.videoRecords, stored.records);
      const actions = newRows(batch.actions, stored.actions);
      // The batch's new sessions are not stored yet: the plan need not look for them.
      for (const session of sessions) loaded.sessionsAsked.add(session.id);
      // A real end replaces an inferred one or none, never another real one, and only a session of
      // the lead that sends it (event.repo.ts): another lead's end changes nothing.
      const endOpen = new Map<string, { leadId: string; open: boolean }>();
      for (const end of batch.ends) {
        const session = loaded.sessions.get(end.id);
        if (session !== undefined)
          endOpen.set(session.id, {
            leadId: session.leadId,
            open: session.endAt === null || session.endInferred,
          });
      }
      for (const session of sessions)
        endOpen.set(session.id, {
          leadId: session.leadId,
          open: (session.endAt ?? null) === null || session.endInferred === 1,
        });
      // Built with loops, not spreads of mapped arrays: a batch's arrays are sometimes empty, and an
      // empty array's elements kind differs from a full one's, which made V8 throw away this
      // function's optimized code again and again under load (docs/performance.md).
      const events: RawEvent[] = [];
      for (const row of sessions)
        events.push({
          kind: 'session',
          row: {
            id: row.id,
            leadId: row.leadId,
            funnelId: row.funnelId,
            pageId: row.pageId,
            startAt: row.startAt,
            endReason: row.endReason ?? null,
          },
        });
      for (const row of records) {
        const { state, videoDuration } = videoRecordDetails(row.details);
        events.push({
          kind: 'videoRecord',
          row: {
            id: row.id,
            pageSessionId: row.pageSessionId,
            leadId: row.leadId,
            startViewTime: row.startViewTime,
            endViewTime: row.endViewTime,
            startTimeVideo: row.startTimeVideo,
            endTimeVideo: row.endTimeVideo,
            state,
            videoDuration,
          },
        });
      }
      for (const row of actions)
        events.push({
          kind: 'action',
          row: {
            id: row.id,
            pageSessionId: row.pageSessionId ?? null,
            leadId: row.leadId,
            action: row.action,
            receivedAt: row.receivedAt,
          },
        });
      const realEnds = new Map<string, number>();
      for (const end of batch.ends) {
        const session = endOpen.get(end.id);
        if (session?.open !== true || session.leadId !== end.leadId) continue;
        session.open = false;
        events.push({ kind: 'sessionEnd', sessionId: end.id, endReason: end.endReason });
        realEnds.set(end.id, end.endAt);
      }
      if (events.length === 0) return [];
      const started: StoredSession[] = [];
      for (const row of sessions)
        started.push({
          id: row.id,
          leadId: row.leadId,
          funnelId: row.funnelId,
          pageId: row.pageId,
          startAt: row.startAt,
          endReason: row.endReason ?? null,
          endAt: row.endAt ?? null,
          endInferred: row.endInferred === 1,
          state: undefined,
        });
      // On PostgreSQL the new records are stored already: a state derived from its session's
      // records must not count them twice (decision 40).
      const fresh = new Set<string>();
      for (const row of records) fresh.add(row.id);
      return rollups.planLoaded(reader, events, loaded, undefined, {
        sessions: started,
        ends: realEnds,
        fresh,
      });
    },

    /** The batch planned last is committed (or failed): what the rollups keep in memory follows. */
    committed: () => {
      rollups.committed();
    },
    failed: () => {
      rollups.failed();
    },
    /** The batch planned last was undone as planned (a guard unmet): nothing of its plan is kept. */
    discarded: () => {
      rollups.discarded();
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
    holdAcrossProcesses: () => Promise.resolve(),
    leadsStored: (trx: Kysely<Database>) => analytics.markRebuildPending(trx),
    conversionStored: (trx: Kysely<Database>) => analytics.markRebuildPending(trx),
    leadErased: (trx: Kysely<Database>) => analytics.markRebuildPending(trx),
    committed: () => undefined,
    failed: () => undefined,
    discarded: () => undefined,
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
