import { once } from 'node:events';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { ErrorCode, type ApiError } from '@embudo/contracts';
import type { Config } from '../config';

/** How long a request waits for Redis before it passes uncounted. */
const REDIS_WAIT_MS = 1000;

/** One limit: how many requests a minute, counted by what key, and the sentence past it. */
export interface RateLimitRule {
  perMinute: number;
  /** What is counted; the client's address by default. */
  keyOf?: (request: FastifyRequest) => string;
  /** `preHandler` counts only requests that got past the scope's own onRequest hooks (its auth). */
  hook?: 'onRequest' | 'preHandler';
  refusal: (seconds: number) => string;
  /** Visitor calls answer in the spec's envelope too. */
  visitorEnvelope?: boolean;
}

/**
 * A request limit on a scope (architecture §2): per client address on the public visitor API (generous:
 * one carrier-grade NAT address can carry many real visitors), per API key on the owner API. Counters
 * live in this process, or in Redis when REDIS_URL is set, so that several processes share them.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl'>,
  rule: RateLimitRule,
): Promise<void> {
  if (rule.perMinute === 0) return;
  const redis = config.redisUrl ? await connectRedis(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    max: rule.perMinute,
    timeWindow: 60_000,
    ...(rule.hook ? { hook: rule.hook } : {}),
    ...(rule.keyOf ? { keyGenerator: rule.keyOf } : {}),
    ...(redis ? { redis, nameSpace: 'embudo-rl-' } : {}),
    // A Redis outage must not take the pages or the API down with it.
    skipOnError: true,
    errorResponseBuilder: (_req, context) => {
      const error: ApiError = {
        statusCode: 429,
        code: ErrorCode.rateLimited,
        message: rule.refusal(Math.max(1, Math.ceil(context.ttl / 1000))),
      };
      return rule.visitorEnvelope ? { ...error, codeResponse: 429, result: false } : error;
    },
  });
}

/** The visitor API's limit: RATE_LIMIT_PER_MINUTE per client address. */
export const visitorRateLimit = (config: Pick<Config, 'rateLimitPerMinute'>): RateLimitRule => ({
  perMinute: config.rateLimitPerMinute,
  refusal: (seconds) => `too many requests from this address; try again in ${String(seconds)} s`,
  visitorEnvelope: true,
});

/** Ready before the first request, so the first requests are counted too; closed with the server. */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: REDIS_WAIT_MS });
  redis.on('error', (error: Error) => {
    app.log.warn({ err: error }, 'rate-limit store (Redis) unavailable');
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => undefined);
  });
  try {
    await redis.connect();
    if (redis.status !== 'ready') await once(redis, 'ready');
  } catch (error) {
    app.log.warn(
      { err: error },
      'rate-limit store (Redis) unreachable at start; requests pass uncounted until it answers',
    );
  }
  return redis;
}
