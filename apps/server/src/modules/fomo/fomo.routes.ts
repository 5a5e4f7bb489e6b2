import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import type { FomoService } from './fomo.service';

export const fomoRoutes: FastifyPluginAsyncZod<{ fomo: FomoService }> = async (app, { fomo }) => {
  registerRoutes(app, ROUTES.fomo, {
    messages: {
      bodyLimit: 8 * 1024,
      config: { visitorEnvelope: true },
      handler: (req) => fomo.messages(req.body),
    },
  });
  return Promise.resolve();
};
