import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '../../db';
import type { Dialect } from '../../db/dialect';
import type { Database } from '../../db/schema';

export type PixelOutboxRow = Selectable<Database['pixelOutbox']>;

/** A new outbox row: due at once unless told otherwise. */
export interface PixelOutboxInsert {
  eventId: string;
  accountId: string;
  funnelId: string;
  /** The ServerEvent as JSON text. */
  payload: string;
  createdAt: number;
  nextAttemptAt?: number;
}

export interface PixelOutboxCounts {
  total: number;
  pending: number;
  delivered: number;
  dropped: number;
}

/** Chunks of ids kept well under every database's limit on bound parameters. */
const ID_CHUNK = 500;

type Eb = ExpressionBuilder<Database, 'pixelOutbox'>;
const open = (eb: Eb) => eb.and([eb('deliveredAt', 'is', null), eb('droppedAt', 'is', null)]);
const dueAt = (now: number) => (eb: Eb) => eb.and([open(eb), eb('nextAttemptAt', '<=', now)]);

export function createPixelRepo(db: Db, dialect: Dialect) {
  return {
    /**
     * Stores an event once: a retried call with the same event id is a no-op.
     * Resolves true when the row was new.
     */
    async enqueue(row: PixelOutboxInsert): Promise<boolean> {
      const result = await db
        .insertInto('pixelOutbox')
        .values({
          eventId: row.eventId,
          accountId: row.accountId,
          funnelId: row.funnelId,
          payload: row.payload,
          attempts: 0,
          nextAttemptAt: row.nextAttemptAt ?? row.createdAt,
          deliveredAt: null,
          droppedAt: null,
          lastError: null,
          createdAt: row.createdAt,
        })
        .onConflict((oc) => oc.column('eventId').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /**
     * Claims up to `limit` due rows for one worker by moving their next attempt to `now + leaseMs`,
     * in one UPDATE … RETURNING, so that two workers (two processes) never claim the same row:
     * SQLite runs one writer at a time, and PostgreSQL picks the rows with FOR UPDATE SKIP LOCKED,
     * which passes over rows another claim holds instead of waiting for them (waiting could
     * deadlock against a worker marking its own rows) and re-checks `next_attempt_at <= now` on a
     * row claimed since the statement began. A worker that dies holding a claim loses it when the
     * lease ends. Rows come back in id order.
     */
    async claimDue(now: number, limit: number, leaseMs: number): Promise<PixelOutboxRow[]> {
      if (limit <= 0) return [];
      const rows = await db
        .updateTable('pixelOutbox')
        // A claimed row has no error: that is how retryWaiting tells a lease from a backoff.
        .set({ nextAttemptAt: now + Math.max(1, leaseMs), lastError: null })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('pixelOutbox')
            .select('id')
            .where(dueAt(now))
            .orderBy('nextAttemptAt')
            .orderBy('id')
            .limit(limit)
            .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
        )
        .where(dueAt(now))
        .returningAll()
        .execute();
      return rows.sort((a, b) => a.id - b.id);
    },

    /**
     * Makes the failed events of these funnels waiting for their next attempt due at `now`: their
     * receiver has just taken one of their events. Rows a worker holds (a lease, not a backoff) are
     * left to it. Resolves how many were brought forward.
     */
    async retryWaiting(funnelIds: readonly string[], now: number): Promise<number> {
      if (funnelIds.length === 0) return 0;
      const result = await db
        .updateTable('pixelOutbox')
        .set({ nextAttemptAt: now })
        .where(open)
        .where('lastError', 'is not', null)
        .where('nextAttemptAt', '>', now)
        .where('funnelId', 'in', funnelIds)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async markDelivered(ids: readonly number[], at: number): Promise<void> {
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        await db
          .updateTable('pixelOutbox')
          .set({ deliveredAt: at, lastError: null })
          .where('id', 'in', ids.slice(i, i + ID_CHUNK))
          .where(open)
          .execute();
      }
    },

    async markFailed(id: number, attempts: number, nextAttemptAt: number, error: string): Promise<void> {
      await db
        .updateTable('pixelOutbox')
        .set({ attempts, nextAttemptAt, lastError: error })
        .where('id', '=', id)
        .where(open)
        .execute();
    },

    async markDropped(id: number, at: number, reason: string): Promise<void> {
      await db
        .updateTable('pixelOutbox')
        .set({ droppedAt: at, lastError: reason })
        .where('id', '=', id)
        .where(open)
        .execute();
    },

    findByEventId: (eventId: string): Promise<PixelOutboxRow | undefined> =>
      db.selectFrom('pixelOutbox').selectAll().where('eventId', '=', eventId).executeTakeFirst(),

    listByFunnel: (funnelId: string): Promise<PixelOutboxRow[]> =>
      db.selectFrom('pixelOutbox').selectAll().where('funnelId', '=', funnelId).orderBy('id').execute(),

    async counts(): Promise<PixelOutboxCounts> {
      const row = await db
        .selectFrom('pixelOutbox')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('total'),
          eb.fn.count<number | string>('deliveredAt').as('delivered'),
          eb.fn.count<number | string>('droppedAt').as('dropped'),
        ])
        .executeTakeFirstOrThrow();
      const total = Number(row.total);
      const delivered = Number(row.delivered);
      const dropped = Number(row.dropped);
      return { total, pending: total - delivered - dropped, delivered, dropped };
    },
  };
}
export type PixelRepo = ReturnType<typeof createPixelRepo>;
