import type { Insertable } from 'kysely';
import type { Db } from '../../db';
import type { Dialect } from '../../db/dialect';
import {
  compileTemplate,
  prepared,
  preparedForKeyLookups,
  sqlName,
  type StatementText,
  type Value,
} from '../../db/reusable-query';
import type { Database } from '../../db/schema';
import { jsonbText } from '../../lib/json';

export type EventTable = 'pageSessions' | 'videoRecords' | 'actions' | 'visits' | 'conversions';
export type EventRow = Insertable<Database[EventTable]>;

/**
 * A batch's session touches in one statement (PostgreSQL): `[id, at]` pairs as one JSON parameter. The
 * sessions are found by `= any(array(…))`, which goes through the primary key even before the table
 * has statistics (batched-read.ts says why); prepared on the key-lookup connections that run the
 * batches, planned on every run elsewhere (reusable-query.ts, `preparedForKeyLookups`).
 */
const TOUCH_SESSIONS_POSTGRES = preparedForKeyLookups(
  'update page_sessions as s set last_seen_at = cast(e->>1 as bigint) ' +
    'from jsonb_array_elements(cast($1 as jsonb)) as e ' +
    'where s.id = any(array(select t->>0 from jsonb_array_elements(cast($1 as jsonb)) as t)) ' +
    'and s.id = e->>0 and s.last_seen_at < cast(e->>1 as bigint)',
);

/**
 * A batch's real ends in one statement (PostgreSQL): `[id, endAt, endReason, endDetails, leadId]` rows
 * as one JSON parameter, with the single end's rules (`endSession` below). Prepared as the touches are.
 */
const END_SESSIONS_POSTGRES = preparedForKeyLookups(
  'update page_sessions as s set end_at = cast(e->>1 as bigint), end_reason = e->>2, end_details = e->>3, ' +
    'end_inferred = 0, last_seen_at = cast(e->>1 as bigint) ' +
    'from jsonb_array_elements(cast($1 as jsonb)) as e ' +
    'where s.id = any(array(select t->>0 from jsonb_array_elements(cast($1 as jsonb)) as t)) ' +
    'and s.id = e->>0 and s.lead_id = e->>4 and (s.end_at is null or s.end_inferred = 1)',
);

/** A session's real end as the event writer sends it. */
export interface SessionEnd {
  id: string;
  leadId: string;
  endAt: number;
  endReason: string;
  endDetails: string;
}

/**
 * The SQL of tracking's writes, as statements for the event writer to send in its batches (it runs
 * none itself: decisions 0006, 0013). Each kind of statement is compiled once and filled in per
 * write (decision 0017). Every event id is a primary key written with "on conflict do nothing": a
 * retried send is stored once.
 */
export function createEventRepo(db: Db, dialect: Dialect) {
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

  /** SQLite: one compiled-once insert per table and set of columns. */
  const rowInserts = new Map<string, (values: Record<string, Value>) => StatementText>();
  function rowInsert(table: EventTable, row: EventRow): StatementText {
    const columns = Object.keys(row);
    const key = `${table} ${columns.join(',')}`;
    let fill = rowInserts.get(key);
    if (fill === undefined) {
      fill = compileTemplate(columns, (v) =>
        db
          .insertInto(table)
          .values(v as EventRow)
          .onConflict((oc) => oc.column('id').doNothing()),
      );
      rowInserts.set(key, fill);
    }
    return fill(row);
  }

  /**
   * PostgreSQL: a table's rows of the batch in one statement per set of columns, the rows as one JSON
   * parameter that `jsonb_populate_recordset` reads with the table's own column types. Its text is
   * the same for every batch, so it is prepared once per connection; a multi-row insert was a new text
   * of thousands of parameters for every batch, compiled by Kysely and parsed and planned anew.
   */
  const recordsetInserts = new Map<string, { sql: string; columns: [string, string][] }>();
  function tableInserts(
    statements: StatementText[],
    table: EventTable,
    rows: EventRow[],
    returning: boolean,
  ): number[] {
    const places: number[] = [];
    const groups = new Map<string, EventRow[]>();
    for (const row of rows) {
      const key = Object.keys(row)
        .filter((column) => (row as Record<string, unknown>)[column] !== undefined)
        .join(',');
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [row]);
      else group.push(row);
    }
    for (const [key, group] of groups) {
      const insertKey = `${table} ${key}${returning ? ' returning' : ''}`;
      let insert = recordsetInserts.get(insertKey);
      if (insert === undefined) {
        const columns = key.split(',').map((column): [string, string] => [column, sqlName(column)]);
        const list = columns.map(([, name]) => `"${name}"`).join(', ');
        const name = sqlName(table);
        insert = {
          columns,
          sql: prepared(
            `insert into "${name}" (${list}) select ${list} ` +
              `from jsonb_populate_recordset(null::"${name}", cast($1 as jsonb)) on conflict ("id") do nothing` +
              (returning ? ' returning "id"' : ''),
          ),
        };
        recordsetInserts.set(insertKey, insert);
      }
      const { columns } = insert;
      const records = group.map((row) => {
        const record: Record<string, unknown> = {};
        for (const [column, name] of columns) record[name] = (row as Record<string, unknown>)[column];
        return record;
      });
      places.push(statements.push({ sql: insert.sql, parameters: [jsonbText(records)] }) - 1);
    }
    return places;
  }

  return {
    /**
     * A table's new rows of a batch. On SQLite, whose write thread runs a prepared statement per row
     * at almost no cost, each row is its own statement; on PostgreSQL, where each statement is a round
     * trip, they go in one statement per set of columns (`tableInserts`). Appended to `statements`;
     * returns the place of each row's own statement on SQLite, null on PostgreSQL.
     */
    appendInserts(statements: StatementText[], table: EventTable, rows: EventRow[]): number[] | null {
      if (dialect !== 'sqlite') {
        tableInserts(statements, table, rows, false);
        return null;
      }
      return rows.map((row) => statements.push(rowInsert(table, row)) - 1);
    },
    /**
     * PostgreSQL: a table's new rows of a batch as `appendInserts` writes them there, each statement
     * answering the ids it stored (`returning "id"`): those rows are new, the others were stored
     * already (decision 38). Returns the places of its statements.
     */
    appendInsertsReturningIds(statements: StatementText[], table: EventTable, rows: EventRow[]): number[] {
      if (dialect === 'sqlite') throw new Error('appendInsertsReturningIds: PostgreSQL only');
      return tableInserts(statements, table, rows, true);
    },
    /**
     * A batch's real ends, in order; each replaces an inferred end or none, never another real one,
     * and only for the session's own lead. With the statements, how many rows each end changed, from
     * their changed-row counts: on SQLite a statement per end; on PostgreSQL one for all, where only
     * the first end of a session and lead can change it (as one after another would), each is
     * reported changed when all of those did, and otherwise none is (the caller then reads the
     * session, as for an end that changed nothing).
     */
    endSessions(ends: readonly SessionEnd[]): {
      statements: StatementText[];
      changed: (changes: readonly number[]) => number[];
    } {
      if (dialect === 'sqlite' || ends.length <= 1)
        return {
          statements: ends.map((end) =>
            endSession({
              endAt: end.endAt,
              endReason: end.endReason,
              endDetails: end.endDetails,
              id: end.id,
              leadId: end.leadId,
            }),
          ),
          changed: (changes) => ends.map((_, i) => changes[i] ?? 0),
        };
      const firsts = new Map<string, number>();
      ends.forEach((end, i) => {
        const key = `${end.id} ${end.leadId}`;
        if (!firsts.has(key)) firsts.set(key, i);
      });
      const first = new Set(firsts.values());
      const rows = [...first].map((i) => {
        const end = ends[i] as SessionEnd;
        return [end.id, end.endAt, end.endReason, end.endDetails, end.leadId];
      });
      return {
        statements: [{ sql: END_SESSIONS_POSTGRES, parameters: [JSON.stringify(rows)] }],
        changed: ([count = 0]) => ends.map((_, i) => (count === first.size && first.has(i) ? 1 : 0)),
      };
    },
    /**
     * The sessions were seen at these times (never moving back): on SQLite a statement per session,
     * prepared once; on PostgreSQL one for all, a round trip instead of one per session.
     */
    touchSessions(touches: ReadonlyMap<string, number>): StatementText[] {
      if (dialect === 'sqlite' || touches.size === 0)
        return [...touches].map(([id, at]) => touchSession({ at, id }));
      return [{ sql: TOUCH_SESSIONS_POSTGRES, parameters: [JSON.stringify([...touches])] }];
    },
  };
}
export type EventRepo = ReturnType<typeof createEventRepo>;
