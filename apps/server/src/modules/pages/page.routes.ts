import { IdParams, Page, PageCreate, PageUpdate } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownerOf } from '../auth/owner-auth';
import type { PageService } from './page.service';

export const pageRoutes: FastifyPluginAsyncZod<{ pages: PageService }> = async (app, { pages }) => {
  const tags = ['pages'];
  app.get(
    '/funnels/:id/pages',
    { schema: { tags, params: IdParams, response: { 200: z.array(Page) } } },
    (req) => pages.list(ownerOf(req), req.params.id),
  );
  app.post(
    '/funnels/:id/pages',
    { schema: { tags, params: IdParams, body: PageCreate, response: { 201: Page } } },
    async (req, reply) => reply.status(201).send(await pages.create(ownerOf(req), req.params.id, req.body)),
  );
  app.get('/pages/:id', { schema: { tags, params: IdParams, response: { 200: Page } } }, (req) =>
    pages.get(ownerOf(req), req.params.id),
  );
  app.patch(
    '/pages/:id',
    { schema: { tags, params: IdParams, body: PageUpdate, response: { 200: Page } } },
    (req) => pages.update(ownerOf(req), req.params.id, req.body),
  );
  app.delete('/pages/:id', { schema: { tags, params: IdParams } }, async (req, reply) => {
    await pages.remove(ownerOf(req), req.params.id);
    return reply.status(204).send();
  });
  return Promise.resolve();
};
