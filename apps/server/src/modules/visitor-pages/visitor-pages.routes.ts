import {
  LandingData,
  ROUTES,
  hostOf,
  parseSiteContext,
  type LandingResponse,
  type SiteContext,
  type SiteResponse,
} from '@embudo/contracts';
import { renderVisitorPage } from '@embudo/web/entry-server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';
import { writeTrustedJson } from '../../http/visitor-api';
import { cspHeaderName, visitorPagePolicy, type CspMode } from './content-security-policy';
import type { PageRecord } from '../pages/page.service';
import { NO_PAGES, type VisitorPagesService } from './visitor-pages.service';
import type { WebAssets } from './web-assets';

/** The visitor API calls of visitor-behaviour §7 that resolve a page; each answers under /api and without it (architecture §5.1). */
export const siteApiRoutes: FastifyPluginAsyncZod<{ visitorPages: VisitorPagesService }> = async (
  app,
  { visitorPages },
) => {
  registerRoutes(
    app,
    ROUTES.site,
    {
      resolve: {
        serializerCompiler: writeTrustedJson,
        handler: async (req, reply) => {
          const json = await visitorPages.resolveJson({
            host: hostOf(req.body.domain),
            type: req.body.type,
            slug: req.body.slug,
            token: req.body.token,
          });
          // Already written (a SiteResponse, as the service's test checks against JSON.stringify): a
          // string with a JSON type is sent as it is. The schema still documents the answer.
          return reply.type('application/json; charset=utf-8').send(json as unknown as SiteResponse);
        },
      },
      preview: (req) => visitorPages.resolvePreview({ host: hostOf(req.body.domain), token: req.body.token }),
      landing: async (req): Promise<LandingResponse> => {
        const { userDomain, userSlug, userToken, type } = req.body;
        const found = await visitorPages.resolve({
          host: hostOf(userDomain),
          type,
          slug: userSlug,
          token: userToken,
        });
        // The schema keeps exactly the landing fields of the page data.
        return { message: found.message, data: found.data ? LandingData.parse(found.data) : null };
      },
    },
    { shared: { bodyLimit: 8 * 1024, config: { visitorEnvelope: true } } },
  );
  return Promise.resolve();
};

/**
 * Every other GET is a visitor page, rendered on the server with its data inlined (architecture §3).
 */
export const visitorPageRoutes: FastifyPluginAsyncZod<{
  visitorPages: VisitorPagesService;
  baseDomains: readonly string[];
  assets: WebAssets;
  cspMode: CspMode;
  /** The operator's contact address, for legal pages no account's address applies to. */
  providerEmail: string | null;
}> = async (app, { visitorPages, baseDomains, assets, cspMode, providerEmail }) => {
  const cspHeader = cspHeaderName(cspMode);
  // A funnel's policy is written once per read of its pages (the visitor pages service keeps that read).
  const policies = new WeakMap<readonly PageRecord[], string>();
  const policyOf = (pages: readonly PageRecord[]) => {
    let policy = policies.get(pages);
    if (policy === undefined) {
      policy = visitorPagePolicy(pages, baseDomains);
      policies.set(pages, policy);
    }
    return policy;
  };
  app.get('/*', { schema: { hide: true } }, async (req, reply) => {
    const address = `${req.protocol}://${req.host}${req.url}`;
    const context: SiteContext = URL.canParse(address)
      ? parseSiteContext(address, baseDomains)
      : { userDomain: '', type: 'CUSTOM' };
    const host = req.hostname.toLowerCase();
    const previewToken = context.queryParams?.previewToken;
    const view = previewToken
      ? await visitorPages.previewView({
          host,
          token: previewToken,
          slug: context.type === 'BASE' ? context.userSlug : null,
        })
      : context.userToken
        ? await visitorPages.pageView({
            host,
            type: context.type,
            slug: context.userSlug,
            token: context.userToken,
          })
        : null;
    const page = renderVisitorPage({
      context,
      site: view?.response ?? null,
      baseDomains: [...baseDomains],
      assets,
      // Where no funnel's language applies (an unknown address), the visitor's own language.
      acceptLanguage: req.headers['accept-language'],
      providerEmail,
    });
    return (
      reply
        .status(page.status)
        .header('cache-control', 'no-store')
        // The address carries the lead's token: never hand it to another site.
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .header(cspHeader, policyOf(view?.pages ?? NO_PAGES))
        // For browsers without CSP's frame-ancestors: no other site may frame a lead's page.
        .header('x-frame-options', 'DENY')
        // Nothing on a funnel page needs the camera, microphone, location or payments, so no script
        // of a player or of rich text may ask for them.
        .header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()')
        .type('text/html; charset=utf-8')
        .send(page.html)
    );
  });
  return Promise.resolve();
};
