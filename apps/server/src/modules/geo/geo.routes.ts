import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import type { GeoService } from './geo.service';

/**
 * The visitor's own location (architecture §5.6), under /api and without it (architecture §5.1). It looks up the
 * caller's address only, as Fastify computes it (TRUST_PROXY decides whether X-Forwarded-For counts):
 * the route takes no query (no ?ip=), so there is no asking about somebody else's address.
 */
export const geoRoutes: FastifyPluginAsyncZod<{ geo: GeoService }> = async (app, { geo }) => {
  registerRoutes(app, ROUTES.geo, {
    lookup: {
      config: { visitorEnvelope: true },
      handler: async (req, reply) =>
        reply.header('cache-control', 'private, max-age=3600').send(await geo.lookup(req.ip)),
    },
  });
  return Promise.resolve();
};
