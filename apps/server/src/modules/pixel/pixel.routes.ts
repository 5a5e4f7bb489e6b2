import { PixelRequest, SuccessAnswer } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PixelService } from './pixel.service';

/** A pixel call is a few hundred bytes; a user agent of 2,000 characters still fits easily. */
export const PIXEL_BODY_LIMIT = 16 * 1024;

/**
 * POST /api/funnel/track/pixel (spec §7), also answered without /api like every visitor call
 * (DESIGN §5.1); the unprefixed path stays out of the OpenAPI document.
 */
export const pixelRoutes: FastifyPluginAsyncZod<{ pixel: PixelService }> = async (app, { pixel }) => {
  for (const prefix of ['/api', '']) {
    app.post(
      `${prefix}/funnel/track/pixel`,
      {
        bodyLimit: PIXEL_BODY_LIMIT,
        schema: {
          tags: ['visitor'],
          hide: prefix === '',
          body: PixelRequest,
          response: { 200: SuccessAnswer },
        },
      },
      (req) => pixel.record(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] }),
    );
  }
  return Promise.resolve();
};
