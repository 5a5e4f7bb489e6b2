import { ConversionAck, LeadIpRequest, SuccessAnswer, TokenRequest } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VISITOR_PREFIXES, statusOf } from '../../http/visitor-api';
import type { ConversionService } from './conversion.service';

const BODY_LIMIT = 4 * 1024;

export const conversionRoutes: FastifyPluginAsyncZod<{ conversions: ConversionService }> = async (
  app,
  { conversions },
) => {
  const options = { bodyLimit: BODY_LIMIT, config: { visitorEnvelope: true } };
  /** 403: the lead's account is inactive; 404: no such lead; 409: the lead's page did not offer it. */
  const response = { 200: ConversionAck, 403: ConversionAck, 404: ConversionAck, 409: ConversionAck };
  for (const prefix of VISITOR_PREFIXES) {
    const schema = { tags: ['visitor conversions'], hide: prefix === '' };
    app.put(
      `${prefix}/funnel/site/complete`,
      { ...options, schema: { ...schema, body: TokenRequest, response } },
      async (req, reply) => {
        const answer = await conversions.videoViewed(req.body, {
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        return reply.status(statusOf(answer, [200, 403, 404, 409])).send(answer);
      },
    );
    app.post(
      `${prefix}/funnel/track/event/offert`,
      { ...options, schema: { ...schema, body: TokenRequest, response } },
      async (req, reply) => {
        const answer = await conversions.offerEvent(req.body, {
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        return reply.status(statusOf(answer, [200, 403, 404, 409])).send(answer);
      },
    );
    app.post(
      `${prefix}/lead/internal/conversion/prelaunch`,
      { ...options, schema: { ...schema, body: TokenRequest, response } },
      async (req, reply) => {
        const answer = await conversions.prelaunch(req.body, {
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        return reply.status(statusOf(answer, [200, 403, 404, 409])).send(answer);
      },
    );
    app.post(
      `${prefix}/funnel/lead/ip`,
      { ...options, schema: { ...schema, body: LeadIpRequest, response: { 200: SuccessAnswer } } },
      (req) => {
        // The body's address is the browser's claim (its location lookup, perhaps a day old): logged
        // when it differs, never stored. Without the token: logs never carry one.
        if (req.body.ip !== req.ip)
          req.log.info({ claimedIp: req.body.ip, ip: req.ip }, 'lead ip: the body names another address');
        return conversions.leadIp(req.body, { ip: req.ip });
      },
    );
  }
  return Promise.resolve();
};
