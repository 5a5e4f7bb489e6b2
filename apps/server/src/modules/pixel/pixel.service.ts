import { isIP } from 'node:net';
import {
  PixelMessage,
  TrackingMessage,
  VisitorMessage,
  type ClientTime,
  type PixelRequest,
  type SuccessAnswer,
  type TrackAck,
} from '@embudo/contracts';
import { newId } from '../../lib/tokens';
import type { FunnelRepo } from '../funnels/funnel.repo';
import { toFunnelRecord } from '../funnels/funnel.service';
import { USER_AGENT_MAX_LENGTH, configuredPixel, type ServerEvent } from './meta-capi';
import type { ConversionService } from '../conversions/conversion.service';
import type { LeadProgressService } from '../lead-progress/lead-progress.service';
import type { PixelRepo } from './pixel.repo';

export interface PixelServiceDeps {
  pixels: Pick<PixelRepo, 'enqueueForLead'>;
  funnels: Pick<FunnelRepo, 'findById'>;
  /** Who a token names, refused for an inactive account: the one reader every visitor call uses. */
  leads: Pick<LeadProgressService, 'identify'>;
  /** A `Lead` event is the page's conversion too (analytics counts it), pixel or not. */
  conversions?: Pick<ConversionService, 'pixelLead'>;
  now?: () => number;
}

/** What the HTTP layer knows about the caller. */
export interface PixelCallContext {
  ip: string;
  userAgent: string | undefined;
}

const toMs = (time: ClientTime): number => (typeof time === 'number' ? time : Date.parse(time));

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The page as Meta may see it: an http(s) address (Meta rejects a request whose event_source_url is
 * not a URL) reduced to its origin and its path without the lead's token. The page sends its address
 * without the token already; a page that does not (an old bundle, a hand-made call) must not make the
 * outbox, then Meta, hold the lead's link, a credential: every path segment equal to the token goes,
 * and so do the query, the fragment and any user or password. An address that still holds the token
 * anywhere is left out.
 */
export function sourceUrl(value: string | undefined, token: string): string | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const path = url.pathname.split('/').filter((segment) => segment !== '' && decoded(segment) !== token);
  const address = `${url.origin}/${path.join('/')}`;
  return token !== '' && decoded(address).includes(token) ? undefined : address;
}

/**
 * The Conversions API event of one pixel call. The visitor's address and user agent are the ones the
 * server sees (the connection's address, or the client's as a trusted proxy names it, and the
 * User-Agent header): the body's `ip` and `agent` are accepted, as the spec's pages send them, and
 * never forwarded, since anyone could put any address into what the owner's pixel tells Meta. The
 * browser's event id, time and page are used, the page without the lead's token (`sourceUrl`). A
 * value Meta would refuse for the whole batch (a time in the future) is replaced.
 */
export function toServerEvent(
  eventData: PixelRequest['eventData'],
  context: PixelCallContext,
  now: number,
  leadToken: string,
): ServerEvent {
  const clientTime = eventData.eventTime === undefined ? now : toMs(eventData.eventTime);
  const eventMs = Number.isFinite(clientTime) ? Math.min(clientTime, now) : now;
  const ip = isIP(context.ip) ? context.ip : undefined;
  const agent = context.userAgent?.slice(0, USER_AGENT_MAX_LENGTH);
  const url = sourceUrl(eventData.eventSource, leadToken);
  return {
    event_name: eventData.eventName,
    event_time: Math.floor(eventMs / 1000),
    event_id: eventData.eventId ?? newId(),
    action_source: 'website',
    ...(url ? { event_source_url: url } : {}),
    user_data: {
      ...(ip ? { client_ip_address: ip } : {}),
      ...(agent ? { client_user_agent: agent } : {}),
    },
  };
}

/**
 * How many events of one name a lead may queue in any 24 hours. The pages send one `Lead` per click
 * on the WhatsApp landing's button, just before the chat opens: a lead clicks it once, perhaps again
 * when they come back for the chat. Five a day is more than a person clicks, and a sixth Lead of the
 * same person on the same day tells the owner's ad account nothing new; without a limit, one lead
 * link could queue thousands of events that the owner's token then sends. Counted on the time each
 * event was stored (the server's clock, not the page's).
 */
export const LEAD_EVENTS_PER_DAY = 5;
export const LEAD_EVENT_WINDOW_MS = 24 * 3_600_000;

/** The answer to a token that names no lead of the funnel, as every visitor call answers one. */
const UNKNOWN_TOKEN: TrackAck = { codeResponse: 404, result: false, message: VisitorMessage.unknownToken };
const INACTIVE: TrackAck = {
  codeResponse: 403,
  result: false,
  message: TrackingMessage.inactiveSubscription,
};

/**
 * Pixel calls of the visitor pages (visitor-behaviour §7, architecture §5.10): stored in the outbox, forwarded by the
 * pixel worker. Only the funnel is stored with the event; its pixel id and access token are read when
 * the event is sent, so a corrected token is used by the retries.
 *
 * The call makes the owner's pixel tell Meta something with the owner's token, so only a lead of that
 * funnel may make it (issue 16): an unknown token, or a lead of another funnel or account, is answered
 * 404 like an unknown token, before the funnel's pixel is even looked at. Past its limit a lead's call
 * is answered 200 PIXEL_EVENT_LIMIT, queueing nothing, as a funnel without a pixel is: the page goes on
 * to the chat whatever it hears, and a 429 would say "this address sends too much, try later", the
 * per-address limit's answer, inviting a retry that cannot succeed within the day.
 */
export function createPixelService({
  pixels,
  funnels,
  leads,
  conversions,
  now = Date.now,
}: PixelServiceDeps) {
  return {
    async record(input: PixelRequest, context: PixelCallContext): Promise<SuccessAnswer | TrackAck> {
      const { refused, lead } = await leads.identify(input.token);
      // An inactive account takes nothing from visitors, as its tracking calls do not.
      if (refused === TrackingMessage.inactiveSubscription) return INACTIVE;
      if (refused !== null || lead.funnelId !== input.idFunnel) return UNKNOWN_TOKEN;
      // The one event a page sends is `Lead`: the landing's conversion.
      await conversions?.pixelLead(input.token, context);
      const row = await funnels.findById(lead.funnelId);
      const funnel = row ? toFunnelRecord(row) : undefined;
      if (!funnel || !configuredPixel(funnel.pixel)) {
        return { success: false, message: VisitorMessage.pixelNotConfigured };
      }
      const at = now();
      const event = toServerEvent(input.eventData, context, at, input.token);
      const outcome = await pixels.enqueueForLead(
        {
          eventId: event.event_id,
          accountId: funnel.accountId,
          funnelId: funnel.id,
          leadId: lead.leadId,
          eventName: event.event_name,
          payload: JSON.stringify(event),
          createdAt: at,
        },
        { since: at - LEAD_EVENT_WINDOW_MS, max: LEAD_EVENTS_PER_DAY },
      );
      return outcome === 'limited' ? { success: false, message: PixelMessage.eventLimit } : { success: true };
    },
  };
}
export type PixelService = ReturnType<typeof createPixelService>;
