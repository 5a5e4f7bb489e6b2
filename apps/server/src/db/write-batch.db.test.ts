import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/databases';
import type { PlanInBatch } from '.';
import type { StatementText } from './reusable-query';

/** An account's insert, which stores nothing when its id is stored already. */
const accountInsert = (database: TestDatabase, slug: string, name = slug) =>
  database.db
    .insertInto('accounts')
    .values({ id: slug, slug, name, subscriptionStatus: 'ACTIVE', settings: '{}', createdAt: 1 })
    .onConflict((oc) => oc.column('id').doNothing())
    .compile();
const slugsIn = async (database: TestDatabase) =>
  (await database.db.selectFrom('accounts').select('slug').orderBy('slug').execute()).map((r) => r.slug);

/** The batch writer behind tracking's group commit: on SQLite its own thread, on PostgreSQL the pool. */
describe.each(TEST_DIALECTS)('batch writes on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.close();
  });

  const account = (slug: string) => accountInsert(database, slug);
  const slugs = () => slugsIn(database);

  it('commits every statement of a batch and tells the rows each one changed', async () => {
    const rename = database.db
      .updateTable('accounts')
      .set({ name: 'B' })
      .where('slug', 'like', 'b-%')
      .compile();
    expect(await database.writeBatch([account('b-1'), account('b-2'), account('b-1'), rename])).toEqual([
      1, 1, 0, 2,
    ]);
    // What the batch wrote is there for the next read on the request side.
    expect(await slugs()).toEqual(['b-1', 'b-2']);
  });

  it('writes nothing of a batch in which one statement fails, and goes on with the next batch', async () => {
    const clash = database.db
      .insertInto('accounts')
      .values({
        id: 'c-2',
        slug: 'b-1',
        name: 'same slug',
        subscriptionStatus: 'ACTIVE',
        settings: '{}',
        createdAt: 1,
      })
      .compile();
    await expect(database.writeBatch([account('c-1'), clash])).rejects.toThrow(/unique|UNIQUE/);
    expect(await slugs()).toEqual(['b-1', 'b-2']);
    expect(await database.writeBatch([account('c-1')])).toEqual([1]);
    expect(await slugs()).toEqual(['b-1', 'b-2', 'c-1']);
  });
});

/**
 * PostgreSQL's planned batches (decision 38): `begin`, the plan's reads and then the statements and
 * `commit` go out pipelined on one connection. What the plan reads is the transaction's, and a plan
 * or a statement that fails leaves nothing behind, not even an open transaction on the connection.
 */
describe.skipIf(!TEST_DIALECTS.includes('postgres'))('planned batch writes on postgres', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database.close();
  });

  const account = (slug: string) => accountInsert(database, slug);
  const slugs = () => slugsIn(database);
  const planned = (statements: readonly StatementText[], plan: PlanInBatch, before?: number) => {
    const { writeBatchPlanned } = database;
    if (writeBatchPlanned === undefined) throw new Error('PostgreSQL plans its batches');
    return writeBatchPlanned(statements, plan, before);
  };

  it('plans from reads made inside the transaction, and runs the planned statements after the given ones', async () => {
    await database.writeBatch([account('p-1')]);
    const seen: string[][] = [];
    const changed = await planned([account('p-2'), account('p-1')], async (trx) => {
      // Sent side by side on the one connection, behind `begin`.
      const [all, one] = await Promise.all([
        trx.selectFrom('accounts').select('slug').where('slug', 'like', 'p-%').orderBy('slug').execute(),
        trx.selectFrom('accounts').select('slug').where('slug', '=', 'p-1').execute(),
      ]);
      seen.push(
        all.map((r) => r.slug),
        one.map((r) => r.slug),
      );
      return [account(`p-${String(all.length + 2)}`)];
    });
    expect(seen).toEqual([['p-1'], ['p-1']]);
    expect(changed).toEqual([1, 0, 1]);
    expect(await slugs()).toEqual(['p-1', 'p-2', 'p-3']);
  });

  it('runs the first statements before the plan, which gets the ids they stored and reads after them', async () => {
    const returningId = (slug: string) => {
      const { sql, parameters } = account(slug);
      return { sql: `${sql} returning "id"`, parameters };
    };
    const given: unknown[] = [];
    const changed = await planned(
      [returningId('s-1'), returningId('p-1'), account('s-2')],
      async (trx, returned) => {
        given.push(await returned);
        const seen = await trx.selectFrom('accounts').select('slug').where('slug', 'like', 's-%').execute();
        given.push(seen.map((r) => r.slug));
        return [];
      },
      2,
    );
    // p-1 was stored before: its insert answered no id. s-2 was not sent before the plan.
    expect(given).toEqual([[[{ id: 's-1' }], []], ['s-1']]);
    expect(changed).toEqual([1, 0, 1]);
  });

  it('writes nothing when the plan fails, and the connection serves the next batch', async () => {
    await expect(
      planned([account('q-1')], async (trx) => {
        await trx.selectFrom('accounts').select('slug').execute();
        throw new Error('plan failed');
      }),
    ).rejects.toThrow('plan failed');
    await expect(
      planned([account('q-2')], async (trx) => {
        await trx
          .selectFrom('no_such_table' as 'accounts')
          .select('slug')
          .execute();
        return [];
      }),
    ).rejects.toThrow(/no_such_table/);
    expect(await slugs()).toEqual(['p-1', 'p-2', 'p-3', 's-1', 's-2']);
    // Every connection of the pool comes back out of any transaction: each of these batches commits.
    const batches = Array.from({ length: 8 }, (_, i) =>
      planned([account(`q-${String(i + 3)}`)], () => Promise.resolve([])),
    );
    expect(await Promise.all(batches)).toEqual(Array.from({ length: 8 }, () => [1]));
    expect((await slugs()).filter((slug) => slug.startsWith('q-'))).toHaveLength(8);
  });

  it('writes nothing of a batch whose planned statement fails after the given ones ran', async () => {
    const before = await slugs();
    const clash = database.db
      .insertInto('accounts')
      .values({
        id: 'r-2',
        slug: 'p-1',
        name: 'same slug',
        subscriptionStatus: 'ACTIVE',
        settings: '{}',
        createdAt: 1,
      })
      .compile();
    await expect(planned([account('r-1')], () => Promise.resolve([clash, account('r-3')]))).rejects.toThrow(
      /unique/,
    );
    expect(await slugs()).toEqual(before);
  });
});

/**
 * SQLite's guarded batches (decision 0036): the analytics rollups plan a batch as if each counted
 * insert stores its row, and the write thread undoes the whole batch when one of them did not.
 */
describe('guarded batch writes on sqlite', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.close();
  });

  const account = (slug: string, name = slug) => accountInsert(database, slug, name);
  const rename = (name: string) =>
    database.db.updateTable('accounts').set({ name }).where('slug', 'like', 'g-%').compile();
  const names = async () =>
    (await database.db.selectFrom('accounts').select(['slug', 'name']).orderBy('slug').execute()).map(
      (r) => `${r.slug}:${r.name}`,
    );
  const guarded = () => {
    const write = database.writeBatchGuarded;
    if (write === undefined) throw new Error('SQLite offers guarded batches');
    return write;
  };

  it('commits a batch whose guarded inserts each stored a row, and tells the rows each statement changed', async () => {
    expect(await guarded()([account('g-1'), account('g-2'), rename('first')], [0, 1])).toEqual({
      changes: [1, 1, 2],
    });
    expect(await names()).toEqual(['g-1:first', 'g-2:first']);
  });

  it('undoes the whole batch when a guarded insert stored nothing, and names each such insert', async () => {
    const outcome = await guarded()(
      [account('g-3'), account('g-1'), account('g-2'), rename('second')],
      [0, 1, 2],
    );
    expect(outcome).toEqual({ unchanged: [1, 2] });
    // Not even the new account, nor the statement after the guards, is kept.
    expect(await names()).toEqual(['g-1:first', 'g-2:first']);
    // An unguarded duplicate changes nothing and undoes nothing.
    expect(await guarded()([account('g-3'), account('g-1'), rename('third')], [0])).toEqual({
      changes: [1, 0, 3],
    });
    expect(await names()).toEqual(['g-1:third', 'g-2:third', 'g-3:third']);
  });

  it('refuses guards out of order, and writes nothing', async () => {
    await expect(guarded()([account('g-4'), account('g-5')], [1, 0])).rejects.toThrow(/ascending/);
    expect(await names()).toEqual(['g-1:third', 'g-2:third', 'g-3:third']);
  });
});
