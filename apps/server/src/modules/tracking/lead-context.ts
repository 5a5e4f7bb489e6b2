import type { ButtonAction } from '@embudo/contracts';
import { PageContent } from '@embudo/contracts';
import type { Db } from '../../db';
import { reusableQuery } from '../../db/reusable-query';
import { hashToken } from '../../lib/tokens';
import type { ProgressRepo } from '../site/progress.repo';

export interface LeadIdentity {
  leadId: string;
  accountId: string;
  funnelId: string;
  name: string;
}

export interface LeadContext extends LeadIdentity {
  /** The page the lead is on now. */
  page: { id: string; buttonAction: ButtonAction; position: number } | null;
}

/**
 * Who a visitor token names, and the page the lead is on. A token that is not a lead's (a preview
 * token, a typo) names no one, so nothing can be written for it. Tracking and conversions call this
 * for every event, so its reads are compiled once and never load a page's content.
 */
export function createLeadContext({ db, progress }: { db: Db; progress: ProgressRepo }) {
  const leadByTokenHash = reusableQuery(db, ['tokenHash'], ({ tokenHash }) =>
    db
      .selectFrom('leads')
      .select(['id', 'accountId', 'funnelId', 'name', 'currentPageId'])
      .where('tokenHash', '=', tokenHash),
  );
  const pageFields = ['id', 'buttonAction', 'position'] as const;
  const pageOfFunnel = reusableQuery(db, ['pageId', 'funnelId'], ({ pageId, funnelId }) =>
    db.selectFrom('pages').select(pageFields).where('id', '=', pageId).where('funnelId', '=', funnelId),
  );
  const firstPage = reusableQuery(db, ['funnelId'], ({ funnelId }) =>
    db.selectFrom('pages').select(pageFields).where('funnelId', '=', funnelId).orderBy('position').limit(1),
  );

  async function lead(token: string) {
    return (await leadByTokenHash({ tokenHash: hashToken(token) }))[0];
  }

  /** The lead's current page; the funnel's first when it has none yet or that page is gone. */
  async function currentPage(funnelId: string, currentPageId: string | null): Promise<LeadContext['page']> {
    const page =
      (currentPageId === null ? undefined : (await pageOfFunnel({ pageId: currentPageId, funnelId }))[0]) ??
      (await firstPage({ funnelId }))[0];
    return page
      ? {
          id: page.id,
          buttonAction: PageContent.shape.buttonAction.parse(page.buttonAction),
          position: page.position,
        }
      : null;
  }

  return {
    /** The lead alone, for calls that need no page (a session's end, the lead's address). */
    async identify(token: string): Promise<LeadIdentity | null> {
      const row = await lead(token);
      return row
        ? { leadId: row.id, accountId: row.accountId, funnelId: row.funnelId, name: row.name }
        : null;
    },

    async byToken(token: string): Promise<LeadContext | null> {
      const row = await lead(token);
      if (!row) return null;
      return {
        leadId: row.id,
        accountId: row.accountId,
        funnelId: row.funnelId,
        name: row.name,
        page: await currentPage(row.funnelId, row.currentPageId),
      };
    },

    /** Spec §5: nothing is tracked on an OFFERT page the lead has completed. */
    async trackingClosed(
      leadId: string,
      pageId: string,
      buttonAction: ButtonAction | null,
    ): Promise<boolean> {
      if (buttonAction !== 'OFFERT') return false;
      return (await progress.find(leadId, pageId))?.completedAt != null;
    },
  };
}
export type LeadContextReader = ReturnType<typeof createLeadContext>;
