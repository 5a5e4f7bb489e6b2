import {
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
import { eventId } from './event-ids';
import type { EventWriter } from './event-writer';
import type { LeadContextReader } from './lead-context';
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

export const toMs = (time: ClientTime): number => (typeof time === 'number' ? time : Date.parse(time));

/** Device details as stored: the user agent cut to 500 characters (spec §5). */
function storedDetails(details: SessionDetails, extra: Record<string, unknown> = {}): string {
  const userAgent = details.userAgent?.slice(0, USER_AGENT_MAX);
  return JSON.stringify({ ...details, ...(userAgent === undefined ? {} : { userAgent }), ...extra });
}

export interface TrackingServiceDeps {
  writer: EventWriter;
  leads: LeadContextReader;
  tracking: TrackingRepo;
  now?: () => number;
}

/**
 * Page sessions, actions and video records (spec §4.3, §4.4, §5). Each answer 2xx means the event is
 * committed; the same event sent again is stored once.
 */
export function createTrackingService({ writer, leads, tracking, now = Date.now }: TrackingServiceDeps) {
  /** The session, if it is this lead's; and whether the page still takes tracking. One read. */
  async function sessionOf(
    token: string,
    sessionId: string,
  ): Promise<
    { refused: TrackAck } | { refused: null; leadId: string; session: { id: string; pageId: string } }
  > {
    const found = await tracking.sessionContext(hashToken(token), sessionId);
    if (!found) return { refused: UNKNOWN_TOKEN };
    if (found.sessionId === null || found.pageId === null) return { refused: UNKNOWN_SESSION };
    // Spec §5: nothing is tracked on an OFFERT page the lead has completed.
    if (found.buttonAction === 'OFFERT' && found.completedAt !== null) return { refused: CLOSED };
    return { refused: null, leadId: found.leadId, session: { id: found.sessionId, pageId: found.pageId } };
  }

  return {
    async startSession(input: PageSessionStart, context: RequestContext): Promise<PageSessionStarted> {
      const lead = await leads.byToken(input.token);
      if (!lead?.page) return { ...UNKNOWN_TOKEN, data: null };
      // Spec §4.3: no session on an OFFERT page the lead has completed.
      if (await leads.trackingClosed(lead.leadId, lead.page.id, lead.page.buttonAction))
        return { ...CLOSED, data: null };
      const at = now();
      const id = eventId(lead.leadId, 'session', input.eventId ?? randomUUID());
      const details = input.details;
      const writes = [
        writer.write({
          kind: 'insert',
          table: 'pageSessions',
          row: {
            id,
            leadId: lead.leadId,
            funnelId: lead.funnelId,
            pageId: lead.page.id,
            startAt: at,
            startReason: input.startReason,
            endAt: null,
            endReason: null,
            endInferred: 0,
            details: storedDetails(details, input.start === undefined ? {} : { clientStart: input.start }),
            endDetails: null,
            lastSeenAt: at,
          },
        }),
      ];
      if (input.startReason === 'INITIAL_LOAD') {
        writes.push(
          writer.write({
            kind: 'insert',
            table: 'visits',
            row: {
              id,
              leadId: lead.leadId,
              funnelId: lead.funnelId,
              pageId: lead.page.id,
              visitorType: details.visitorType ?? ((details.sessionCount ?? 1) <= 1 ? 'NEW' : 'RETURNING'),
              ip: context.ip,
              userAgent: (details.userAgent ?? context.userAgent ?? null)?.slice(0, USER_AGENT_MAX) ?? null,
              createdAt: at,
            },
          }),
        );
      }
      await Promise.all(writes);
      return { ...OK, data: { idTrackingPageSession: id } };
    },

    async endSession(sessionId: string, input: PageSessionEnd): Promise<TrackAck> {
      const lead = await leads.identify(input.token);
      if (!lead) return UNKNOWN_TOKEN;
      const at = now();
      const changed = await writer.write({
        kind: 'endSession',
        id: sessionId,
        leadId: lead.leadId,
        endAt: at,
        endReason: input.endReason,
        endDetails: storedDetails(input.details, input.end === undefined ? {} : { clientEnd: input.end }),
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
      await Promise.all([
        writer.write({
          kind: 'insert',
          table: 'actions',
          row: {
            id: eventId(leadId, 'action', key),
            pageSessionId: session.id,
            leadId,
            action: input.action,
            occurredAt,
            details: JSON.stringify(input.details),
            receivedAt: at,
          },
        }),
        writer.write({ kind: 'touchSession', id: session.id, at }),
      ]);
      return OK;
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
      await Promise.all([
        writer.write({
          kind: 'insert',
          table: 'videoRecords',
          row: {
            id: eventId(leadId, 'video', key),
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
      ]);
      return OK;
    },

    /** Sessions idle past the inactivity timeout are closed as PAGE_CLOSE, marked inferred. */
    closeStaleSessions: (idleMs: number): Promise<number> => tracking.closeStale(now() - idleMs),
  };
}
export type TrackingService = ReturnType<typeof createTrackingService>;
