import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Enough for every distinct query the server runs; past it the cache starts over. */
const MAX_STATEMENTS = 500;

/**
 * Kysely's SQLite driver prepares every query anew, and preparing costs more than running a small
 * indexed query. This hands it the same prepared statement for the same SQL. Safe because the driver
 * runs statements to completion one at a time on its single connection (we never stream).
 */
export function withStatementCache(sqlite: SQLite.Database, max = MAX_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql: string): SqliteStatement {
      // The write thread writes too: a transaction that read first and then wrote would fail once
      // it had written in between, so every transaction takes the write lock at its start.
      if (sql === 'begin') sql = 'begin immediate';
      let statement = statements.get(sql);
      if (statement === undefined) {
        if (statements.size >= max) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
