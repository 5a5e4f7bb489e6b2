import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { statusOf, visitorOf } from '../../http/visitor-api';
import type { ConversionService } from './conversion.service';

const BODY_LIMIT = 4 * 1024;

export const conversionRoutes: FastifyPluginAsyncZod<{ conversions: ConversionService }> = async (
  app,
  { conversions },
) => {
  registerRoutes(
    app,
    ROUTES.conversions,
    {
      videoViewed: async (req, reply) => {
        const answer = await conversions.videoViewed(req.body, visitorOf(req));
        return reply.status(statusOf(answer, [200, 403, 404, 409])).send(answer);
      },
      offerEvent: async (req, reply) => {
        const answer = await conversions.offerEvent(req.body, visitorOf(req));
        return reply.status(statusOf(answer, [200, 403, 404, 409])).send(answer);
      },
      prelaunch: async (req, reply) => {
        const answer = await conversions.prelaunch(req.body, visitorOf(req));
        return reply.status(statusOf(answer, [200, 403, 404, 409])).send(answer);
      },
      leadIp: (req) => {
        // The body's address is the browser's claim (its location lookup, perhaps a day old): logged
        // when it differs, never stored. Without the token: logs never carry one.
        if (req.body.ip !== req.ip)
          req.log.info({ claimedIp: req.body.ip, ip: req.ip }, 'lead ip: the body names another address');
        return conversions.leadIp(req.body, { ip: req.ip });
      },
    },
    { shared: { bodyLimit: BODY_LIMIT, config: { visitorEnvelope: true } } },
  );
  return Promise.resolve();
};
