import type {
  ActionTrack,
  PageSessionEnd,
  PageSessionStart,
  PageSessionStarted,
  SuccessAnswer,
  TrackAck,
  VideoTrack,
} from '@embudo/contracts';
import { request } from '../api/http-client';

/**
 * The tracking and conversion calls of spec §7, with the failure handling of spec §8: nothing here
 * throws; a failure is logged and answered the way the spec says.
 */

/** A client-generated id, so that a retried send is stored once (DESIGN §5.9). */
export function newEventId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface Envelope {
  codeResponse: number;
  result: boolean;
  message?: string;
}

const failure = (codeResponse: number, message: string): Envelope => ({
  codeResponse,
  result: false,
  message,
});

/** Start a page session: its id, or null (logged) when it could not be started. */
export async function startPageSession(body: PageSessionStart): Promise<string | null> {
  try {
    const answer = await request<PageSessionStarted>('POST', '/funnel/track/page', body);
    return answer.data?.idTrackingPageSession ?? null;
  } catch (error) {
    console.error('Error starting the page session', error);
    return null;
  }
}

/** End a page session; kept alive so that it still arrives when the page is closing. */
export async function endPageSession(sessionId: string, body: PageSessionEnd): Promise<boolean> {
  try {
    await request<TrackAck>('PUT', `/funnel/track/page/${encodeURIComponent(sessionId)}`, body, {
      keepalive: true,
    });
    return true;
  } catch (error) {
    console.error('Error ending the page session', error);
    return false;
  }
}

/** Skipped with 400 when the token or the session id is missing (spec §5). */
export async function trackAction(body: Omit<ActionTrack, 'details'> & { details?: ActionTrack['details'] }) {
  if (!body.token || !body.idTrackingPageSession) return failure(400, 'Missing token or session');
  try {
    return await request<Envelope>('POST', '/funnel/track/action', body);
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
    const queued = navigator.sendBeacon('/funnel/track/video', new Blob([json], { type: 'text/plain' }));
    if (queued) return;
  }
  void request('POST', '/funnel/track/video', body, { keepalive: true }).catch((error: unknown) => {
    console.error('Error tracking the video', error);
  });
}

/** PUT /api/funnel/site/complete: the lead has watched this page (and moves on from a NEXT-PAGE page). */
export async function reportVideoViewed(token: string, idPage: string): Promise<Envelope> {
  try {
    return await request<Envelope>('PUT', '/api/funnel/site/complete', { token, idPage });
  } catch (error) {
    console.error('Error reporting video view', error);
    return failure(500, 'Error reporting video view');
  }
}

export async function trackOffertEvent(token: string): Promise<Envelope> {
  try {
    return await request<Envelope>('POST', '/api/funnel/track/event/offert', { token });
  } catch (error) {
    console.error('Error tracking offert button event', error);
    return failure(500, 'Error tracking offert button event');
  }
}

export async function prelaunchConversion(token: string): Promise<Envelope> {
  try {
    return await request<Envelope>('POST', '/lead/internal/conversion/prelaunch', { token });
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
 * The pixel call before the WhatsApp redirect (spec §4.7): `success` false on any failure. Only a lead
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
    await request('POST', '/api/funnel/track/pixel', {
      idFunnel: input.idFunnel,
      token: input.token,
      eventData: {
        eventName: 'Lead',
        eventId: newEventId(),
        agent: input.agent.slice(0, 2000),
        eventSource: pageWithoutToken(input.eventSource, input.token).slice(0, 2048),
        ...(input.ip && input.ip !== 'unknown' ? { ip: input.ip } : {}),
      },
    });
    return { success: true };
  } catch (error) {
    console.error('Error sending the pixel event', error);
    return { success: false };
  }
}

/** POST /api/funnel/lead/ip, only when both exist; a failure is only logged (spec §7). */
export async function reportLeadIp(
  token: string | undefined,
  ip: string | undefined,
): Promise<SuccessAnswer> {
  if (!token || !ip || ip === 'unknown') return { success: false };
  try {
    return await request<SuccessAnswer>('POST', '/api/funnel/lead/ip', { token, ip });
  } catch (error) {
    console.error('Error reporting the lead IP', error);
    return { success: false };
  }
}
