import type { Kysely } from 'kysely';

/** What the browser reported when a session ended, kept apart from what it reported at the start. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('page_sessions').addColumn('end_details', 'text').execute();
}
