import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../test/databases';
import { api } from '../../test/server';
import { expectVisitorError, useVisitorServer, type Answer, type VisitorHandle } from '../../test/visitor';

/**
 * The per-address limit on the public visitor API (architecture §2), against a real server with
 * RATE_LIMIT_PER_MINUTE=5: the 6th visitor call within a minute is refused with a 429 in the
 * visitor envelope; owner routes and the health check are not counted.
 */

const LIMIT = 5;
const TOKEN = 'r'.repeat(32);
const SESSION = 'no-such-session';

interface VisitorCall {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: (h: VisitorHandle) => unknown;
}

/** Every visitor call of visitor-behaviour §7 the server answers, under /api; each also answers without it. */
const CALLS: VisitorCall[] = [
  {
    method: 'POST',
    path: '/funnel/site',
    body: (h) => ({ domain: h.server.url, slug: 'demo', token: TOKEN, type: 'BASE' }),
  },
  { method: 'POST', path: '/funnel/site/preview', body: (h) => ({ domain: h.server.url, token: TOKEN }) },
  {
    method: 'POST',
    path: '/funnel/landing',
    body: (h) => ({ userDomain: h.server.url, userSlug: 'demo', userToken: TOKEN, type: 'BASE' }),
  },
  { method: 'POST', path: '/funnel/track/page', body: () => ({ token: TOKEN }) },
  { method: 'PUT', path: `/funnel/track/page/${SESSION}`, body: () => ({ token: TOKEN }) },
  {
    method: 'POST',
    path: '/funnel/track/action',
    body: () => ({ token: TOKEN, idTrackingPageSession: SESSION, action: 'CLICK', timestamp: 0 }),
  },
  {
    method: 'POST',
    path: '/funnel/track/video',
    body: () => ({
      token: TOKEN,
      idTrackingPageSession: SESSION,
      startViewTime: 0,
      endViewTime: 0,
      startTimeVideo: 0,
      endTimeVideo: 0,
    }),
  },
  { method: 'PUT', path: '/funnel/site/complete', body: () => ({ token: TOKEN }) },
  { method: 'POST', path: '/funnel/track/event/offert', body: () => ({ token: TOKEN }) },
  { method: 'POST', path: '/lead/internal/conversion/prelaunch', body: () => ({ token: TOKEN }) },
  { method: 'POST', path: '/funnel/lead/ip', body: () => ({ token: TOKEN, ip: '203.0.113.7' }) },
  { method: 'POST', path: '/funnel/fomo', body: () => ({ idFunnel: 'x', site: 'VIDEO', location: {} }) },
  { method: 'GET', path: '/geo' },
];

const CASES = CALLS.flatMap((call) => [
  { ...call, path: `/api${call.path}` },
  { ...call, path: call.path },
]);

function caseFor(method: VisitorCall['method'], path: string): VisitorCall {
  const found = CASES.find((c) => c.method === method && c.path === path);
  if (!found) throw new Error(`no case ${method} ${path}`);
  return found;
}

function send(h: VisitorHandle, call: VisitorCall, headers: Record<string, string> = {}): Promise<Answer> {
  return api(h.server, call.method, call.path, {
    headers,
    ...(call.body === undefined ? {} : { body: call.body(h) }),
  });
}

function expectLimited(answer: Answer): void {
  const error = expectVisitorError(answer, 429);
  expect(error.code).toBe('RATE_LIMITED');
  expect(error.message).toMatch(/too many requests/);
}

describe.each(TEST_DIALECTS)('rate limit on the visitor API on %s', (dialect) => {
  describe('from one address', () => {
    const h = useVisitorServer(dialect, { RATE_LIMIT_PER_MINUTE: String(LIMIT) });

    it('the 6th visitor call within a minute gets 429 in the envelope; owner and health routes do not', async () => {
      // Five different calls (both path readings) share the address's budget.
      const counted = [
        caseFor('POST', '/api/funnel/site'),
        caseFor('POST', '/api/funnel/track/page'),
        caseFor('PUT', '/funnel/site/complete'),
        caseFor('POST', '/funnel/fomo'),
        caseFor('GET', '/api/geo'),
      ];
      for (const call of counted) {
        const answer = await send(h, call);
        expect(answer.status, `${call.method} ${call.path}: ${answer.text}`).not.toBe(429);
      }
      for (const call of [
        caseFor('POST', '/api/funnel/site'),
        caseFor('POST', '/funnel/site'),
        caseFor('POST', '/api/funnel/track/video'),
      ]) {
        expectLimited(await send(h, call));
      }

      // The pixel call (which answers { success } rather than the visitor envelope) is counted too.
      const pixel = await api(h.server, 'POST', '/api/funnel/track/pixel', {
        body: { idFunnel: 'x', token: TOKEN, eventData: { eventName: 'Lead' } },
      });
      expect(pixel.status).toBe(429);
      expect(pixel.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
      // A visitor page, rendered from the database, is counted with the rest.
      const page = await api(h.server, 'GET', `/demo/${TOKEN}`);
      expect(page.status).toBe(429);
      expect(page.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
      // The visitor app's files are not.
      const bundle = await api(h.server, 'GET', '/static/no-such-file.js');
      expect(bundle.status).toBe(404);

      for (let i = 0; i < 2 * LIMIT; i++) {
        const account = await api(h.server, 'GET', '/api/owner/account', { key: h.demo.apiKey });
        expect(account.status, account.text).toBe(200);
        const health = await api(h.server, 'GET', '/api/health');
        expect(health.status, health.text).toBe(200);
      }
    });
  });

  describe('behind a trusted proxy, one address per case', () => {
    const h = useVisitorServer(dialect, { RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'true' });

    it.each(CASES.map((call, index) => ({ ...call, index })))(
      '$method $path: the 6th call gets 429 in the envelope',
      async (call) => {
        const address = { 'x-forwarded-for': `10.77.${call.index}.1` };
        for (let i = 0; i < LIMIT; i++) {
          const answer = await send(h, call, address);
          expect(answer.status, answer.text).not.toBe(429);
        }
        expectLimited(await send(h, call, address));
        // Another address is counted on its own.
        const other = await send(h, call, { 'x-forwarded-for': `10.78.${call.index}.1` });
        expect(other.status, other.text).not.toBe(429);
      },
    );
  });
});
