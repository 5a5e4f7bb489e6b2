import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';
import type { AccountRow } from '../accounts/account.repo';
import type { LeadRow } from '../leads/lead.repo';

const LEAD_COLUMNS = [
  'id',
  'accountId',
  'funnelId',
  'name',
  'currentPageId',
  'deadlineAt',
  'deadlineExceptionOn',
] as const;

/** What page resolution needs about a lead, from one read (decision 0016). */
export interface LeadPage {
  lead: Pick<LeadRow, (typeof LEAD_COLUMNS)[number]>;
  account: AccountRow;
  /** The funnel's content version (migration 0006): the funnel and its pages are unchanged while it holds. */
  contentVersion: number;
  /** The lead's progress on its current page (or on the funnel's first page when it has none). */
  progress: { pageId: string; completedAt: number | null; lastVideoPosition: number | null } | null;
}

export function createLeadPageRepo(db: Db) {
  const byTokenHash = reusableQuery(db, ['tokenHash'], ({ tokenHash }) =>
    db
      .selectFrom('leads')
      .innerJoin('accounts', 'accounts.id', 'leads.accountId')
      .leftJoin('contentVersions', 'contentVersions.funnelId', 'leads.funnelId')
      .leftJoin('leadPageProgress', (join) =>
        join
          .onRef('leadPageProgress.leadId', '=', 'leads.id')
          .on((eb) =>
            eb(
              'leadPageProgress.pageId',
              '=',
              eb.fn.coalesce(
                'leads.currentPageId',
                eb
                  .selectFrom('pages')
                  .select('pages.id')
                  .whereRef('pages.funnelId', '=', 'leads.funnelId')
                  .orderBy('pages.position')
                  .limit(1),
              ),
            ),
          ),
      )
      .select(LEAD_COLUMNS.map((column) => `leads.${column}` as const))
      .select([
        'accounts.slug as accountSlug',
        'accounts.name as accountName',
        'accounts.subscriptionStatus as accountSubscriptionStatus',
        'accounts.settings as accountSettings',
        'accounts.createdAt as accountCreatedAt',
        'contentVersions.version as contentVersion',
        'leadPageProgress.pageId as progressPageId',
        'leadPageProgress.completedAt as progressCompletedAt',
        'leadPageProgress.lastVideoPosition as progressLastVideoPosition',
      ])
      .where('leads.tokenHash', '=', tokenHash),
  );
  const versionOf = reusableQuery(db, ['funnelId'], ({ funnelId }) =>
    db.selectFrom('contentVersions').select('version').where('funnelId', '=', funnelId),
  );
  return {
    /** A funnel's content version (0 when it has none yet): its content is unchanged while it holds. */
    contentVersion: async (funnelId: string): Promise<number> =>
      (await versionOf({ funnelId }))[0]?.version ?? 0,
    /** The lead a token hash names, with its account, its funnel's content version and its progress. */
    async findByTokenHash(tokenHash: string): Promise<LeadPage | undefined> {
      const [row] = await byTokenHash({ tokenHash });
      if (!row) return undefined;
      // Built field by field: this runs for every page view, and object rest is slow in V8.
      return {
        lead: {
          id: row.id,
          accountId: row.accountId,
          funnelId: row.funnelId,
          name: row.name,
          currentPageId: row.currentPageId,
          deadlineAt: row.deadlineAt,
          deadlineExceptionOn: row.deadlineExceptionOn,
        },
        account: {
          id: row.accountId,
          slug: row.accountSlug,
          name: row.accountName,
          subscriptionStatus: row.accountSubscriptionStatus,
          settings: row.accountSettings,
          createdAt: row.accountCreatedAt,
        },
        contentVersion: row.contentVersion ?? 0,
        progress:
          row.progressPageId === null
            ? null
            : {
                pageId: row.progressPageId,
                completedAt: row.progressCompletedAt,
                lastVideoPosition: row.progressLastVideoPosition,
              },
      };
    },
  };
}
export type LeadPageRepo = ReturnType<typeof createLeadPageRepo>;
