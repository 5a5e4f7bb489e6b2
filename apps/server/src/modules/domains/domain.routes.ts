import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { forbidden } from '../../lib/http-errors';
import { requireRole } from '../auth/owner-auth';
import type { DomainService } from './domain.service';

export const domainRoutes: FastifyPluginAsyncZod<{ domains: DomainService }> = async (app, { domains }) => {
  registerRoutes(app, ROUTES.domains, {
    list: (req) => domains.list(requireRole(req, 'viewer')),
    create: async (req, reply) =>
      reply.status(201).send(await domains.create(requireRole(req, 'owner'), req.body)),
    remove: async (req, reply) => {
      await domains.remove(requireRole(req, 'owner'), req.params.id);
      return reply.status(204).send();
    },
  });
  return Promise.resolve();
};

/** A loopback address, as the socket names it (IPv4, IPv6, or IPv4 mapped into IPv6). */
const isLoopback = (address: string | undefined) =>
  address !== undefined && (/^(::ffff:)?127\./.test(address) || address === '::1');

/**
 * The `ask` endpoint of Caddy's on-demand TLS, so certificates are issued only for our hosts. Only for
 * the TLS front on this machine: the socket's own address decides (never X-Forwarded-For), so nobody
 * else can use it to learn which hosts are connected.
 */
export const tlsAskRoute: FastifyPluginAsyncZod<{ domains: DomainService }> = async (app, { domains }) => {
  registerRoutes(
    app,
    { tlsAsk: ROUTES.operator.tlsAsk },
    {
      tlsAsk: async (req, reply) => {
        if (!isLoopback(req.socket.remoteAddress))
          throw forbidden('only the TLS front on this machine may ask');
        const served = await domains.isServed(req.query.domain.toLowerCase());
        return reply.status(served ? 200 : 404).send({ served });
      },
    },
  );
  return Promise.resolve();
};
