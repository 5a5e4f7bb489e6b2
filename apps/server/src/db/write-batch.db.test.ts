import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/databases';

/** The batch writer behind tracking's group commit: on SQLite its own thread, on PostgreSQL the pool. */
describe.each(TEST_DIALECTS)('batch writes on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.close();
  });

  const account = (slug: string) =>
    database.db
      .insertInto('accounts')
      .values({ id: slug, slug, name: slug, subscriptionStatus: 'ACTIVE', settings: '{}', createdAt: 1 })
      .onConflict((oc) => oc.column('id').doNothing())
      .compile();
  const slugs = async () =>
    (await database.db.selectFrom('accounts').select('slug').orderBy('slug').execute()).map((r) => r.slug);

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

  const account = (slug: string, name = slug) =>
    database.db
      .insertInto('accounts')
      .values({ id: slug, slug, name, subscriptionStatus: 'ACTIVE', settings: '{}', createdAt: 1 })
      .onConflict((oc) => oc.column('id').doNothing())
      .compile();
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
