import { z } from 'zod';
import { ButtonAction, Language, SiteMessage } from '../enums';
import { SiteType } from './site-context';

/** POST /api/funnel/landing (spec §3 "landing request payload"). */
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

export const LandingData = z.object({
  language: Language,
  topline: z.string(),
  headline: z.string(),
  subheadline: z.string(),
  buttonCopy: z.string(),
  buttonAction: ButtonAction,
  showTopLine: z.boolean(),
  showHeadLine: z.boolean(),
  showSubHeadLine: z.boolean(),
  topLineColor: z.string(),
  headlineColor: z.string(),
  subHeadlineColor: z.string(),
});
export type LandingData = z.infer<typeof LandingData>;

export const LandingResponse = z.object({ message: SiteMessage, data: LandingData.nullable() });
export type LandingResponse = z.infer<typeof LandingResponse>;
