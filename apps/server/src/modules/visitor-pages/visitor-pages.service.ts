import type {
  Account,
  FunnelPageData,
  PageAction,
  SiteMessage,
  SiteResponse,
  SiteType,
} from '@embudo/contracts';
import { DEFAULT_CONTENT_CACHE_BYTES } from '../../config';
import { BoundedCache, memoById, textBytes } from '../../lib/memo-by-row';
import { hashToken } from '../../lib/tokens';
import type { AccountRepo, AccountRow } from '../accounts/account.repo';
import { toAccount } from '../accounts/account.service';
import type { DomainService } from '../domains/domain.service';
import { toFunnelRecord, type FunnelRecord } from '../funnels/funnel.service';
import type { FunnelRepo, FunnelRow } from '../funnels/funnel.repo';
import type { LeadRow } from '../leads/lead.repo';
import type { PageRepo, PageRow } from '../pages/page.repo';
import { toPageRecord, type PageRecord } from '../pages/page.service';
import { nextPreviewToken } from '../previews/preview.service';
import type { PreviewRepo } from '../previews/preview.repo';
import { currentPageIndex, type LeadProgressService } from '../lead-progress/lead-progress.service';
import type { LeadPageRepo } from './lead-page.repo';

export interface SiteLookup {
  /** Host name of the page address, lower-case, no port. */
  host: string;
  type: SiteType;
  slug?: string | null | undefined;
  token: string;
}

export interface VisitorPagesServiceDeps {
  accounts: Pick<AccountRepo, 'findById' | 'findBySlug'>;
  /** Custom hosts: only a domain that serves (decision 27) names an account. */
  domains: Pick<DomainService, 'servingAccountOf'>;
  funnels: Pick<FunnelRepo, 'findById'>;
  pages: Pick<PageRepo, 'listByFunnel'>;
  leadPages: Pick<LeadPageRepo, 'contentVersion' | 'findByTokenHash'>;
  previews: Pick<PreviewRepo, 'findByTokenHash'>;
  progress: Pick<LeadProgressService, 'seenOn'>;
  secret: string;
  baseDomains: readonly string[];
  /** The operator's contact address for the legal texts, where an account names none of its own. */
  providerEmail?: string | null;
  /**
   * The byte budget of what page resolution keeps in memory (CONTENT_CACHE_BYTES): parsed funnels
   * with their pages, and accounts. An estimate of what is held, never exceeded.
   */
  cacheBytes?: number;
  now?: () => number;
}

/** What a page view shows of its lead. */
interface LeadFacts {
  name: string;
  row?: Pick<LeadRow, 'deadlineAt' | 'deadlineExceptionOn'>;
  isComplete: boolean;
  endTimeVideo: number | null;
}

/** A lead's page, found: everything its answer is made of. */
interface LeadPageFound {
  account: Account;
  funnel: FunnelRecord;
  page: PageRecord;
  /** Every page of the funnel, in order. */
  pages: readonly PageRecord[];
  lead: LeadFacts;
}

/** A page as server rendering needs it: the answer, and the funnel's pages (for the page's policy). */
export interface PageView {
  response: SiteResponse;
  pages: readonly PageRecord[];
}

/** The fields of a page's data that differ from lead to lead. */
type LeadField =
  'isComplete' | 'countDownTime' | 'isDeadlineExceptionOn' | 'isExpired' | 'lead' | 'lastVideoSession';

/** How JSON.stringify writes a found page's envelope up to its data. */
const FOUND_PREFIX = '{"codeResponse":200,"result":true,"message":"PAGE_FOUNDED","data":';

const envelope = (message: SiteMessage, data: FunnelPageData | null = null): SiteResponse => ({
  codeResponse: message === 'PAGE_FOUNDED' ? 200 : message === 'DONT_EXIST_TOKEN_OR_URL' ? 404 : 403,
  result: message === 'PAGE_FOUNDED',
  message,
  data,
});

type AccountLookup = { account: Account } | { message: SiteMessage };

/** A funnel and its pages as last read, good while the funnel's content version is `version`. */
interface FunnelContent {
  version: number;
  funnel: FunnelRecord;
  pages: PageRecord[];
}

/** The pages of an answer that found none (one array, so that what is derived from it is kept). */
export const NO_PAGES: readonly PageRecord[] = [];

/** The share of the cache budget that accounts may take; funnels' content takes the rest. */
const ACCOUNT_SHARE = 1 / 16;

/**
 * What keeping a funnel's content takes, estimated from the lengths of the rows it was made of: the
 * parsed records, and as much again for what is derived from each page and kept beside it (the
 * page's part of the answer, written as JSON; the funnel's Content-Security-Policy).
 */
function contentBytes(funnel: FunnelRow, pages: readonly Pick<PageRow, 'content'>[]): number {
  let bytes = textBytes(funnel.name, funnel.settings, funnel.pixel);
  for (const page of pages) bytes += textBytes(page.content);
  return 2 * bytes;
}

/**
 * An account row's version: it has no version column, so the columns that can change (all small,
 * bounded by their schemas) are its version. One entry is kept per account id.
 */
const accountVersion = (row: AccountRow) =>
  `${row.subscriptionStatus}\u0000${row.slug}\u0000${row.name}\u0000${row.settings}`;

/**
 * Page resolution (architecture §5.2): which account a host and slug name, which lead a token names, and
 * the page data of visitor-behaviour §3 for the lead's current page. Used by the JSON API and by server rendering.
 */
export function createVisitorPagesService(deps: VisitorPagesServiceDeps) {
  const {
    accounts,
    domains,
    funnels,
    pages,
    leadPages,
    previews,
    progress,
    secret,
    baseDomains,
    providerEmail = null,
    cacheBytes = DEFAULT_CONTENT_CACHE_BYTES,
    now = Date.now,
  } = deps;

  // Stored JSON is parsed once per id and version (decisions 0015, 0016): most requests read rows
  // that have not changed. Everything kept is within the byte budget, whatever owners store.
  const accountOf = memoById(toAccount, {
    id: (row) => row.id,
    version: accountVersion,
    bytes: (row) => 2 * textBytes(row.slug, row.name, row.settings),
    maxBytes: Math.floor(cacheBytes * ACCOUNT_SHARE),
  });
  const contents = new BoundedCache<FunnelContent>(cacheBytes - accountOf.cache.maxBytes);
  const pageParts = new WeakMap<PageRecord, { account: Account; funnel: FunnelRecord; json: string }>();

  async function findAccount(lookup: Pick<SiteLookup, 'host' | 'type' | 'slug'>): Promise<AccountLookup> {
    if (lookup.type === 'BASE') {
      if (!lookup.slug) return { message: 'DONT_EXIST_TOKEN_OR_URL' };
      return servable(await accounts.findBySlug(lookup.slug.toLowerCase()));
    }
    const accountId = await domains.servingAccountOf(lookup.host);
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

  /** The part of a page's data that depends on the lead: the rest is the same for every lead. */
  function leadPart(funnel: FunnelRecord, lead: LeadFacts): Pick<FunnelPageData, LeadField> {
    const deadline =
      lead.row?.deadlineAt ?? (funnel.deadline.mode === 'fixed' ? Date.parse(funnel.deadline.at) : null);
    const exceptionOn =
      lead.row?.deadlineExceptionOn == null
        ? funnel.isDeadlineExceptionOn
        : lead.row.deadlineExceptionOn === 1;
    return {
      isComplete: lead.isComplete,
      countDownTime: deadline === null ? null : new Date(deadline).toISOString(),
      isDeadlineExceptionOn: exceptionOn,
      isExpired: deadline !== null && now() > deadline,
      lead: { name: lead.name },
      lastVideoSession: lead.endTimeVideo === null ? null : { endTimeVideo: lead.endTimeVideo },
    };
  }

  function pagePart(
    account: Account,
    funnel: FunnelRecord,
    page: PageRecord,
    preview: { token: string; next: string | null } | null,
  ): Omit<FunnelPageData, LeadField> {
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
      isPreLaunch: funnel.isPreLaunch,
      isLpiOn: page.isLpiOn,
      action,
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
      fakeUserRange: funnel.fakeUserRange,
      isFakeUserOnlineOn: funnel.isFakeUserOnlineOn,
      previewToken: preview?.token ?? null,
      contactEmail: account.settings.contactEmail ?? providerEmail,
      expiredPage: funnel.expiredPage,
    };
  }

  /**
   * The JSON of a lead's page part (no preview), kept per page record for as long as the account and
   * funnel records are the same ones (memoById and the content cache hand out the same record for an
   * unchanged row): most of a page view's answer is written once, not on every view.
   */
  function leadPagePart(account: Account, funnel: FunnelRecord, page: PageRecord) {
    const known = pageParts.get(page);
    if (known?.account === account && known.funnel === funnel) return known;
    const made = {
      account,
      funnel,
      json: JSON.stringify(pagePart(account, funnel, page, null)).slice(1, -1),
    };
    pageParts.set(page, made);
    return made;
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

  /**
   * The funnel and its pages at `version` or later (decision 0016): read once, then kept until the
   * version moves, within the byte budget. The version is read before the content, so what is kept is
   * never older than it. Any change to the funnel or one of its pages moves the version, so the whole
   * funnel is read and parsed again: it changes when its owner edits it, and is read on every view.
   */
  async function funnelContent(funnelId: string, version: number): Promise<FunnelContent | null> {
    const known = contents.get(funnelId, version);
    if (known) return known;
    const funnelRow = await funnels.findById(funnelId);
    if (!funnelRow) return null;
    const pageRows = await pages.listByFunnel(funnelId);
    const content = { version, funnel: toFunnelRecord(funnelRow), pages: pageRows.map(toPageRecord) };
    contents.set(funnelId, version, content, contentBytes(funnelRow, pageRows));
    return content;
  }

  /** Whether the page address names this account: its slug on a base domain, else one of its domains. */
  async function addressNames(lookup: Pick<SiteLookup, 'host' | 'type' | 'slug'>, account: AccountRow) {
    if (lookup.type === 'BASE') return !!lookup.slug && lookup.slug.toLowerCase() === account.slug;
    return (await domains.servingAccountOf(lookup.host)) === account.id;
  }

  /**
   * A lead's page: BASE by slug, CUSTOM by host; then the lead by token. The lead, its account and
   * its progress come from one read; when the token names no lead of the account the address names,
   * the account is looked up alone, for the message that says why.
   */
  async function locate(lookup: SiteLookup): Promise<LeadPageFound | { message: SiteMessage }> {
    const found = await leadPages.findByTokenHash(hashToken(lookup.token));
    if (!found || !(await addressNames(lookup, found.account))) {
      const account = await findAccount(lookup);
      return { message: 'message' in account ? account.message : 'DONT_EXIST_TOKEN_OR_URL' };
    }
    const account = servable(found.account);
    if ('message' in account) return account;
    const { lead } = found;
    const content = await funnelContent(lead.funnelId, found.contentVersion);
    if (!content) return { message: 'DONT_EXIST_TOKEN_OR_URL' };
    const page = content.pages[currentPageIndex(content.pages, lead.currentPageId)];
    if (!page) return { message: 'DONT_EXIST_TOKEN_OR_URL' };
    // The read joined the progress on the lead's current page, or on the first when it has none.
    const seen = await progress.seenOn(
      lead.id,
      page.id,
      found.progress,
      lead.currentPageId ?? content.pages[0]?.id,
    );
    return {
      account: account.account,
      funnel: content.funnel,
      page,
      pages: content.pages,
      lead: {
        name: lead.name,
        row: lead,
        isComplete: seen.isComplete,
        endTimeVideo: seen.endTimeVideo,
      },
    };
  }

  const service = {
    /** A lead's page (locate), as page resolution answers it. */
    async resolve(lookup: SiteLookup): Promise<SiteResponse> {
      return (await service.pageView(lookup)).response;
    },

    /** A lead's page as server rendering reads it: `resolve`'s answer and the funnel's pages. */
    async pageView(lookup: SiteLookup): Promise<PageView> {
      const found = await locate(lookup);
      if ('message' in found) return { response: envelope(found.message), pages: NO_PAGES };
      const response = envelope('PAGE_FOUNDED', {
        ...pagePart(found.account, found.funnel, found.page, null),
        ...leadPart(found.funnel, found.lead),
      });
      return { response, pages: found.pages };
    },

    /**
     * The same answer as `resolve`, as the JSON the API sends (equal to JSON.stringify's up to the
     * order of the keys): the page's part is written once per page and only the lead's part per view.
     */
    async resolveJson(lookup: SiteLookup): Promise<string> {
      const found = await locate(lookup);
      if ('message' in found) return JSON.stringify(envelope(found.message));
      const fixed = leadPagePart(found.account, found.funnel, found.page);
      const perLead = JSON.stringify(leadPart(found.funnel, found.lead));
      return `${FOUND_PREFIX}${perLead.slice(0, -1)},${fixed.json}}}`;
    },

    /** A preview token's page (visitor-behaviour §2.4 preview mode). Reads only: a preview never writes. */
    async resolvePreview(lookup: { host: string; token: string }): Promise<SiteResponse> {
      return (await service.previewView(lookup)).response;
    },

    /**
     * A preview token's page as server rendering reads it, with its funnel's pages; `slug` is the
     * account the page address names, on a base domain.
     */
    async previewView(lookup: { host: string; token: string; slug?: string | null }): Promise<PageView> {
      const nothing = (message: SiteMessage): PageView => ({ response: envelope(message), pages: NO_PAGES });
      const preview = await previews.findByTokenHash(hashToken(lookup.token));
      if (!preview || preview.expiresAt < now()) return nothing('DONT_EXIST_TOKEN_OR_URL');
      // On a custom domain, only that domain's owner's previews open.
      if (
        !baseDomains.includes(lookup.host) &&
        (await domains.servingAccountOf(lookup.host)) !== preview.accountId
      ) {
        return nothing('DONT_EXIST_TOKEN_OR_URL');
      }
      const found = await activeAccount(preview.accountId);
      if ('message' in found) return nothing(found.message);
      // At an address that names an account, only that account's previews open: another owner's
      // page never shows under this owner's name.
      if (lookup.slug && lookup.slug.toLowerCase() !== found.account.slug) {
        return nothing('DONT_EXIST_TOKEN_OR_URL');
      }
      const content = await funnelContent(preview.funnelId, await leadPages.contentVersion(preview.funnelId));
      if (!content) return nothing('DONT_EXIST_TOKEN_OR_URL');
      const all = content.pages;
      const index = all.findIndex((p) => p.id === preview.pageId);
      const page = all[index];
      if (!page) return nothing('DONT_EXIST_TOKEN_OR_URL');
      const arrows = {
        token: lookup.token,
        next: await storedNextPreview(lookup.token, all[index + 1]?.id),
      };
      const { funnel } = content;
      const response = envelope('PAGE_FOUNDED', {
        ...pagePart(found.account, funnel, page, arrows),
        ...leadPart(funnel, { name: '', isComplete: false, endTimeVideo: null }),
      });
      return { response, pages: all };
    },
  };
  return service;
}
export type VisitorPagesService = ReturnType<typeof createVisitorPagesService>;
