import { IdParams, PreviewCreate, PreviewCreated } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownerOf } from '../auth/owner-auth';
import type { PreviewService } from './preview.service';

export const previewRoutes: FastifyPluginAsyncZod<{ previews: PreviewService }> = async (
  app,
  { previews },
) => {
  app.post(
    '/pages/:id/preview',
    {
      schema: {
        tags: ['previews'],
        params: IdParams,
        body: PreviewCreate.nullish(),
        response: { 201: PreviewCreated },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await previews.create(ownerOf(req), req.params.id, { ttlMinutes: req.body?.ttlMinutes })),
  );
  return Promise.resolve();
};
