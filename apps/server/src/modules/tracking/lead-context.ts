import type { ButtonAction } from '@embudo/contracts';
import { PageContent } from '@embudo/contracts';
import { hashToken } from '../../lib/tokens';
import type { LeadRepo } from '../leads/lead.repo';
import type { PageRepo } from '../pages/page.repo';
import type { ProgressRepo } from '../site/progress.repo';

export interface LeadContext {
  leadId: string;
  accountId: string;
  funnelId: string;
  name: string;
  /** The page the lead is on now. */
  page: { id: string; buttonAction: ButtonAction; position: number } | null;
}

/**
 * Who a visitor token names, and the page the lead is on. A token that is not a lead's (a preview
 * token, a typo) names no one, so nothing can be written for it.
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
  async function currentPage(funnelId: string, currentPageId: string | null): Promise<LeadContext['page']> {
    const list = await pages.listByFunnel(funnelId);
    const page = list.find((p) => p.id === currentPageId) ?? list[0];
    return page
      ? {
          id: page.id,
          buttonAction: PageContent.shape.buttonAction.parse(page.buttonAction),
          position: page.position,
        }
      : null;
  }

  return {
    async byToken(token: string): Promise<LeadContext | null> {
      const lead = await leads.findByTokenHash(hashToken(token));
      if (!lead) return null;
      return {
        leadId: lead.id,
        accountId: lead.accountId,
        funnelId: lead.funnelId,
        name: lead.name,
        page: await currentPage(lead.funnelId, lead.currentPageId),
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
