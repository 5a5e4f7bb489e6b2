import { z } from 'zod';
import { ButtonAction, HostingVideo, PageLayout } from '../enums';
import { ButtonLink, Color, HttpUrl, Id, IsoDateTime, RichText } from '../primitives';
import { isPlainWebUrl } from '../video-embeds';

export const ButtonTime = z.strictObject({
  hours: z.number().int().min(0).max(23),
  minutes: z.number().int().min(0).max(59),
  seconds: z.number().int().min(0).max(59),
});
export type ButtonTime = z.infer<typeof ButtonTime>;

export const VideoId = z
  .string()
  .max(200)
  .regex(
    /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)?$/,
    "a video id is letters, digits, '-' or '_', optionally 'id/hash'",
  );

/**
 * An absolute http(s) URL whose host is a real host name or IP address (no `;`, `,` or `*`, no user
 * or password: see isPlainWebUrl), or a path on this server such as /assets/demo/vsl.mp4.
 */
export const VideoUrl = z
  .string()
  .max(2048)
  .refine(
    (v) =>
      /^https?:\/\//i.test(v)
        ? URL.canParse(v) && isPlainWebUrl(new URL(v))
        : /^\/[A-Za-z0-9._~/-]*$/.test(v),
    'an absolute http(s) URL with a plain host name, or a path on this server',
  );

/**
 * A page's fields. Names are those of visitor-behaviour §3's funnel page data, so that what an owner sets is what
 * a visitor's page reads. No defaults here: create merges PAGE_DEFAULTS, update merges the stored page.
 */
export const PageFields = {
  layout: PageLayout,
  buttonAction: ButtonAction,
  topline: RichText,
  headline: RichText,
  subheadline: RichText,
  showTopLine: z.boolean(),
  showHeadLine: z.boolean(),
  showSubHeadLine: z.boolean(),
  topLineColor: Color,
  headlineColor: Color,
  subHeadlineColor: Color,
  buttonCopy: RichText,
  buttonBgColor: Color,
  buttonTextColor: Color,
  buttonTime: ButtonTime,
  /** Where an OPEN-WINDOW button goes: the offer's checkout or the WhatsApp chat. */
  buttonUrl: ButtonLink.nullable(),
  isLpiOn: z.boolean(),
  showFakeProgress: z.boolean(),
  barProgressPercent: z.number().int().min(0).max(100),
  barProgressTextColor: Color,
  bgImageUrl: HttpUrl.nullable(),
  hostingVideo: HostingVideo.nullable(),
  videoId: VideoId.nullable(),
  videoLibrary: z.string().max(200).nullable(),
  videoUrl: VideoUrl.nullable(),
};

export const PageContent = z.object(PageFields);
export type PageContent = z.infer<typeof PageContent>;

export const PAGE_DEFAULTS: PageContent = {
  layout: 'vsl',
  buttonAction: 'NEXT-PAGE',
  topline: '',
  headline: '',
  subheadline: '',
  showTopLine: false,
  showHeadLine: true,
  showSubHeadLine: false,
  topLineColor: '#ffffff',
  headlineColor: '#ffffff',
  subHeadlineColor: '#d4d4d8',
  buttonCopy: '',
  buttonBgColor: '#16a34a',
  buttonTextColor: '#ffffff',
  buttonTime: { hours: 0, minutes: 0, seconds: 0 },
  buttonUrl: null,
  isLpiOn: true,
  showFakeProgress: false,
  barProgressPercent: 80,
  barProgressTextColor: '#ffffff',
  bgImageUrl: null,
  hostingVideo: null,
  videoId: null,
  videoLibrary: null,
  videoUrl: null,
};

/** Create: any subset of the fields (the rest take PAGE_DEFAULTS); the page is appended to the funnel. */
export const PageCreate = z.strictObject(PageFields).partial();
export type PageCreate = z.infer<typeof PageCreate>;
export type PageCreateInput = z.input<typeof PageCreate>;

/** PATCH: any subset of the fields; an unknown field is an error, never silently ignored. */
export const PageUpdate = PageCreate;
export type PageUpdate = PageCreate;

export const Page = z.object({
  id: Id,
  funnelId: Id,
  position: z.number().int(),
  ...PageFields,
  buttonUrl: z.string().nullable(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Page = z.infer<typeof Page>;

/** A funnel's pages in their new order: every page of the funnel, each once. */
export const PageOrder = z.strictObject({ pageIds: z.array(Id).min(1).max(1000) });
export type PageOrder = z.infer<typeof PageOrder>;
