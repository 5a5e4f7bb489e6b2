import { Funnel, FunnelCreate, FunnelUpdate, IdParams } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownerOf } from '../auth/owner-auth';
import type { FunnelService } from './funnel.service';

export const funnelRoutes: FastifyPluginAsyncZod<{ funnels: FunnelService }> = async (app, { funnels }) => {
  const tags = ['funnels'];
  app.get('/funnels', { schema: { tags, response: { 200: z.array(Funnel) } } }, (req) =>
    funnels.list(ownerOf(req)),
  );
  app.post(
    '/funnels',
    {
      schema: {
        tags,
        description:
          `Creates a funnel. An account has at most ${funnels.limits.funnelsPerAccount} funnels ` +
          '(MAX_FUNNELS_PER_ACCOUNT); one more is a 409 naming the limit.',
        body: FunnelCreate,
        response: { 201: Funnel },
      },
    },
    async (req, reply) => reply.status(201).send(await funnels.create(ownerOf(req), req.body)),
  );
  app.get('/funnels/:id', { schema: { tags, params: IdParams, response: { 200: Funnel } } }, (req) =>
    funnels.get(ownerOf(req), req.params.id),
  );
  app.patch(
    '/funnels/:id',
    { schema: { tags, params: IdParams, body: FunnelUpdate, response: { 200: Funnel } } },
    (req) => funnels.update(ownerOf(req), req.params.id, req.body),
  );
  app.delete('/funnels/:id', { schema: { tags, params: IdParams } }, async (req, reply) => {
    await funnels.remove(ownerOf(req), req.params.id);
    return reply.status(204).send();
  });
  return Promise.resolve();
};
