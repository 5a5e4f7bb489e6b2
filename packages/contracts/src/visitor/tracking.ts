import { z } from 'zod';
import { USER_AGENT_MAX } from '../constants';
import { EndReason, StartReason } from '../enums';
import { ClientTime, EventId, VisitorEnvelope, VisitorToken } from './envelope';

/**
 * Answers of the tracking and conversion calls beside VisitorMessage's. A refusal (403, 409) is also
 * an ApiError with the same code.
 */
export const TrackingMessage = {
  /** 403: the lead's account is not active: its visitors' calls store nothing, as its pages show nothing. */
  inactiveSubscription: 'INACTIVE_SUBSCRIPTION',
  /** 409: the offer event, from a lead whose current page is not an OFFERT page. */
  offerNotOnPage: 'OFFER_NOT_ON_PAGE',
  /** 409: the pre-launch conversion, in a funnel that is not in pre-launch. */
  notInPrelaunch: 'NOT_IN_PRELAUNCH',
  /**
   * 200 with result false: acknowledged and not stored, as the session or the lead reached a cap no
   * real visitor reaches (apps/server tracking-caps.ts). The page carries on.
   */
  limitReached: 'TRACKING_LIMIT_REACHED',
} as const;

const short = z.string().max(200);
const num = z.number();

/**
 * The most a tracking call's free-form object may take as stored (JSON, in UTF-8 bytes): anything
 * larger is refused (400, naming the field) and nothing is stored (issue 16, item 4).
 * - Device details: a real browser sends 1.5 to 4 KB (4 with a 2,000-character referrer and a
 *   location naming a long ISP). The page's own cuts (apps/web device-details.ts: 30 languages of
 *   200 characters, a 2,000-character referrer, 200 per name) allow about 12 KB, and the page must
 *   never be refused its session: a session that does not start stops the page's flow.
 * - An action's details: the page sends its id, the button's action and at most the button's link,
 *   2 KB; 4 KB leaves room and no more.
 * A video record's details have no free-form part: their few known fields are all that is stored.
 */
export const TRACKING_DETAILS_MAX = { session: 16 * 1024, action: 4 * 1024 } as const;

/** The UTF-8 size of a value as JSON: what a text column stores for it. No Node API (contracts). */
export function jsonBytes(value: object): number {
  const text = JSON.stringify(value);
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Two UTF-16 units of a surrogate pair are four bytes; other units up to three.
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

const atMost = (max: number) => ({
  message: `larger than ${String(max)} bytes as JSON; nothing was stored`,
});

/** Device details of a tracking session (visitor-behaviour §3). Every part is optional: browsers differ. */
export const SessionDetails = z
  .object({
    /** Cut to 500 characters when stored (visitor-behaviour §5); a longer one is not refused for it. */
    userAgent: z.string().max(16_384),
    videoStatus: short,
    browser: z.object({ name: short, version: short, engine: short }).partial(),
    os: z.object({ name: short, version: short, architecture: short }).partial(),
    display: z
      .object({ screenWidth: num, screenHeight: num, viewportWidth: num, viewportHeight: num, zoom: num })
      .partial(),
    capabilities: z
      .object({ touch: z.boolean(), cookiesEnabled: z.boolean(), localStorageAvailable: z.boolean() })
      .partial(),
    preferences: z
      .object({ mainLanguage: short, languages: z.array(short).max(30), dateTimeFormat: short })
      .partial(),
    network: z
      .object({ connectionType: short, effectiveType: short, downlink: num, rtt: num, saveData: z.boolean() })
      .partial(),
    referrer: z.string().max(2000),
    sessionCount: z.number().int().min(0).max(1_000_000),
    /** NEW on a browser's first visit, RETURNING afterwards (visitor-behaviour §4.3). */
    visitorType: z.enum(['NEW', 'RETURNING']),
    fingerprint: short,
    privacySensitiveData: z
      .object({ deviceId: short, location: z.record(z.string().max(60), z.unknown()) })
      .partial(),
  })
  .partial()
  // Measured as stored: the user agent cut to its first 500 characters.
  .refine(
    (details) =>
      jsonBytes(
        details.userAgent === undefined
          ? details
          : { ...details, userAgent: details.userAgent.slice(0, USER_AGENT_MAX) },
      ) <= TRACKING_DETAILS_MAX.session,
    atMost(TRACKING_DETAILS_MAX.session),
  );
export type SessionDetails = z.infer<typeof SessionDetails>;

/** POST /api/funnel/track/page: start a page session. */
export const PageSessionStart = z.object({
  token: VisitorToken,
  eventId: EventId.optional(),
  start: ClientTime.optional(),
  startReason: StartReason.default('INITIAL_LOAD'),
  details: SessionDetails.default({}),
});
export type PageSessionStart = z.infer<typeof PageSessionStart>;

export const PageSessionStarted = VisitorEnvelope.extend({
  data: z.object({ idTrackingPageSession: z.string() }).nullable(),
});
export type PageSessionStarted = z.infer<typeof PageSessionStarted>;

/** PUT /api/funnel/track/page/{sessionId}: end it (often a keepalive request on page close). */
export const PageSessionEnd = z.object({
  token: VisitorToken,
  end: ClientTime.optional(),
  endReason: EndReason.default('PAGE_CLOSE'),
  details: SessionDetails.default({}),
});
export type PageSessionEnd = z.infer<typeof PageSessionEnd>;

export const SessionIdParams = z.object({ sessionId: z.string().min(1).max(64) });

/** POST /api/funnel/track/action. */
export const ActionTrack = z.object({
  token: VisitorToken,
  eventId: EventId.optional(),
  idTrackingPageSession: z.string().min(1).max(64),
  action: z.string().min(1).max(100),
  timestamp: ClientTime,
  details: z
    .record(z.string().max(100), z.unknown())
    .refine(
      (details) => jsonBytes(details) <= TRACKING_DETAILS_MAX.action,
      atMost(TRACKING_DETAILS_MAX.action),
    )
    .default({}),
});
export type ActionTrack = z.infer<typeof ActionTrack>;

export const VideoState = z.enum(['PLAYING', 'PAUSE', 'ENDED', 'INTERRUPTED', 'SKIP', 'PROGRESS']);

/** POST /api/funnel/track/video (a beacon on page close). Times in ms; video positions in seconds. */
export const VideoTrack = z.object({
  token: VisitorToken,
  eventId: EventId.optional(),
  idTrackingPageSession: z.string().min(1).max(64),
  startViewTime: ClientTime,
  endViewTime: ClientTime,
  startTimeVideo: z.number().min(0).max(86_400),
  endTimeVideo: z.number().min(0).max(86_400),
  details: z
    .object({
      videoDuration: z.number().min(0).max(86_400),
      reproductionTime: z
        .number()
        .min(0)
        .max(86_400 * 1000),
      state: z.union([VideoState, z.string().max(40)]),
      videoProgressUpdate: z.object({ seconds: z.number(), percent: z.number() }).partial(),
    })
    .partial()
    .default({}),
});
export type VideoTrack = z.infer<typeof VideoTrack>;

export const TrackAck = VisitorEnvelope;
export type TrackAck = z.infer<typeof TrackAck>;
