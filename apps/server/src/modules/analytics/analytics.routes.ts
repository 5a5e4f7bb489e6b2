import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes, sendJsonText } from '../../http/contract-routes';
import { requireRole } from '../auth/owner-auth';
import type { AnalyticsReportsService } from './analytics-reports.service';

/** Analytics for the owner: every role of the account may read it. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ reports: AnalyticsReportsService }> = async (
  app,
  { reports },
) => {
  registerRoutes(app, ROUTES.analytics, {
    // The answer comes as finished JSON (kept between batches): sent as it is, not serialised again.
    page: async (req, reply) =>
      sendJsonText(reply, await reports.page(requireRole(req, 'viewer'), req.params.id, req.query)),
    funnel: (req) => reports.funnel(requireRole(req, 'viewer'), req.params.id, req.query),
    followUps: (req) => reports.followUps(requireRole(req, 'viewer'), req.params.id, req.query),
    leadTimeline: (req) => reports.leadTimeline(requireRole(req, 'viewer'), req.params.id),
  });
  return Promise.resolve();
};
