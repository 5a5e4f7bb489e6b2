import { CamelCasePlugin, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema';

const SLOT = '\u0000embudo-slot:';

type Value = string | number | null;

/**
 * Runs a read at once on the connection when nothing stands in its way (SQLite: no transaction open);
 * null when the query must go through Kysely and wait for the connection.
 */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => Record<string, unknown>[] | null;

const directReads = new WeakMap<Kysely<Database>, DirectRead>();

/** openDatabase registers its SQLite connection's direct reader here. */
export function allowDirectReads(db: Kysely<Database>, read: DirectRead): void {
  directReads.set(db, read);
}

/** The column names as the rest of the server reads them, exactly as Kysely's CamelCasePlugin makes them. */
class ColumnNames extends CamelCasePlugin {
  readonly of = (column: string): string => this.camelCase(column);
}
const columnNames = new ColumnNames();

function camelCaseRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in row) out[columnNames.of(key)] = row[key];
  return out;
}

/**
 * A read built and compiled once, then run many times with new values. Building and compiling a
 * Kysely query costs more than running a small indexed read, and the visitor paths run their reads on
 * every request (decision 0015). `build` gets a stand-in for each named value; they are found again in
 * the compiled parameters, so their order in the SQL does not matter. On SQLite the read runs at once
 * when no transaction is open, without queueing for Kysely's single connection behind a hundred others.
 */
export function reusableQuery<Name extends string, Row>(
  db: Kysely<Database>,
  names: readonly Name[],
  build: (values: Record<Name, string>) => Compilable<Row>,
): (values: Record<Name, Value>) => Promise<Row[]> {
  const standIns = Object.fromEntries(names.map((name) => [name, `${SLOT}${name}`])) as Record<Name, string>;
  const compiled = build(standIns).compile();
  const slots = compiled.parameters.map((parameter) =>
    typeof parameter === 'string' && parameter.startsWith(SLOT)
      ? (parameter.slice(SLOT.length) as Name)
      : null,
  );
  for (const name of names) {
    if (!slots.includes(name)) throw new Error(`reusableQuery: the value ${name} is not used in the query`);
  }
  const direct = directReads.get(db);
  return async (values) => {
    const parameters = compiled.parameters.map((parameter, i) => {
      const slot = slots[i];
      return slot === null || slot === undefined ? parameter : values[slot];
    });
    const rows = direct?.(compiled.sql, parameters);
    if (rows) return rows.map(camelCaseRow) as Row[];
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
