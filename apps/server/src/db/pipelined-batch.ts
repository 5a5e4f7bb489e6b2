import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { StatementText } from './reusable-query';
import type { Database } from './schema';

/** Commands whose row count is the rows they changed; any other (a read, a CTE's select) changes none. */
const CHANGING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * The event writer's batches on PostgreSQL, each one transaction whose statements are pipelined
 * (decision 38): `begin`, the batch's statements and `commit` go to the server without waiting for each
 * other's answers, on a connection of a pool made with `pipeline: true`. One round trip costs this
 * machine about 40 µs of CPU between Embudo and its backend (a wakeup on each side), and a batch made
 * a dozen of them. A batch whose statements are planned inside it (the analytics rollups, decision 25)
 * sends `begin` and its reads at once, plans from their answers, then sends the rest with `commit`.
 *
 * Each statement keeps its own sync point, so each answers or fails on its own; once one fails, the
 * rest fail with it and the `commit` ends the transaction as a rollback. The batch then fails with the
 * first error, and nothing of it is stored.
 */
export function pipelinedBatches(pool: pg.Pool) {
  /**
   * The handle a plan reads through: Kysely on this one connection, which does not wait for one query
   * to finish before sending the next (a transaction's handle would), so its reads go out together.
   */
  const readers = new WeakMap<pg.PoolClient, Kysely<Database>>();
  function readerOf(client: pg.PoolClient): Kysely<Database> {
    let reader = readers.get(client);
    if (reader === undefined) {
      // The connection stays checked out for the whole batch: Kysely's release of it is a no-op.
      const held = {
        query: client.query.bind(client),
        release: () => undefined,
      };
      reader = new Kysely<Database>({
        dialect: new PostgresDialect({
          pool: { connect: () => Promise.resolve(held), end: () => Promise.resolve() },
        }),
        plugins: [new CamelCasePlugin()],
      });
      readers.set(client, reader);
    }
    return reader;
  }

  /**
   * On a connection checked out for it: `begin`, then the statements `plan` returns (its reads go out
   * behind `begin`), then the given ones and `commit`, without waiting between them; the rows each
   * given and planned statement changed. On any failure the transaction is rolled back (the `rollback`
   * queues behind whatever is still in flight), and a connection that cannot say it left the
   * transaction is destroyed, not reused.
   */
  async function run(
    statements: readonly StatementText[],
    plan?: (trx: Kysely<Database>) => Promise<StatementText[]>,
  ): Promise<number[]> {
    const client = await pool.connect();
    let committing = false;
    let failure: unknown;
    try {
      const begun = client.query('begin');
      // Awaited below; a plan that fails first must not leave its rejection unhandled.
      begun.catch(() => undefined);
      const planned = plan === undefined ? [] : await plan(readerOf(client));
      committing = true;
      const sent = [...statements, ...planned].map(({ sql, parameters }) =>
        client.query(sql, [...parameters]),
      );
      const settled = await Promise.allSettled([begun, ...sent, client.query('commit')]);
      const failed = settled.find((outcome) => outcome.status === 'rejected');
      // After a failed statement the `commit` answered as a rollback: nothing of the batch is stored.
      if (failed !== undefined) throw failed.reason;
      return settled.slice(1, -1).map((outcome) => {
        const result = (outcome as PromiseFulfilledResult<pg.QueryResult>).value;
        return CHANGING.has(result.command) ? (result.rowCount ?? 0) : 0;
      });
    } catch (error) {
      failure = error;
      if (!committing)
        await client.query('rollback').catch((rollbackError: unknown) => {
          failure = rollbackError;
        });
      throw error;
    } finally {
      const clean = failure === undefined || client.getTransactionStatus() === 'I';
      client.release(clean ? undefined : failure instanceof Error ? failure : true);
    }
  }

  return {
    /** The batch's statements in one transaction; the rows each one changed. */
    write: (statements: readonly StatementText[]): Promise<number[]> => run(statements),

    /**
     * The same, with statements planned inside the transaction (`plan` reads there, after `begin`)
     * and run after the given ones.
     */
    writePlanned: (
      statements: readonly StatementText[],
      plan: (trx: Kysely<Database>) => Promise<StatementText[]>,
    ): Promise<number[]> => run(statements, plan),
  };
}
