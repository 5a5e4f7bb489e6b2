import type { ButtonAction } from '@embudo/contracts';
import { PageContent, TrackingMessage, VisitorMessage } from '@embudo/contracts';
import { hashToken } from '../../lib/tokens';
import type { LeadProgressRepo } from './lead-progress.repo';

/** A page's place and action, without its content. */
export interface PageRef {
  id: string;
  buttonAction: string;
  position: number;
}

/** The reads of a funnel's pages that lead progress needs (the pages module's repository has them). */
export interface FunnelPages {
  findRefInFunnel(pageId: string, funnelId: string): Promise<PageRef | undefined>;
  findFirstRef(funnelId: string): Promise<PageRef | undefined>;
  listByFunnel(funnelId: string): Promise<readonly Pick<PageRef, 'id' | 'position'>[]>;
}

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
 * Why a token names no lead a visitor call may write for: nobody (a preview token, a typo), or a lead
 * of an account whose subscription is not active, which takes nothing from visitors, as its pages
 * show nothing (modules/visitor-pages answers INACTIVE_SUBSCRIPTION).
 */
export type LeadRefusal = typeof VisitorMessage.unknownToken | typeof TrackingMessage.inactiveSubscription;

export type Resolved<T> = { refused: null; lead: T } | { refused: LeadRefusal; lead: null };

/** Whether an account's status lets its leads' calls through: only an active subscription does. */
export function refusalOf(subscriptionStatus: string): LeadRefusal | null {
  return subscriptionStatus === 'active' ? null : TrackingMessage.inactiveSubscription;
}

/** visitor-behaviour §5: nothing is tracked on an OFFERT page the lead has completed. */
export function trackingClosedOn(buttonAction: string | null, completedAt: number | null): boolean {
  return buttonAction === 'OFFERT' && completedAt !== null;
}

const UNKNOWN = { refused: VisitorMessage.unknownToken, lead: null } as const;

/**
 * Who a visitor token names, and the page the lead is on. A token that is not a lead's (a preview
 * token, a typo) names no one, and a lead of an inactive account is refused, so nothing can be
 * written for either. Tracking and conversions call this for every event, so it reads through
 * compiled-once queries that never load a page's content.
 */
export function createLeadContext({
  pages,
  progress,
}: {
  pages: Pick<FunnelPages, 'findRefInFunnel' | 'findFirstRef'>;
  progress: Pick<LeadProgressRepo, 'find' | 'leadByTokenHash'>;
}) {
  /** The lead and whether its account takes visitors' calls, in one read. */
  async function lead(token: string) {
    const row = await progress.leadByTokenHash(hashToken(token));
    if (!row) return UNKNOWN;
    const refused = refusalOf(row.subscriptionStatus);
    return refused === null ? { refused, lead: row } : { refused, lead: null };
  }

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
    async identify(token: string): Promise<Resolved<LeadIdentity>> {
      const { refused, lead: row } = await lead(token);
      if (refused !== null) return { refused, lead: null };
      return {
        refused,
        lead: { leadId: row.id, accountId: row.accountId, funnelId: row.funnelId, name: row.name },
      };
    },

    async byToken(token: string): Promise<Resolved<LeadContext>> {
      const { refused, lead: row } = await lead(token);
      if (refused !== null) return { refused, lead: null };
      return {
        refused,
        lead: {
          leadId: row.id,
          accountId: row.accountId,
          funnelId: row.funnelId,
          name: row.name,
          page: await currentPage(row.funnelId, row.currentPageId),
        },
      };
    },

    /** visitor-behaviour §5: nothing is tracked on an OFFERT page the lead has completed. */
    async trackingClosed(
      leadId: string,
      pageId: string,
      buttonAction: ButtonAction | null,
    ): Promise<boolean> {
      if (buttonAction !== 'OFFERT') return false;
      return trackingClosedOn(buttonAction, (await progress.find(leadId, pageId))?.completedAt ?? null);
    },
  };
}
export type LeadContextReader = ReturnType<typeof createLeadContext>;
