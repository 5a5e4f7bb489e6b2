import { compileTemplate, reusableQuery, type StatementText } from '../../db/reusable-query';
import type { Db } from '../../db';

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
export function createLeadProgressRepo(db: Db) {
  const byLeadAndPage = reusableQuery(db, ['leadId', 'pageId'], ({ leadId, pageId }) =>
    db.selectFrom('leadPageProgress').selectAll().where('leadId', '=', leadId).where('pageId', '=', pageId),
  );
  const leadByTokenHash = reusableQuery(db, ['tokenHash'], ({ tokenHash }) =>
    db
      .selectFrom('leads')
      .innerJoin('accounts', 'accounts.id', 'leads.accountId')
      .select([
        'leads.id',
        'leads.accountId',
        'leads.funnelId',
        'leads.name',
        'leads.currentPageId',
        'accounts.subscriptionStatus as subscriptionStatus',
      ])
      .where('leads.tokenHash', '=', tokenHash),
  );
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
    leadByTokenHash: async (tokenHash: string) => (await leadByTokenHash({ tokenHash }))[0],
    /** The statement that stores a resume point, for the event writer's batch. */
    resumePointStatement: (point: ResumePoint): StatementText =>
      resumePoint({
        leadId: point.leadId,
        pageId: point.pageId,
        position: point.position,
        reportedAt: point.reportedAt,
        at: point.at,
      }),
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
