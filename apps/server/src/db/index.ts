import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  CamelCasePlugin,
  Kysely,
  Migrator,
  sql,
  SqliteDialect,
  type MigrationProvider,
} from 'kysely';
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector';
import { dialectOf, type Dialect } from './dialect';
import { migrationsFor } from './migrations';
import { pipelinedBatches, type PlanInBatch } from './pipelined-batch';
import { allowDirectReads, preparedName, type StatementText } from './reusable-query';
import { withStatementCache } from './sqlite-statements';
import { sqliteWriteThread, type BatchWrite, type GuardedBatchWrite } from './sqlite-write-thread';
import type { Database } from './schema';
import { postgresContextChanges, sqliteContextChanges, type VisitorContextChanges } from './visitor-context';

export type { PlanInBatch } from './pipelined-batch';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /**
   * The visitor path's key lookups and the event writer's batches (decision 34). On PostgreSQL a pool
   * of its own, whose planner keeps to indexes, so that its lookups are prepared once per connection;
   * on SQLite the same handle as `db`.
   */
  lookupDb: Db;
  dialect: Dialect;
  /** A description safe to log: no password. */
  label: string;
  /**
   * Runs compiled statements in one transaction, for the tracking event writer: on SQLite in the
   * write thread, on PostgreSQL on a pooled connection.
   */
  writeBatch: BatchWrite;
  /**
   * PostgreSQL only: the same, with statements planned inside the transaction and run after the given
   * ones: what several processes need of the analytics rollups (decision 25). The first `before` of
   * the given statements run before `plan`, which gets the rows they return (the ids an insert
   * stored); `plan` reads there, under its own locks, and the rest of the given statements run
   * after it (decision 38).
   */
  writeBatchPlanned?: (
    statements: readonly StatementText[],
    plan: PlanInBatch,
    before?: number,
  ) => Promise<number[]>;
  /**
   * SQLite only: the same, where the guarded statements (the batch's inserts that its analytics
   * rollups counted as new without reading) must each change a row, or the batch is undone and says
   * which did not (decision 0036).
   */
  writeBatchGuarded?: GuardedBatchWrite;
  /** Changes to what visitor calls check, for the reads kept in memory (decision 42). */
  contextChanges: VisitorContextChanges;
  close(): Promise<void>;
}

/** Every SQLite connection of the process, the write thread's included, runs with these. */
const SQLITE_PRAGMAS = [
  'journal_mode = WAL',
  // FULL: a committed transaction survives power loss too; group commit pays one fsync per batch.
  'synchronous = FULL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
];

/** Distinct compiled-once reads (db/reusable-query.ts): a few dozen; the bound is a safety net. */
const MAX_DIRECT_READS = 500;

export interface OpenDatabaseOptions {
  /** PostgreSQL only: the schema to work in (tests give each file its own). */
  schema?: string;
  poolSize?: number;
}

// int8 (bigint) columns hold epoch milliseconds, well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/**
 * A connection that runs the statements compiled once (reusable-query.ts) as named prepared
 * statements: PostgreSQL parses and plans each once per connection, not on every tracking event.
 * Kysely's driver calls `query(text, values)`; everything else passes through untouched.
 */
class PreparingClient extends pg.Client {
  /** Whether key lookups (reusable-query.ts, `preparedForKeyLookups`) are prepared too. */
  protected readonly keyLookups: boolean = false;

  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name =
      typeof text === 'string' && Array.isArray(values) ? preparedName(text, this.keyLookups) : undefined;
    const run = super.query.bind(this) as (...given: unknown[]) => never;
    return name === undefined ? run(...args) : run({ name, text, values });
  }
}

/** A connection of the key-lookup pool: its planner settings (`KEY_LOOKUP_PLANNER`) let it prepare key lookups. */
class KeyLookupClient extends PreparingClient {
  protected override readonly keyLookups: boolean = true;
}

/**
 * The key-lookup pool's planner: every statement it runs finds rows by key, for which a plan through
 * the index is right at any table size. Without these, a plan made once while a table was small (no
 * statistics yet, a few pages) scans the whole table until the table is analyzed again (decision 30);
 * with them the plan made once goes through the indexes, and stays right as the tables grow
 * (decision 34). A statement with no index to use still runs, as these settings only add cost.
 */
const KEY_LOOKUP_PLANNER = '-c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off';

/** The key-lookup pool's size: the writer holds one connection at a time, the gathered reads a few. */
const KEY_LOOKUP_POOL_SIZE = 5;

/** Runs statements in order in `trx` (a transaction, or the database); each one's changed rows. */
export async function runStatements(trx: Db, statements: readonly StatementText[]): Promise<number[]> {
  const changed: number[] = [];
  for (const { sql, parameters } of statements)
    changed.push(
      Number((await trx.executeQuery(CompiledQuery.raw(sql, [...parameters]))).numAffectedRows ?? 0),
    );
  return changed;
}

/**
 * Each connection's settings: the URL as node-postgres reads it (its own parser, so every URL it took
 * before is taken the same way), with `options` added. PostgreSQL's JIT compiles a query whose
 * estimated cost passes `jit_above_cost`, which Embudo's index-driven reads reach once tables hold
 * millions of rows: a rebuild's read of 300 leads' video records took 96 ms with it and 26 ms without
 * (decision 33). The URL's own `options` come after ours, so an operator can still turn it on.
 */
function connectionConfig(
  databaseUrl: string,
  schema: string | undefined,
  planner?: string,
): pg.ClientConfig {
  const config = parseIntoClientConfig(databaseUrl);
  const options = [
    '-c jit=off',
    planner ?? '',
    schema === undefined ? '' : `-c search_path=${schema}`,
    config.options ?? '',
  ];
  return { ...config, options: options.filter((part) => part !== '').join(' ') };
}

function postgresPool(
  config: pg.ClientConfig,
  Client: typeof PreparingClient,
  max: number,
  options: { pipeline?: boolean } = {},
): pg.Pool {
  const pool = new pg.Pool({
    ...config,
    ...options,
    Client,
    max,
    // A database that does not answer at all fails the request in 10 s instead of hanging it.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor one that is checked out (inside a transaction, between two statements): pg then emits the
  // error on the client itself. Its next query fails, and the pool drops it when it comes back.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

function postgresKysely(pool: pg.Pool): Db {
  return new Kysely<Database>({
    dialect: new CurrentSchemaPostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
}

export function openDatabase(databaseUrl: string, options: OpenDatabaseOptions = {}): DatabaseHandle {
  const dialect = dialectOf(databaseUrl);
  if (dialect === 'postgres') {
    const config = connectionConfig(databaseUrl, options.schema);
    const db = postgresKysely(postgresPool(config, PreparingClient, options.poolSize ?? 10));
    // Pipelined (decision 38): Kysely sends one query at a time on them all the same, and the event
    // writer's batches send theirs without waiting.
    const lookupPool = postgresPool(
      connectionConfig(databaseUrl, options.schema, KEY_LOOKUP_PLANNER),
      KeyLookupClient,
      KEY_LOOKUP_POOL_SIZE,
      { pipeline: true },
    );
    const lookupDb = postgresKysely(lookupPool);
    const batches = pipelinedBatches(lookupPool);
    const contextChanges = postgresContextChanges(config);
    return {
      db,
      lookupDb,
      dialect,
      // Where, never who: no user or password.
      label:
        `postgres://${config.host ?? ''}${config.port === undefined ? '' : `:${String(config.port)}`}` +
        `/${config.database ?? ''}${options.schema ? ` (schema ${options.schema})` : ''}`,
      writeBatch: batches.write,
      writeBatchPlanned: batches.writePlanned,
      contextChanges,
      close: async () => {
        await Promise.all([db.destroy(), lookupDb.destroy(), contextChanges.close()]);
      },
    };
  }
  const file = sqliteFile(databaseUrl);
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: statements }),
    plugins: [new CamelCasePlugin()],
  });
  // A read outside any transaction can run at once: better-sqlite3 answers synchronously. Its own
  // statements return rows as arrays, which better-sqlite3 makes faster than objects.
  const rawReads = new Map<string, { statement: SQLite.Statement; columns: string[] } | null>();
  allowDirectReads(db, (text, parameters) => {
    if (sqlite.inTransaction) return null;
    let read = rawReads.get(text);
    if (read === undefined) {
      const statement = sqlite.prepare(text);
      read = statement.reader
        ? { statement: statement.raw(true), columns: statement.columns().map((c) => c.name) }
        : null;
      if (rawReads.size >= MAX_DIRECT_READS) rawReads.clear();
      rawReads.set(text, read);
    }
    return read && { columns: read.columns, rows: read.statement.all(parameters) as unknown[][] };
  });
  const writeThread = sqliteWriteThread(file, SQLITE_PRAGMAS);
  return {
    db,
    lookupDb: db,
    dialect,
    label: `sqlite:${file}`,
    writeBatch: writeThread.write,
    writeBatchGuarded: writeThread.writeGuarded,
    contextChanges: sqliteContextChanges(db),
    close: async () => {
      await writeThread.close();
      await db.destroy();
    },
  };
}

/** `sqlite:./data/embudo.db`, `file:…` or a plain path. */
export function sqliteFile(databaseUrl: string): string {
  return resolve(databaseUrl.replace(/^(sqlite|file):(\/\/)?/, ''));
}

export async function migrate(handle: DatabaseHandle): Promise<void> {
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrationsFor(handle.dialect)) };
  // Kysely looks for its bookkeeping tables in every schema it can see; name ours, or another
  // schema's tables (another app, a parallel test) would be taken for them.
  const migrationTableSchema =
    handle.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: handle.db,
    provider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
