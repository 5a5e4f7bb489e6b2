import { z } from 'zod';
import { Id, IsoDateTime, Paginated, PaginationQuery } from '../primitives';
import { Lead } from './lead';

/**
 * Analytics as the owner API answers it (decision 25 defines every number). Days are calendar days of
 * the account's time zone, written `YYYY-MM-DD`.
 */

/** The longest range one answer covers. */
export const MAX_ANALYTICS_DAYS = 366;

export const CalendarDate = z.iso.date();

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** `?from=&to=`: inclusive; the last 30 days up to today (account time zone) when left out. */
export const AnalyticsRange = z
  .strictObject({ from: CalendarDate.optional(), to: CalendarDate.optional() })
  .superRefine(({ from, to }, ctx) => {
    if (from === undefined || to === undefined) return;
    if (dayNumber(to) < dayNumber(from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to is a day on or after from' });
    } else if (dayNumber(to) - dayNumber(from) + 1 > MAX_ANALYTICS_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `a range covers at most ${MAX_ANALYTICS_DAYS} days`,
      });
    }
  });
export type AnalyticsRange = z.infer<typeof AnalyticsRange>;

const Count = z.number().int().nonnegative();
/** A share from 0 to 1; null when its denominator is 0 (nothing to show, not a zero). */
const Share = z.number().min(0).nullable();

export const PageAnalyticsDay = z.object({
  date: CalendarDate,
  sessions: Count,
  plays: Count,
  clicks: Count,
  conversions: Count,
});

export const PageAnalytics = z.object({
  pageId: Id,
  from: CalendarDate,
  to: CalendarDate,
  timeZone: z.string(),
  sessions: Count,
  plays: Count,
  playRate: Share,
  uniqueViewers: Count,
  averageWatched: Share,
  pastButton: Count,
  clicks: Count,
  clickRate: Share,
  conversions: Count,
  /** Seconds: the length of the retention arrays. */
  videoDuration: Count,
  buttonTimeSeconds: z.number().nonnegative(),
  retention: z.object({
    /** Distinct leads who played each second in the range. */
    reach: z.array(Count),
    /** Times each second was played in the range, replays included. */
    views: z.array(Count),
  }),
  byDay: z.array(PageAnalyticsDay),
  conversionsByFurthest: z.array(
    z.object({ fromSecond: Count, toSecond: Count, leads: Count, converted: Count }),
  ),
});
export type PageAnalytics = z.infer<typeof PageAnalytics>;

export const FunnelAnalytics = z.object({
  funnelId: Id,
  from: CalendarDate,
  to: CalendarDate,
  timeZone: z.string(),
  /** For the leads that entered the funnel in the range, each page in order. */
  steps: z.array(
    z.object({
      pageId: Id,
      position: Count,
      reached: Count,
      completed: Count,
      clicked: Count,
      converted: Count,
    }),
  ),
  byDay: z.array(PageAnalyticsDay.extend({ entered: Count })),
});
export type FunnelAnalytics = z.infer<typeof FunnelAnalytics>;

/** A stretch of the video played in one pass, in seconds `[from, to)`. */
export const PlayedInterval = z.object({ from: Count, to: Count });

export const LeadTimeline = z.object({
  leadId: Id,
  sessions: z.array(
    z.object({
      id: z.string(),
      pageId: Id,
      startAt: IsoDateTime,
      startReason: z.string(),
      endAt: IsoDateTime.nullable(),
      endReason: z.string().nullable(),
      /** The device in brief, from the session's details ("Android · Chrome"), null when unknown. */
      device: z.string().nullable(),
      passes: z.array(z.object({ played: z.array(PlayedInterval) })),
      actions: z.array(z.object({ action: z.string(), at: IsoDateTime })),
      conversions: z.array(
        z.object({
          id: z.string(),
          /** The page it is of (another page than the session's when no session of it is shown). */
          pageId: Id.nullable(),
          kind: z.string(),
          at: IsoDateTime,
          /** The Meta pixel's delivery of it: null when the funnel sends none. */
          pixel: z.enum(['pending', 'sent', 'failed']).nullable(),
        }),
      ),
    }),
  ),
});
export type LeadTimeline = z.infer<typeof LeadTimeline>;

/**
 * The leads worth a follow-up, one row per lead and page they played: `pastButtonNotConverted` (the
 * default) keeps the rows whose lead played the second of the page's button time and has no
 * conversion (a purchase, a pre-launch sign-up, a landing's lead) in the funnel; `all` keeps every
 * row with a play. Sorted by the share of the video reached, furthest
 * first (then by lead id); keyset paging by `cursor`.
 */
export const FollowUpQuery = PaginationQuery.extend({
  filter: z.enum(['pastButtonNotConverted', 'all']).default('pastButtonNotConverted'),
});
export type FollowUpQuery = z.infer<typeof FollowUpQuery>;

export const FollowUp = z.object({
  lead: Lead,
  pageId: Id,
  /** The page's place in the funnel, from 0. */
  position: Count,
  /** The highest second the lead played on the page. */
  furthestSecond: Count,
  /** (furthestSecond + 1) / the video's duration, at most 1; null when the duration is unknown. */
  reachedShare: Share,
  /** Distinct seconds of the video the lead played, over all their sessions on the page. */
  secondsPlayed: Count,
  pastButton: z.boolean(),
  /** The lead has a conversion anywhere in the funnel. */
  converted: z.boolean(),
  /** The last day (account time zone) the lead played the page's video. */
  lastPlayedOn: CalendarDate,
});
export type FollowUp = z.infer<typeof FollowUp>;

export const FollowUpList = Paginated(FollowUp);
export type FollowUpList = z.infer<typeof FollowUpList>;
