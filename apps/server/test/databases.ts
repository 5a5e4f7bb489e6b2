import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, openDatabase, type DatabaseHandle } from '../src/db';
import type { Dialect } from '../src/db/dialect';

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
