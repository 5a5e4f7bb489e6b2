import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import type { StatementText } from './reusable-query';
import type { Database } from './schema';

/**
 * Plans statements inside a batch's transaction: reads on `trx`, given the rows returned by the
 * statements that ran before it, in order (an insert's `returning`).
 */
export type PlanInBatch = (
  trx: Kysely<Database>,
  returned: Promise<readonly (readonly Record<string, unknown>[])[]>,
) => Promise<StatementText[]>;

/**
 * Runs `send` with the connection's socket corked, so that the statements it sends leave in one
 * write (each statement's own cork inside pg nests in this one).
 */
function corked<T>(client: pg.PoolClient, send: () => T): T {
  const stream = (client as unknown as { connection?: { stream?: Partial<Writable> } }).connection?.stream;
  stream?.cork?.();
  try {
    return send();
  } finally {
    stream?.uncork?.();
  }
}

/** Commands whose row count is the rows they changed; any other (a read, a CTE's select) changes none. */
const CHANGING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * The event writer's batches on PostgreSQL, each one transaction whose statements are pipelined
 * (decision 38): `begin`, the batch's statements and `commit` go to the server without waiting for each
 * other's answers, on a connection of a pool made with `pipeline: true`. One round trip costs this
 * machine about 40 µs of CPU between Embudo and its backend (a wakeup on each side), and a batch made
 * a dozen of them. A batch whose statements are planned inside it (the analytics rollups, decision 25)
 * sends `begin` and its first statements (the inserts) at once, plans from their answers and its own
 * reads behind them, then sends the rest with `commit`.
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
   * On a connection checked out for it: `begin` and the first `before` statements, then the
   * statements `plan` returns (its reads go out behind them), then the rest of the given ones, the
   * planned ones and `commit`, without waiting between them; the rows each given and planned
   * statement changed. On any failure the transaction is rolled back (the `rollback` queues behind
   * whatever is still in flight), and a connection that cannot say it left the transaction is
   * destroyed, not reused.
   */
  async function run(
    statements: readonly StatementText[],
    plan?: PlanInBatch,
    before = 0,
  ): Promise<number[]> {
    const client = await pool.connect();
    const send = ({ sql, parameters }: StatementText) => client.query(sql, [...parameters]);
    let committing = false;
    let failure: unknown;
    try {
      const opening = corked(client, () => [client.query('begin'), ...statements.slice(0, before).map(send)]);
      // Awaited below; a plan that fails first must not leave their rejections unhandled.
      for (const sent of opening) sent.catch(() => undefined);
      let planned: StatementText[] = [];
      if (plan !== undefined) {
        const returned = Promise.all(opening.slice(1)).then((results) =>
          results.map(
            (result): readonly Record<string, unknown>[] => result.rows as Record<string, unknown>[],
          ),
        );
        returned.catch(() => undefined);
        planned = await plan(readerOf(client), returned);
      }
      committing = true;
      const [rest, commit] = corked(
        client,
        () => [[...statements.slice(before), ...planned].map(send), client.query('commit')] as const,
      );
      const settled = await Promise.allSettled([...opening, ...rest, commit]);
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
     * The same, with statements planned inside the transaction: the first `before` statements run
     * before `plan`, which reads after them and gets their returned rows; the rest run after it,
     * then the planned ones.
     */
    writePlanned: (statements: readonly StatementText[], plan: PlanInBatch, before = 0): Promise<number[]> =>
      run(statements, plan, before),
  };
}
