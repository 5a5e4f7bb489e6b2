import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';

/**
 * GET (and HEAD) /favicon.ico: the server's own small icon (a funnel; scripts/make-favicon.ts makes
 * it), read once at start. Browsers ask for it on every visit, so it reads no database and is not
 * counted against the visitor rate limit; without it the visitor page's not-found HTML answered.
 */
export const faviconRoutes: FastifyPluginAsync<{ file: string }> = async (app, { file }) => {
  const icon = readFileSync(file);
  app.get('/favicon.ico', { schema: { hide: true } }, (_req, reply) =>
    reply
      .header('content-type', 'image/x-icon')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(icon),
  );
  return Promise.resolve();
};
