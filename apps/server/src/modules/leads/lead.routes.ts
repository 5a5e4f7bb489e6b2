import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { writeTrustedJson } from '../../http/visitor-api';
import { requireRole } from '../auth/owner-auth';
import type { LeadService } from './lead.service';

/** An import of the maximum 5,000 leads with long names and e-mails stays under this. */
const IMPORT_BODY_LIMIT = 4 * 1024 * 1024;

export const leadRoutes: FastifyPluginAsyncZod<{ leads: LeadService }> = async (app, { leads }) => {
  registerRoutes(app, ROUTES.leads, {
    // The leads table's page: built by toLead from stored rows, written without a second validation of
    // each lead on the way out, as the visitor's hot paths are (decision 15).
    list: {
      serializerCompiler: writeTrustedJson,
      handler: (req) => leads.list(requireRole(req, 'viewer'), req.params.id, req.query),
    },
    create: async (req, reply) =>
      reply.status(201).send(await leads.create(requireRole(req, 'editor'), req.params.id, req.body)),
    import: {
      bodyLimit: IMPORT_BODY_LIMIT,
      handler: async (req, reply) =>
        reply.status(201).send(await leads.import(requireRole(req, 'editor'), req.params.id, req.body.leads)),
    },
    get: (req) => leads.get(requireRole(req, 'viewer'), req.params.id),
    update: (req) => leads.update(requireRole(req, 'editor'), req.params.id, req.body),
    newLink: async (req, reply) =>
      reply.status(201).send(await leads.newLink(requireRole(req, 'editor'), req.params.id)),
    remove: async (req, reply) => {
      await leads.remove(requireRole(req, 'editor'), req.params.id);
      return reply.status(204).send();
    },
  });
  return Promise.resolve();
};
