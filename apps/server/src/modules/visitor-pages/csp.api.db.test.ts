import { ApiError } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api, startTestServer } from '../../../test/server';
import { NO_RATE_LIMIT, pageId, read, useVisitorServer, type Answer } from '../../../test/visitor';

/** An error in the API's shape, with this status. */
function expectError(answer: Answer, status: number): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(read(ApiError, answer).statusCode).toBe(status);
}

const directive = (policy: string | null, name: string) =>
  (policy ?? '')
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([first]) => first === name)
    ?.slice(1);

const REPORT = {
  'csp-report': {
    'document-uri': 'http://127.0.0.1/acme/the-lead-token-that-must-not-be-logged',
    referrer: '',
    'violated-directive': 'script-src-elem',
    'effective-directive': 'script-src-elem',
    'original-policy': "default-src 'none'",
    disposition: 'enforce',
    'blocked-uri': 'https://evil.example/steal.js?token=the-lead-token-that-must-not-be-logged',
    'status-code': 200,
  },
};

describe.each(TEST_DIALECTS)('visitor page headers and CSP reports (%s)', (dialect) => {
  const h = useVisitorServer(dialect);

  const page = (path: string) => fetch(`${h.server.url}${path}`);
  const leadPath = () => new URL(h.vsl.leads[0]?.url ?? '').pathname;

  it('sends a lead page with the policy of its funnel, framing refused, and the same for its preview', async () => {
    const before = await page(leadPath());
    expect(before.status).toBe(200);
    const policy = before.headers.get('content-security-policy');
    expect(directive(policy, 'frame-src')).toEqual(["'none'"]);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
    expect(before.headers.get('x-frame-options')).toBe('DENY');
    expect(before.headers.get('permissions-policy')).toBe(
      'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    );
    expect(before.headers.get('content-security-policy-report-only')).toBeNull();

    // The owner moves the funnel's second page to Vimeo: the lead, still on the first page, may go
    // there without reloading, so its page's policy names Vimeo at once.
    const changed = await api(h.server, 'PATCH', `/api/owner/pages/${pageId(h.vsl, 1)}`, {
      key: h.demo.apiKey,
      body: { hostingVideo: 'VIMEO', videoId: '76979871', videoUrl: null },
    });
    expect(changed.status, changed.text).toBe(200);
    const after = (await page(leadPath())).headers.get('content-security-policy');
    expect(directive(after, 'frame-src')).toEqual(['https://player.vimeo.com']);
    expect(directive(after, 'script-src')).toEqual(["'self'"]);

    const preview = new URL(h.vsl.previewUrl);
    const previewPolicy = (await page(`${preview.pathname}${preview.search}`)).headers.get(
      'content-security-policy',
    );
    expect(directive(previewPolicy, 'frame-src')).toEqual(['https://player.vimeo.com']);
  });

  it('sends a page that finds no lead with the policy that allows nothing from elsewhere', async () => {
    const answer = await page('/nobody/not-a-token-of-anyone-at-all');
    expect(answer.status).toBe(404);
    const policy = answer.headers.get('content-security-policy');
    expect(directive(policy, 'frame-src')).toEqual(["'none'"]);
    expect(directive(policy, 'default-src')).toEqual(["'none'"]);
  });

  it.each([
    ['application/csp-report', REPORT],
    [
      'application/reports+json',
      [
        {
          type: 'csp-violation',
          age: 0,
          url: 'http://127.0.0.1/acme/the-lead-token-that-must-not-be-logged',
          body: {
            documentURL: 'http://127.0.0.1/acme/the-lead-token-that-must-not-be-logged',
            effectiveDirective: 'script-src-elem',
            blockedURL: 'https://evil.example/steal.js?token=the-lead-token-that-must-not-be-logged',
            disposition: 'enforce',
          },
        },
      ],
    ],
  ])(
    'logs a violation reported as %s: its directive and blocked origin, never the page address',
    async (type, body) => {
      const before = h.server.logs().length;
      const answer = await api(h.server, 'POST', '/api/csp-report', {
        rawBody: JSON.stringify(body),
        headers: { 'content-type': type },
      });
      expect(answer.status, answer.text).toBe(204);
      const lines = h.server
        .logs()
        .slice(before)
        .split('\n')
        .filter((line) => line.includes('content security policy violation'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
        level: 40,
        directive: 'script-src-elem',
        blocked: 'https://evil.example',
      });
      expect(h.server.logs()).not.toContain('the-lead-token-that-must-not-be-logged');
    },
  );

  it.each([
    ['JSON that does not parse', 'application/csp-report', '{"csp-report":'],
    ['a body of another shape', 'application/csp-report', JSON.stringify({ report: 'yes' })],
    ['a list of other things', 'application/reports+json', JSON.stringify([{ kind: 'csp' }])],
  ])('refuses %s with a 400 in the error shape', async (_name, type, rawBody) => {
    const answer = await api(h.server, 'POST', '/api/csp-report', {
      rawBody,
      headers: { 'content-type': type },
    });
    expectError(answer, 400);
  });

  it('refuses a report over 16 KiB with 413', async () => {
    const huge = { 'csp-report': { ...REPORT['csp-report'], 'script-sample': 'x'.repeat(20_000) } };
    const answer = await api(h.server, 'POST', '/api/csp-report', {
      rawBody: JSON.stringify(huge),
      headers: { 'content-type': 'application/csp-report' },
    });
    expectError(answer, 413);
  });
});

describe('CSP_MODE=report-only', () => {
  it('sends the same policy for browsers to report on, not to enforce', async () => {
    const enforcing = await startTestServer('sqlite', NO_RATE_LIMIT);
    const reporting = await startTestServer('sqlite', { ...NO_RATE_LIMIT, CSP_MODE: 'report-only' });
    try {
      const [enforced, reported] = await Promise.all(
        [enforcing, reporting].map((server) => fetch(`${server.url}/nobody/not-a-token-of-anyone-at-all`)),
      );
      expect(reported?.headers.get('content-security-policy')).toBeNull();
      expect(reported?.headers.get('content-security-policy-report-only')).toBe(
        enforced?.headers.get('content-security-policy'),
      );
      expect(reported?.headers.get('x-frame-options')).toBe('DENY');
    } finally {
      await enforcing.close();
      await reporting.close();
    }
  });
});
