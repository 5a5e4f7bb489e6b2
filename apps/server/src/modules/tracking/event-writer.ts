import type { Insertable } from 'kysely';
import type { DatabaseHandle } from '../../db';
import type { StatementText } from '../../db/reusable-query';
import type { Database } from '../../db/schema';
import type { StoredIds } from '../analytics/analytics.repo';
import type { RollupIngest, WrittenBatch } from '../analytics/rollup-ingest';
import type { LeadProgressService, ResumePoint } from '../lead-progress/lead-progress.service';
import type { EventRepo, EventRow, EventTable } from './event.repo';

export type WriteOp =
  | { [T in EventTable]: { kind: 'insert'; table: T; row: Insertable<Database[T]> } }[EventTable]
  | {
      kind: 'endSession';
      id: string;
      leadId: string;
      endAt: number;
      endReason: string;
      endDetails: string;
    }
  | { kind: 'touchSession'; id: string; at: number }
  /** The lead's resume point on a page (visitor-behaviour §4.4): the latest video position reported. */
  | ({ kind: 'videoPosition' } & ResumePoint);

interface Pending {
  op: WriteOp;
  resolve: (affected: number) => void;
  reject: (error: unknown) => void;
}

export interface EventWriter {
  /** Resolves once the write is committed, with the rows it changed; only then may the caller answer 2xx. */
  write(op: WriteOp): Promise<number>;
  /** Waits until everything queued so far is committed (shutdown, tests). */
  drain(): Promise<void>;
  /** Batches committed, writes in them, and batches undone and planned again (a retried event's row). */
  stats(): { batches: number; ops: number; replanned: number };
}

export interface EventWriterDeps {
  /** Where batches commit: the SQLite write thread, or a PostgreSQL transaction (decision 0013). */
  database: Pick<DatabaseHandle, 'writeBatch' | 'writeBatchPlanned' | 'writeBatchGuarded'>;
  /** The statements of tracking's own writes. */
  events: Pick<EventRepo, 'appendInserts' | 'appendInsertsReturningIds' | 'endSessions' | 'touchSessions'>;
  /** The statement of a resume point, which lead progress owns. */
  progress: Pick<LeadProgressService, 'resumePointStatements'>;
  /**
   * The analytics rollups, kept in each batch's own transaction (decision 25): their statements join
   * the batch, planned under their lock. Left out, batches keep none.
   */
  rollups?: Pick<RollupIngest, 'planFor' | 'lock' | 'committed' | 'failed' | 'discarded'>;
}

/** Tables whose new rows the analytics rollups count: their inserts are guarded on SQLite. */
type CountedTable = 'pageSessions' | 'videoRecords' | 'actions';
const COUNTED: ReadonlySet<EventTable> = new Set<CountedTable>(['pageSessions', 'videoRecords', 'actions']);
const isCounted = (table: EventTable): table is CountedTable => COUNTED.has(table);

/** Nothing known to be stored: the guarded plan's assumption, which the write thread checks. */
const NONE_STORED: StoredIds = {
  sessions: new Set<string>(),
  records: new Set<string>(),
  actions: new Set<string>(),
};

/**
 * The batch's counted rows that were stored before it: those whose inserts did not answer their id
 * (`returned` holds each statement's answered rows, by place).
 */
function storedBefore(
  written: WrittenBatch,
  returning: readonly { table: CountedTable; place: number }[],
  returned: readonly (readonly Record<string, unknown>[])[],
): StoredIds {
  const fresh: Record<CountedTable, Set<unknown>> = {
    pageSessions: new Set(),
    videoRecords: new Set(),
    actions: new Set(),
  };
  for (const { table, place } of returning) for (const row of returned[place] ?? []) fresh[table].add(row.id);
  const storedOf = (table: CountedTable, rows: readonly { id: string }[]) =>
    new Set(rows.flatMap((row) => (fresh[table].has(row.id) ? [] : [row.id])));
  return {
    sessions: storedOf('pageSessions', written.sessions),
    records: storedOf('videoRecords', written.videoRecords),
    actions: storedOf('actions', written.actions),
  };
}

/**
 * How far behind a session's stored `last_seen_at` may be: a touch within this time of the last one
 * this writer committed for the session is not written (decision 39). The sweep of sessions whose end
 * never came waits twice the inactivity timeout, and takes a session's end from its newest record.
 */
export const TOUCH_EVERY_MS = 60_000;

/** Sessions whose last committed touch the writer remembers; past this it forgets them all at once. */
const TOUCHES_REMEMBERED = 50_000;

/**
 * Group commit (architecture §5.9): writes that arrive while a transaction is committing wait for the next
 * one, so under load one commit carries hundreds of events, and an idle server commits at once. The
 * writer holds no SQL: it merges a batch's writes and asks the repositories for their statements
 * (event.repo.ts, and lead progress's resume point), each compiled once and filled in per write
 * (decision 0017).
 */
export function createEventWriter(
  { database, events, progress, rollups }: EventWriterDeps,
  options: { maxBatch?: number; touchEveryMs?: number } = {},
): EventWriter {
  const maxBatch = options.maxBatch ?? 2000;
  const touchEveryMs = options.touchEveryMs ?? TOUCH_EVERY_MS;
  /** The `last_seen_at` this writer last committed for each session. */
  const touched = new Map<string, number>();
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let batches = 0;
  let ops = 0;
  let replanned = 0;
  // PostgreSQL plans a batch's rollups after its inserts, from the ids they answer (decision 38).
  const planAfterInserts = rollups !== undefined && database.writeBatchPlanned !== undefined;

  /** The statements of a batch, and how to tell each write's changed rows from their results. */
  function compile(batch: Pending[]): {
    statements: StatementText[];
    affected: (changes: number[]) => number[];
    written: WrittenBatch;
    /** The statements of the counted rows, each id's first (SQLite); null where rows share one. */
    guards: number[] | null;
    /** The touches written, to remember once committed. */
    touches: ReadonlyMap<string, number>;
    /** PostgreSQL with rollups: the inserts answering the ids they stored, and how many statements lead up to the ends. */
    returning: { table: CountedTable; place: number }[];
    insertsEnd: number;
  } {
    const statements: StatementText[] = [];
    /** For each write: the end whose changed rows it reports, or a fixed count. */
    const source: ({ end: number } | { fixed: number })[] = batch.map(() => ({ fixed: 0 }));
    const inserts = new Map<EventTable, EventRow[]>();
    const touches = new Map<string, number>();
    const positions = new Map<string, Extract<WriteOp, { kind: 'videoPosition' }>>();
    batch.forEach(({ op }, index) => {
      if (op.kind === 'insert') {
        const rows = inserts.get(op.table) ?? [];
        rows.push(op.row);
        inserts.set(op.table, rows);
        // A duplicate is stored already: the write holds either way.
        source[index] = { fixed: 1 };
      } else if (op.kind === 'touchSession') {
        touches.set(op.id, Math.max(op.at, touches.get(op.id) ?? 0));
        source[index] = { fixed: 1 };
      } else if (op.kind === 'videoPosition') {
        const key = `${op.leadId} ${op.pageId}`;
        const seen = positions.get(key);
        if (!seen || seen.reportedAt <= op.reportedAt) positions.set(key, op);
        source[index] = { fixed: 1 };
      }
    });
    // Ascending, as the inserts are appended: what the write thread expects.
    let guards: number[] | null = [];
    const returning: { table: CountedTable; place: number }[] = [];
    for (const [table, rows] of inserts) {
      if (planAfterInserts && isCounted(table)) {
        for (const place of events.appendInsertsReturningIds(statements, table, rows))
          returning.push({ table, place });
        guards = null;
        continue;
      }
      const places = events.appendInserts(statements, table, rows);
      if (guards === null || !isCounted(table)) continue;
      if (places === null) {
        guards = null;
        continue;
      }
      // A row sent twice in one batch is stored by its first insert; the second changes nothing.
      const seen = new Set<string>();
      for (const [i, row] of rows.entries()) {
        const place = places[i];
        if (place === undefined || seen.has(row.id)) continue;
        seen.add(row.id);
        guards.push(place);
      }
    }
    const insertsEnd = statements.length;
    // Ends after inserts: a session started and ended within one batch ends correctly.
    const ends: Extract<WriteOp, { kind: 'endSession' }>[] = [];
    for (const [index, { op }] of batch.entries()) {
      if (op.kind !== 'endSession') continue;
      source[index] = { end: ends.length };
      ends.push(op);
    }
    const endWrites = events.endSessions(ends);
    const firstEnd = statements.length;
    statements.push(...endWrites.statements);
    // A touch close to the one last committed is left out: its session stays well inside the sweep's
    // idle time, and the sweep reads the session's last activity from its records (decision 39).
    for (const [id, at] of touches) {
      const last = touched.get(id);
      if (last !== undefined && at - last < touchEveryMs) touches.delete(id);
    }
    statements.push(...events.touchSessions(touches));
    statements.push(...progress.resumePointStatements([...positions.values()]));
    const rowsOf = <T extends EventTable>(table: T) =>
      (inserts.get(table) ?? []) as Insertable<Database[T]>[];
    return {
      statements,
      affected: (changes) => {
        const ended = endWrites.changed(changes.slice(firstEnd, firstEnd + endWrites.statements.length));
        return source.map((from) => ('fixed' in from ? from.fixed : (ended[from.end] ?? 0)));
      },
      written: {
        sessions: rowsOf('pageSessions'),
        videoRecords: rowsOf('videoRecords'),
        actions: rowsOf('actions'),
        ends: ends.map((op) => ({ id: op.id, leadId: op.leadId, endReason: op.endReason, endAt: op.endAt })),
      },
      guards,
      touches,
      returning,
      insertsEnd,
    };
  }

  /**
   * Writes the batch and, once it is committed, remembers the touches it wrote and the sessions it
   * started; each write's changed rows.
   */
  async function write(batch: Pending[]): Promise<number[]> {
    const compiled = compile(batch);
    const { touches } = compiled;
    const changes = await writeCompiled(compiled);
    const started = compiled.written.sessions;
    if (touched.size + touches.size + started.length > TOUCHES_REMEMBERED) touched.clear();
    for (const [id, at] of touches) touched.set(id, at);
    // A session's start writes its `last_seen_at`: that is its first touch (a retried start's row,
    // stored earlier, is behind it by the retry's delay only).
    for (const session of started) if (!touched.has(session.id)) touched.set(session.id, session.lastSeenAt);
    return changes;
  }

  /** The compiled batch written, with its rollups when they are kept; each write's changed rows. */
  async function writeCompiled(compiled: ReturnType<typeof compile>): Promise<number[]> {
    const { statements, affected } = compiled;
    if (!rollups) return affected(await database.writeBatch(statements));
    const kept = rollups;
    return kept.lock.run(async () => {
      let changes: number[];
      try {
        changes = await writeWithRollups(kept, compiled);
      } catch (error) {
        kept.failed();
        throw error;
      }
      kept.committed();
      return affected(changes);
    });
  }

  /** The batch's statements and its rollups' in one transaction; the rows each statement changed. */
  async function writeWithRollups(
    kept: NonNullable<EventWriterDeps['rollups']>,
    { statements, written, guards, returning, insertsEnd }: ReturnType<typeof compile>,
  ): Promise<number[]> {
    // PostgreSQL plans inside the batch's transaction, where several processes take turns
    // (decision 25), after the inserts, which answer the ids they stored (decision 38); SQLite, one
    // process, plans before it, as its write thread must not wait.
    const { writeBatchPlanned, writeBatchGuarded } = database;
    if (writeBatchPlanned !== undefined)
      return writeBatchPlanned(
        statements,
        (trx, returned) =>
          kept.planFor(
            written,
            trx,
            returned.then((rows) => storedBefore(written, returning, rows)),
          ),
        insertsEnd,
      );
    if (writeBatchGuarded !== undefined && guards !== null) {
      // The plan takes every counted row as new without reading, and the write thread checks that
      // each insert stored its row (decision 36). A retried event's row was stored already: the batch
      // is undone, and planned again below from a read of what is stored.
      const plan = await kept.planFor(written, undefined, NONE_STORED);
      const outcome = await writeBatchGuarded([...statements, ...plan], guards);
      if ('changes' in outcome) return outcome.changes;
      kept.discarded();
      replanned++;
    }
    return database.writeBatch([...statements, ...(await kept.planFor(written))]);
  }

  async function commit(batch: Pending[]): Promise<void> {
    try {
      const counts = await write(batch);
      batches++;
      ops += batch.length;
      batch.forEach((p, i) => {
        p.resolve(counts[i] ?? 0);
      });
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // One bad write must not fail its neighbours: retry each alone, so only it is refused.
      for (const pending of batch) await commit([pending]);
    }
  }

  async function run(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      await commit(batch);
    }
    running = null;
  }

  return {
    write(op) {
      return new Promise<number>((resolve, reject) => {
        queue.push({ op, resolve, reject });
        running ??= new Promise<void>((started) => {
          setImmediate(started);
        }).then(run);
      });
    },
    async drain() {
      while (running) await running;
    },
    stats: () => ({ batches, ops, replanned }),
  };
}
