import { sql, type Kysely } from 'kysely';
import { searchTerms } from '../../lib/search-terms';
import type { Dialect } from '../dialect';

/**
 * The Studio's leads table and API keys (issue 18, decision 22):
 *
 * - `lead_search_terms`: the words each lead is found by, with the lead's creation time, searched by
 *   prefix over the index (funnel_id, term, created_at, lead_id), which alone answers a search's page
 *   of lead ids in creation order; on PostgreSQL the term compares byte by byte (collation "C") as it
 *   does on SQLite, so a prefix is the same range on both. Filled here for the leads already stored.
 * - leads by current page in creation order, for the filtered table (funnel_id, current_page_id,
 *   created_at, id); the unfiltered one has leads_funnel_created since 0001.
 * - a lead's events by lead, so that erasing a lead finds them on an index (video records and
 *   conversions had none).
 * - `api_keys.prefix`: a key's first characters, shown to tell keys apart; null for older keys.
 * - `funnel_lead_counts`: each funnel's number of leads, kept by triggers (below).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('prefix', 'text').execute();

  await db.schema
    .createTable('lead_search_terms')
    .addColumn('funnel_id', 'text', (c) => c.notNull().references('funnels.id').onDelete('cascade'))
    .addColumn('term', dialect === 'postgres' ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lead_search_terms_term')
    .on('lead_search_terms')
    .columns(['funnel_id', 'term', 'created_at', 'lead_id'])
    .execute();
  await db.schema.createIndex('lead_search_terms_lead').on('lead_search_terms').column('lead_id').execute();

  await db.schema
    .createIndex('leads_funnel_page_created')
    .on('leads')
    .columns(['funnel_id', 'current_page_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('video_records_lead').on('video_records').column('lead_id').execute();
  await db.schema.createIndex('conversions_lead').on('conversions').column('lead_id').execute();

  await backfillTerms(db);
  await leadCounts(db, dialect);
}

/**
 * `funnel_lead_counts`: each funnel's number of leads, kept by the database on every insert and
 * delete of a lead, by any writer, so that the owner's funnel list reads it instead of counting a
 * million index entries per funnel. Its own table: a change to the funnels row would bump the
 * funnel's content version (migration 0006) with every new lead.
 */
async function leadCounts(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('funnel_lead_counts')
    .addColumn('funnel_id', 'text', (c) => c.primaryKey().references('funnels.id').onDelete('cascade'))
    .addColumn('lead_count', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into funnel_lead_counts (funnel_id, lead_count)
    select funnel_id, count(*) from leads group by funnel_id`.execute(db);
  const statements =
    dialect === 'postgres'
      ? [
          // Once per statement, with its rows: an import of 5,000 leads is one update.
          `create function funnel_leads_inserted() returns trigger language plpgsql as $$
            begin
              insert into funnel_lead_counts (funnel_id, lead_count)
                select funnel_id, count(*) from inserted group by funnel_id
              on conflict (funnel_id) do update
                set lead_count = funnel_lead_counts.lead_count + excluded.lead_count;
              return null;
            end $$`,
          `create function funnel_leads_deleted() returns trigger language plpgsql as $$
            begin
              update funnel_lead_counts c set lead_count = c.lead_count - d.n
                from (select funnel_id, count(*) as n from deleted group by funnel_id) d
                where c.funnel_id = d.funnel_id;
              return null;
            end $$`,
          `create trigger leads_counted_in after insert on leads
             referencing new table as inserted for each statement execute function funnel_leads_inserted()`,
          `create trigger leads_counted_out after delete on leads
             referencing old table as deleted for each statement execute function funnel_leads_deleted()`,
        ]
      : [
          `create trigger leads_counted_in after insert on leads for each row begin
             insert into funnel_lead_counts (funnel_id, lead_count) values (new.funnel_id, 1)
             on conflict (funnel_id) do update set lead_count = funnel_lead_counts.lead_count + 1;
           end`,
          `create trigger leads_counted_out after delete on leads for each row begin
             update funnel_lead_counts set lead_count = lead_count - 1 where funnel_id = old.funnel_id;
           end`,
        ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** Leads read at a time. */
const CHUNK = 500;

async function backfillTerms(db: Kysely<unknown>): Promise<void> {
  let after = '';
  for (;;) {
    // Names without underscores: the same keys with or without the camel-case plugin.
    const { rows } = await sql<{
      id: string;
      funnel: string;
      name: string;
      email: string | null;
      phone: string | null;
      created: number | string;
    }>`select id, funnel_id as funnel, name, email, phone, created_at as created from leads
       where id > ${after} order by id limit ${CHUNK}`.execute(db);
    const terms = rows.flatMap((lead) =>
      searchTerms(lead).map((term) => ({
        funnel: lead.funnel,
        term,
        lead: lead.id,
        created: Number(lead.created),
      })),
    );
    for (let i = 0; i < terms.length; i += CHUNK) {
      const values = terms
        .slice(i, i + CHUNK)
        .map((t) => sql`(${t.funnel}, ${t.term}, ${t.lead}, ${t.created})`);
      await sql`insert into lead_search_terms (funnel_id, term, lead_id, created_at) values ${sql.join(values)}`.execute(
        db,
      );
    }
    const last = rows.at(-1);
    if (!last || rows.length < CHUNK) return;
    after = last.id;
  }
}
