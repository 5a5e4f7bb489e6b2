import DataLoader from 'dataloader';
import { sql, type Compilable, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './dialect';
import { reusableQuery } from './reusable-query';
import type { Database } from './schema';

/**
 * Whether `column` is one of the values of a list given as one JSON array parameter: one statement,
 * compiled once, whatever the list's length (and no limit on bound values). On PostgreSQL it is
 * `= any(array(…))`, which the planner answers through the column's index even for a table it has no
 * statistics of yet; `in (select …)` was planned as a hash join over the whole table until the first
 * analyze, 1 ms a lookup in a fresh database (decision 30).
 */
export function inJsonList(dialect: Dialect, column: string, json: never): RawBuilder<SqlBool> {
  return dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = any(array(select jsonb_array_elements_text(cast(${json} as jsonb))))`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${json}))`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The most keys one statement reads: a flood's lookups go in several statements of this size. */
const MAX_KEYS = 500;

/**
 * Reads by key, gathered (decision 30): every lookup asked while the server handles one round of
 * incoming requests goes to the database as one statement for all their keys, read when that round
 * is done (`setImmediate`, after the event loop's poll phase). Each lookup still reads what is
 * committed after it was asked, so nothing is answered from a copy: this only saves a statement,
 * and on PostgreSQL a round trip, per lookup. `build` gets the keys as one JSON array (`inJsonList`);
 * each row is matched to its lookup by `keyOf`, and a key with no row answers undefined.
 */
export function batchedRead<Row>(
  db: Kysely<Database>,
  build: (keys: never) => Compilable<Row>,
  keyOf: (row: Row) => string,
): (key: string) => Promise<Row | undefined> {
  const read = reusableQuery(db, ['keys'], ({ keys }) => build(keys), { planEachRun: true });
  const rowsByKey = async (keys: readonly string[]): Promise<Map<string, Row>> => {
    const byKey = new Map<string, Row>();
    for (const row of await read({ keys: JSON.stringify(keys) })) byKey.set(keyOf(row), row);
    return byKey;
  };
  const loader = new DataLoader<string, Row | undefined>(
    async (keys) => {
      try {
        const byKey = await rowsByKey(keys);
        return keys.map((key) => byKey.get(key));
      } catch (error) {
        if (keys.length === 1) throw error;
        // A key the database refuses (PostgreSQL's JSON holds no NUL) must not fail the lookups
        // gathered with it: each is read alone, and only the refused one fails.
        return Promise.all(
          keys.map((key) =>
            rowsByKey([key]).then(
              (byKey) => byKey.get(key),
              (alone: unknown) => (alone instanceof Error ? alone : new Error(String(alone))),
            ),
          ),
        );
      }
    },
    { cache: false, maxBatchSize: MAX_KEYS, batchScheduleFn: (run) => setImmediate(run) },
  );
  return (key) =>
    // No stored key is text that is not well formed (a lone surrogate): none is found, as a single
    // read, whose driver sends it as U+FFFD, would find none.
    LONE_SURROGATE.test(key) ? Promise.resolve(undefined) : loader.load(key);
}
