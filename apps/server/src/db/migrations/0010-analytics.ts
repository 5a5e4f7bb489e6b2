import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Analytics rollups (issue 19, decision 25): state rows (each session's passes, each lead's plays on
 * a page by day) and aggregate rows keyed by page or funnel and day, all derived from the raw event
 * rows and rebuilt from them by `embudo analytics rebuild`. Days are day numbers (days since
 * 1970-01-01) of the account's time zone. Rows go with their page, funnel or lead. Leads stored
 * before this migration leave a mark that the server's start turns into a rebuild of every account
 * (`analytics_rebuild` in instance_settings), so that what came before counts too.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const count = dialect === 'postgres' ? 'bigint' : 'integer';
  const day = 'integer';

  await db.schema
    .createTable('analytics_sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey().references('page_sessions.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('analytics_lead_pages')
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_lead_pages_pk', ['lead_id', 'page_id'])
    .execute();
  await db.schema
    .createIndex('analytics_lead_pages_page')
    .on('analytics_lead_pages')
    .columns(['page_id', 'lead_id'])
    .execute();

  await db.schema
    .createTable('analytics_reach')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('day', day, (c) => c.notNull())
    .addColumn('prev_day', day, (c) => c.notNull())
    .addColumn('second', 'integer', (c) => c.notNull())
    .addColumn('delta', count, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_reach_pk', ['page_id', 'day', 'prev_day', 'second'])
    .execute();
  await db.schema
    .createTable('analytics_views')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('day', day, (c) => c.notNull())
    .addColumn('second', 'integer', (c) => c.notNull())
    .addColumn('delta', count, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_views_pk', ['page_id', 'day', 'second'])
    .execute();
  await db.schema
    .createTable('analytics_page_days')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('day', day, (c) => c.notNull())
    .addColumn('sessions', count, (c) => c.notNull())
    .addColumn('plays', count, (c) => c.notNull())
    .addColumn('seconds_played', count, (c) => c.notNull())
    .addColumn('clicks', count, (c) => c.notNull())
    .addColumn('conversions', count, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_page_days_pk', ['page_id', 'day'])
    .execute();
  await db.schema
    .createTable('analytics_page_leads')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('day', day, (c) => c.notNull())
    .addColumn('prev_day', day, (c) => c.notNull())
    .addColumn('leads', count, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_page_leads_pk', ['page_id', 'kind', 'day', 'prev_day'])
    .execute();
  await db.schema
    .createTable('analytics_furthest')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('first_play_day', day, (c) => c.notNull())
    .addColumn('furthest_second', 'integer', (c) => c.notNull())
    .addColumn('leads', count, (c) => c.notNull())
    .addColumn('converted', count, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_furthest_pk', ['page_id', 'first_play_day', 'furthest_second'])
    .execute();
  await db.schema
    .createTable('analytics_steps')
    .addColumn('funnel_id', 'text', (c) => c.notNull().references('funnels.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('entry_day', day, (c) => c.notNull())
    .addColumn('reached', count, (c) => c.notNull())
    .addColumn('completed', count, (c) => c.notNull())
    .addColumn('clicked', count, (c) => c.notNull())
    .addColumn('converted', count, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_steps_pk', ['funnel_id', 'entry_day', 'page_id'])
    .execute();
  await db.schema
    .createTable('analytics_funnel_days')
    .addColumn('funnel_id', 'text', (c) => c.notNull().references('funnels.id').onDelete('cascade'))
    .addColumn('day', day, (c) => c.notNull())
    .addColumn('entered', count, (c) => c.notNull())
    .addColumn('conversions', count, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_funnel_days_pk', ['funnel_id', 'day'])
    .execute();
  await db.schema
    .createTable('analytics_page_meta')
    .addColumn('page_id', 'text', (c) => c.primaryKey().references('pages.id').onDelete('cascade'))
    .addColumn('max_duration', dialect === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('max_played_second', 'integer', (c) => c.notNull())
    .execute();

  // What rebuilds and the lists read on the raw rows: a page's sessions by time, a funnel's by time.
  await db.schema
    .createIndex('page_sessions_page_start')
    .on('page_sessions')
    .columns(['page_id', 'start_at'])
    .execute();
  await db.schema
    .createIndex('page_sessions_funnel_start')
    .on('page_sessions')
    .columns(['funnel_id', 'start_at'])
    .execute();
  await sql`insert into instance_settings (key, value)
    select 'analytics_rebuild', 'pending' where exists (select 1 from leads)`.execute(db);
}
