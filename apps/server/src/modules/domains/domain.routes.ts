import { Domain, DomainCreate, IdParams } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../lib/http-errors';
import { ownerOf } from '../auth/owner-auth';
import type { DomainService } from './domain.service';

export const domainRoutes: FastifyPluginAsyncZod<{ domains: DomainService }> = async (app, { domains }) => {
  const tags = ['domains'];
  app.get('/domains', { schema: { tags, response: { 200: z.array(Domain) } } }, (req) =>
    domains.list(ownerOf(req)),
  );
  app.post(
    '/domains',
    { schema: { tags, body: DomainCreate, response: { 201: Domain } } },
    async (req, reply) => reply.status(201).send(await domains.create(ownerOf(req), req.body)),
  );
  app.delete('/domains/:id', { schema: { tags, params: IdParams } }, async (req, reply) => {
    await domains.remove(ownerOf(req), req.params.id);
    return reply.status(204).send();
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
  app.get(
    '/tls/ask',
    { schema: { tags: ['operator'], querystring: z.strictObject({ domain: z.string().max(253) }) } },
    async (req, reply) => {
      if (!isLoopback(req.socket.remoteAddress))
        throw forbidden('only the TLS front on this machine may ask');
      const served = await domains.isServed(req.query.domain.toLowerCase());
      return reply.status(served ? 200 : 404).send({ served });
    },
  );
  return Promise.resolve();
};
