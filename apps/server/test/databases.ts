import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { migrate, openDatabase, type DatabaseHandle } from '../src/db';
import type { Dialect } from '../src/db/dialect';
import { migrationsFor } from '../src/db/migrations';

/**
 * The database tier: every repository and API test runs on SQLite always, and on PostgreSQL when
 * TEST_DATABASE_URL is set (.ci/run sets it to the local server).
 */
export const TEST_DIALECTS: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends DatabaseHandle {
  url: string;
  schema?: string;
}

/** A fresh, migrated database of that dialect: a new SQLite file, or a new PostgreSQL schema. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'embudo-test-'));
    const url = `sqlite:${join(dir, 'test.db')}`;
    const handle = openDatabase(url);
    await migrate(handle);
    return {
      ...handle,
      url,
      close: async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(url, `create schema ${schema}`);
  const handle = openDatabase(url, { schema, poolSize: 4 });
  await migrate(handle);
  return {
    ...handle,
    url,
    schema,
    close: async () => {
      await handle.close();
      await adminQuery(url, `drop schema if exists ${schema} cascade`);
    },
  };
}

/** One statement on its own connection (creating and dropping test schemas). */
export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database of the dialect migrated only as far as the named migration, as a server of that
 * time left it: for a test of what a later migration does to rows stored before it.
 */
export async function databaseMigratedTo(
  dialect: Dialect,
  migration: string,
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'embudo-migration-'));
    handle = openDatabase(`sqlite:${join(dir, 'test.db')}`);
    drop = () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    };
  } else {
    const url = process.env.TEST_DATABASE_URL ?? '';
    const schema = `m_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(url, `create schema ${schema}`);
    handle = openDatabase(url, { schema, poolSize: 2 });
    drop = () => adminQuery(url, `drop schema if exists ${schema} cascade`);
  }
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: () => Promise.resolve(migrationsFor(dialect)) },
    ...(dialect === 'postgres'
      ? {
          migrationTableSchema: (await sql<{ s: string }>`select current_schema() as s`.execute(handle.db))
            .rows[0]?.s,
        }
      : {}),
  });
  const { error, results } = await migrator.migrateTo(migration);
  if (error !== undefined || results?.some((r) => r.status === 'Error'))
    throw new Error(`could not migrate to ${migration}`, { cause: error });
  return { handle, drop };
}
