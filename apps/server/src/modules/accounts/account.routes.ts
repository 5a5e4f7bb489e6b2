import { ROUTES, toAccountAnswer } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { requireRole } from '../auth/owner-auth';
import type { AccountService } from './account.service';

export const accountRoutes: FastifyPluginAsyncZod<{ accounts: AccountService }> = async (
  app,
  { accounts },
) => {
  registerRoutes(app, ROUTES.account, {
    get: async (req) => toAccountAnswer(await accounts.get(requireRole(req, 'viewer').id)),
    update: async (req) => toAccountAnswer(await accounts.update(requireRole(req, 'owner').id, req.body)),
  });
  // Keys open the whole account: only its owners see, make or revoke them.
  registerRoutes(app, ROUTES.apiKeys, {
    list: (req) => accounts.listApiKeys(requireRole(req, 'owner').id),
    create: async (req, reply) =>
      reply.status(201).send(await accounts.createApiKey(requireRole(req, 'owner').id, req.body)),
    remove: async (req, reply) => {
      await accounts.revokeApiKey(requireRole(req, 'owner').id, req.params.id);
      return reply.status(204).send();
    },
  });
  return Promise.resolve();
};
