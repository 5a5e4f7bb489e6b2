/**
 * What analytics is computed from and what it answers (decision 25), shared by the rollups kept on
 * ingest and by the brute-force reference the property tests compare them with.
 */

/** A calendar day of the account's time zone, as days since 1970-01-01 (an integer). */
export type DayNumber = number;

/** The day (account time zone) of a server time in ms. */
export type DayOf = (ms: number) => DayNumber;

/** An inclusive range of days. */
export interface DayRange {
  from: DayNumber;
  to: DayNumber;
}

export interface LeadInput {
  id: string;
  funnelId: string;
  /** When the lead entered the funnel (server time, ms). */
  createdAt: number;
}

export interface PageInput {
  id: string;
  funnelId: string;
  /** Order of the page in its funnel, from 0. */
  position: number;
  /** When the page's button shows, in seconds of the video. */
  buttonTimeSeconds: number;
}

export interface SessionInput {
  id: string;
  leadId: string;
  funnelId: string;
  pageId: string;
  /** Server time the session started (ms): its day is the day of everything it plays. */
  startAt: number;
  /** `VIDEO_ENDED`, `VIDEO_ENDED_OFFERT`, … or null while open; it may be set after records arrive. */
  endReason: string | null;
}

export interface VideoRecordInput {
  id: string;
  pageSessionId: string;
  leadId: string;
  /** The visitor's clock (ms): only used to tell passes apart within a session. */
  startViewTime: number;
  endViewTime: number;
  /** Seconds of the video. */
  startTimeVideo: number;
  endTimeVideo: number;
  /** `details.state`: PLAYING, PAUSE, ENDED, INTERRUPTED, PROGRESS, SKIP. */
  state: string;
  /** `details.videoDuration` in seconds, 0 when unknown. */
  videoDuration: number;
}

export interface ActionInput {
  id: string;
  pageSessionId: string | null;
  leadId: string;
  /** `BUTTON_CLICK` is a click of the page's button. */
  action: string;
  /** Server time it was stored (ms). */
  receivedAt: number;
}

export interface ConversionInput {
  id: string;
  leadId: string;
  funnelId: string;
  pageId: string | null;
  kind: string;
  /** Server time it was stored (ms). */
  createdAt: number;
}

/** Every raw row of one account, as stored (each id once). */
export interface RawRows {
  leads: readonly LeadInput[];
  pages: readonly PageInput[];
  sessions: readonly SessionInput[];
  videoRecords: readonly VideoRecordInput[];
  actions: readonly ActionInput[];
  conversions: readonly ConversionInput[];
}

export interface PageDay {
  day: DayNumber;
  sessions: number;
  plays: number;
  clicks: number;
  conversions: number;
}

export interface FurthestBucket {
  /** Seconds [fromSecond, toSecond). */
  fromSecond: number;
  toSecond: number;
  leads: number;
  converted: number;
}

/** A page's numbers over a range of days (decision 25's definitions). */
export interface PageNumbers {
  sessions: number;
  plays: number;
  /** null when there is no session (no zero pretending to be a rate). */
  playRate: number | null;
  uniqueViewers: number;
  /** Mean over plays of distinct seconds played ÷ videoDuration; null without plays. */
  averageWatched: number | null;
  pastButton: number;
  clicks: number;
  /** Distinct leads who clicked ÷ uniqueViewers; null without viewers. */
  clickRate: number | null;
  conversions: number;
  /** Seconds: the retention arrays' length. */
  videoDuration: number;
  buttonTimeSeconds: number;
  retention: { reach: number[]; views: number[] };
  /** Every day of the range, in order, zeros included. */
  byDay: PageDay[];
  /** Ten buckets of a tenth of videoDuration each (none when videoDuration is 0). */
  conversionsByFurthest: FurthestBucket[];
}

export interface FunnelStep {
  pageId: string;
  position: number;
  reached: number;
  completed: number;
  clicked: number;
  converted: number;
}

export interface FunnelDay {
  day: DayNumber;
  /** Leads created that day. */
  entered: number;
  sessions: number;
  plays: number;
  clicks: number;
  conversions: number;
}

/** A funnel's steps for the leads that entered it in the range, and its days. */
export interface FunnelNumbers {
  steps: FunnelStep[];
  byDay: FunnelDay[];
}
