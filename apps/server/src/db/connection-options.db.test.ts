import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '.';

const url = process.env.TEST_DATABASE_URL;

/**
 * Every PostgreSQL connection runs without JIT (a compile that cost a rebuild's reads more than the
 * reads themselves, decision 33), in the schema asked for, and with the URL's own options after ours.
 */
describe.runIf(url !== undefined)('PostgreSQL connection settings', () => {
  const setting = async (databaseUrl: string, name: string, schema?: string): Promise<string> => {
    const handle = openDatabase(databaseUrl, schema === undefined ? {} : { schema });
    try {
      const { rows } = await sql<{ value: string }>`select current_setting(${name}) as value`.execute(
        handle.db,
      );
      return rows[0]?.value ?? '';
    } finally {
      await handle.close();
    }
  };

  it('turns JIT off, keeps the schema, and lets the URL options have the last word', async () => {
    const base = url ?? '';
    expect(await setting(base, 'jit')).toBe('off');
    expect(await setting(base, 'search_path', 'some_schema')).toBe('some_schema');
    const withOptions = new URL(base);
    withOptions.searchParams.set('options', '-c jit=on -c statement_timeout=4321');
    expect(await setting(withOptions.toString(), 'jit', 'some_schema')).toBe('on');
    expect(await setting(withOptions.toString(), 'statement_timeout', 'some_schema')).toBe('4321ms');
    expect(await setting(withOptions.toString(), 'search_path', 'some_schema')).toBe('some_schema');
  });

  it('reads the URL as node-postgres does: a stray % stays as written, and the label names no secret', async () => {
    // node-postgres repairs a URL with a bare % (here in an unused password: trust authentication);
    // rewriting the URL's query would have turned its options into "-c jit%3Doff".
    const base = new URL(url ?? '');
    const stray = `postgres://${base.username || 'postgres'}:p%zz@${base.host}${base.pathname}`;
    expect(await setting(stray, 'jit')).toBe('off');
    const handle = openDatabase(stray, { schema: 'some_schema' });
    try {
      expect(handle.label).toBe(`postgres://${base.host}${base.pathname} (schema some_schema)`);
    } finally {
      await handle.close();
    }
  });
});
