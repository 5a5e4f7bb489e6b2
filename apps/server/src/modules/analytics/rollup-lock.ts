import { CompiledQuery, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect';
import { prepared } from '../../db/reusable-query';
import type { Database } from '../../db/schema';

/**
 * One at a time: every path that changes the rollups (the event writer's batches, new leads,
 * conversions) holds this from reading state rows to its commit, so that none writes back a state
 * row another has changed meanwhile (decision 25). Work queued after a failure still runs.
 */
export interface RollupLock {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createRollupLock(): RollupLock {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      const result = tail.then(work, work);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

/**
 * Several processes on one PostgreSQL database (WORKERS, several machines: decision 28) take turns the
 * same way: every transaction that changes the rollups takes this transaction-level advisory lock
 * before it reads state rows, and holds it to its commit, so no process writes back a state row
 * another has changed since it read it (decision 25). A rebuild, one transaction, holds it throughout.
 * Under the lock each takes the next number of `analytics_writes`, which it answers: numbers are
 * taken one holder at a time, so a process that gets the number after the one its last batch got
 * knows that nobody else changed the rollups in between (decision 31).
 */
export type CrossProcessLock = (trx: Kysely<Database>) => Promise<number>;

/**
 * The advisory lock's keys: a class of Embudo's own ("embu" read as a number; the two-key space is
 * apart from single-key locks), and the schema's name hashed, so that Embudos in different schemas of
 * one database (tests run side by side so) never wait for each other.
 */
const ROLLUPS_LOCK_CLASS = 0x656d6275;

/** The lock on PostgreSQL; on SQLite, where one process writes, none. */
export function crossProcessLock(dialect: Dialect): CrossProcessLock | undefined {
  if (dialect !== 'postgres') return undefined;
  // One round trip; the materialized CTE runs the lock before the number is taken. A named statement
  // (reusable-query.ts): it reads no table, so the plan made once holds.
  const text = prepared(
    'with held as materialized (select pg_advisory_xact_lock($1, hashtext(current_schema()))) ' +
      "select nextval('analytics_writes') as write from held",
  );
  return async (trx) => {
    const { rows } = await trx.executeQuery<{ write: string }>(CompiledQuery.raw(text, [ROLLUPS_LOCK_CLASS]));
    return Number(rows[0]?.write);
  };
}
