import { OWNER_LIMIT_DEFAULTS, ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { requireRole } from '../auth/owner-auth';
import type { FunnelService } from './funnel.service';
import type { FunnelTemplateService } from './templates/funnel-template.service';

export const funnelRoutes: FastifyPluginAsyncZod<{
  funnels: FunnelService;
  templates: FunnelTemplateService;
}> = async (app, { funnels, templates }) => {
  registerRoutes(
    app,
    ROUTES.funnels,
    {
      list: (req) => funnels.list(requireRole(req, 'viewer')),
      // The pixel (its access token above all) is the owner's, on a new funnel as on an edit.
      create: async (req, reply) =>
        reply
          .status(201)
          .send(
            await funnels.create(
              requireRole(req, req.body.pixel === undefined ? 'editor' : 'owner'),
              req.body,
            ),
          ),
      templates: (req) => {
        requireRole(req, 'viewer');
        return templates.list();
      },
      createFromTemplate: async (req, reply) =>
        reply.status(201).send(await templates.create(requireRole(req, 'editor'), req.body)),
      duplicate: async (req, reply) =>
        reply.status(201).send(await funnels.duplicate(requireRole(req, 'editor'), req.params.id, req.body)),
      get: (req) => funnels.get(requireRole(req, 'viewer'), req.params.id),
      update: (req) =>
        funnels.update(
          requireRole(req, req.body.pixel === undefined ? 'editor' : 'owner'),
          req.params.id,
          req.body,
        ),
      remove: async (req, reply) => {
        await funnels.remove(requireRole(req, 'editor'), req.params.id);
        return reply.status(204).send();
      },
    },
    { limits: { ...OWNER_LIMIT_DEFAULTS, ...funnels.limits } },
  );
  return Promise.resolve();
};
