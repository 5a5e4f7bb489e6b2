import { ROUTES, TrackAck, VisitorMessage } from '@embudo/contracts';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { acceptBeaconBodies, statusOf, visitorOf, writeTrustedJson } from '../../http/visitor-api';
import { ack, type TrackingService } from './tracking.service';

const TRACK_BODY_LIMIT = 64 * 1024;
const NoopTrack = z.looseObject({ token: z.string().min(1).max(200) });

/** Page sessions, actions and video records (visitor-behaviour §7). */
export const trackingRoutes: FastifyPluginAsyncZod<{ tracking: TrackingService; noop?: boolean }> = async (
  app,
  { tracking, noop = false },
) => {
  acceptBeaconBodies(app);
  const options = {
    bodyLimit: TRACK_BODY_LIMIT,
    config: { visitorEnvelope: true },
    serializerCompiler: writeTrustedJson,
  };
  registerRoutes(
    app,
    ROUTES.tracking,
    {
      startSession: async (req, reply) => {
        const answer = await tracking.startSession(req.body, visitorOf(req));
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
      endSession: async (req, reply) => {
        const answer = await tracking.endSession(req.params.sessionId, req.body, visitorOf(req));
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
      action: async (req, reply) => {
        const answer = await tracking.trackAction(req.body);
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
      video: async (req, reply) => {
        const answer = await tracking.trackVideo(req.body);
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
    },
    { shared: options },
  );
  if (noop) {
    // The baseline of `npm run bench` (BENCH_NOOP_ENDPOINT=on): the path of a tracking call, from
    // the rate limit and body parsing to the answer, with no database in it. Not part of the API,
    // so not in the route table: hidden, and only there when the bench asks for it.
    app.post(
      '/api/funnel/track/noop',
      {
        ...options,
        schema: { tags: ['visitor tracking'], hide: true, body: NoopTrack, response: { 200: TrackAck } },
      },
      async (_req, reply) => reply.send(ack(200, VisitorMessage.ok)),
    );
  }
  return Promise.resolve();
};
