import { z } from 'zod';
import { ClientTime, EventId, VisitorEnvelope, VisitorToken } from './envelope';

/** Calls that carry only the lead's token (video viewed, offer event, prelaunch conversion). */
export const TokenRequest = z.object({
  token: VisitorToken,
  /** The page the visitor is on; makes a retried "video viewed" a no-op once the lead moved on. */
  idPage: z.string().max(64).optional(),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const ConversionAck = VisitorEnvelope;

/** POST /api/funnel/lead/ip. */
export const LeadIpRequest = z.object({ token: VisitorToken, ip: z.string().max(64) });
export const SuccessAnswer = z.object({ success: z.boolean(), message: z.string().optional() });
export type SuccessAnswer = z.infer<typeof SuccessAnswer>;

/**
 * The pixel events the pages send: the WhatsApp landing's button click is a `Lead` (visitor-behaviour §4.7). No
 * other name is taken: the call makes the owner's pixel tell Meta that something happened, with the
 * owner's access token.
 */
export const PixelEventName = z.enum(['Lead']);
export type PixelEventName = z.infer<typeof PixelEventName>;

/** Why a pixel call was answered 200 without anything being queued (beside PIXEL_NOT_CONFIGURED). */
export const PixelMessage = {
  /** The lead already has as many events of that name queued as a day allows (pixel.service.ts). */
  eventLimit: 'PIXEL_EVENT_LIMIT',
} as const;

/**
 * POST /api/funnel/track/pixel (visitor-behaviour §7): forwarded to the owner's pixel through the outbox. Only a
 * lead of the funnel may call it: its token is required, and a token of another funnel is answered
 * as an unknown one (404, the visitor envelope).
 */
export const PixelRequest = z.object({
  idFunnel: z.string().min(1).max(64),
  token: VisitorToken,
  eventData: z.object({
    eventName: PixelEventName.default('Lead'),
    eventId: EventId.optional(),
    /** Accepted as the spec's pages send them, never forwarded: the connection's are (pixel.service.ts). */
    ip: z.string().max(64).optional(),
    agent: z.string().max(2000).optional(),
    /** The page, without the lead's token, query or fragment; the server takes those out again. */
    eventSource: z.string().max(2048).optional(),
    eventTime: ClientTime.optional(),
  }),
});
export type PixelRequest = z.infer<typeof PixelRequest>;
