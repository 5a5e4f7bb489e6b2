import {
  IdParams,
  Lead,
  LeadCreate,
  LeadCreated,
  LeadImport,
  LeadImported,
  LeadList,
  LeadUpdate,
  PaginationQuery,
} from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownerOf } from '../auth/owner-auth';
import type { LeadService } from './lead.service';

/** An import of the maximum 5,000 leads with long names and e-mails stays under this. */
const IMPORT_BODY_LIMIT = 4 * 1024 * 1024;

export const leadRoutes: FastifyPluginAsyncZod<{ leads: LeadService }> = async (app, { leads }) => {
  const tags = ['leads'];
  app.get(
    '/funnels/:id/leads',
    { schema: { tags, params: IdParams, querystring: PaginationQuery, response: { 200: LeadList } } },
    (req) => leads.list(ownerOf(req), req.params.id, req.query),
  );
  app.post(
    '/funnels/:id/leads',
    { schema: { tags, params: IdParams, body: LeadCreate, response: { 201: LeadCreated } } },
    async (req, reply) => reply.status(201).send(await leads.create(ownerOf(req), req.params.id, req.body)),
  );
  app.post(
    '/funnels/:id/leads/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: { tags, params: IdParams, body: LeadImport, response: { 201: LeadImported } },
    },
    async (req, reply) =>
      reply.status(201).send(await leads.import(ownerOf(req), req.params.id, req.body.leads)),
  );
  app.get('/leads/:id', { schema: { tags, params: IdParams, response: { 200: Lead } } }, (req) =>
    leads.get(ownerOf(req), req.params.id),
  );
  app.patch(
    '/leads/:id',
    { schema: { tags, params: IdParams, body: LeadUpdate, response: { 200: Lead } } },
    (req) => leads.update(ownerOf(req), req.params.id, req.body),
  );
  app.delete('/leads/:id', { schema: { tags, params: IdParams } }, async (req, reply) => {
    await leads.remove(ownerOf(req), req.params.id);
    return reply.status(204).send();
  });
  return Promise.resolve();
};
