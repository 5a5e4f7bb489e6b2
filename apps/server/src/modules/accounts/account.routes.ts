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
  return Promise.resolve();
};
