import { GeoAnswer, NoQuery } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GeoService } from './geo.service';

/**
 * The visitor's own location (DESIGN §5.6), under /api and without it (DESIGN §5.1). It looks up the
 * caller's address only, as Fastify computes it (TRUST_PROXY decides whether X-Forwarded-For counts):
 * there is no parameter to ask about somebody else's address.
 */
export const geoRoutes: FastifyPluginAsyncZod<{ geo: GeoService }> = async (app, { geo }) => {
  for (const prefix of ['/api', '']) {
    app.get(
      `${prefix}/geo`,
      {
        config: { visitorEnvelope: true },
        schema: {
          tags: ['visitor'],
          hide: prefix === '',
          querystring: NoQuery, // z.strictObject({}): no ?ip=, the caller's own address only
          response: { 200: GeoAnswer },
        },
      },
      async (req, reply) =>
        reply.header('cache-control', 'private, max-age=3600').send(await geo.lookup(req.ip)),
    );
  }
  return Promise.resolve();
};
