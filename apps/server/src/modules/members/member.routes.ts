import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { requireRole } from '../auth/owner-auth';
import type { MemberService } from './member.service';

/** An account's members and invitations: the owner's (architecture §7). */
export const memberRoutes: FastifyPluginAsyncZod<{ members: MemberService }> = async (app, { members }) => {
  registerRoutes(app, ROUTES.members, {
    list: (req) => members.list(requireRole(req, 'viewer')),
    update: (req) => members.updateRole(requireRole(req, 'owner'), req.params.id, req.body.role),
    remove: async (req, reply) => {
      await members.remove(requireRole(req, 'owner'), req.params.id);
      return reply.status(204).send();
    },
  });
  registerRoutes(app, ROUTES.invitations, {
    list: (req) => members.invitations(requireRole(req, 'owner')),
    create: async (req, reply) => {
      const account = requireRole(req, 'owner');
      return reply.status(201).send(await members.invite(account, req.body, req.ownerAccess?.userId ?? null));
    },
    remove: async (req, reply) => {
      await members.revokeInvitation(requireRole(req, 'owner'), req.params.id);
      return reply.status(204).send();
    },
  });
  return Promise.resolve();
};
