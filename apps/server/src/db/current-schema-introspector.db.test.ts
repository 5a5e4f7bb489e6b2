import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery, createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/databases';
import { migrate } from '.';

/**
 * Migrations on PostgreSQL look at their own schema only: a schema dropped by someone else meanwhile
 * (a parallel test's, another app's) must not fail them, as it did once in CI with
 * `schema "t_…" does not exist` from Kysely's stock introspector.
 */
describe.skipIf(!TEST_DIALECTS.includes('postgres'))('migrations beside other schemas on postgres', () => {
  let database: TestDatabase;
  const url = process.env.TEST_DATABASE_URL ?? '';
  const other = `o_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await adminQuery(url, `create schema ${other}`);
    await adminQuery(url, `create table ${other}.elsewhere (id serial primary key)`);
  });
  afterAll(async () => {
    await database.close();
    await adminQuery(url, `drop schema if exists ${other} cascade`);
  });

  it('sees only the tables of its own schema', async () => {
    const tables = await database.db.introspection.getTables();
    expect(tables.map((table) => table.schema)).toEqual(tables.map(() => database.schema));
    expect(tables.map((table) => table.name)).toContain('accounts');
    expect(tables.map((table) => table.name)).not.toContain('elsewhere');
    expect(await database.db.introspection.getSchemas()).toEqual([{ name: database.schema }]);
  });

  it('migrates again while other schemas come and go', async () => {
    const churn = (async () => {
      for (let round = 0; round < 40; round += 1) {
        const name = `${other}_${String(round)}`;
        await adminQuery(url, `create schema ${name}`);
        await adminQuery(url, `create table ${name}.t (id serial primary key)`);
        await adminQuery(url, `drop schema ${name} cascade`);
      }
    })();
    for (let round = 0; round < 40; round += 1) await migrate(database);
    await churn;
    const { rows } = await sql<{ n: string }>`select count(*) as n from kysely_migration`.execute(
      database.db,
    );
    expect(Number(rows[0]?.n)).toBeGreaterThan(0);
  });
});
