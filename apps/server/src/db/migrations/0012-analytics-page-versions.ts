import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * A version for each page's analytics (decision 25, "A page's answer"): raised in the transaction of
 * every batch that changes the page's aggregate rows, and by a rebuild, so that a finished answer kept
 * in memory is known to be current by reading one row. It goes with its page.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('analytics_page_versions')
    .addColumn('page_id', 'text', (c) => c.primaryKey().references('pages.id').onDelete('cascade'))
    .addColumn('version', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
    .execute();
}
