import type { Kysely } from 'kysely';

/**
 * When the resume point was reported (the video record's end view time), so that a late or
 * retried older record never moves it back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_page_progress').addColumn('last_video_at', 'bigint').execute();
}
