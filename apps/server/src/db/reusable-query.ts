import { CamelCasePlugin, CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema';

const SLOT = '\u0000embudo-slot:';

export type Value = string | number | null;

/**
 * Runs a read at once on the connection when nothing stands in its way (SQLite: no transaction open);
 * null when the query must go through Kysely and wait for the connection.
 */
export type DirectRead = (
  sql: string,
  parameters: readonly unknown[],
) => { columns: readonly string[]; rows: unknown[][] } | null;

const directReads = new WeakMap<Kysely<Database>, DirectRead>();

/** openDatabase registers its SQLite connection's direct reader here. */
export function allowDirectReads(db: Kysely<Database>, read: DirectRead): void {
  directReads.set(db, read);
}

/** The column names as the rest of the server reads them, exactly as Kysely's CamelCasePlugin makes them. */
class ColumnNames extends CamelCasePlugin {
  readonly of = (column: string): string => this.camelCase(column);
  readonly inSql = (name: string): string => this.snakeCase(name);
}
const columnNames = new ColumnNames();

/** A table's or column's name as the SQL spells it (`videoRecords` → `video_records`), as Kysely's is. */
export const sqlName = (name: string): string => columnNames.inSql(name);

/** Column names seen so far, camel-cased once: the hot reads return the same few columns every time. */
const camelNames = new Map<string, string>();
function camelName(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = columnNames.of(column);
    if (camelNames.size < 10_000) camelNames.set(column, name);
  }
  return name;
}

/** Rows read as arrays (cheaper to make than objects), as objects under the camel-cased names. */
function rowObjects(columns: readonly string[], rows: unknown[][]): Record<string, unknown>[] {
  const names = columns.map(camelName);
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) out[names[i] as string] = row[i];
    return out;
  });
}

/**
 * Texts of statements compiled once, each with a name under which PostgreSQL connections prepare it
 * (`preparedName`): parsed and planned once per connection instead of on every run. Only these texts,
 * whose number is fixed by the code, are named, so a connection never holds more than a few hundred.
 */
const preparedNames = new Map<string, string>();
/**
 * Texts that look keys up in tables that grow (`planEachRun`): named only on the key-lookup
 * connections (`preparedName(sql, true)`), whose planner settings keep a plan made once on the
 * tables' indexes (db/index.ts, decision 34); every other connection plans them on every run.
 */
const keyLookupNames = new Map<string, string>();

/** Marks a fixed statement text for preparing; returns the text. */
export function prepared(sql: string): string {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `embudo_${preparedNames.size}`);
  return sql;
}

/** Marks a fixed text that looks keys up in growing tables (see `keyLookupNames`); returns the text. */
export function preparedForKeyLookups(sql: string): string {
  if (!keyLookupNames.has(sql)) keyLookupNames.set(sql, `embudo_key_${keyLookupNames.size}`);
  return sql;
}

/**
 * The name a PostgreSQL connection prepares this text under, if it is one compiled once; key lookups
 * (`preparedForKeyLookups`) only on a key-lookup connection.
 */
export function preparedName(sql: string, keyLookups = false): string | undefined {
  return preparedNames.get(sql) ?? (keyLookups ? keyLookupNames.get(sql) : undefined);
}

/** A statement as a connection runs it: SQL text and its parameters in order. */
export interface StatementText {
  sql: string;
  parameters: readonly unknown[];
}

export interface TemplateOptions {
  /**
   * Plan on every run instead of once per connection, except on the key-lookup connections
   * (`preparedForKeyLookups`). For a lookup of a list of keys (`inJsonList`) in a table that grows: a
   * plan made once under the default planner settings, while the table was small and had no
   * statistics yet, scans the whole table until the table is next analyzed.
   */
  planEachRun?: boolean;
}

/**
 * A statement built and compiled once, then filled in with new values each time. Building and
 * compiling a Kysely query costs more than running a small indexed one (decision 0015). `build` gets a
 * stand-in for each named value (typed `never`, so it fits any column); they are found again in the
 * compiled parameters, so their order in the SQL does not matter.
 */
export function compileTemplate<Name extends string>(
  names: readonly Name[],
  build: (values: Record<Name, never>) => Compilable,
  options: TemplateOptions = {},
): (values: Record<Name, Value>) => StatementText {
  const standIns = Object.fromEntries(names.map((name) => [name, `${SLOT}${name}`])) as Record<Name, never>;
  const compiled = build(standIns).compile();
  if (options.planEachRun === true) preparedForKeyLookups(compiled.sql);
  else prepared(compiled.sql);
  const slots = compiled.parameters.map((parameter) =>
    typeof parameter === 'string' && parameter.startsWith(SLOT)
      ? (parameter.slice(SLOT.length) as Name)
      : null,
  );
  for (const name of names) {
    if (!slots.includes(name)) throw new Error(`compileTemplate: the value ${name} is not used in the query`);
  }
  return (values) => ({
    sql: compiled.sql,
    parameters: compiled.parameters.map((parameter, i) => {
      const slot = slots[i];
      return slot === null || slot === undefined ? parameter : values[slot];
    }),
  });
}

/**
 * A read compiled once (compileTemplate). On SQLite it runs at once when no transaction is open,
 * without queueing for Kysely's single connection behind a hundred others.
 */
export function reusableQuery<Name extends string, Row>(
  db: Kysely<Database>,
  names: readonly Name[],
  build: (values: Record<Name, never>) => Compilable<Row>,
  options: TemplateOptions = {},
): (values: Record<Name, Value>) => Promise<Row[]> {
  const fill = compileTemplate(names, build, options);
  const direct = directReads.get(db);
  return async (values) => {
    const { sql, parameters } = fill(values);
    const read = direct?.(sql, parameters);
    if (read) return rowObjects(read.columns, read.rows) as Row[];
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]))).rows;
  };
}

/**
 * A read compiled once and run on whichever handle each call gives: the database, or a transaction
 * (a batch that reads inside its own transaction would otherwise build and compile its reads again
 * for every batch). Compiled from the first handle; on the database's SQLite handle it takes the
 * direct path, as reusableQuery does.
 */
export function reusableRead<Name extends string, Row>(
  names: readonly Name[],
  build: (db: Kysely<Database>, values: Record<Name, never>) => Compilable<Row>,
  options: TemplateOptions = {},
): (db: Kysely<Database>, values: Record<Name, Value>) => Promise<Row[]> {
  let fill: ((values: Record<Name, Value>) => StatementText) | undefined;
  return async (db, values) => {
    fill ??= compileTemplate(names, (v) => build(db, v), options);
    const { sql, parameters } = fill(values);
    const read = directReads.get(db)?.(sql, parameters);
    if (read) return rowObjects(read.columns, read.rows) as Row[];
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]))).rows;
  };
}
