import type { CompiledQuery, Insertable } from 'kysely';
import type { DatabaseHandle } from '../../db';
import type { Database } from '../../db/schema';

type EventTable = 'pageSessions' | 'videoRecords' | 'actions' | 'visits' | 'conversions';

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
  /** The lead's resume point on a page (spec §4.4): the latest video position reported. */
  | {
      kind: 'videoPosition';
      leadId: string;
      pageId: string;
      position: number;
      /** When the browser saw that position (the record's end view time): newer wins. */
      reportedAt: number;
      at: number;
    };

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
  stats(): { batches: number; ops: number };
}

/** SQLite binds at most 32,766 values per statement; the widest event row has 11 columns. */
const ROWS_PER_INSERT = 1000;

/**
 * Group commit (DESIGN §5.9): writes that arrive while a transaction is committing wait for the next
 * one, so under load one commit carries hundreds of events, and an idle server commits at once.
 * Every event id is a primary key written with "on conflict do nothing": a retried send is stored once.
 * The batch is compiled here and run by the database's batch writer (on SQLite, its write thread).
 */
export function createEventWriter(
  database: Pick<DatabaseHandle, 'db' | 'writeBatch'>,
  options: { maxBatch?: number } = {},
): EventWriter {
  const { db } = database;
  const maxBatch = options.maxBatch ?? 2000;
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let batches = 0;
  let ops = 0;

  /** The statements of a batch, and how to tell each write's changed rows from their results. */
  function compile(batch: Pending[]): {
    statements: CompiledQuery[];
    affected: (changes: number[]) => number[];
  } {
    const statements: CompiledQuery[] = [];
    /** For each write: the statement whose changed rows it reports, or a fixed count. */
    const source: ({ statement: number } | { fixed: number })[] = batch.map(() => ({ fixed: 0 }));
    const inserts = new Map<EventTable, { index: number; row: Insertable<Database[EventTable]> }[]>();
    const touches = new Map<string, number>();
    const positions = new Map<string, Extract<WriteOp, { kind: 'videoPosition' }>>();
    batch.forEach(({ op }, index) => {
      if (op.kind === 'insert') {
        const list = inserts.get(op.table) ?? [];
        list.push({ index, row: op.row });
        inserts.set(op.table, list);
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
    for (const [table, rows] of inserts) {
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const chunk = rows.slice(i, i + ROWS_PER_INSERT);
        statements.push(
          db
            .insertInto(table)
            .values(chunk.map((r) => r.row))
            .onConflict((oc) => oc.column('id').doNothing())
            .compile(),
        );
        // A duplicate is stored already: the write holds either way.
        for (const r of chunk) source[r.index] = { fixed: 1 };
      }
    }
    // Ends after inserts: a session started and ended within one batch ends correctly.
    for (const [index, { op }] of batch.entries()) {
      if (op.kind !== 'endSession') continue;
      source[index] = { statement: statements.length };
      statements.push(
        db
          .updateTable('pageSessions')
          .set({
            endAt: op.endAt,
            endReason: op.endReason,
            endDetails: op.endDetails,
            endInferred: 0,
            lastSeenAt: op.endAt,
          })
          .where('id', '=', op.id)
          .where('leadId', '=', op.leadId)
          .where((eb) => eb.or([eb('endAt', 'is', null), eb('endInferred', '=', 1)]))
          .compile(),
      );
    }
    for (const [id, at] of touches) {
      statements.push(
        db
          .updateTable('pageSessions')
          .set({ lastSeenAt: at })
          .where('id', '=', id)
          .where('lastSeenAt', '<', at)
          .compile(),
      );
    }
    for (const p of positions.values()) {
      statements.push(
        db
          .insertInto('leadPageProgress')
          .values({
            leadId: p.leadId,
            pageId: p.pageId,
            completedAt: null,
            lastVideoPosition: p.position,
            lastVideoAt: p.reportedAt,
            updatedAt: p.at,
          })
          .onConflict((oc) =>
            oc
              .columns(['leadId', 'pageId'])
              .doUpdateSet((eb) => ({
                lastVideoPosition: eb.ref('excluded.lastVideoPosition'),
                lastVideoAt: eb.ref('excluded.lastVideoAt'),
                updatedAt: eb.ref('excluded.updatedAt'),
              }))
              // A retried or late older record never moves the resume point back.
              .where((eb) =>
                eb.or([
                  eb('leadPageProgress.lastVideoAt', 'is', null),
                  eb('leadPageProgress.lastVideoAt', '<=', eb.ref('excluded.lastVideoAt')),
                ]),
              ),
          )
          .compile(),
      );
    }
    return {
      statements,
      affected: (changes) =>
        source.map((from) => ('fixed' in from ? from.fixed : (changes[from.statement] ?? 0))),
    };
  }

  async function commit(batch: Pending[]): Promise<void> {
    try {
      const { statements, affected } = compile(batch);
      const counts = affected(await database.writeBatch(statements));
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
    stats: () => ({ batches, ops }),
  };
}
