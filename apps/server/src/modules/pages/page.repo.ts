import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import { batchedRead, inJsonList } from '../../db/batched-read';
import { keptReads } from '../../db/kept-reads';
import type { VisitorContextChanges } from '../../db/visitor-context';
import { sql, type Transaction } from 'kysely';
import type { Dialect } from '../../db/dialect';
import type { Database } from '../../db/schema';

export type PageRow = Database['pages'];

/**
 * A page's free text, which a funnel's content limit counts: its rich text, and the links and video
 * fields an owner types (the content column's keys).
 */
export const PAGE_TEXT_FIELDS = [
  'topline',
  'headline',
  'subheadline',
  'buttonCopy',
  'buttonUrl',
  'bgImageUrl',
  'videoId',
  'videoLibrary',
  'videoUrl',
] as const;

/** A funnel's other pages, as a save's limits see them: how many, and their free text in characters. */
export interface OtherPages {
  count: number;
  textChars: number;
}

/**
 * Checks a save against the funnel's other pages, inside the save's transaction with the funnel
 * locked; it throws to refuse the save, and then nothing is written.
 */
export type PageSaveGuard = (others: OtherPages) => void;

/**
 * Serialises changes to one funnel's page order. Touching the funnel row takes its row lock on
 * PostgreSQL (a second writer waits); SQLite already runs one write transaction at a time.
 */
async function lockFunnel(trx: Transaction<Database>, funnelId: string): Promise<void> {
  await trx
    .updateTable('funnels')
    .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
    .where('id', '=', funnelId)
    .execute();
}

/**
 * The funnel's pages but `exceptId`: how many, and the characters of their free text, counted by the
 * database in the stored JSON (one parse per row, none in JavaScript).
 */
async function otherPages(
  trx: Transaction<Database>,
  dialect: Dialect,
  funnelId: string,
  exceptId: string,
): Promise<OtherPages> {
  const keys = sql.join(PAGE_TEXT_FIELDS.map((field) => sql.lit(field)));
  const fields =
    dialect === 'postgres'
      ? sql`cross join lateral jsonb_each_text(p.content::jsonb) as f(key, value)`
      : sql`, json_each(p.content) as f`;
  const { rows } = await sql<{ n: number | string | null; chars: number | string | null }>`
    select
      (select count(*) from pages where funnel_id = ${funnelId} and id <> ${exceptId}) as n,
      (select sum(length(f.value)) from pages as p ${fields}
        where p.funnel_id = ${funnelId} and p.id <> ${exceptId} and f.key in (${keys})) as chars
  `.execute(trx);
  return { count: Number(rows[0]?.n ?? 0), textChars: Number(rows[0]?.chars ?? 0) };
}

export function createPageRepo(db: Db, dialect: Dialect, changes?: VisitorContextChanges) {
  /** A page with the account that owns it, for permission checks. */
  const withOwner = () =>
    db
      .selectFrom('pages')
      .innerJoin('funnels', 'funnels.id', 'pages.funnelId')
      .selectAll('pages')
      .select('funnels.accountId');
  const byId = reusableQuery(db, ['id'], ({ id }) => withOwner().where('pages.id', '=', id));
  const byFunnel = reusableQuery(db, ['funnelId'], ({ funnelId }) =>
    withOwner().where('pages.funnelId', '=', funnelId).orderBy('pages.position'),
  );
  // A page's place and action without its content, for tracking and conversions.
  const refFields = ['id', 'buttonAction', 'position'] as const;
  // Read for every session start, gathered by page (db/batched-read.ts).
  const readRefById = batchedRead(
    db,
    (ids) =>
      db
        .selectFrom('pages')
        .select([...refFields, 'funnelId'])
        .where(inJsonList(dialect, 'id', ids)),
    (row) => row.id,
  );
  const firstRefQuery = reusableQuery(db, ['funnelId'], ({ funnelId }) =>
    db.selectFrom('pages').select(refFields).where('funnelId', '=', funnelId).orderBy('position').limit(1),
  );
  const readFirstRef = async (funnelId: string) => (await firstRefQuery({ funnelId }))[0];
  // Kept in memory until any page is added, removed, moved or given another action (decision 42).
  const refById = changes ? keptReads(changes, readRefById, () => null).read : readRefById;
  const firstRef = changes ? keptReads(changes, readFirstRef, () => null).read : readFirstRef;
  return {
    async findRefInFunnel(pageId: string, funnelId: string) {
      const page = await refById(pageId);
      return page?.funnelId === funnelId
        ? { id: page.id, buttonAction: page.buttonAction, position: page.position }
        : undefined;
    },
    findFirstRef: firstRef,
    findById: async (id: string) => (await byId({ id }))[0],
    listByFunnel: (funnelId: string) => byFunnel({ funnelId }),
    /** Appends the page after the funnel's last one, in one transaction, if `guard` lets it. */
    async append(row: Omit<PageRow, 'position'>, guard?: PageSaveGuard): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await lockFunnel(trx, row.funnelId);
        if (guard) guard(await otherPages(trx, dialect, row.funnelId, row.id));
        const last = await trx
          .selectFrom('pages')
          .select((eb) => eb.fn.max('position').as('max'))
          .where('funnelId', '=', row.funnelId)
          .executeTakeFirst();
        const position = last?.max == null ? 0 : last.max + 1;
        await trx
          .insertInto('pages')
          .values({ ...row, position })
          .execute();
        return position;
      });
    },
    /**
     * Inserts a page right after the page at `after` of its funnel, the later pages moving one down,
     * in one transaction with the funnel locked, if `guard` lets it.
     */
    async insertAfter(row: Omit<PageRow, 'position'>, after: number, guard: PageSaveGuard): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await lockFunnel(trx, row.funnelId);
        guard(await otherPages(trx, dialect, row.funnelId, row.id));
        const later = () => trx.updateTable('pages').where('funnelId', '=', row.funnelId);
        // Through negative positions, so that (funnel_id, position) stays unique at every step.
        await later()
          .set((eb) => ({ position: eb(eb.neg(eb.ref('position')), '-', 2) }))
          .where('position', '>', after)
          .execute();
        await later()
          .set((eb) => ({ position: eb(eb.neg(eb.ref('position')), '-', 1) }))
          .where('position', '<', 0)
          .execute();
        await trx
          .insertInto('pages')
          .values({ ...row, position: after + 1 })
          .execute();
        return after + 1;
      });
    },
    /**
     * Gives the funnel's pages the positions 0..n-1 in the order of `pageIds`, in one transaction with
     * the funnel locked; `check`, told the funnel's page ids as the transaction sees them, throws to
     * refuse the order, and then nothing moves.
     */
    async reorder(funnelId: string, pageIds: string[], check: (current: string[]) => void): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockFunnel(trx, funnelId);
        const current = await trx.selectFrom('pages').select('id').where('funnelId', '=', funnelId).execute();
        check(current.map((p) => p.id));
        await trx
          .updateTable('pages')
          .set((eb) => ({ position: eb(eb.neg(eb.ref('position')), '-', 1) }))
          .where('funnelId', '=', funnelId)
          .execute();
        for (const [position, id] of pageIds.entries()) {
          await trx.updateTable('pages').set({ position }).where('id', '=', id).execute();
        }
      });
    },
    /** Changes a page; with a guard, in one transaction with its funnel locked, if the guard lets it. */
    async update(
      page: Pick<PageRow, 'id' | 'funnelId'>,
      values: Partial<Pick<PageRow, 'layout' | 'buttonAction' | 'content' | 'updatedAt'>>,
      guard?: PageSaveGuard,
    ): Promise<void> {
      if (!guard) {
        await db.updateTable('pages').set(values).where('id', '=', page.id).execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        await lockFunnel(trx, page.funnelId);
        guard(await otherPages(trx, dialect, page.funnelId, page.id));
        await trx.updateTable('pages').set(values).where('id', '=', page.id).execute();
      });
    },
    /** Deletes a page and closes the gap, keeping positions 0..n-1 (and unique at every step). */
    async delete(page: Pick<PageRow, 'id' | 'funnelId' | 'position'>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockFunnel(trx, page.funnelId);
        await trx.deleteFrom('pages').where('id', '=', page.id).execute();
        const after = (q: typeof trx) => q.updateTable('pages').where('funnelId', '=', page.funnelId);
        await after(trx)
          .set((eb) => ({ position: eb.neg(eb.ref('position')) }))
          .where('position', '>', page.position)
          .execute();
        await after(trx)
          .set((eb) => ({ position: eb(eb.neg(eb.ref('position')), '-', 1) }))
          .where('position', '<', 0)
          .execute();
      });
    },
  };
}
export type PageRepo = ReturnType<typeof createPageRepo>;
