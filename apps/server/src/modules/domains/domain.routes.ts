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
    verify: (req) => domains.verify(requireRole(req, 'owner'), req.params.id),
  });
  return Promise.resolve();
};

/** An address as the socket names it, IPv4 mapped into IPv6 read as IPv4. */
const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.)/i, '').toLowerCase();

/** A loopback address (IPv4, IPv6, or IPv4 mapped into IPv6). */
const isLoopback = (address: string) => /^127\./.test(address) || address === '::1';

/** Whether this connection may ask: from this machine, or from one of the TLS proxies named in TLS_ASK_ALLOW. */
export function mayAsk(remoteAddress: string | undefined, allowed: readonly string[]): boolean {
  if (remoteAddress === undefined) return false;
  const address = plainAddress(remoteAddress);
  return isLoopback(address) || allowed.some((entry) => plainAddress(entry) === address);
}

/**
 * The `ask` endpoint of Caddy's on-demand TLS, so certificates are issued only for hosts that serve
 * (decision 27). Only for the TLS front: the socket's own address decides (never X-Forwarded-For), so
 * nobody else can use it to learn which hosts are connected.
 */
export const tlsAskRoute: FastifyPluginAsyncZod<{
  domains: Pick<DomainService, 'isServed'>;
  allowed: readonly string[];
}> = async (app, { domains, allowed }) => {
  registerRoutes(
    app,
    { tlsAsk: ROUTES.operator.tlsAsk },
    {
      tlsAsk: async (req, reply) => {
        if (!mayAsk(req.socket.remoteAddress, allowed)) throw forbidden('only the TLS front may ask');
        const served = await domains.isServed(req.query.domain.toLowerCase().replace(/\.$/, ''));
        return reply.status(served ? 200 : 404).send({ served });
      },
    },
  );
  return Promise.resolve();
};
