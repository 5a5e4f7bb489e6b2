import { z } from 'zod';
import { SiteMessage } from '../enums';
import { FunnelPageData } from './site';
import { SiteType } from './site-context';

/** POST /api/funnel/landing (visitor-behaviour §3 "landing request payload"). */
export const LandingRequest = z.object({
  userDomain: z.string().max(300),
  userSlug: z.string().max(100).optional().nullable(),
  userToken: z.string().min(1).max(200),
  type: SiteType,
  origin: z.string().max(100).default('LANDING-REQUEST'),
  ip: z.string().max(64).default('unknown'),
  userAgent: z.string().max(2000).default('unknown'),
  location: z.record(z.string().max(60), z.unknown()).default({}),
});
export type LandingRequest = z.infer<typeof LandingRequest>;

/** The simple landing's fields (visitor-behaviour §3 "landing data response"): a subset of the page data. */
export const LandingData = FunnelPageData.pick({
  language: true,
  topline: true,
  headline: true,
  subheadline: true,
  buttonCopy: true,
  buttonAction: true,
  showTopLine: true,
  showHeadLine: true,
  showSubHeadLine: true,
  topLineColor: true,
  headlineColor: true,
  subHeadlineColor: true,
});
export type LandingData = z.infer<typeof LandingData>;

export const LandingResponse = z.object({ message: SiteMessage, data: LandingData.nullable() });
export type LandingResponse = z.infer<typeof LandingResponse>;
