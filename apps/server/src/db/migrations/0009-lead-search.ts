import { sql, type Kysely } from 'kysely';
import { searchTerms } from '../../lib/search-terms';
import type { Dialect } from '../dialect';

/**
 * The Studio's leads table and API keys (issue 18, decision 22):
 *
 * - `lead_search_terms`: the words each lead is found by, searched by prefix over the index
 *   (funnel_id, term, lead_id); on PostgreSQL the term compares byte by byte (collation "C") as it
 *   does on SQLite, so a prefix is the same range on both. Filled here for the leads already stored.
 * - leads by current page in creation order, for the filtered table (funnel_id, current_page_id,
 *   created_at, id); the unfiltered one has leads_funnel_created since 0001.
 * - a lead's events by lead, so that erasing a lead finds them on an index (video records and
 *   conversions had none).
 * - `api_keys.prefix`: a key's first characters, shown to tell keys apart; null for older keys.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('prefix', 'text').execute();

  await db.schema
    .createTable('lead_search_terms')
    .addColumn('funnel_id', 'text', (c) => c.notNull().references('funnels.id').onDelete('cascade'))
    .addColumn('term', dialect === 'postgres' ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('lead_search_terms_term')
    .on('lead_search_terms')
    .columns(['funnel_id', 'term', 'lead_id'])
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
}

/** Leads read at a time. */
const CHUNK = 500;

async function backfillTerms(db: Kysely<unknown>): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await sql<{
      id: string;
      funnel_id: string;
      name: string;
      email: string | null;
      phone: string | null;
    }>`select id, funnel_id, name, email, phone from leads where id > ${after} order by id limit ${CHUNK}`.execute(
      db,
    );
    const terms = rows.flatMap((lead) =>
      searchTerms(lead).map((term) => ({ funnel_id: lead.funnel_id, term, lead_id: lead.id })),
    );
    for (let i = 0; i < terms.length; i += CHUNK) {
      const values = terms.slice(i, i + CHUNK).map((t) => sql`(${t.funnel_id}, ${t.term}, ${t.lead_id})`);
      await sql`insert into lead_search_terms (funnel_id, term, lead_id) values ${sql.join(values)}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < CHUNK) return;
    after = last.id;
  }
}
