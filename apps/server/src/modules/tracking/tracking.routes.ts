import {
  ActionTrack,
  PageSessionEnd,
  PageSessionStart,
  PageSessionStarted,
  SessionIdParams,
  TrackAck,
  VideoTrack,
  VisitorMessage,
} from '@embudo/contracts';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VISITOR_PREFIXES, acceptBeaconBodies, statusOf, writeTrustedJson } from '../../http/visitor-api';
import { ack, type TrackingService } from './tracking.service';

const TRACK_BODY_LIMIT = 64 * 1024;
const NoopTrack = z.looseObject({ token: z.string().min(1).max(200) });
/** 403: the lead's account is inactive; 404: no such lead or session. */
const ACKS = { 200: TrackAck, 403: TrackAck, 404: TrackAck };

/** Page sessions, actions and video records (spec §7). */
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
  for (const prefix of VISITOR_PREFIXES) {
    const schema = { tags: ['visitor tracking'], hide: prefix === '' };
    app.post(
      `${prefix}/funnel/track/page`,
      {
        ...options,
        schema: {
          ...schema,
          body: PageSessionStart,
          response: { 200: PageSessionStarted, 403: PageSessionStarted, 404: PageSessionStarted },
        },
      },
      async (req, reply) => {
        const answer = await tracking.startSession(req.body, {
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
    );
    app.put(
      `${prefix}/funnel/track/page/:sessionId`,
      {
        ...options,
        schema: {
          ...schema,
          params: SessionIdParams,
          body: PageSessionEnd,
          response: ACKS,
        },
      },
      async (req, reply) => {
        const answer = await tracking.endSession(req.params.sessionId, req.body, {
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
    );
    app.post(
      `${prefix}/funnel/track/action`,
      { ...options, schema: { ...schema, body: ActionTrack, response: ACKS } },
      async (req, reply) => {
        const answer = await tracking.trackAction(req.body);
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
    );
    app.post(
      `${prefix}/funnel/track/video`,
      { ...options, schema: { ...schema, body: VideoTrack, response: ACKS } },
      async (req, reply) => {
        const answer = await tracking.trackVideo(req.body);
        return reply.status(statusOf(answer, [200, 403, 404])).send(answer);
      },
    );
  }
  if (noop) {
    // The baseline of `npm run bench` (BENCH_NOOP_ENDPOINT=on): the path of a tracking call, from
    // the rate limit and body parsing to the answer, with no database in it.
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
