import { OWNER_LIMIT_DEFAULTS, ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { requireRole } from '../auth/owner-auth';
import type { PageService } from './page.service';

export const pageRoutes: FastifyPluginAsyncZod<{ pages: PageService }> = async (app, { pages }) => {
  registerRoutes(
    app,
    ROUTES.pages,
    {
      list: (req) => pages.list(requireRole(req, 'viewer'), req.params.id),
      create: async (req, reply) =>
        reply.status(201).send(await pages.create(requireRole(req, 'editor'), req.params.id, req.body)),
      reorder: (req) => pages.reorder(requireRole(req, 'editor'), req.params.id, req.body),
      duplicate: async (req, reply) =>
        reply.status(201).send(await pages.duplicate(requireRole(req, 'editor'), req.params.id)),
      get: (req) => pages.get(requireRole(req, 'viewer'), req.params.id),
      update: (req) => pages.update(requireRole(req, 'editor'), req.params.id, req.body),
      remove: async (req, reply) => {
        await pages.remove(requireRole(req, 'editor'), req.params.id);
        return reply.status(204).send();
      },
    },
    // The limits of this server, for the OpenAPI document.
    { limits: { ...OWNER_LIMIT_DEFAULTS, ...pages.limits } },
  );
  return Promise.resolve();
};
