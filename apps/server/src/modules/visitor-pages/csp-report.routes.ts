import { ROUTES } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../http/contract-routes';

/** A report is well under a kilobyte; a batch of the Reporting API a few. */
const CSP_REPORT_BODY_LIMIT = 16 * 1024;

/** A blocked address as logged: its origin only (a path may carry a token), or a keyword (`inline`). */
function blockedOrigin(blocked: string | undefined): string {
  if (!blocked) return 'unknown';
  return URL.canParse(blocked) ? new URL(blocked).origin : blocked.slice(0, 40);
}

/**
 * POST /api/csp-report: where visitors' browsers report what a page's Content-Security-Policy blocked
 * (or would block, in report-only mode). Each violation is logged as a warning with its directive and
 * the blocked origin, so an operator sees a provider the policy misses; the page's own address is not
 * logged, as it carries the lead's token.
 */
export const cspReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    ['application/csp-report', 'application/reports+json'],
    { parseAs: 'string' },
    json,
  );
  registerRoutes(app, ROUTES.cspReport, {
    report: {
      bodyLimit: CSP_REPORT_BODY_LIMIT,
      handler: async (req, reply) => {
        const violations = Array.isArray(req.body)
          ? req.body.flatMap((report) =>
              report.type === 'csp-violation' && report.body
                ? [{ directive: report.body.effectiveDirective, blocked: report.body.blockedURL }]
                : [],
            )
          : [
              {
                directive:
                  req.body['csp-report']['effective-directive'] ??
                  req.body['csp-report']['violated-directive'] ??
                  'unknown',
                blocked: req.body['csp-report']['blocked-uri'],
              },
            ];
        for (const { directive, blocked } of violations) {
          req.log.warn({ directive, blocked: blockedOrigin(blocked) }, 'content security policy violation');
        }
        return reply.status(204).send(null);
      },
    },
  });
  return Promise.resolve();
};
