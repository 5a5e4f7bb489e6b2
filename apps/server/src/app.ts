import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { NoQuery } from '@embudo/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db';
import { answerClientError, installErrorHandling, routeNotFound } from './http/errors';
import { rejectOddHost } from './http/host-header';
import { rejectUnstorableInput } from './http/input-guard';
import { REDACTED_PATHS, redactUrl } from './http/redact';
import { accountRoutes } from './modules/accounts/account.routes';
import { ownerAuthHook, ownerRateLimit } from './modules/auth/owner-auth';
import { memberRoutes } from './modules/members/member.routes';
import { studioAuthRoutes } from './modules/studio-sessions/studio-auth.routes';
import { domainRoutes, tlsAskRoute } from './modules/domains/domain.routes';
import { faviconRoutes } from './modules/favicon/favicon.routes';
import { funnelRoutes } from './modules/funnels/funnel.routes';
import { healthRoutes } from './modules/health/health.routes';
import { leadRoutes } from './modules/leads/lead.routes';
import { pageRoutes } from './modules/pages/page.routes';
import { previewRoutes } from './modules/previews/preview.routes';
import { cspReportRoutes } from './modules/visitor-pages/csp-report.routes';
import { siteApiRoutes, visitorPageRoutes } from './modules/visitor-pages/visitor-pages.routes';
import { loadWebAssets } from './modules/visitor-pages/web-assets';
import { serveViteApps } from './http/vite-apps';
import { studioDocumentRoutes } from './http/studio-document';
import { conversionRoutes } from './modules/conversions/conversion.routes';
import { countryFlagRoutes } from './modules/fomo/country-flags.routes';
import { fomoRoutes } from './modules/fomo/fomo.routes';
import { geoRoutes } from './modules/geo/geo.routes';
import { pixelRoutes } from './modules/pixel/pixel.routes';
import { trackingRoutes } from './modules/tracking/tracking.routes';
import { registerRateLimit, visitorRateLimit } from './http/rate-limit';
import { limitBodyTime } from './http/body-timeout';
import { createServices, type Services } from './services';

/** The body limit of the Studio's /api/auth routes. */
export const STUDIO_AUTH_BODY_LIMIT = 16 * 1024;

export const ASSETS_DIR = fileURLToPath(new URL('../assets', import.meta.url));

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Where log lines go; default stdout. Tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
  /** The clock of Studio sessions; tests move it to see sessions expire. */
  now?: () => number;
}

export interface App {
  server: FastifyInstance;
  services: Services;
}

export async function buildApp({ config, database, logStream, now }: AppOptions): Promise<App> {
  const server = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.hostname,
          remoteAddress: req.ip,
        }),
      },
      ...(logStream ? { stream: logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    // A request that has not finished sending in time is cut: slow clients cannot hold sockets.
    requestTimeout: config.requestTimeoutMs,
    // Node looks for such requests every 30 s by default: often enough to keep the limit.
    http: { connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.requestTimeoutMs / 4)) },
    connectionTimeout: 60_000,
    clientErrorHandler: answerClientError,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  const services = await createServices(database, { ...config, ...(now ? { now } : {}) }, server.log);
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  installErrorHandling(server);
  server.addHook('onRequest', rejectOddHost);
  server.addHook('preValidation', rejectUnstorableInput);
  limitBodyTime(server, config.requestTimeoutMs);

  await server.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Embudo API',
        version: '0.1.0',
        description:
          "Owner API (a Bearer API key, or the Studio's session cookie), the Studio's sign-in, and the " +
          'visitor API of the funnel pages.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer' },
          studioSession: { type: 'apiKey', in: 'cookie', name: 'embudo_session' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await server.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // The UI's own policy (its scripts by hash), framed by no site, and no insecure-request upgrade:
    // the docs must also open on a plain-http development server.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, ''),
    uiHooks: {
      onRequest: (_req, reply, done) => {
        reply.header('x-frame-options', 'DENY').header('x-content-type-options', 'nosniff');
        done();
      },
    },
  });

  await server.register(countryFlagRoutes);
  await server.register(fastifyStatic, {
    root: ASSETS_DIR,
    prefix: '/assets/',
    acceptRanges: true,
    maxAge: '1h',
  });

  // Before the visitor scope: not counted against its rate limit, and never the visitor page's 404.
  await server.register(faviconRoutes, { file: `${ASSETS_DIR}/favicon.ico` });
  await server.register(healthRoutes, { db: database.db, dialect: database.dialect });
  await server.register(tlsAskRoute, { domains: services.domains, allowed: config.domains.tlsAskAllow });
  await server.register(
    async (owner) => {
      owner.decorateRequest('ownerAccess', null);
      owner.addHook(
        'onRequest',
        ownerAuthHook(services.accounts, {
          sessions: services.sessions,
          members: services.members,
          studioOrigin: new URL(config.publicUrl).origin,
        }),
      );
      await registerRateLimit(owner, config, ownerRateLimit(config.ownerLimits.requestsPerMinute));
      owner.addHook('onRoute', (route) => {
        // Owner routes take no query parameters unless they say so: an unknown one is a 400.
        route.schema = {
          querystring: NoQuery,
          ...route.schema,
          security: [{ apiKey: [] }, { studioSession: [] }],
        };
      });
      await owner.register(accountRoutes, { accounts: services.accounts });
      await owner.register(memberRoutes, { members: services.members });
      await owner.register(funnelRoutes, { funnels: services.funnels, templates: services.funnelTemplates });
      await owner.register(pageRoutes, { pages: services.pages });
      await owner.register(leadRoutes, { leads: services.leads });
      await owner.register(domainRoutes, { domains: services.domains });
      await owner.register(previewRoutes, { previews: services.previews });
      await owner.register(analyticsRoutes, { reports: services.analyticsReports });
    },
    // The owner routes' paths (the route table's) all start with /api/owner.
  );
  // The Studio's sign-in, sessions and invitations (decision 21); paths under /api/auth.
  await server.register(async (studio) => {
    studio.addHook('onRoute', (route) => {
      // No query parameters, and small bodies: a sign-in or a profile is a few hundred bytes.
      route.schema = { querystring: NoQuery, ...route.schema };
      route.bodyLimit ??= STUDIO_AUTH_BODY_LIMIT;
    });
    await studio.register(studioAuthRoutes, {
      studioAuth: services.studioAuth,
      sessions: services.sessions,
      config,
    });
  });
  await server.register(async (visitor) => {
    await registerRateLimit(visitor, config, visitorRateLimit(config));
    await visitor.register(siteApiRoutes, { visitorPages: services.visitorPages });
    await visitor.register(trackingRoutes, { tracking: services.tracking, noop: config.benchNoopEndpoint });
    await visitor.register(conversionRoutes, { conversions: services.conversions });
    await visitor.register(fomoRoutes, { fomo: services.fomo });
    await visitor.register(geoRoutes, { geo: services.geo });
    await visitor.register(pixelRoutes, { pixel: services.pixel });
    await visitor.register(cspReportRoutes);
    // Visitor pages, rendered on the server from the database, count against the same limit. Routes
    // match by path, not by order: /api/* and /static/* below still take their own paths.
    await visitor.register(visitorPageRoutes, {
      visitorPages: services.visitorPages,
      baseDomains: config.baseDomains,
      assets: loadWebAssets(),
      cspMode: config.cspMode,
      providerEmail: config.legalContactEmail ?? null,
    });
  });
  // Every acknowledged event is committed before the database closes.
  server.addHook('onClose', async () => {
    await services.writer.drain();
    await services.closeShared();
  });
  // Under /api an unknown path is a JSON 404, never a visitor page.
  server.all('/api/*', { schema: { hide: true } }, (req) => {
    throw routeNotFound(req.method, req.url);
  });
  await server.register(studioDocumentRoutes, { publicUrl: config.publicUrl });
  // Each app's hashed bundle by name (the visitor app's under /static/): cached for a year.
  await serveViteApps(server);
  return { server, services };
}
