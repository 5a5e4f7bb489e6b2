import type { FunnelRepo } from '../funnels/funnel.repo';
import { toFunnelRecord } from '../funnels/funnel.service';
import {
  MAX_EVENTS_PER_REQUEST,
  MAX_EVENT_AGE_MS,
  ServerEvent,
  configuredPixel,
  sendEvents,
  type CapiPixel,
} from './meta-capi';
import type { PixelOutboxRow, PixelRepo } from './pixel.repo';

/** The part of a pino / Fastify logger the worker uses. */
export interface PixelWorkerLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Runs `fn` after `ms`; the returned function cancels it. The default is an unref'd setTimeout. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const defaultSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
};

export interface PixelWorkerOptions {
  pixels: Pick<PixelRepo, 'claimDue' | 'markDelivered' | 'markDropped' | 'markFailed' | 'retryWaiting'>;
  funnels: Pick<FunnelRepo, 'findById'>;
  /** Base of the Conversions API (config.pixelApiUrl), e.g. https://graph.facebook.com/v21.0. */
  apiUrl: string;
  logger: PixelWorkerLogger;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  /** Rows claimed per run. */
  batchSize?: number;
  /** Pause between runs when the outbox has nothing more due. */
  pollMs?: number;
  /** How long a claim lasts: a worker that dies holding rows gives them back after this. */
  leaseMs?: number;
  /** Timeout of one request to Meta. */
  requestTimeoutMs?: number;
  /** Requests sent at the same time in one run. */
  concurrency?: number;
  /** Jitter source in [0, 1). */
  random?: () => number;
  schedule?: Schedule;
}

export interface PixelRunResult {
  delivered: number;
  failed: number;
  dropped: number;
}

export interface PixelWorker {
  /** Polls the outbox every pollMs until stop(); calling it twice does nothing more. */
  start(): void;
  /** Cancels the next run and waits for the runs in flight; no timer is left behind. */
  stop(): Promise<void>;
  /** One pass over what is due now; rejects only when the database does. */
  runOnce(): Promise<PixelRunResult>;
}

export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_MAX_MS = 3_600_000;
export const BACKOFF_JITTER = 0.2;

/**
 * The pause before the next attempt after `attempts` failures: 5 s, 10 s, 20 s … doubling up to one
 * hour, then spread by ±20% so that a pixel's retries do not all wake up together.
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const base = Math.min(BACKOFF_BASE_MS * 2 ** exponent, BACKOFF_MAX_MS);
  return Math.round(base * (1 - BACKOFF_JITTER + 2 * BACKOFF_JITTER * random()));
}

interface Batch {
  pixel: CapiPixel;
  items: { row: PixelOutboxRow; event: ServerEvent }[];
}

type Verdict = { send: Batch['items'][number]; pixel: CapiPixel } | { drop: string };

/**
 * Forwards the pixel outbox to the Conversions API (architecture §5.10): claims due rows, sends them in one
 * request per pixel and per 1,000 events, retries failures with backoff, and drops only what Meta
 * would refuse for good (older than 7 days) or what has nowhere to go (the funnel lost its pixel).
 * Once Meta takes an event of a funnel, that funnel's failed events are retried at once.
 */
export function createPixelWorker({
  pixels,
  funnels,
  apiUrl,
  logger,
  fetch = globalThis.fetch,
  now = Date.now,
  batchSize = 500,
  pollMs = 1000,
  leaseMs = 5 * 60_000,
  requestTimeoutMs = 10_000,
  concurrency = 8,
  random = Math.random,
  schedule = defaultSchedule,
}: PixelWorkerOptions): PixelWorker {
  async function pixelOf(
    funnelId: string,
    cache: Map<string, CapiPixel | undefined>,
  ): Promise<CapiPixel | undefined> {
    if (!cache.has(funnelId)) {
      const row = await funnels.findById(funnelId);
      cache.set(funnelId, row ? configuredPixel(toFunnelRecord(row).pixel) : undefined);
    }
    return cache.get(funnelId);
  }

  async function judge(
    row: PixelOutboxRow,
    at: number,
    cache: Map<string, CapiPixel | undefined>,
  ): Promise<Verdict> {
    const oldest = at - MAX_EVENT_AGE_MS;
    if (row.createdAt < oldest) return { drop: 'older than 7 days: Meta refuses such events' };
    let event: ServerEvent;
    try {
      event = ServerEvent.parse(JSON.parse(row.payload));
    } catch {
      return { drop: 'unreadable payload' };
    }
    if (event.event_time * 1000 < oldest)
      return { drop: 'event_time older than 7 days: Meta refuses such events' };
    const pixel = await pixelOf(row.funnelId, cache);
    if (!pixel) return { drop: 'the funnel has no pixel id and access token any more' };
    return { send: { row, event }, pixel };
  }

  async function deliver(batch: Batch, result: PixelRunResult): Promise<void> {
    const outcome = await sendEvents({
      fetch,
      apiUrl,
      pixel: batch.pixel,
      events: batch.items.map((item) => item.event),
      timeoutMs: requestTimeoutMs,
    });
    const at = now();
    if (outcome.ok) {
      await pixels.markDelivered(
        batch.items.map((item) => item.row.id),
        at,
      );
      result.delivered += batch.items.length;
      // Meta takes events again: the backlog of these funnels goes now, not when each backoff ends
      // (up to an hour after an outage).
      await pixels.retryWaiting([...new Set(batch.items.map((item) => item.row.funnelId))], at);
      return;
    }
    // Any failure, a 400 for the whole batch included, is retried: only age ends an event's life.
    for (const { row } of batch.items) {
      const attempts = row.attempts + 1;
      await pixels.markFailed(row.id, attempts, at + backoffMs(attempts, random), outcome.error);
    }
    result.failed += batch.items.length;
    logger.warn(
      {
        pixelId: batch.pixel.pixelId,
        events: batch.items.length,
        status: outcome.status,
        error: outcome.error,
      },
      'pixel delivery failed; the events will be retried',
    );
  }

  async function runOnce(): Promise<PixelRunResult> {
    const result: PixelRunResult = { delivered: 0, failed: 0, dropped: 0 };
    const at = now();
    const rows = await pixels.claimDue(at, batchSize, leaseMs);
    if (rows.length === 0) return result;

    const cache = new Map<string, CapiPixel | undefined>();
    const byPixel = new Map<string, Batch>();
    for (const row of rows) {
      const verdict = await judge(row, at, cache);
      if ('drop' in verdict) {
        await pixels.markDropped(row.id, at, verdict.drop);
        result.dropped += 1;
        logger.warn(
          { eventId: row.eventId, funnelId: row.funnelId, reason: verdict.drop },
          'pixel event dropped',
        );
        continue;
      }
      const { pixel } = verdict;
      const key = JSON.stringify([pixel.pixelId, pixel.accessToken, pixel.testEventCode]);
      const batch = byPixel.get(key) ?? { pixel, items: [] };
      batch.items.push(verdict.send);
      byPixel.set(key, batch);
    }

    const requests: Batch[] = [];
    for (const { pixel, items } of byPixel.values()) {
      for (let i = 0; i < items.length; i += MAX_EVENTS_PER_REQUEST) {
        requests.push({ pixel, items: items.slice(i, i + MAX_EVENTS_PER_REQUEST) });
      }
    }
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let batch = requests[next++]; batch; batch = requests[next++]) await deliver(batch, result);
    };
    // Every lane ends before the run does, even when one fails, so that stop() really waits for all.
    const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, requests.length)) }, lane);
    const failure = (await Promise.allSettled(lanes)).find((settled) => settled.status === 'rejected');
    if (failure) throw failure.reason;
    return result;
  }

  const inFlight = new Set<Promise<unknown>>();
  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.then(
      () => inFlight.delete(promise),
      () => inFlight.delete(promise),
    );
    return promise;
  }

  let running = false;
  let cancel: (() => void) | undefined;

  function plan(ms: number): void {
    if (!running) return;
    cancel?.();
    cancel = schedule(() => {
      cancel = undefined;
      void tick();
    }, ms);
  }

  async function tick(): Promise<void> {
    let full = false;
    try {
      const result = await track(runOnce());
      // A full batch means more may be due: go on at once rather than after a pause.
      full = result.delivered + result.failed + result.dropped >= batchSize;
    } catch (error) {
      logger.error({ err: error }, 'pixel worker run failed');
    }
    plan(full ? 0 : pollMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      plan(0);
    },
    async stop() {
      running = false;
      cancel?.();
      cancel = undefined;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    runOnce: () => track(runOnce()),
  };
}
