import { compileTemplate, prepared, reusableQuery, type StatementText } from '../../db/reusable-query';
import type { Db } from '../../db';
import { batchedRead, inJsonList } from '../../db/batched-read';
import { keptReads } from '../../db/kept-reads';
import type { VisitorContextChanges } from '../../db/visitor-context';
import type { Dialect } from '../../db/dialect';

/** A resume point as the event writer stores it (visitor-behaviour §4.4): the latest video position reported. */
export interface ResumePoint {
  leadId: string;
  pageId: string;
  position: number;
  /** When the browser saw that position (the record's end view time): newer wins. */
  reportedAt: number;
  at: number;
}

/**
 * A lead's progress (architecture §4, §5.3): the page it is on (`leads.current_page_id`) and, per page,
 * completion and the video resume point (`lead_page_progress`). Page resolution and the hot tracking
 * read join the progress into their own single reads (site's lead-page.repo.ts, tracking.repo.ts:
 * decisions 0013, 0016); every other read and every write of it is here.
 */
/**
 * A batch's resume points in one statement (PostgreSQL, where each statement of a batch is a round trip
 * on the writer's connection): the rows as one JSON parameter, with the single row's rule.
 */
const RESUME_POINTS_POSTGRES = prepared(
  'insert into lead_page_progress (lead_id, page_id, completed_at, last_video_position, last_video_at, updated_at) ' +
    'select e->>0, e->>1, null, cast(e->>2 as double precision), cast(e->>3 as bigint), cast(e->>4 as bigint) ' +
    'from jsonb_array_elements(cast($1 as jsonb)) as e ' +
    'on conflict (lead_id, page_id) do update set last_video_position = excluded.last_video_position, ' +
    'last_video_at = excluded.last_video_at, updated_at = excluded.updated_at ' +
    'where lead_page_progress.last_video_at is null or lead_page_progress.last_video_at <= excluded.last_video_at',
);

export function createLeadProgressRepo(db: Db, dialect: Dialect, changes?: VisitorContextChanges) {
  const byLeadAndPage = reusableQuery(db, ['leadId', 'pageId'], ({ leadId, pageId }) =>
    db.selectFrom('leadPageProgress').selectAll().where('leadId', '=', leadId).where('pageId', '=', pageId),
  );
  // Read for every session start and end, gathered by token (db/batched-read.ts), and kept in memory
  // until the lead or its account changes (decision 42).
  const readLeadByTokenHash = batchedRead(
    db,
    (hashes) =>
      db
        .selectFrom('leads')
        .innerJoin('accounts', 'accounts.id', 'leads.accountId')
        .select([
          'leads.id',
          'leads.tokenHash',
          'leads.accountId',
          'leads.funnelId',
          'leads.name',
          'leads.currentPageId',
          'accounts.subscriptionStatus as subscriptionStatus',
        ])
        .where(inJsonList(dialect, 'leads.tokenHash', hashes)),
    (row) => row.tokenHash,
  );
  const leadByTokenHash = changes
    ? keptReads(changes, readLeadByTokenHash, (row) => row.id).read
    : readLeadByTokenHash;
  // Compiled once and filled in per write (decision 0017): the event writer sends it in its batches.
  const resumePoint = compileTemplate(['leadId', 'pageId', 'position', 'reportedAt', 'at'], (v) =>
    db
      .insertInto('leadPageProgress')
      .values({
        leadId: v.leadId,
        pageId: v.pageId,
        completedAt: null,
        lastVideoPosition: v.position,
        lastVideoAt: v.reportedAt,
        updatedAt: v.at,
      })
      .onConflict((oc) =>
        oc
          .columns(['leadId', 'pageId'])
          .doUpdateSet((eb) => ({
            lastVideoPosition: eb.ref('excluded.lastVideoPosition'),
            lastVideoAt: eb.ref('excluded.lastVideoAt'),
            updatedAt: eb.ref('excluded.updatedAt'),
          }))
          // A retried or late older record never moves the resume point back.
          .where((eb) =>
            eb.or([
              eb('leadPageProgress.lastVideoAt', 'is', null),
              eb('leadPageProgress.lastVideoAt', '<=', eb.ref('excluded.lastVideoAt')),
            ]),
          ),
      ),
  );
  return {
    /** The lead's progress on a page: completion and the video resume point. */
    find: async (leadId: string, pageId: string) => (await byLeadAndPage({ leadId, pageId }))[0],
    /**
     * Who a token hash names, where the lead is, and whether the lead's account is active: one read,
     * for every visitor event that is not sent within a session.
     */
    leadByTokenHash,
    /**
     * The statements that store a batch's resume points (at most one per lead and page), for the event
     * writer's batch: on SQLite one per point, each prepared once; on PostgreSQL one for all.
     */
    resumePointStatements(points: readonly ResumePoint[]): StatementText[] {
      if (dialect === 'sqlite' || points.length === 0)
        return points.map((point) =>
          resumePoint({
            leadId: point.leadId,
            pageId: point.pageId,
            position: point.position,
            reportedAt: point.reportedAt,
            at: point.at,
          }),
        );
      const rows = points.map((p) => [p.leadId, p.pageId, p.position, p.reportedAt, p.at]);
      return [{ sql: RESUME_POINTS_POSTGRES, parameters: [JSON.stringify(rows)] }];
    },
    /**
     * Marks the page complete for the lead (the first completion's time stays) and moves the lead on
     * to `moveTo` when it is given, within `trx`. The move only happens from the page completed (or
     * from no page yet), so a retried call never skips a page.
     */
    async complete(
      trx: Db,
      input: { leadId: string; pageId: string; at: number; moveTo: string | null },
    ): Promise<void> {
      const { leadId, pageId, at, moveTo } = input;
      await trx
        .insertInto('leadPageProgress')
        .values({
          leadId,
          pageId,
          completedAt: at,
          lastVideoPosition: null,
          lastVideoAt: null,
          updatedAt: at,
        })
        .onConflict((oc) =>
          oc.columns(['leadId', 'pageId']).doUpdateSet((eb) => ({
            completedAt: eb.fn.coalesce('leadPageProgress.completedAt', eb.ref('excluded.completedAt')),
            updatedAt: eb.ref('excluded.updatedAt'),
          })),
        )
        .execute();
      if (moveTo !== null) {
        await trx
          .updateTable('leads')
          .set({ currentPageId: moveTo })
          .where('id', '=', leadId)
          .where((eb) => eb.or([eb('currentPageId', '=', pageId), eb('currentPageId', 'is', null)]))
          .execute();
      }
    },
  };
}
export type LeadProgressRepo = ReturnType<typeof createLeadProgressRepo>;
