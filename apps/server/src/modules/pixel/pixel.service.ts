import { isIP } from 'node:net';
import { VisitorMessage, type ClientTime, type PixelRequest, type SuccessAnswer } from '@embudo/contracts';
import { newId } from '../../lib/tokens';
import type { FunnelRepo } from '../funnels/funnel.repo';
import { toFunnelRecord } from '../funnels/funnel.service';
import { USER_AGENT_MAX_LENGTH, configuredPixel, type ServerEvent } from './meta-capi';
import type { PixelRepo } from './pixel.repo';

export interface PixelServiceDeps {
  pixels: PixelRepo;
  funnels: FunnelRepo;
  now?: () => number;
}

/** What the HTTP layer knows about the caller. */
export interface PixelCallContext {
  ip: string;
  userAgent: string | undefined;
}

const toMs = (time: ClientTime): number => (typeof time === 'number' ? time : Date.parse(time));

/** An http(s) address, or nothing: Meta rejects a request whose event_source_url is not a URL. */
function sourceUrl(value: string | undefined): string | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:' ? value : undefined;
}

/**
 * The Conversions API event of one pixel call. The browser's own values win (it knows the visitor's
 * address behind a proxy, and the event id its pixel used); the connection's fill the gaps. A value
 * Meta would refuse for the whole batch (an IP that is not one, a time in the future) is replaced.
 */
export function toServerEvent(
  eventData: PixelRequest['eventData'],
  context: PixelCallContext,
  now: number,
): ServerEvent {
  const clientTime = eventData.eventTime === undefined ? now : toMs(eventData.eventTime);
  const eventMs = Number.isFinite(clientTime) ? Math.min(clientTime, now) : now;
  const ip = eventData.ip && isIP(eventData.ip) ? eventData.ip : isIP(context.ip) ? context.ip : undefined;
  const agent = (eventData.agent || context.userAgent)?.slice(0, USER_AGENT_MAX_LENGTH);
  const url = sourceUrl(eventData.eventSource);
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
 * Pixel calls of the visitor pages (spec §7, DESIGN §5.10): stored in the outbox, forwarded by the
 * pixel worker. Only the funnel is stored with the event; its pixel id and access token are read when
 * the event is sent, so a corrected token is used by the retries.
 */
export function createPixelService({ pixels, funnels, now = Date.now }: PixelServiceDeps) {
  return {
    async record(input: PixelRequest, context: PixelCallContext): Promise<SuccessAnswer> {
      const row = await funnels.findById(input.idFunnel);
      const funnel = row ? toFunnelRecord(row) : undefined;
      if (!funnel || !configuredPixel(funnel.pixel)) {
        return { success: false, message: VisitorMessage.pixelNotConfigured };
      }
      const at = now();
      const event = toServerEvent(input.eventData, context, at);
      await pixels.enqueue({
        eventId: event.event_id,
        accountId: funnel.accountId,
        funnelId: funnel.id,
        payload: JSON.stringify(event),
        createdAt: at,
      });
      return { success: true };
    },
  };
}
export type PixelService = ReturnType<typeof createPixelService>;
