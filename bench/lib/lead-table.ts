/**
 * A funnel with many leads for the leads-table row: an account with a known API key, a funnel of three
 * pages, and `count` leads written straight into SQLite with their search terms (decision 22), spread
 * over the three pages as their current page. Every lead has a surname of its own (five syllables
 * spelling its number), so a search for one surname finds one lead at any table size; first names
 * repeat, one in 40.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { DEV_BASE_DOMAINS } from '@embudo/contracts';
import { migrate, openDatabase, sqliteFile } from '../../apps/server/src/db';
import { dialectOf } from '../../apps/server/src/db/dialect';
import { searchTerms } from '../../apps/server/src/lib/search-terms';
import { hashToken } from '../../apps/server/src/lib/tokens';
import { createServices } from '../../apps/server/src/services';
import { benchLeadId, benchToken } from './leads';

const FIRST_NAMES = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elena',
  'Fernanda',
  'Gabriel',
  'Helena',
  'Iván',
  'Julia',
  'Karen',
  'Lucas',
  'María',
  'Nicolás',
  'Olga',
  'Pablo',
  'Quique',
  'Rosa',
  'Sofía',
  'Tomás',
  'Úrsula',
  'Valentina',
  'Walter',
  'Ximena',
  'Yolanda',
  'Zoe',
  'Andrés',
  'Beatriz',
  'Camila',
  'Daniel',
  'Emilia',
  'Felipe',
  'Gloria',
  'Hugo',
  'Inés',
  'Jorge',
  'Laura',
  'Mateo',
  'Natalia',
  'Óscar',
];
const SYLLABLES = [
  'ba',
  'ce',
  'di',
  'fo',
  'gu',
  'ha',
  'je',
  'ki',
  'lo',
  'mu',
  'na',
  'pe',
  'ri',
  'so',
  'tu',
  'va',
  'xe',
  'yi',
  'zo',
  'ru',
];

/** Lead `index`'s surname: its number in base 20, five syllables (unique below 3,200,000). */
export function benchSurname(index: number): string {
  let word = '';
  let rest = index;
  for (let i = 0; i < 5; i++) {
    word = (SYLLABLES[rest % 20] as string) + word;
    rest = Math.floor(rest / 20);
  }
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export const benchFirstName = (index: number): string => FIRST_NAMES[index % FIRST_NAMES.length] as string;

export interface LeadTable {
  apiKey: string;
  funnelId: string;
  pageIds: string[];
  leads: number;
}

const BENCH_KEY = `emb_${'leadtable'.padEnd(43, '0')}`;

/** A new account and funnel on the (migrated) database, then `count` leads into the funnel. */
export async function seedLeadTable(databaseUrl: string, count: number): Promise<LeadTable> {
  const database = openDatabase(databaseUrl);
  let funnelId: string;
  let pageIds: string[];
  let accountId: string;
  try {
    await migrate(database);
    const services = await createServices(database, {
      publicUrl: 'http://127.0.0.1:3000',
      baseDomains: [...DEV_BASE_DOMAINS],
      geoDatabase: 'off',
    });
    const { account } = await services.accounts.create(
      { slug: 'lead-table', name: 'Lead table' },
      { apiKey: BENCH_KEY },
    );
    accountId = account.id;
    const funnel = await services.funnels.create(account, { name: 'Launch' });
    funnelId = funnel.id;
    pageIds = [];
    for (const headline of ['One', 'Two', 'Three']) {
      pageIds.push((await services.pages.create(account, funnel.id, { headline })).id);
    }
  } finally {
    await database.close();
  }
  if (dialectOf(databaseUrl) === 'sqlite') {
    const sqlite = new SQLite(sqliteFile(databaseUrl));
    try {
      insertRows(sqlite, accountId, funnelId, pageIds, count);
    } finally {
      sqlite.close();
    }
  } else {
    await insertPostgres(databaseUrl, accountId, funnelId, pageIds, count);
  }
  return { apiKey: BENCH_KEY, funnelId, pageIds, leads: count };
}

/** Lead `i` of the table: its row's values and its search terms. */
function leadOf(i: number, start: number, pageIds: string[]) {
  const createdAt = start + i;
  const name = `${benchFirstName(i)} ${benchSurname(i)}`;
  const email = `${benchSurname(i).toLowerCase()}@example.com`;
  return {
    id: benchLeadId(createdAt, i),
    tokenHash: hashToken(benchToken('table', i)),
    name,
    email,
    pageId: pageIds[i % pageIds.length] as string,
    createdAt,
    terms: searchTerms({ name, email, phone: null }),
  };
}

/** PostgreSQL: 10,000 leads a statement, as arrays unnested by the server. */
async function insertPostgres(
  url: string,
  accountId: string,
  funnelId: string,
  pageIds: string[],
  count: number,
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const start = Date.now() - count;
    for (let from = 0; from < count; from += 10_000) {
      const leads = Array.from({ length: Math.min(10_000, count - from) }, (_, j) =>
        leadOf(from + j, start, pageIds),
      );
      await client.query(
        `insert into leads (id, account_id, funnel_id, token_hash, name, email, current_page_id, created_at)
         select id, $1, $2, token_hash, name, email, page_id, created_at
         from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
           as t(id, token_hash, name, email, page_id, created_at)`,
        [
          accountId,
          funnelId,
          leads.map((l) => l.id),
          leads.map((l) => l.tokenHash),
          leads.map((l) => l.name),
          leads.map((l) => l.email),
          leads.map((l) => l.pageId),
          leads.map((l) => l.createdAt),
        ],
      );
      const terms = leads.flatMap((l) => l.terms.map((term) => ({ term, id: l.id, createdAt: l.createdAt })));
      await client.query(
        `insert into lead_search_terms (funnel_id, term, lead_id, created_at)
         select $1, term, lead_id, created_at from unnest($2::text[], $3::text[], $4::bigint[]) as t(term, lead_id, created_at)`,
        [funnelId, terms.map((t) => t.term), terms.map((t) => t.id), terms.map((t) => t.createdAt)],
      );
    }
    await client.query('analyze leads');
    await client.query('analyze lead_search_terms');
  } finally {
    await client.end();
  }
}

function insertRows(
  sqlite: SQLite.Database,
  accountId: string,
  funnelId: string,
  pageIds: string[],
  count: number,
) {
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -200000');
  const lead = sqlite.prepare(
    `insert into leads (id, account_id, funnel_id, token_hash, name, email, phone, current_page_id,
       deadline_at, deadline_exception_on, created_at, last_ip, last_ip_at)
     values (?, ?, ?, ?, ?, ?, null, ?, null, null, ?, null, null)`,
  );
  const term = sqlite.prepare(
    'insert into lead_search_terms (funnel_id, term, lead_id, created_at) values (?, ?, ?, ?)',
  );
  // One lead a millisecond, in the past: creation order is the order of the numbers.
  const start = Date.now() - count;
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const l = leadOf(i, start, pageIds);
      lead.run(l.id, accountId, funnelId, l.tokenHash, l.name, l.email, l.pageId, l.createdAt);
      for (const t of l.terms) term.run(funnelId, t, l.id, l.createdAt);
    }
  });
  for (let i = 0; i < count; i += 50_000) batch(i, Math.min(count, i + 50_000));
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
}
