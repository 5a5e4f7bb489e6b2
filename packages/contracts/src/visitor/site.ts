import { z } from 'zod';
import { SiteMessage } from '../enums';
import { FunnelSettings } from '../owner/funnel';
import { PageContent } from '../owner/page';
import { SiteType } from './site-context';

const MAX_TOKEN = 200;

/** POST /api/funnel/site (visitor-behaviour §3 "site request payload"). */
export const SiteRequest = z.object({
  domain: z.string().max(300),
  slug: z.string().max(100).optional().nullable(),
  token: z.string().max(MAX_TOKEN),
  type: SiteType,
  origin: z.string().max(100).optional(),
  ip: z.string().max(100).optional(),
  userAgent: z.string().max(2000).optional(),
});
export type SiteRequest = z.infer<typeof SiteRequest>;

/** POST /api/funnel/site/preview (visitor-behaviour §3 "preview request payload"). */
export const PreviewRequest = z.object({ domain: z.string().max(300), token: z.string().max(MAX_TOKEN) });
export type PreviewRequest = z.infer<typeof PreviewRequest>;

export const PageAction = z.object({
  method: z.enum(['OPEN-WINDOW', 'NEXT-PAGE', 'NONE']),
  url: z.string().nullable(),
  nextPreviewPageToken: z.string().nullable(),
});
export type PageAction = z.infer<typeof PageAction>;

const page = PageContent.shape;
const funnel = FunnelSettings.shape;

/**
 * The funnel page data of visitor-behaviour §3, as a visitor's page reads it. A field that is the owner's page or
 * funnel field as stored (a flag, an enum) is that field's schema; text and colours are plain strings
 * here (the answer is written from content checked when saved), and the rest is the visitor's own.
 * The order of the fields is the order of the answer.
 */
export const FunnelPageData = z.object({
  idPage: z.string(),
  idFunnel: z.string(),
  layout: page.layout,
  buttonAction: page.buttonAction,
  buttonCopy: z.string(),
  buttonBgColor: z.string(),
  buttonTextColor: z.string(),
  buttonTime: page.buttonTime,
  isComplete: z.boolean(),
  isPreLaunch: funnel.isPreLaunch,
  isLpiOn: page.isLpiOn,
  action: PageAction,
  countDownTime: z.string().nullable(),
  isDeadlineExceptionOn: funnel.isDeadlineExceptionOn,
  isExpired: z.boolean(),
  lead: z.object({ name: z.string() }),
  language: funnel.language,
  typeFunnel: funnel.typeFunnel,
  isFomoOn: funnel.isFomoOn,
  fomo: z.object({
    lpi: z.object({ fomoApplied: z.boolean() }),
    video: z.object({ fomoApplied: z.boolean() }),
    offert: z.object({ fomoApplied: z.boolean() }),
  }),
  showFakeProgress: page.showFakeProgress,
  barProgressPercent: z.number(),
  barProgressTextColor: z.string(),
  topline: z.string(),
  headline: z.string(),
  subheadline: z.string(),
  showTopLine: page.showTopLine,
  showHeadLine: page.showHeadLine,
  showSubHeadLine: page.showSubHeadLine,
  topLineColor: z.string(),
  headlineColor: z.string(),
  subHeadlineColor: z.string(),
  bgImageUrl: z.string().nullable(),
  videoId: z.string().nullable(),
  hostingVideo: page.hostingVideo,
  videoLibrary: z.string().nullable(),
  videoUrl: z.string().nullable(),
  lastVideoSession: z.object({ endTimeVideo: z.number() }).nullable(),
  fakeUserRange: z.tuple([z.number(), z.number()]),
  isFakeUserOnlineOn: funnel.isFakeUserOnlineOn,
  previewToken: z.string().nullable(),
  /** Where the legal pages tell visitors to write (the account's contact e-mail). */
  contactEmail: z.string().nullable(),
  expiredPage: z
    .object({
      title: z.string(),
      subtitle: z.string(),
      description: z.string(),
      highlight: z.string(),
      bgImageUrl: z.string().nullable(),
    })
    .nullable(),
});
export type FunnelPageData = z.infer<typeof FunnelPageData>;

/** The response envelope of the visitor API (architecture §5.2, visitor-behaviour §3). */
export const SiteResponse = z.object({
  codeResponse: z.number().int(),
  result: z.boolean(),
  message: SiteMessage,
  data: FunnelPageData.nullable(),
});
export type SiteResponse = z.infer<typeof SiteResponse>;
