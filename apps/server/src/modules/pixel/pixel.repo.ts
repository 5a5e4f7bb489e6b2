import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
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

/** A lead's event: counted against what the lead may queue. */
export interface LeadEventInsert extends PixelOutboxInsert {
  leadId: string;
  eventName: string;
}

/** At most `max` events of one name per lead created after `since`. */
export interface LeadEventLimit {
  since: number;
  max: number;
}

/** What became of a lead's event: queued now, stored already (a retry), or over the lead's limit. */
export type LeadEventOutcome = 'queued' | 'stored' | 'limited';

/** The lead a visitor token names, as far as the pixel needs it. */
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
          leadId: null,
          eventName: null,
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

    /** The lead whose token hashes to this, if any: a pixel call must come from a lead of the funnel. */
    /**
     * Stores a lead's event unless the lead already has `limit.max` events of that name created after
     * `limit.since`; a retried call with the same event id stores nothing more. One statement counts
     * and inserts: SQLite runs it whole under its one writer's lock. On PostgreSQL two such statements
     * could both count before either inserts, so the lead's row is locked first, in a transaction:
     * calls of one lead count one after the other (calls of different leads do not wait on each
     * other), and the insert, a new statement, counts what the call before it committed.
     */
    async enqueueForLead(row: LeadEventInsert, limit: LeadEventLimit): Promise<LeadEventOutcome> {
      const insert = async (q: Kysely<Database>) => {
        const result = await sql`
          insert into pixel_outbox
            (event_id, account_id, funnel_id, lead_id, event_name, payload, attempts, next_attempt_at, created_at)
          select ${row.eventId}, ${row.accountId}, ${row.funnelId}, ${row.leadId}, ${row.eventName},
            ${row.payload}, 0, cast(${row.nextAttemptAt ?? row.createdAt} as bigint), cast(${row.createdAt} as bigint)
          where (
            select count(*) from pixel_outbox
            where lead_id = ${row.leadId} and event_name = ${row.eventName} and created_at > ${limit.since}
          ) < ${limit.max}
          on conflict (event_id) do nothing`.execute(q);
        return Number(result.numAffectedRows ?? 0) > 0;
      };
      const inserted =
        dialect === 'postgres'
          ? await db.transaction().execute(async (trx) => {
              await trx
                .selectFrom('leads')
                .select('id')
                .where('id', '=', row.leadId)
                .forNoKeyUpdate()
                .execute();
              return insert(trx);
            })
          : await insert(db);
      if (inserted) return 'queued';
      const stored = await db
        .selectFrom('pixelOutbox')
        .select('id')
        .where('eventId', '=', row.eventId)
        .executeTakeFirst();
      return stored ? 'stored' : 'limited';
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
