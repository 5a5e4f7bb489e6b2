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

/** POST /api/funnel/track/pixel (spec §7): forwarded to the owner's pixel through the outbox. */
export const PixelRequest = z.object({
  idFunnel: z.string().min(1).max(64),
  token: VisitorToken.optional(),
  eventData: z.object({
    eventName: z.string().min(1).max(40).default('Lead'),
    eventId: EventId.optional(),
    ip: z.string().max(64).optional(),
    agent: z.string().max(2000).optional(),
    eventSource: z.string().max(2048).optional(),
    eventTime: ClientTime.optional(),
  }),
});
export type PixelRequest = z.infer<typeof PixelRequest>;
