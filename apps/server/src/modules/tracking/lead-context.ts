import type { ButtonAction } from '@embudo/contracts';
import { PageContent } from '@embudo/contracts';
import { hashToken } from '../../lib/tokens';
import type { LeadRepo } from '../leads/lead.repo';
import type { PageRepo } from '../pages/page.repo';
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
 * for every event, so it reads through compiled-once queries that never load a page's content.
 */
export function createLeadContext({
  leads,
  pages,
  progress,
}: {
  leads: LeadRepo;
  pages: PageRepo;
  progress: ProgressRepo;
}) {
  const lead = (token: string) => leads.findIdentityByTokenHash(hashToken(token));

  /** The lead's current page; the funnel's first when it has none yet or that page is gone. */
  async function currentPage(funnelId: string, currentPageId: string | null): Promise<LeadContext['page']> {
    const page =
      (currentPageId === null ? undefined : await pages.findRefInFunnel(currentPageId, funnelId)) ??
      (await pages.findFirstRef(funnelId));
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
