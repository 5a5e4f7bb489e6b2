import { FomoRequest, FomoResponse } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VISITOR_PREFIXES } from '../../http/visitor-api';
import type { FomoService } from './fomo.service';

export const fomoRoutes: FastifyPluginAsyncZod<{ fomo: FomoService }> = async (app, { fomo }) => {
  for (const prefix of VISITOR_PREFIXES) {
    app.post(
      `${prefix}/funnel/fomo`,
      {
        bodyLimit: 8 * 1024,
        config: { visitorEnvelope: true },
        schema: {
          tags: ['visitor'],
          hide: prefix === '',
          body: FomoRequest,
          response: { 200: FomoResponse },
        },
      },
      (req) => fomo.messages(req.body),
    );
  }
  return Promise.resolve();
};
