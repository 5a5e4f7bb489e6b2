/**
 * Many leads, written straight into the database before the server starts, so that page resolution is
 * measured against a realistic table (row 4 goes to a million). Tokens are derived from the lead's
 * number, so the bench can name any lead again without keeping a million tokens in memory; only their
 * SHA-256 is stored, as for every lead (docs/decisions/0002-derived-tokens.md).
 */
import SQLite from 'better-sqlite3';
import { openDatabase, sqliteFile } from '../../apps/server/src/db';
import { dialectOf } from '../../apps/server/src/db/dialect';
import type { LeadRow } from '../../apps/server/src/modules/leads/lead.repo';
import { hashToken } from '../../apps/server/src/lib/tokens';

export interface LeadHome {
  accountId: string;
  /** The account's slug: a lead's link on a base domain is /{slug}/{token}. */
  slug: string;
  funnelId: string;
  /** The funnel's first page: a lead made through the API starts there (lead.service.ts). */
  firstPageId: string | null;
}

export interface BenchLead {
  index: number;
  token: string;
  leadId: string;
  slug: string;
}

/**
 * 32 URL-safe characters, like every lead token, and the same for the same tag and number. Not
 * random: the bench needs no secrecy, and a million SHA-256 runs less is ten seconds less of seeding.
 * The server finds a lead by the token's SHA-256, so lookups spread over the index all the same.
 */
export function benchToken(tag: string, index: number): string {
  return `${tag}_${index.toString(36).padStart(31 - tag.length, '0')}`;
}

/** A UUIDv7 whose counter bits are the lead's number: unique, and in insertion order like real ids. */
export function benchLeadId(createdAt: number, index: number): string {
  const ms = createdAt.toString(16).padStart(12, '0');
  const counter = index.toString(16).padStart(15, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${counter.slice(0, 3)}-8${counter.slice(3, 6)}-${counter.slice(6)}000`;
}

/**
 * Inserts leads number `from` to `from + count - 1`, spread over `homes` in turn, and returns those
 * that `keep` asks for (with their token and id). SQLite goes through one prepared statement in large
 * transactions (a million rows in about 30 s on a busy two-core machine); PostgreSQL through Kysely in
 * batches (only row 5's thousand leads go there).
 */
export async function insertLeads(
  databaseUrl: string,
  homes: readonly LeadHome[],
  range: { tag: string; from: number; count: number },
  keep: (index: number) => boolean,
): Promise<BenchLead[]> {
  if (homes.length === 0) throw new Error('no funnel to put the leads in');
  const kept: BenchLead[] = [];
  const createdAt = Date.now();
  const rowFor = (index: number): LeadRow => {
    const home = homes[index % homes.length] as LeadHome;
    const token = benchToken(range.tag, index);
    const row: LeadRow = {
      id: benchLeadId(createdAt, index),
      accountId: home.accountId,
      funnelId: home.funnelId,
      tokenHash: hashToken(token),
      name: `Lead ${index}`,
      email: null,
      phone: null,
      currentPageId: home.firstPageId,
      deadlineAt: null,
      deadlineExceptionOn: null,
      createdAt,
      lastIp: null,
      lastIpAt: null,
    };
    if (keep(index)) kept.push({ index, token, leadId: row.id, slug: home.slug });
    return row;
  };
  const end = range.from + range.count;
  if (dialectOf(databaseUrl) === 'sqlite') {
    insertSqlite(sqliteFile(databaseUrl), range.from, end, rowFor);
    return kept;
  }
  const database = openDatabase(databaseUrl);
  try {
    for (let i = range.from; i < end; i += 1000) {
      const rows: LeadRow[] = [];
      for (let j = i; j < Math.min(end, i + 1000); j++) rows.push(rowFor(j));
      await database.db.insertInto('leads').values(rows).execute();
    }
  } finally {
    await database.close();
  }
  return kept;
}

function insertSqlite(file: string, from: number, end: number, rowFor: (index: number) => LeadRow): void {
  const sqlite = new SQLite(file);
  try {
    // Nothing reads this file until the inserts are done; a crash here only loses a bench run.
    sqlite.pragma('synchronous = OFF');
    // A large page cache (200 MB, in this process): the random token index is what costs.
    sqlite.pragma('cache_size = -200000');
    const insert = sqlite.prepare(
      `insert into leads (id, account_id, funnel_id, token_hash, name, email, phone, current_page_id,
         deadline_at, deadline_exception_on, created_at, last_ip, last_ip_at)
       values (@id, @accountId, @funnelId, @tokenHash, @name, @email, @phone, @currentPageId,
         @deadlineAt, @deadlineExceptionOn, @createdAt, @lastIp, @lastIpAt)`,
    );
    const batch = sqlite.transaction((start: number, stop: number) => {
      for (let i = start; i < stop; i++) insert.run(rowFor(i));
    });
    for (let i = from; i < end; i += 50_000) {
      batch(i, Math.min(end, i + 50_000));
    }
    // The server starts on a compact file, not behind a write-ahead log of a million rows.
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    sqlite.close();
  }
}

/** `count` distinct numbers from [0, total), spread over the whole range, in random order. */
export function sampleIndices(total: number, count: number): Set<number> {
  if (count >= total) return new Set(Array.from({ length: total }, (_, i) => i));
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(Math.random() * total));
  return chosen;
}
