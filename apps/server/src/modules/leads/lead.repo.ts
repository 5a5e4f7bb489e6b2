import { reusableQuery, type Value } from '../../db/reusable-query';
import type { Db } from '../../db';
import {
  expressionBuilder,
  type Expression,
  type ExpressionBuilder,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { Database } from '../../db/schema';
import { MAX_TERMS_PER_LEAD, searchTerms, upperBound } from '../../lib/search-terms';

export type LeadRow = Database['leads'];

/** The columns a lead is shown with (toLead): a list reads only these, never the token's hash. */
export const SHOWN_COLUMNS = [
  'id',
  'funnelId',
  'name',
  'email',
  'phone',
  'currentPageId',
  'deadlineAt',
  'deadlineExceptionOn',
  'createdAt',
] as const;
export type ShownLeadRow = Pick<LeadRow, (typeof SHOWN_COLUMNS)[number]>;

/** SQLite allows 32,766 bound values per statement; 11 columns × 500 rows stays far below. */
const INSERT_CHUNK = 500;

/** Where a page of leads starts: after this lead, in the list's order. */
export interface LeadKey {
  createdAt: number;
  id: string;
}

/** A page of a funnel's leads (decision 22). */
export interface LeadPageQuery {
  funnelId: string;
  limit: number;
  order: 'oldest' | 'newest';
  after?: LeadKey | undefined;
  /** Leads with a search term starting with one of these (already normalised). */
  prefixes?: string[] | undefined;
  /** Leads whose current page this is. */
  pageId?: string | undefined;
}

type Trx = Transaction<Database>;

/** The search terms of these leads, written with them (decision 22). */
async function insertTerms(
  trx: Trx,
  rows: Pick<LeadRow, 'id' | 'funnelId' | 'name' | 'email' | 'phone' | 'createdAt'>[],
): Promise<void> {
  const terms = rows.flatMap((row) =>
    searchTerms(row).map((term) => ({
      funnelId: row.funnelId,
      term,
      leadId: row.id,
      createdAt: row.createdAt,
    })),
  );
  // Four values a row: well under SQLite's limit of bound values.
  for (let i = 0; i < terms.length; i += INSERT_CHUNK * 2) {
    await trx
      .insertInto('leadSearchTerms')
      .values(terms.slice(i, i + INSERT_CHUNK * 2))
      .execute();
  }
}

/**
 * A lead's recorded events, by table: erasing a lead deletes them with it. The tables without a
 * foreign key to the lead (event tables are append-only and written in batches, decision 17) are
 * named here; lead_page_progress and lead_search_terms go with the lead by cascade.
 */
const EVENT_TABLES = [
  'videoRecords',
  'actions',
  'pageSessions',
  'visits',
  'conversions',
  'pixelOutbox',
] as const;

export function createLeadRepo(db: Db) {
  /**
   * A search's page: its lead ids in creation order from the index of search terms alone (each term
   * row carries its lead's creation time), then those leads by their keys. A lead has at most
   * MAX_TERMS_PER_LEAD terms, so that many rows per lead asked for hold enough different leads; the
   * database keeps only the first of them while it reads the search's term rows (a top-n sort, no
   * DISTINCT over every match). Its cost grows with the term rows the search matches, not with the
   * funnel's leads.
   */
  async function searchPage(
    funnelId: string,
    limit: number,
    direction: 'asc' | 'desc',
    beyond: '>' | '<',
    after: LeadKey | undefined,
    inRange: (t: ExpressionBuilder<Database, 'leadSearchTerms'>) => Expression<SqlBool>,
  ): Promise<ShownLeadRow[]> {
    let found = db
      .selectFrom('leadSearchTerms')
      .select(['leadId', 'createdAt'])
      .where('funnelId', '=', funnelId)
      .where(inRange);
    if (after) {
      found = found.where((t) =>
        t.or([
          t('createdAt', beyond, after.createdAt),
          t.and([t('createdAt', '=', after.createdAt), t('leadId', beyond, after.id)]),
        ]),
      );
    }
    const matched = await found
      .orderBy('createdAt', direction)
      .orderBy('leadId', direction)
      .limit(limit * MAX_TERMS_PER_LEAD)
      .execute();
    // A lead found by several of its terms comes once, at its place.
    const ids = [...new Set(matched.map((r) => r.leadId))].slice(0, limit).map((leadId) => ({ leadId }));
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom('leads')
      .select(SHOWN_COLUMNS)
      .where(
        'id',
        'in',
        ids.map((r) => r.leadId),
      )
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((r) => byId.get(r.leadId) ?? []);
  }

  type PageSlot = 'funnelId' | 'limit' | 'pageId' | 'afterAt' | 'afterId';
  /** Every slot is given; a shape without a slot ignores its value. */
  type PageRead = (values: Record<PageSlot, Value>) => Promise<ShownLeadRow[]>;
  const pageReads = new Map<string, PageRead>();
  /**
   * A page of leads without a search, compiled once for each of its eight shapes (order, page filter,
   * continued or not): the leads table asks for one at every turn of a page.
   */
  function pageRead(order: 'oldest' | 'newest', filtered: boolean, continued: boolean): PageRead {
    const shape = `${order}:${String(filtered)}:${String(continued)}`;
    let read = pageReads.get(shape);
    if (read === undefined) {
      const direction = order === 'oldest' ? 'asc' : 'desc';
      const beyond = order === 'oldest' ? '>' : '<';
      const names: PageSlot[] = [
        'funnelId',
        'limit',
        ...(filtered ? (['pageId'] as const) : []),
        ...(continued ? (['afterAt', 'afterId'] as const) : []),
      ];
      read = reusableQuery(db, names, (v) => {
        let query = db.selectFrom('leads').select(SHOWN_COLUMNS).where('funnelId', '=', v.funnelId);
        if (filtered) query = query.where('currentPageId', '=', v.pageId);
        if (continued) {
          query = query.where((eb) =>
            eb.or([
              eb('createdAt', beyond, v.afterAt),
              eb.and([eb('createdAt', '=', v.afterAt), eb('id', beyond, v.afterId)]),
            ]),
          );
        }
        return query.orderBy('createdAt', direction).orderBy('id', direction).limit(v.limit);
      });
      pageReads.set(shape, read);
    }
    return read;
  }

  const byTokenHash = reusableQuery(db, ['tokenHash'], ({ tokenHash }) =>
    db.selectFrom('leads').selectAll().where('tokenHash', '=', tokenHash),
  );
  return {
    /** Inserts all the leads and their search terms in one transaction: an import lands whole or not at all. */
    async insertMany(rows: LeadRow[], counted?: (trx: Trx) => Promise<void>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          await trx
            .insertInto('leads')
            .values(rows.slice(i, i + INSERT_CHUNK))
            .execute();
        }
        await insertTerms(trx, rows);
        // What counts them (the analytics rollups), in the same transaction.
        if (counted) await counted(trx);
      });
    },
    findById: (id: string) => db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst(),
    findByTokenHash: async (tokenHash: string) => (await byTokenHash({ tokenHash }))[0],
    existingTokenHashes: async (hashes: string[]): Promise<Set<string>> => {
      if (hashes.length === 0) return new Set();
      const rows = await db
        .selectFrom('leads')
        .select('tokenHash')
        .where('tokenHash', 'in', hashes)
        .execute();
      return new Set(rows.map((r) => r.tokenHash));
    },
    /**
     * A page of a funnel's leads in creation order (oldest or newest first, the id breaking ties),
     * after the `after` key: on the index (funnel_id, created_at, id), or (funnel_id,
     * current_page_id, created_at, id) with a page filter; a search first finds its leads on the
     * index of search terms (funnel_id, term, lead_id) by prefix ranges (decision 22).
     */
    listByFunnel: ({ funnelId, limit, order, after, prefixes, pageId }: LeadPageQuery) => {
      if (prefixes === undefined) {
        return pageRead(
          order,
          pageId !== undefined,
          after !== undefined,
        )({
          funnelId,
          limit,
          pageId: pageId ?? null,
          afterAt: after?.createdAt ?? null,
          afterId: after?.id ?? null,
        });
      }
      const direction = order === 'oldest' ? 'asc' : 'desc';
      const beyond = order === 'oldest' ? '>' : '<';
      const eb = expressionBuilder<Database, 'leads'>();
      const conditions = [eb('leads.funnelId', '=', funnelId)];
      if (pageId !== undefined) conditions.push(eb('leads.currentPageId', '=', pageId));
      if (after) {
        conditions.push(
          eb.or([
            eb('leads.createdAt', beyond, after.createdAt),
            eb.and([eb('leads.createdAt', '=', after.createdAt), eb('leads.id', beyond, after.id)]),
          ]),
        );
      }
      const inRange = (t: ExpressionBuilder<Database, 'leadSearchTerms'>) =>
        t.or(prefixes.map((prefix) => t.and([t('term', '>=', prefix), t('term', '<', upperBound(prefix))])));
      if (pageId === undefined) return searchPage(funnelId, limit, direction, beyond, after, inRange);
      const matches = db
        .selectFrom('leadSearchTerms')
        .select('leadId')
        .distinct()
        .where('funnelId', '=', funnelId)
        .where(inRange)
        .as('m');
      // With a page filter, the leads found drive the query (SQLite keeps a CROSS JOIN's order): each
      // is read by its key and only they are sorted, never the funnel's leads walked and probed.
      return db
        .selectFrom(matches)
        .crossJoin('leads')
        .select(SHOWN_COLUMNS.map((column) => `leads.${column}` as const))
        .whereRef('leads.id', '=', 'm.leadId')
        .where(eb.and(conditions))
        .orderBy('leads.createdAt', direction)
        .orderBy('leads.id', direction)
        .limit(limit)
        .execute();
    },
    /** Changes a lead; a new name, e-mail or phone rewrites its search terms in the same transaction. */
    async update(
      id: string,
      values: Partial<Pick<LeadRow, 'name' | 'email' | 'phone' | 'deadlineExceptionOn'>>,
    ): Promise<void> {
      // An empty patch changes nothing (SQL has no empty SET).
      if (Object.keys(values).length === 0) return;
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('leads').set(values).where('id', '=', id).execute();
        if (values.name === undefined && values.email === undefined && values.phone === undefined) return;
        const row = await trx
          .selectFrom('leads')
          .select(['id', 'funnelId', 'name', 'email', 'phone', 'createdAt'])
          .where('id', '=', id)
          .executeTakeFirst();
        await trx.deleteFrom('leadSearchTerms').where('leadId', '=', id).execute();
        if (row) await insertTerms(trx, [row]);
      });
    },
    /** Gives the lead a new token: the old one names nobody from this commit on. */
    async setTokenHash(id: string, tokenHash: string): Promise<void> {
      await db.updateTable('leads').set({ tokenHash }).where('id', '=', id).execute();
    },
    /** Erases the lead and every event recorded of it, in one transaction. */
    async delete(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const table of EVENT_TABLES) await trx.deleteFrom(table).where('leadId', '=', id).execute();
        await trx.deleteFrom('leads').where('id', '=', id).execute();
      });
    },
  };
}
export type LeadRepo = ReturnType<typeof createLeadRepo>;
