import type {
  Account,
  FunnelPageData,
  PageAction,
  SiteMessage,
  SiteResponse,
  SiteType,
} from '@embudo/contracts';
import { memoByRow } from '../../lib/memo-by-row';
import { hashToken } from '../../lib/tokens';
import type { AccountRepo } from '../accounts/account.repo';
import { toAccount, type AccountRow } from '../accounts/account.repo';
import type { DomainRepo } from '../domains/domain.repo';
import { toFunnelRecord, type FunnelRecord } from '../funnels/funnel.service';
import type { FunnelRepo } from '../funnels/funnel.repo';
import type { LeadRepo, LeadRow } from '../leads/lead.repo';
import type { PageRepo } from '../pages/page.repo';
import { toPageRecord, type PageRecord } from '../pages/page.service';
import { nextPreviewToken } from '../previews/preview.service';
import type { PreviewRepo } from '../previews/preview.repo';
import type { ProgressRepo } from './progress.repo';

export interface SiteLookup {
  /** Host name of the page address, lower-case, no port. */
  host: string;
  type: SiteType;
  slug?: string | null | undefined;
  token: string;
}

export interface SiteServiceDeps {
  accounts: AccountRepo;
  domains: DomainRepo;
  funnels: FunnelRepo;
  pages: PageRepo;
  leads: LeadRepo;
  previews: PreviewRepo;
  progress: ProgressRepo;
  secret: string;
  baseDomains: readonly string[];
  now?: () => number;
}

const envelope = (message: SiteMessage, data: FunnelPageData | null = null): SiteResponse => ({
  codeResponse: message === 'PAGE_FOUNDED' ? 200 : message === 'DONT_EXIST_TOKEN_OR_URL' ? 404 : 403,
  result: message === 'PAGE_FOUNDED',
  message,
  data,
});

type AccountLookup = { account: Account } | { message: SiteMessage };

/**
 * Page resolution (DESIGN §5.2): which account a host and slug name, which lead a token names, and
 * the page data of spec §3 for the lead's current page. Used by the JSON API and by server rendering.
 */
export function createSiteService(deps: SiteServiceDeps) {
  const {
    accounts,
    domains,
    funnels,
    pages,
    leads,
    previews,
    progress,
    secret,
    baseDomains,
    now = Date.now,
  } = deps;

  // Stored JSON parsed once per distinct row: most requests read rows that have not changed.
  const accountOf = memoByRow(toAccount);
  const funnelOf = memoByRow(toFunnelRecord);
  const pageOf = memoByRow(toPageRecord);

  async function findAccount(lookup: Pick<SiteLookup, 'host' | 'type' | 'slug'>): Promise<AccountLookup> {
    if (lookup.type === 'BASE') {
      if (!lookup.slug) return { message: 'DONT_EXIST_TOKEN_OR_URL' };
      return servable(await accounts.findBySlug(lookup.slug.toLowerCase()));
    }
    const accountId = (await domains.findByHost(lookup.host))?.accountId;
    if (accountId === undefined) return { message: 'DONT_EXIST_TOKEN_OR_URL' };
    return activeAccount(accountId);
  }

  /** The account if it can serve pages: it loads, and its subscription is active. */
  async function activeAccount(accountId: string): Promise<AccountLookup> {
    const row = await accounts.findById(accountId);
    if (!row) return { message: 'CANT_GET_USER' };
    return servable(row);
  }

  /** No row: nobody there; a row that does not load: CANT_GET_USER; not active: INACTIVE_SUBSCRIPTION. */
  function servable(row: AccountRow | undefined): AccountLookup {
    if (!row) return { message: 'DONT_EXIST_TOKEN_OR_URL' };
    let account: Account;
    try {
      account = accountOf(row);
    } catch {
      return { message: 'CANT_GET_USER' };
    }
    if (account.subscriptionStatus !== 'active') return { message: 'INACTIVE_SUBSCRIPTION' };
    return { account };
  }

  function pageData(
    account: Account,
    funnel: FunnelRecord,
    page: PageRecord,
    lead: { name: string; row?: LeadRow; isComplete: boolean; endTimeVideo: number | null },
    preview: { token: string; next: string | null } | null,
  ): FunnelPageData {
    const deadline =
      lead.row?.deadlineAt ?? (funnel.deadline.mode === 'fixed' ? Date.parse(funnel.deadline.at) : null);
    const exceptionOn =
      lead.row?.deadlineExceptionOn == null
        ? funnel.isDeadlineExceptionOn
        : lead.row.deadlineExceptionOn === 1;
    const opensWindow = page.buttonAction === 'LPI-REDIRECT-WPP' || page.buttonAction === 'OFFERT';
    const action: PageAction = {
      method:
        opensWindow && page.buttonUrl
          ? 'OPEN-WINDOW'
          : page.buttonAction === 'NEXT-PAGE'
            ? 'NEXT-PAGE'
            : 'NONE',
      url: page.buttonUrl,
      nextPreviewPageToken: preview?.next ?? null,
    };
    const lpiColor = page.buttonAction === 'LPI-REDIRECT-WPP' ? account.settings.lpiButtonBgColor : null;
    return {
      idPage: page.id,
      idFunnel: funnel.id,
      layout: page.layout,
      buttonAction: page.buttonAction,
      buttonCopy: page.buttonCopy,
      buttonBgColor: lpiColor ?? page.buttonBgColor,
      buttonTextColor: page.buttonTextColor,
      buttonTime: page.buttonTime,
      isComplete: lead.isComplete,
      isPreLaunch: funnel.isPreLaunch,
      isLpiOn: page.isLpiOn,
      action,
      countDownTime: deadline === null ? null : new Date(deadline).toISOString(),
      isDeadlineExceptionOn: exceptionOn,
      isExpired: deadline !== null && now() > deadline,
      lead: { name: lead.name },
      language: funnel.language,
      typeFunnel: funnel.typeFunnel,
      isFomoOn: funnel.isFomoOn,
      fomo: { lpi: funnel.fomo.lpi, video: funnel.fomo.video, offert: funnel.fomo.offert },
      showFakeProgress: page.showFakeProgress,
      barProgressPercent: page.barProgressPercent,
      barProgressTextColor: page.barProgressTextColor,
      topline: page.topline,
      headline: page.headline,
      subheadline: page.subheadline,
      showTopLine: page.showTopLine,
      showHeadLine: page.showHeadLine,
      showSubHeadLine: page.showSubHeadLine,
      topLineColor: page.topLineColor,
      headlineColor: page.headlineColor,
      subHeadlineColor: page.subHeadlineColor,
      bgImageUrl: page.bgImageUrl,
      videoId: page.videoId,
      hostingVideo: page.hostingVideo,
      videoLibrary: page.videoLibrary,
      videoUrl: page.videoUrl,
      lastVideoSession: lead.endTimeVideo === null ? null : { endTimeVideo: lead.endTimeVideo },
      fakeUserRange: funnel.fakeUserRange,
      isFakeUserOnlineOn: funnel.isFakeUserOnlineOn,
      previewToken: preview?.token ?? null,
      contactEmail: account.settings.contactEmail,
      expiredPage: funnel.expiredPage,
    };
  }

  /**
   * The next page's preview token, when the preview made one for it: a page added after the link was
   * made has none, and a preview never writes, so it gets no forward arrow.
   */
  async function storedNextPreview(token: string, nextPageId: string | undefined): Promise<string | null> {
    if (nextPageId === undefined) return null;
    const next = nextPreviewToken(secret, token);
    const row = await previews.findByTokenHash(hashToken(next));
    return row?.pageId === nextPageId && row.expiresAt >= now() ? next : null;
  }

  async function funnelPages(funnelId: string): Promise<PageRecord[]> {
    return (await pages.listByFunnel(funnelId)).map(pageOf);
  }

  return {
    /** A lead's page: BASE by slug, CUSTOM by host; then the lead by token. */
    async resolve(lookup: SiteLookup): Promise<SiteResponse> {
      const found = await findAccount(lookup);
      if ('message' in found) return envelope(found.message);
      const lead = await leads.findByTokenHash(hashToken(lookup.token));
      if (!lead || lead.accountId !== found.account.id) return envelope('DONT_EXIST_TOKEN_OR_URL');
      const funnelRow = await funnels.findById(lead.funnelId);
      if (!funnelRow) return envelope('DONT_EXIST_TOKEN_OR_URL');
      const funnel = funnelOf(funnelRow);
      const all = await funnelPages(funnel.id);
      const index = Math.max(
        0,
        all.findIndex((p) => p.id === lead.currentPageId),
      );
      const page = all[index];
      if (!page) return envelope('DONT_EXIST_TOKEN_OR_URL');
      const record = await progress.find(lead.id, page.id);
      return envelope(
        'PAGE_FOUNDED',
        pageData(
          found.account,
          funnel,
          page,
          {
            name: lead.name,
            row: lead,
            isComplete: record?.completedAt != null,
            endTimeVideo: record?.lastVideoPosition ?? null,
          },
          null,
        ),
      );
    },

    /** A preview token's page (spec §2.4 preview mode). Reads only: a preview never writes. */
    async resolvePreview(lookup: { host: string; token: string }): Promise<SiteResponse> {
      const preview = await previews.findByTokenHash(hashToken(lookup.token));
      if (!preview || preview.expiresAt < now()) return envelope('DONT_EXIST_TOKEN_OR_URL');
      // On a custom domain, only that domain's owner's previews open.
      if (
        !baseDomains.includes(lookup.host) &&
        (await domains.findByHost(lookup.host))?.accountId !== preview.accountId
      ) {
        return envelope('DONT_EXIST_TOKEN_OR_URL');
      }
      const found = await activeAccount(preview.accountId);
      if ('message' in found) return envelope(found.message);
      const funnelRow = await funnels.findById(preview.funnelId);
      if (!funnelRow) return envelope('DONT_EXIST_TOKEN_OR_URL');
      const all = await funnelPages(preview.funnelId);
      const index = all.findIndex((p) => p.id === preview.pageId);
      const page = all[index];
      if (!page) return envelope('DONT_EXIST_TOKEN_OR_URL');
      return envelope(
        'PAGE_FOUNDED',
        pageData(
          found.account,
          funnelOf(funnelRow),
          page,
          { name: '', isComplete: false, endTimeVideo: null },
          { token: lookup.token, next: await storedNextPreview(lookup.token, all[index + 1]?.id) },
        ),
      );
    },
  };
}
export type SiteService = ReturnType<typeof createSiteService>;
