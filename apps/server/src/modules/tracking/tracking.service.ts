import {
  TrackingMessage,
  USER_AGENT_MAX,
  VisitorMessage,
  type ActionTrack,
  type ClientTime,
  type PageSessionEnd,
  type PageSessionStart,
  type PageSessionStarted,
  type SessionDetails,
  type TrackAck,
  type VideoTrack,
} from '@embudo/contracts';
import { randomUUID } from 'node:crypto';
import { hashToken } from '../../lib/tokens';
import { pageSessionId, sessionEventId } from '../../lib/event-ids';
import type { EventWriter } from './event-writer';
import {
  refusalOf,
  trackingClosedOn,
  type LeadProgressService,
  type LeadRefusal,
} from '../lead-progress/lead-progress.service';
import { CAP_WINDOW_MS, TRACKING_CAPS, admit, countScope, type Claim } from './tracking-caps';
import type { TrackingRepo } from './tracking.repo';

export interface RequestContext {
  ip: string;
  userAgent: string | undefined;
}

/** A visitor answer; a 4xx one is also an ApiError (statusCode and code), like every error. */
export function ack(codeResponse: number, message: string): TrackAck {
  const result = codeResponse < 300 && message === VisitorMessage.ok;
  return codeResponse >= 400
    ? { statusCode: codeResponse, code: message, codeResponse, result, message }
    : { codeResponse, result, message };
}
const OK = ack(200, VisitorMessage.ok);
const UNKNOWN_TOKEN = ack(404, VisitorMessage.unknownToken);
const UNKNOWN_SESSION = ack(404, VisitorMessage.unknownSession);
const CLOSED = ack(200, VisitorMessage.trackingClosed);
const INACTIVE = ack(403, TrackingMessage.inactiveSubscription);
/** Acknowledged and not stored: a cap was reached (tracking-caps.ts says why not a 429). */
const LIMITED = ack(200, TrackingMessage.limitReached);

/** The answer to a call whose token names no lead it may write for (lead progress's `refusalOf`). */
export function refusal(refused: LeadRefusal): TrackAck {
  return refused === TrackingMessage.inactiveSubscription ? INACTIVE : UNKNOWN_TOKEN;
}

/**
 * How close to the server's clock a client's session start must be for the session to be taken as new
 * in this process's caps: a start sent again a minute later, whose session this process may have
 * forgotten, is read instead.
 */
const FRESH_START_MS = 30_000;

export const toMs = (time: ClientTime): number => (typeof time === 'number' ? time : Date.parse(time));

/**
 * Device details as stored: the user agent cut to 500 characters (visitor-behaviour §5), and the location's `ip`,
 * when the page sent one, replaced by the address the server saw (`context.ip`). The page's is its
 * own claim, which anyone can make: the stored one agrees with the visit's. The place the page looked
 * up beside it is kept, as the page's.
 */
function storedDetails(
  details: SessionDetails,
  context: RequestContext,
  extra: Record<string, unknown> = {},
): string {
  const userAgent = details.userAgent?.slice(0, USER_AGENT_MAX);
  const privacy = details.privacySensitiveData;
  const location = privacy?.location;
  const seen =
    location !== undefined && Object.hasOwn(location, 'ip')
      ? { privacySensitiveData: { ...privacy, location: { ...location, ip: context.ip } } }
      : {};
  return JSON.stringify({ ...details, ...(userAgent === undefined ? {} : { userAgent }), ...seen, ...extra });
}

export interface TrackingServiceDeps {
  writer: Pick<EventWriter, 'write'>;
  progress: Pick<LeadProgressService, 'byToken' | 'identify' | 'trackingClosed'>;
  tracking: Pick<
    TrackingRepo,
    | 'leadCounts'
    | 'sessionCounts'
    | 'sessionContext'
    | 'findSession'
    | 'closeStale'
    | 'changesHeard'
    | 'keepStartedSession'
  >;
  now?: () => number;
}

/**
 * Page sessions, actions and video records (visitor-behaviour §4.3, §4.4, §5). Each answer 2xx means the event is
 * committed; the same event sent again is stored once.
 */
export function createTrackingService({ writer, progress, tracking, now = Date.now }: TrackingServiceDeps) {
  // What a lead and a page session have stored, counted in this process from the database's counts.
  const leadCounts = countScope((leadId, at) => tracking.leadCounts(leadId, at - CAP_WINDOW_MS), now);
  const sessionCounts = countScope((sessionId) => tracking.sessionCounts(sessionId), now);
  const perLead = (leadId: string, kind: 'sessions' | 'actions' | 'videos', cap: number): Claim => ({
    scope: leadCounts,
    key: leadId,
    kind,
    cap,
  });
  const perSession = (sessionId: string, kind: 'actions' | 'videos', cap: number): Claim => ({
    scope: sessionCounts,
    key: sessionId,
    kind,
    cap,
  });

  /**
   * Runs the writes of one event if the caps it counts toward let it in; false, with nothing written,
   * when one is reached. A place is held from the check until the writes settle, so requests that
   * arrive together cannot pass a cap; a failed write gives its place back.
   */
  async function withinCaps(claims: Claim[], writes: () => Promise<unknown>): Promise<boolean> {
    const settle = await admit(claims);
    if (!settle) return false;
    try {
      await writes();
    } catch (error) {
      settle(false);
      throw error;
    }
    settle(true);
    return true;
  }

  /** The session, if it is this lead's; and whether the page still takes tracking. One read. */
  async function sessionOf(
    token: string,
    sessionId: string,
  ): Promise<
    { refused: TrackAck } | { refused: null; leadId: string; session: { id: string; pageId: string } }
  > {
    const found = await tracking.sessionContext(hashToken(token), sessionId);
    if (!found) return { refused: UNKNOWN_TOKEN };
    if (refusalOf(found.subscriptionStatus) !== null) return { refused: INACTIVE };
    if (found.sessionId === null || found.pageId === null) return { refused: UNKNOWN_SESSION };
    // visitor-behaviour §5: nothing is tracked on an OFFERT page the lead has completed.
    if (trackingClosedOn(found.buttonAction, found.completedAt)) return { refused: CLOSED };
    return { refused: null, leadId: found.leadId, session: { id: found.sessionId, pageId: found.pageId } };
  }

  return {
    async startSession(input: PageSessionStart, context: RequestContext): Promise<PageSessionStarted> {
      const since = tracking.changesHeard();
      const { refused, lead } = await progress.byToken(input.token);
      if (refused !== null) return { ...refusal(refused), data: null };
      if (!lead.page) return { ...UNKNOWN_TOKEN, data: null };
      // visitor-behaviour §4.3: no session on an OFFERT page the lead has completed.
      if (await progress.trackingClosed(lead.leadId, lead.page.id, lead.page.buttonAction))
        return { ...CLOSED, data: null };
      const at = now();
      // The client's start time when it sent its own event id (a retry sends both again); the
      // server's when there is nothing to retry by (decision 41).
      const id =
        input.eventId === undefined
          ? pageSessionId(lead.leadId, randomUUID(), at)
          : pageSessionId(
              lead.leadId,
              input.eventId,
              input.start === undefined ? undefined : toMs(input.start),
            );
      const details = input.details;
      const page = lead.page;
      const session = {
        id,
        leadId: lead.leadId,
        funnelId: lead.funnelId,
        pageId: page.id,
        startAt: at,
        startReason: input.startReason,
        endAt: null,
        endReason: null,
        endInferred: 0,
        details: storedDetails(
          details,
          context,
          input.start === undefined ? {} : { clientStart: input.start },
        ),
        endDetails: null,
        lastSeenAt: at,
      };
      const visit =
        input.startReason === 'INITIAL_LOAD'
          ? {
              id,
              leadId: lead.leadId,
              funnelId: lead.funnelId,
              pageId: page.id,
              visitorType: details.visitorType ?? ((details.sessionCount ?? 1) <= 1 ? 'NEW' : 'RETURNING'),
              ip: context.ip,
              userAgent: (details.userAgent ?? context.userAgent ?? null)?.slice(0, USER_AGENT_MAX) ?? null,
              createdAt: at,
            }
          : null;
      const stored = await withinCaps([perLead(lead.leadId, 'sessions', TRACKING_CAPS.sessionsPerLead)], () =>
        Promise.all([
          writer.write({ kind: 'insert', table: 'pageSessions', row: session }),
          ...(visit ? [writer.write({ kind: 'insert', table: 'visits', row: visit })] : []),
        ]),
      );
      // A session stored just now by this start is new: no records yet, and stored as this start
      // says. A start sent again later (the same id) may find one stored earlier, perhaps with
      // records: only a start made now, or with the server's own id, is taken as new.
      const fresh =
        input.eventId === undefined ||
        (input.start !== undefined && Math.abs(at - toMs(input.start)) < FRESH_START_MS);
      if (stored && fresh) {
        sessionCounts.seed(id, { actions: 0, videos: 0 });
        // What its first record would read (decision 42): the lead's account is active (byToken let
        // it in) and an OFFERT page is not completed (trackingClosed said so). A completion matters
        // only on an OFFERT page, and a page given another action drops every row kept.
        if (since !== null)
          tracking.keepStartedSession(
            {
              leadId: lead.leadId,
              subscriptionStatus: 'active',
              sessionId: id,
              pageId: page.id,
              buttonAction: page.buttonAction,
              completedAt: null,
              tokenHash: hashToken(input.token),
            },
            since,
          );
      }
      // Beyond the cap the page still gets an id, so that it carries on (tracking-caps.ts).
      return { ...(stored ? OK : LIMITED), data: { idTrackingPageSession: id } };
    },

    async endSession(sessionId: string, input: PageSessionEnd, context: RequestContext): Promise<TrackAck> {
      const { refused, lead } = await progress.identify(input.token);
      if (refused !== null) return refusal(refused);
      const at = now();
      const changed = await writer.write({
        kind: 'endSession',
        id: sessionId,
        leadId: lead.leadId,
        endAt: at,
        endReason: input.endReason,
        endDetails: storedDetails(
          input.details,
          context,
          input.end === undefined ? {} : { clientEnd: input.end },
        ),
      });
      if (changed > 0) return OK;
      // Nothing changed: either it had already ended (a retried close: fine) or it is not this lead's.
      const session = await tracking.findSession(sessionId);
      return session?.leadId === lead.leadId ? OK : UNKNOWN_SESSION;
    },

    async trackAction(input: ActionTrack): Promise<TrackAck> {
      const found = await sessionOf(input.token, input.idTrackingPageSession);
      if (found.refused) return found.refused;
      const { leadId, session } = found;
      const at = now();
      const occurredAt = toMs(input.timestamp);
      const key = input.eventId ?? `${session.id}:${input.action}:${occurredAt}`;
      const claims = [
        perSession(session.id, 'actions', TRACKING_CAPS.actionsPerSession),
        perLead(leadId, 'actions', TRACKING_CAPS.actionsPerLead),
      ];
      const stored = await withinCaps(claims, () =>
        Promise.all([
          writer.write({
            kind: 'insert',
            table: 'actions',
            row: {
              id: sessionEventId(session.id, leadId, 'action', key),
              pageSessionId: session.id,
              leadId,
              action: input.action,
              occurredAt,
              details: JSON.stringify(input.details),
              receivedAt: at,
            },
          }),
          writer.write({ kind: 'touchSession', id: session.id, at }),
        ]),
      );
      return stored ? OK : LIMITED;
    },

    async trackVideo(input: VideoTrack): Promise<TrackAck> {
      const found = await sessionOf(input.token, input.idTrackingPageSession);
      if (found.refused) return found.refused;
      const { leadId, session } = found;
      const at = now();
      const startView = toMs(input.startViewTime);
      const endView = toMs(input.endViewTime);
      const key =
        input.eventId ??
        `${session.id}:${startView}:${endView}:${input.startTimeVideo}:${input.endTimeVideo}:${input.details.state ?? ''}`;
      const claims = [
        perSession(session.id, 'videos', TRACKING_CAPS.videoRecordsPerSession),
        perLead(leadId, 'videos', TRACKING_CAPS.videoRecordsPerLead),
      ];
      const stored = await withinCaps(claims, () =>
        Promise.all([
          writer.write({
            kind: 'insert',
            table: 'videoRecords',
            row: {
              id: sessionEventId(session.id, leadId, 'video', key),
              pageSessionId: session.id,
              leadId,
              startViewTime: startView,
              endViewTime: endView,
              startTimeVideo: input.startTimeVideo,
              endTimeVideo: input.endTimeVideo,
              details: JSON.stringify(input.details),
              receivedAt: at,
            },
          }),
          writer.write({ kind: 'touchSession', id: session.id, at }),
          writer.write({
            kind: 'videoPosition',
            leadId,
            pageId: session.pageId,
            position: input.endTimeVideo,
            reportedAt: endView,
            at,
          }),
        ]),
      );
      return stored ? OK : LIMITED;
    },

    /** Sessions idle past the inactivity timeout are closed as PAGE_CLOSE, marked inferred. */
    closeStaleSessions: (idleMs: number): Promise<number> => tracking.closeStale(now() - idleMs),
  };
}
export type TrackingService = ReturnType<typeof createTrackingService>;
