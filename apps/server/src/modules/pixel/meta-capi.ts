import { z } from 'zod';

/**
 * The Meta Conversions API, as far as Embudo uses it (architecture §5.10): website events sent from the
 * server to `POST {apiUrl}/{pixelId}/events`. The base URL is configurable (PIXEL_API_URL) so that
 * tests point it at a local receiver.
 */

/** Meta accepts at most 1,000 events in one request. */
export const MAX_EVENTS_PER_REQUEST = 1000;

/** Meta refuses a whole request when one of its events happened more than 7 days ago. */
export const MAX_EVENT_AGE_MS = 7 * 24 * 3_600_000;

/** What Meta reads of a user agent is its start; the rest only makes requests bigger. */
export const USER_AGENT_MAX_LENGTH = 500;

/** One server event, exactly as it goes into `data` (and as the outbox stores it). */
export const ServerEvent = z.object({
  event_name: z.string().min(1),
  /** UNIX seconds, an integer. */
  event_time: z.number().int().nonnegative(),
  /** Deduplicates against the browser pixel and against our own retries. */
  event_id: z.string().min(1),
  action_source: z.literal('website'),
  event_source_url: z.string().optional(),
  user_data: z.object({
    client_ip_address: z.string().optional(),
    client_user_agent: z.string().optional(),
  }),
});
export type ServerEvent = z.infer<typeof ServerEvent>;

/** The body of one request. The access token travels in the body, never in a URL that might be logged. */
export interface CapiBody {
  data: ServerEvent[];
  access_token: string;
  test_event_code?: string;
}

/** A pixel that can receive events: an id and an access token, read from the funnel at delivery time. */
export interface CapiPixel {
  pixelId: string;
  accessToken: string;
  testEventCode: string | null;
}

/** A funnel's stored pixel settings, if they are complete enough to send anything. */
export function configuredPixel(pixel: {
  pixelId: string | null;
  accessToken: string | null;
  testEventCode: string | null;
}): CapiPixel | undefined {
  const { pixelId, accessToken, testEventCode } = pixel;
  if (!pixelId || !accessToken) return undefined;
  return { pixelId, accessToken, testEventCode: testEventCode || null };
}

export function capiUrl(apiUrl: string, pixelId: string): string {
  return `${apiUrl.replace(/\/+$/, '')}/${encodeURIComponent(pixelId)}/events`;
}

export function capiBody(pixel: CapiPixel, events: readonly ServerEvent[]): CapiBody {
  if (events.length === 0 || events.length > MAX_EVENTS_PER_REQUEST) {
    throw new RangeError(`a Conversions API request carries 1 to ${MAX_EVENTS_PER_REQUEST} events`);
  }
  return {
    data: [...events],
    access_token: pixel.accessToken,
    ...(pixel.testEventCode ? { test_event_code: pixel.testEventCode } : {}),
  };
}

export type CapiOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export interface SendEventsOptions {
  fetch: typeof globalThis.fetch;
  apiUrl: string;
  pixel: CapiPixel;
  events: readonly ServerEvent[];
  timeoutMs: number;
}

/** How much of an error answer is kept: enough to read Meta's error message. */
export const ERROR_BODY_MAX_LENGTH = 300;

/**
 * Sends one request. Never throws for a network problem or an error answer: the outcome says what
 * happened, so that the caller can schedule a retry.
 */
export async function sendEvents({
  fetch,
  apiUrl,
  pixel,
  events,
  timeoutMs,
}: SendEventsOptions): Promise<CapiOutcome> {
  const body = JSON.stringify(capiBody(pixel, events));
  let response: Response;
  try {
    response = await fetch(capiUrl(apiUrl, pixel.pixelId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { ok: false, status: null, error: describeNetworkError(error, timeoutMs) };
  }
  let text = '';
  try {
    text = await response.text();
  } catch (error) {
    // A 2xx answer has been given: the events were accepted even if the rest of the body was lost.
    if (!response.ok) {
      return {
        ok: false,
        status: response.status,
        error: `HTTP ${response.status}: ${describeNetworkError(error, timeoutMs)}`,
      };
    }
  }
  if (response.ok) return { ok: true, status: response.status };
  return {
    ok: false,
    status: response.status,
    error: `HTTP ${response.status}: ${text.slice(0, ERROR_BODY_MAX_LENGTH)}`,
  };
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `network error: ${message}${cause}`.slice(0, ERROR_BODY_MAX_LENGTH);
}
