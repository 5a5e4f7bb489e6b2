import type { Account, Funnel, FunnelCreate, Page, PageCreate } from '@embudo/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../src/db';
import type { Dialect } from '../src/db/dialect';
import type { Database } from '../src/db/schema';
import { createServices, type Services } from '../src/services';
import { createTestDatabase, type TestDatabase } from './databases';

/** Helpers shared by the database-tier tests of services and repositories. */

export const PUBLIC_URL = 'http://localhost:3000';
export const BASE_DOMAINS = ['localhost', '127.0.0.1'];

export interface ServicesHandle {
  readonly database: TestDatabase;
  readonly db: Db;
  readonly services: Services;
}

/**
 * A fresh, migrated database of the dialect with every service on it, opened before the tests of the
 * enclosing describe block and closed after them. Read its fields inside tests and hooks only.
 */
export function useServices(dialect: Dialect): ServicesHandle {
  let current: { database: TestDatabase; services: Services } | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    const services = await createServices(database, { publicUrl: PUBLIC_URL, baseDomains: BASE_DOMAINS });
    current = { database, services };
  });
  afterAll(async () => {
    await current?.database.close();
    current = undefined;
  });
  const get = () => {
    if (!current) throw new Error('the test database is open only inside tests and hooks');
    return current;
  };
  return {
    get database() {
      return get().database;
    },
    get db() {
      return get().database.db;
    },
    get services() {
      return get().services;
    },
  };
}

let accountCount = 0;

/** A new active account with a slug no other test uses. */
export async function newAccount(
  services: Services,
  settings?: Partial<Account['settings']>,
): Promise<Account> {
  accountCount += 1;
  const slug = `acc-${accountCount}-${Math.random().toString(36).slice(2, 8)}`;
  const { account } = await services.accounts.create({ slug, name: `Account ${accountCount}`, settings });
  return account;
}

/** A funnel of the owner with these pages appended in order. */
export async function newFunnel(
  services: Services,
  owner: Account,
  options: { funnel?: Partial<FunnelCreate>; pages?: PageCreate[] } = {},
): Promise<{ funnel: Funnel; pages: Page[] }> {
  const funnel = await services.funnels.create(owner, { name: 'Test funnel', ...options.funnel });
  const pages: Page[] = [];
  for (const page of options.pages ?? []) pages.push(await services.pages.create(owner, funnel.id, page));
  return { funnel, pages };
}

export const TABLES = [
  'instanceSettings',
  'accounts',
  'apiKeys',
  'domains',
  'funnels',
  'pages',
  'contentVersions',
  'leads',
  'funnelLeadCounts',
  'leadSearchTerms',
  'leadPageProgress',
  'previewTokens',
  'visits',
  'pageSessions',
  'videoRecords',
  'actions',
  'conversions',
  'pixelOutbox',
  'users',
  'memberships',
  'sessions',
  'invitations',
  'analyticsSessions',
  'analyticsLeadPages',
  'analyticsReach',
  'analyticsViews',
  'analyticsPageDays',
  'analyticsPageLeads',
  'analyticsFurthest',
  'analyticsSteps',
  'analyticsFunnelDays',
  'analyticsPageMeta',
  'analyticsPageVersions',
] as const satisfies readonly (keyof Database)[];
type Table = (typeof TABLES)[number];
/**
 * Fails to compile when a table is added to the schema but not to TABLES. SQLite's log of changes to
 * what visitor calls check (migration 0015) is left out: PostgreSQL has no such table.
 */
const _everyTable: [Exclude<keyof Database, Table | 'visitorContextChanges'>] extends [never] ? true : never =
  true;

/** The number of rows of every table, to show that something wrote nothing or added nothing. */
export async function rowCounts(db: Db): Promise<Record<Table, number>> {
  const entries = await Promise.all(
    TABLES.map(async (table) => {
      const { rows } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table)}`.execute(db);
      return [table, Number(rows[0]?.n)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Table, number>;
}

/**
 * A custom domain of the owner's, verified as if its DNS records had been seen (decision 27): a
 * pending domain serves nothing.
 */
export async function addVerifiedDomain(
  services: Pick<Services, 'domains'>,
  db: Db,
  owner: Pick<Account, 'id'>,
  host: string,
): Promise<string> {
  const { id } = await services.domains.create(owner, { host });
  await markDomainVerified(db, host);
  return id;
}

/** The domain at `host` as a passing check leaves it (decision 27). */
export async function markDomainVerified(db: Db, host: string): Promise<void> {
  await db
    .updateTable('domains')
    .set({ state: 'verified', failure: null, failingSince: null, checkedAt: Date.now() })
    .where('host', '=', host)
    .execute();
}
