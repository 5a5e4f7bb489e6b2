import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Every tracked event moves its session's `last_seen_at`, and that column was in an index
 * (`page_sessions_open`, on `end_at, last_seen_at`): each touch wrote a new entry into it on SQLite
 * and, on PostgreSQL, made every update a non-HOT one, a new entry in all five of the table's indexes.
 * The sweep of sessions whose end never came only needs the open ones, which a partial index on
 * `start_at` finds; PostgreSQL also leaves room in each page it writes from now on for the touches'
 * new row versions, so they stay on the page (HOT; pages already full stay as they are). Decision 33.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('page_sessions_open').execute();
  await db.schema
    .createIndex('page_sessions_open_start')
    .on('page_sessions')
    .column('start_at')
    .where(sql.ref('end_at'), 'is', null)
    .execute();
  if (dialect === 'postgres') await sql`alter table page_sessions set (fillfactor = 70)`.execute(db);
}
