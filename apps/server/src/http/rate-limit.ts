import { once } from 'node:events';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { ErrorCode, type ApiError } from '@embudo/contracts';
import type { Config } from '../config';

/** How long a request waits for Redis before it passes uncounted. */
const REDIS_WAIT_MS = 1000;

/**
 * A per-address limit on the public visitor API (DESIGN §2). Counters live in this process, or in
 * Redis when REDIS_URL is set, so that several processes share them. Generous by default: one
 * carrier-grade NAT address can carry many real visitors.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  config: Pick<Config, 'rateLimitPerMinute' | 'redisUrl'>,
): Promise<void> {
  if (config.rateLimitPerMinute === 0) return;
  const redis = config.redisUrl ? await connectRedis(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: 'embudo-rl-' } : {}),
    // A Redis outage must not take the visitor pages down with it.
    skipOnError: true,
    errorResponseBuilder: (_req, context): ApiError & { codeResponse: number; result: false } => ({
      statusCode: 429,
      code: ErrorCode.rateLimited,
      message: `too many requests from this address; try again in ${Math.ceil(context.ttl / 1000)} s`,
      codeResponse: 429,
      result: false,
    }),
  });
}

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
