import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors of this route also carry the visitor envelope's codeResponse and result (visitor-behaviour §3). */
    visitorEnvelope?: boolean;
  }
}

/**
 * The spec writes some visitor calls with an /api prefix and some without; both answer (architecture §5.1).
 * The registration of the route table (contract-routes.ts, by `readingsOf`) answers each visitor
 * route under both; tests name both readings with this.
 */
export const VISITOR_PREFIXES = ['/api', ''] as const;

/** Browsers send page-close beacons as text/plain; inside the visitor API they are read as JSON. */
export function acceptBeaconBodies(app: FastifyInstance): void {
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string) as unknown);
    } catch {
      const error = new Error('the body is not valid JSON') as Error & { statusCode: number; code: string };
      error.statusCode = 400;
      error.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      done(error, undefined);
    }
  });
}

/**
 * The HTTP status of a visitor answer is its codeResponse, one of the statuses its route declares a
 * schema for (`declared`). Any other is a mistake in the service, not an answer to send.
 */
export function statusOf<const Declared extends readonly number[]>(
  answer: { codeResponse: number },
  declared: Declared,
): Declared[number] {
  if (!(declared as readonly number[]).includes(answer.codeResponse))
    throw new Error(`a visitor answer of ${String(answer.codeResponse)}, which its route does not declare`);
  return answer.codeResponse;
}

/**
 * For the hottest visitor answers (page resolution, tracking acknowledgements): the response schema
 * still documents the answer, but it is written without checking it again. The services build these
 * answers from typed code and stored content validated when saved, and re-checking a page's data on
 * every request cost more than resolving it (decision 0015).
 */
export const writeTrustedJson = () => (data: unknown) => JSON.stringify(data);

/** Who sent a visitor call, as the services record it: the client address and its user agent. */
export function visitorOf(req: FastifyRequest): { ip: string; userAgent: string | undefined } {
  return { ip: req.ip, userAgent: req.headers['user-agent'] };
}
