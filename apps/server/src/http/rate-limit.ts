import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { ErrorCode, type ApiError } from '@embudo/contracts';
import type { Config } from '../config';

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
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  if (redis) {
    redis.on('error', (error: Error) => {
      app.log.warn({ err: error }, 'rate-limit store (Redis) unavailable');
    });
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => undefined);
    });
  }
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
