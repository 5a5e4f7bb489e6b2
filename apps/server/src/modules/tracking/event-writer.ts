import type { Insertable } from 'kysely';
import type { DatabaseHandle } from '../../db';
import { compileTemplate, type StatementText, type Value } from '../../db/reusable-query';
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
 * Each kind of statement is compiled once and filled in per write (decision 0017). On SQLite, whose
 * write thread runs a prepared statement per row at almost no cost, each row is its own statement; on
 * PostgreSQL, where each statement is a round trip, a table's rows go in one multi-row insert.
 */
export function createEventWriter(
  database: Pick<DatabaseHandle, 'db' | 'writeBatch' | 'dialect'>,
  options: { maxBatch?: number } = {},
): EventWriter {
  const { db } = database;
  const maxBatch = options.maxBatch ?? 2000;
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let batches = 0;
  let ops = 0;

  const endSession = compileTemplate(['endAt', 'endReason', 'endDetails', 'id', 'leadId'], (v) =>
    db
      .updateTable('pageSessions')
      .set({
        endAt: v.endAt,
        endReason: v.endReason,
        endDetails: v.endDetails,
        endInferred: 0,
        lastSeenAt: v.endAt,
      })
      .where('id', '=', v.id)
      .where('leadId', '=', v.leadId)
      .where((eb) => eb.or([eb('endAt', 'is', null), eb('endInferred', '=', 1)])),
  );
  const touchSession = compileTemplate(['at', 'id'], (v) =>
    db
      .updateTable('pageSessions')
      .set({ lastSeenAt: v.at })
      .where('id', '=', v.id)
      .where('lastSeenAt', '<', v.at),
  );
  const videoPosition = compileTemplate(['leadId', 'pageId', 'position', 'reportedAt', 'at'], (v) =>
    db
      .insertInto('leadPageProgress')
      .values({
        leadId: v.leadId,
        pageId: v.pageId,
        completedAt: null,
        lastVideoPosition: v.position,
        lastVideoAt: v.reportedAt,
        updatedAt: v.at,
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
      ),
  );

  /** SQLite: one compiled-once insert per table and set of columns. */
  const rowInserts = new Map<string, (values: Record<string, Value>) => StatementText>();
  function rowInsert(table: EventTable, row: Insertable<Database[EventTable]>): StatementText {
    const columns = Object.keys(row);
    const key = `${table} ${columns.join(',')}`;
    let fill = rowInserts.get(key);
    if (fill === undefined) {
      fill = compileTemplate(columns, (v) =>
        db
          .insertInto(table)
          .values(v as Insertable<Database[EventTable]>)
          .onConflict((oc) => oc.column('id').doNothing()),
      );
      rowInserts.set(key, fill);
    }
    return fill(row);
  }

  /** PostgreSQL: a table's rows of the batch in multi-row inserts. */
  function tableInserts(table: EventTable, rows: Insertable<Database[EventTable]>[]): StatementText[] {
    const statements: StatementText[] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      statements.push(
        db
          .insertInto(table)
          .values(rows.slice(i, i + ROWS_PER_INSERT))
          .onConflict((oc) => oc.column('id').doNothing())
          .compile(),
      );
    }
    return statements;
  }

  /** The statements of a batch, and how to tell each write's changed rows from their results. */
  function compile(batch: Pending[]): {
    statements: StatementText[];
    affected: (changes: number[]) => number[];
  } {
    const statements: StatementText[] = [];
    /** For each write: the statement whose changed rows it reports, or a fixed count. */
    const source: ({ statement: number } | { fixed: number })[] = batch.map(() => ({ fixed: 0 }));
    const inserts = new Map<EventTable, Insertable<Database[EventTable]>[]>();
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
    for (const [table, rows] of inserts) {
      if (database.dialect === 'sqlite') for (const row of rows) statements.push(rowInsert(table, row));
      else statements.push(...tableInserts(table, rows));
    }
    // Ends after inserts: a session started and ended within one batch ends correctly.
    for (const [index, { op }] of batch.entries()) {
      if (op.kind !== 'endSession') continue;
      source[index] = { statement: statements.length };
      statements.push(
        endSession({
          endAt: op.endAt,
          endReason: op.endReason,
          endDetails: op.endDetails,
          id: op.id,
          leadId: op.leadId,
        }),
      );
    }
    for (const [id, at] of touches) statements.push(touchSession({ at, id }));
    for (const p of positions.values())
      statements.push(
        videoPosition({
          leadId: p.leadId,
          pageId: p.pageId,
          position: p.position,
          reportedAt: p.reportedAt,
          at: p.at,
        }),
      );
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
