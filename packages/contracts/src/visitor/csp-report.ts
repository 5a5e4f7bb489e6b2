import { z } from 'zod';

/** The fields of a violation this server reads; browsers send more, which are ignored. */
const Violation = {
  /** The directive that blocked (or, in report-only mode, would have blocked) the request. */
  effectiveDirective: z.string().max(100),
  /** What was blocked: a URL, or a keyword such as `inline` or `eval`. */
  blockedUrl: z.string().max(4096),
};

/**
 * POST /api/csp-report: what a visitor's browser reports when the page's Content-Security-Policy
 * blocks something, in either format browsers send: `report-uri`'s `application/csp-report` body,
 * or the Reporting API's `application/reports+json` list.
 */
export const CspReportUri = z.object({
  'csp-report': z.object({
    'effective-directive': Violation.effectiveDirective.optional(),
    'violated-directive': Violation.effectiveDirective.optional(),
    'blocked-uri': Violation.blockedUrl.optional(),
  }),
});

export const CspReportingApi = z
  .array(
    z.object({
      type: z.string().max(100),
      body: z
        .object({
          effectiveDirective: Violation.effectiveDirective,
          blockedURL: Violation.blockedUrl.optional(),
        })
        .optional(),
    }),
  )
  .max(100);

export const CspReportBody = z.union([CspReportUri, CspReportingApi]);
export type CspReportBody = z.infer<typeof CspReportBody>;
