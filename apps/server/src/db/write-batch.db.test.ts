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
