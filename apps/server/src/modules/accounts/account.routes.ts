import { ROUTES, toAccountAnswer } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { ownerOf } from '../auth/owner-auth';
import type { AccountService } from './account.service';

export const accountRoutes: FastifyPluginAsyncZod<{ accounts: AccountService }> = async (
  app,
  { accounts },
) => {
  registerRoutes(app, ROUTES.account, {
    get: async (req) => toAccountAnswer(await accounts.get(ownerOf(req).id)),
    update: async (req) => toAccountAnswer(await accounts.update(ownerOf(req).id, req.body)),
  });
  return Promise.resolve();
};
