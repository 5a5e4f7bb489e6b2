import { z } from 'zod';
import { EndReason, StartReason } from '../enums';
import { ClientTime, EventId, VisitorEnvelope, VisitorToken } from './envelope';

const short = z.string().max(200);
const num = z.number();

/** Device details of a tracking session (spec §3). Every part is optional: browsers differ. */
export const SessionDetails = z
  .object({
    /** Cut to 500 characters when stored (spec §5); a longer one is not refused for it. */
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
    /** NEW on a browser's first visit, RETURNING afterwards (spec §4.3). */
    visitorType: z.enum(['NEW', 'RETURNING']),
    fingerprint: short,
    privacySensitiveData: z
      .object({ deviceId: short, location: z.record(z.string().max(60), z.unknown()) })
      .partial(),
  })
  .partial();
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
  details: z.record(z.string().max(100), z.unknown()).default({}),
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
