import type {
  ActionTrack,
  PageSessionEnd,
  PageSessionStart,
  SuccessAnswer,
  VideoTrack,
  VisitorEnvelope,
} from '@embudo/contracts';
import { callRoute, VISITOR_ROUTE_PATHS } from '../api/http-client';

/**
 * The tracking and conversion calls of visitor-behaviour §7, with the failure handling of visitor-behaviour §8: nothing here
 * throws; a failure is logged and answered the way the spec says.
 */

/** A client-generated id, so that a retried send is stored once (architecture §5.9). */
export function newEventId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const failure = (codeResponse: number, message: string): VisitorEnvelope => ({
  codeResponse,
  result: false,
  message,
});

/** Start a page session: its id, or null (logged) when it could not be started. */
export async function startPageSession(body: PageSessionStart): Promise<string | null> {
  try {
    const answer = await callRoute(VISITOR_ROUTE_PATHS.tracking.startSession, { body });
    return answer.data?.idTrackingPageSession ?? null;
  } catch (error) {
    console.error('Error starting the page session', error);
    return null;
  }
}

/** End a page session; kept alive so that it still arrives when the page is closing. */
export async function endPageSession(sessionId: string, body: PageSessionEnd): Promise<boolean> {
  try {
    await callRoute(
      VISITOR_ROUTE_PATHS.tracking.endSession,
      { params: { sessionId }, body },
      { keepalive: true },
    );
    return true;
  } catch (error) {
    console.error('Error ending the page session', error);
    return false;
  }
}

/** Skipped with 400 when the token or the session id is missing (visitor-behaviour §5). */
export async function trackAction(body: Omit<ActionTrack, 'details'> & { details?: ActionTrack['details'] }) {
  if (!body.token || !body.idTrackingPageSession) return failure(400, 'Missing token or session');
  try {
    return await callRoute(VISITOR_ROUTE_PATHS.tracking.action, { body });
  } catch (error) {
    console.error('Error tracking the action', error);
    return failure(500, 'Error tracking the action');
  }
}

/**
 * A video record, by beacon when the browser has one (it survives the page closing); otherwise a
 * kept-alive request. Sent as text/plain, which a beacon may carry without a preflight.
 */
export function trackVideo(body: VideoTrack): void {
  if (!body.token || !body.idTrackingPageSession) return;
  const json = JSON.stringify(body);
  if (typeof navigator.sendBeacon === 'function') {
    const queued = navigator.sendBeacon(
      VISITOR_ROUTE_PATHS.tracking.video.path,
      new Blob([json], { type: 'text/plain' }),
    );
    if (queued) return;
  }
  void callRoute(VISITOR_ROUTE_PATHS.tracking.video, { body }, { keepalive: true }).catch(
    (error: unknown) => {
      console.error('Error tracking the video', error);
    },
  );
}

/** PUT /api/funnel/site/complete: the lead has watched this page (and moves on from a NEXT-PAGE page). */
export async function reportVideoViewed(token: string, idPage: string): Promise<VisitorEnvelope> {
  try {
    return await callRoute(VISITOR_ROUTE_PATHS.conversions.videoViewed, { body: { token, idPage } });
  } catch (error) {
    console.error('Error reporting video view', error);
    return failure(500, 'Error reporting video view');
  }
}

export async function trackOffertEvent(token: string): Promise<VisitorEnvelope> {
  try {
    return await callRoute(VISITOR_ROUTE_PATHS.conversions.offerEvent, { body: { token } });
  } catch (error) {
    console.error('Error tracking offert button event', error);
    return failure(500, 'Error tracking offert button event');
  }
}

export async function prelaunchConversion(token: string): Promise<VisitorEnvelope> {
  try {
    return await callRoute(VISITOR_ROUTE_PATHS.conversions.prelaunch, { body: { token } });
  } catch (error) {
    console.error('Error sending the prelaunch conversion', error);
    return failure(500, 'Error sending the prelaunch conversion');
  }
}

/**
 * The page as the pixel may name it: its origin and path without the lead's token, and without the
 * query and fragment. A lead's link is `{base}/{slug}/{token}` or `{domain}/{token}`, and the token is
 * the lead's credential: it must not reach Meta, nor the outbox that waits to send to Meta.
 */
export function pageWithoutToken(href: string, token: string): string {
  const url = new URL(href);
  const path = url.pathname.split('/').filter((segment) => {
    if (segment === '') return false;
    try {
      return decodeURIComponent(segment) !== token;
    } catch {
      return true;
    }
  });
  return `${url.origin}/${path.join('/')}`;
}

/**
 * The pixel call before the WhatsApp redirect (visitor-behaviour §4.7): `success` false on any failure. Only a lead
 * makes it (the server answers any other token 404), and the page it names leaves the token out.
 */
export async function trackPixel(input: {
  idFunnel: string;
  token: string;
  eventSource: string;
  agent: string;
  ip?: string;
}): Promise<SuccessAnswer> {
  try {
    await callRoute(VISITOR_ROUTE_PATHS.pixel.record, {
      body: {
        idFunnel: input.idFunnel,
        token: input.token,
        eventData: {
          eventName: 'Lead',
          eventId: newEventId(),
          agent: input.agent.slice(0, 2000),
          eventSource: pageWithoutToken(input.eventSource, input.token).slice(0, 2048),
          ...(input.ip && input.ip !== 'unknown' ? { ip: input.ip } : {}),
        },
      },
    });
    return { success: true };
  } catch (error) {
    console.error('Error sending the pixel event', error);
    return { success: false };
  }
}

/** POST /api/funnel/lead/ip, only when both exist; a failure is only logged (visitor-behaviour §7). */
export async function reportLeadIp(
  token: string | undefined,
  ip: string | undefined,
): Promise<SuccessAnswer> {
  if (!token || !ip || ip === 'unknown') return { success: false };
  try {
    return await callRoute(VISITOR_ROUTE_PATHS.conversions.leadIp, { body: { token, ip } });
  } catch (error) {
    console.error('Error reporting the lead IP', error);
    return { success: false };
  }
}
