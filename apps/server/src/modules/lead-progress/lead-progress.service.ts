import type { Db } from '../../db';
import { createLeadContext, type FunnelPages, type LeadContext } from './lead-context';
import type { LeadProgressRepo } from './lead-progress.repo';

export {
  refusalOf,
  trackingClosedOn,
  type FunnelPages,
  type LeadContext,
  type LeadIdentity,
  type LeadRefusal,
  type PageRef,
  type Resolved,
} from './lead-context';
export type { ResumePoint } from './lead-progress.repo';

/** A lead's progress on one page as stored: when it was completed, and the video's resume point. */
export interface PageProgress {
  pageId: string;
  completedAt: number | null;
  lastVideoPosition: number | null;
}

/** What a visitor sees of its progress on a page (visitor-behaviour §3: isComplete, lastVideoSession). */
export interface ProgressSeen {
  isComplete: boolean;
  endTimeVideo: number | null;
}

/** Writes that must commit with the caller's own (a conversion and the completion it brings). */
export type InTransaction = (trx: Db) => Promise<void>;

export interface LeadProgressServiceDeps {
  progress: Pick<LeadProgressRepo, 'find' | 'leadByTokenHash' | 'complete' | 'resumePointStatements'>;
  pages: FunnelPages;
}

/**
 * The index of the page a lead is on among its funnel's pages (in order): its current page, or the
 * first when it has none yet or that page is gone.
 */
export function currentPageIndex(pages: readonly { id: string }[], currentPageId: string | null): number {
  return Math.max(
    0,
    pages.findIndex((p) => p.id === currentPageId),
  );
}

/**
 * A lead's progress through its funnel (architecture §4, §5.3): which page it is on, which pages it has
 * completed, and where its video resumes. Leads start on the funnel's first page; watching a
 * NEXT-PAGE page's video completes it and moves the lead to the next page; the offer completes an
 * OFFERT page, after which that page takes no more tracking; the latest video position reported is
 * the resume point, and an older report never moves it back.
 */
export function createLeadProgressService({ progress, pages }: LeadProgressServiceDeps) {
  const context = createLeadContext({ progress, pages });
  return {
    /** Who a token names and the page the lead is on; whether tracking is closed on a page. */
    ...context,

    /** Where a new lead of the funnel starts: its first page (null while it has none). */
    startPage: async (funnelId: string): Promise<string | null> =>
      (await pages.findFirstRef(funnelId))?.id ?? null,

    /**
     * What the visitor sees of its progress on `pageId`. `known` is the lead's progress as page
     * resolution read it with the lead, on the page `knownOn` (its current page, or the first when it
     * has none): used when it is this page's, read otherwise.
     */
    async seenOn(
      leadId: string,
      pageId: string,
      known: PageProgress | null,
      knownOn: string | undefined,
    ): Promise<ProgressSeen> {
      const record =
        known?.pageId === pageId ? known : knownOn === pageId ? null : await progress.find(leadId, pageId);
      return { isComplete: record?.completedAt != null, endTimeVideo: record?.lastVideoPosition ?? null };
    },

    /**
     * The lead's page is complete at `at` (its video watched, or its offer taken): the write to commit
     * with the conversion. On a NEXT-PAGE page the lead moves to the next page, so the reload shows it.
     */
    async completion(
      lead: Pick<LeadContext, 'leadId' | 'funnelId'> & { page: NonNullable<LeadContext['page']> },
      at: number,
    ): Promise<InTransaction> {
      let moveTo: string | null = null;
      if (lead.page.buttonAction === 'NEXT-PAGE') {
        const list = await pages.listByFunnel(lead.funnelId);
        moveTo = list.find((p) => p.position > lead.page.position)?.id ?? null;
      }
      const input = { leadId: lead.leadId, pageId: lead.page.id, at, moveTo };
      return (trx) => progress.complete(trx, input);
    },

    /** The statement that stores a resume point, for the event writer (decision 0017). */
    resumePointStatements: progress.resumePointStatements,
  };
}
export type LeadProgressService = ReturnType<typeof createLeadProgressService>;
