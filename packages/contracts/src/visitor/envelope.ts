import { z } from 'zod';

/**
 * The standard response envelope of the visitor API (visitor-behaviour §3): codeResponse mirrors the HTTP status,
 * result says whether the call did what it asked, message is a stable code.
 */
export const VisitorEnvelope = z.object({
  codeResponse: z.number().int(),
  result: z.boolean(),
  message: z.string(),
  /** On a 4xx the envelope is also an ApiError: statusCode and code beside it. */
  statusCode: z.number().int().optional(),
  code: z.string().optional(),
});
export type VisitorEnvelope = z.infer<typeof VisitorEnvelope>;

export const VisitorMessage = {
  ok: 'OK',
  unknownToken: 'DONT_EXIST_TOKEN_OR_URL',
  unknownSession: 'SESSION_NOT_FOUND',
  /** The page is an OFFERT page the lead has completed: nothing more is tracked (visitor-behaviour §5). */
  trackingClosed: 'TRACKING_CLOSED',
  pixelNotConfigured: 'PIXEL_NOT_CONFIGURED',
  staleProgress: 'PAGE_ALREADY_LEFT',
} as const;

/** A visitor's token: lead links carry 32 characters; anything absurdly long is refused. */
export const VisitorToken = z.string().min(1).max(200);

/** A client-generated event id, so that a retried send is stored once (architecture §5.9). */
export const EventId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'an event id is 8 to 64 letters, digits, - or _');

/** Epoch milliseconds or an ISO date-time: browsers send either. */
export const ClientTime = z.union([z.number().int().min(0).max(8.64e15), z.iso.datetime({ offset: true })]);
export type ClientTime = z.infer<typeof ClientTime>;
