import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { statusOf, visitorOf } from '../../http/visitor-api';
import type { PixelService } from './pixel.service';

/** A pixel call is a few hundred bytes; a user agent of 2,000 characters still fits easily. */
export const PIXEL_BODY_LIMIT = 16 * 1024;

/**
 * POST /api/funnel/track/pixel (visitor-behaviour §7), also answered without /api like every visitor call
 * (architecture §5.1); the unprefixed path stays out of the OpenAPI document. A done or skipped call is
 * `{ success }`; a token that names no lead of the funnel is the visitor envelope's 404, and errors
 * carry the envelope too, as on every visitor call that takes a token.
 */
export const pixelRoutes: FastifyPluginAsyncZod<{ pixel: PixelService }> = async (app, { pixel }) => {
  registerRoutes(app, ROUTES.pixel, {
    record: {
      bodyLimit: PIXEL_BODY_LIMIT,
      config: { visitorEnvelope: true },
      handler: async (req, reply) => {
        const answer = await pixel.record(req.body, visitorOf(req));
        return 'codeResponse' in answer
          ? reply.status(statusOf(answer, [200, 403, 404])).send(answer)
          : answer;
      },
    },
  });
  return Promise.resolve();
};
