import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { requireRole } from '../auth/owner-auth';
import type { PreviewService } from './preview.service';

export const previewRoutes: FastifyPluginAsyncZod<{ previews: PreviewService }> = async (
  app,
  { previews },
) => {
  registerRoutes(app, ROUTES.previews, {
    create: async (req, reply) =>
      reply.status(201).send(
        await previews.create(requireRole(req, 'editor'), req.params.id, {
          ttlMinutes: req.body?.ttlMinutes,
        }),
      ),
  });
  return Promise.resolve();
};
