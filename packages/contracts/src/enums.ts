import { z } from 'zod';
import { LANGUAGES } from './constants';

/** Languages a visitor page can be shown in; `es` is the default (visitor-behaviour §1). */
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;

/** What the call-to-action button does (visitor-behaviour §3). */
export const ButtonAction = z.enum(['LPI-REDIRECT-WPP', 'NEXT-PAGE', 'NEXT-PREVIEW-PAGE', 'OFFERT']);
export type ButtonAction = z.infer<typeof ButtonAction>;

/** Where a page's video is hosted. SELF_HOSTED is a file or HLS stream we serve; EMBED a generic player. */
export const HostingVideo = z.enum(['SELF_HOSTED', 'VIMEO', 'VTURB', 'PANDA', 'EMBED']);
export type HostingVideo = z.infer<typeof HostingVideo>;

/** Funnel types: the video sales letter and the WhatsApp landing page ("and others" in visitor-behaviour §3). */
export const TypeFunnel = z.enum(['VSL', 'LPI']);
export type TypeFunnel = z.infer<typeof TypeFunnel>;

/** Page layout: the main funnel page (visitor-behaviour §2.4) or the simple landing variant (visitor-behaviour §2.3). */
export const PageLayout = z.enum(['vsl', 'landing']);
export type PageLayout = z.infer<typeof PageLayout>;

/** Messages of page resolution (architecture §5.2). */
export const SiteMessage = z.enum([
  'PAGE_FOUNDED',
  'DONT_EXIST_TOKEN_OR_URL',
  'INACTIVE_SUBSCRIPTION',
  'CANT_GET_USER',
]);
export type SiteMessage = z.infer<typeof SiteMessage>;

export const SubscriptionStatus = z.enum(['active', 'inactive']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** Tracking session start and end reasons (visitor-behaviour §4.3). */
export const StartReason = z.enum(['INITIAL_LOAD', 'AFTER_INACTIVITY']);
export type StartReason = z.infer<typeof StartReason>;
export const EndReason = z.enum([
  'PAGE_CLOSE',
  'INACTIVITY',
  'PAGE_CHANGE',
  'VIDEO_ENDED',
  'VIDEO_ENDED_OFFERT',
  'BUTTON_CLICK',
  'OFFERT',
]);
export type EndReason = z.infer<typeof EndReason>;
