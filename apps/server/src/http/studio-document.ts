import type { FastifyInstance, FastifyReply } from 'fastify';
import { loadViteApp, renderDocument, type ViteApp } from './vite-apps';

/**
 * The Studio's policy (decision 0023): its own bundle only, nothing inline, never framed. Its API calls
 * are same-origin.
 */
export const STUDIO_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface StudioDocumentOptions {
  /** The operator's address (PUBLIC_URL): the only host that serves the Studio. */
  publicUrl: string;
  /** The built bundle; read from the Studio's Vite manifest by default. */
  app?: ViteApp;
}

/**
 * The Studio's HTML document at /studio and every path under it (the app routes in the browser), on
 * the operator's host alone: on any other host (an owner's custom domain, an account's subdomain) the
 * route does not match and the address is what it was before, a visitor page. Decision 0020 says how
 * the bundle is found.
 */
export function studioDocumentRoutes(
  server: FastifyInstance,
  { publicUrl, app = loadViteApp('studio') }: StudioDocumentOptions,
): Promise<void> {
  const host = new URL(publicUrl).hostname.toLowerCase();
  // Fastify matches the Host header, port included: any port of the operator's host name.
  const constraints = { host: new RegExp(`^${escapeRegExp(host)}(?::\\d+)?$`, 'i') };
  const html = renderDocument({
    app,
    lang: 'es',
    head: '<title>Embudo Studio</title><meta name="robots" content="noindex">',
    body: '<div id="studio"></div><noscript>Embudo Studio needs JavaScript.</noscript>',
  });
  const answer = (_req: unknown, reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-store')
      .header('content-security-policy', STUDIO_CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(html);
  server.get('/studio', { constraints, schema: { hide: true } }, answer);
  server.get('/studio/*', { constraints, schema: { hide: true } }, answer);
  return Promise.resolve();
}
