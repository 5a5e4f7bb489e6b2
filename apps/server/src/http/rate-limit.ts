import { once } from 'node:events';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { ErrorCode, type ApiError } from '@embudo/contracts';
import type { Config } from '../config';
import { HttpError } from '../lib/http-errors';

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

/** One limit on attempts (of signing in): at most `max` in `windowMs` per key, past it a 429. */
export interface AttemptLimit {
  /** Keeps its counters apart from the other limits' (in Redis too). */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted (the client's address, an e-mail's hash); undefined counts nothing. */
  keyOf: (request: FastifyRequest) => string | undefined;
  refusal: (seconds: number) => string;
}

/**
 * A preHandler (the body is parsed by then) that counts a request against each limit and answers 429
 * with Retry-After past one: per client address and per e-mail on sign-in (decision 21). Counters are
 * shared through Redis when REDIS_URL is set, like the other limits.
 */
export async function attemptLimiter(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl'>,
  limits: AttemptLimit[],
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  const redis = config.redisUrl ? await connectRedis(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'embudo-attempts-' } : {}),
    skipOnError: true,
  });
  const counters = limits.map((limit) => ({
    limit,
    count: app.createRateLimit({
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (request) => `${limit.name}:${limit.keyOf(request) ?? ''}`,
    }),
  }));
  return async (request, reply) => {
    for (const { limit, count } of counters) {
      if (limit.max === 0 || limit.keyOf(request) === undefined) continue;
      const result = await count(request);
      if (result.isAllowed || !result.isExceeded) continue;
      const seconds = Math.max(1, result.ttlInSeconds);
      void reply.header('retry-after', String(seconds));
      throw new HttpError(429, ErrorCode.rateLimited, limit.refusal(seconds));
    }
  };
}
