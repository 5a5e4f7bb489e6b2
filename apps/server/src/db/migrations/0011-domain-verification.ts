import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Custom domains proved by DNS (issue 20, decision 27). Each domain gets the token its TXT record
 * `_embudo-verify.{host}` must hold, its state (`pending`, `verified`, `failing`), why the last check
 * failed and when it ran, since when it has been failing, and when it is next due for a check (a
 * runner claims due rows by moving that time, so one runner checks a domain at a time).
 *
 * Domains added before this migration were served with no proof. They start as `failing` since now,
 * due at once: they keep serving through the grace period, long enough for their owners to set the
 * records, and stop if they never do (decision 27).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('verify_token', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('domains')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .execute();
  await db.schema.alterTable('domains').addColumn('failure', 'text').execute();
  await db.schema.alterTable('domains').addColumn('checked_at', 'bigint').execute();
  await db.schema.alterTable('domains').addColumn('failing_since', 'bigint').execute();
  await db.schema
    .alterTable('domains')
    .addColumn('next_check_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('domains_next_check').on('domains').column('next_check_at').execute();

  const now = Date.now();
  const { rows } = await sql<{ id: string }>`select id from domains`.execute(db);
  for (const { id } of rows) {
    const token = randomBytes(24).toString('base64url');
    await sql`update domains set verify_token = ${token}, state = 'failing', failing_since = ${now}
      where id = ${id}`.execute(db);
  }
}
