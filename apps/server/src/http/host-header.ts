import type { FastifyRequest } from 'fastify';
import { badRequest } from '../lib/http-errors';

/** A host name (dot-separated labels of letters, digits and inner hyphens) or an [IPv6] literal, and an optional port. */
const PLAIN_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Refuses a request whose Host (or, behind a trusted proxy, X-Forwarded-Host) is not a plain host
 * and port. A URL parser reads `localhost:1@promo.example.test` as the host promo.example.test, so
 * such a header could make one address resolve as another account's custom domain.
 */
export async function rejectOddHost(req: FastifyRequest): Promise<void> {
  const raw = req.headers.host;
  if (raw !== undefined && !PLAIN_HOST.test(raw))
    throw badRequest('the Host header must be a host name and port');
  // Behind a trusted proxy Fastify reads the forwarded host instead: the same rule.
  if (req.host && !PLAIN_HOST.test(req.host))
    throw badRequest('the Host header must be a host name and port');
  return Promise.resolve();
}
