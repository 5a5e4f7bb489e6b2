import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Video positions as 8-byte floats on PostgreSQL too: `real` there is 4 bytes, which refuses tiny
 * values and rounds others, while SQLite's REAL is already 8 bytes.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const [table, column] of [
    ['video_records', 'start_time_video'],
    ['video_records', 'end_time_video'],
    ['lead_page_progress', 'last_video_position'],
  ] as const) {
    await db.schema
      .alterTable(table)
      .alterColumn(column, (c) => c.setDataType('double precision'))
      .execute();
  }
}
