import { Account, AccountUpdate } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ownerOf } from '../auth/owner-auth';
import type { AccountService } from './account.service';

export const accountRoutes: FastifyPluginAsyncZod<{ accounts: AccountService }> = async (
  app,
  { accounts },
) => {
  const tags = ['account'];
  app.get('/account', { schema: { tags, response: { 200: Account } } }, (req) =>
    accounts.get(ownerOf(req).id),
  );
  app.patch('/account', { schema: { tags, body: AccountUpdate, response: { 200: Account } } }, (req) =>
    accounts.update(ownerOf(req).id, req.body),
  );
  return Promise.resolve();
};
