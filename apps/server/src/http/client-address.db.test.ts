import { randomUUID } from 'node:crypto';
import { Funnel, PageSessionStarted, SessionDetails, SuccessAnswer } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../test/databases';
import { api } from '../../test/server';
import { NO_RATE_LIMIT, PREFIXES, newLead, read, sessionDetails, useVisitorServer } from '../../test/visitor';
import { ServerEvent } from '../modules/pixel/meta-capi';

/**
 * The visitor's address is the one the server sees (`req.ip`: the connection's, or the client's as a
 * trusted proxy names it with TRUST_PROXY), never one a request body names. A body's `ip` is taken,
 * as the spec's pages send it, and not believed: a visitor could write any address into the owner's
 * data and into what the owner's pixel sends to Meta. The same for the pixel's user agent: the
 * request's User-Agent header, not the body's `agent`.
 */

/** What a page could claim (documentation addresses, RFC 5737). */
const FORGED_IP = '203.0.113.7';
const FORGED_AGENT = 'Forged/1.0 (from the body)';
const HEADER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) HeaderAgent/2.0';
const PIXEL = { pixelId: '1234567890', accessToken: 'EAAB-client-address-token' };

/** Device details whose location carries the forged address, as the visitor page sends it. */
const forgedDetails = (): SessionDetails =>
  sessionDetails({
    privacySensitiveData: {
      deviceId: 'device_1700000000000_addr',
      location: { ip: FORGED_IP, location: { city: 'Monterrey', countryCode: 'MX' } },
    },
  });

/** The stored details' location: what the owner reads as where the visitor was. */
function locationOf(detailsJson: string | null): Record<string, unknown> | undefined {
  return SessionDetails.parse(JSON.parse(detailsJson ?? '{}')).privacySensitiveData?.location;
}

const CASES = [
  {
    name: 'straight from the client',
    env: NO_RATE_LIMIT,
    headers: {},
    // Node gives the loopback connection's address as it was dialled: 127.0.0.1.
    expected: '127.0.0.1',
  },
  {
    name: 'behind a trusted proxy (TRUST_PROXY=true)',
    env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' },
    headers: { 'x-forwarded-for': '198.51.100.9' },
    expected: '198.51.100.9',
  },
] as const;

describe.each(TEST_DIALECTS)('the visitor’s address on %s', (dialect) => {
  describe.each(CASES)('$name', ({ env, headers, expected }) => {
    const h = useVisitorServer(dialect, env);
    const db = () => h.server.database.db;

    it(`POST /funnel/lead/ip with a forged ip stores ${expected} in leads.lastIp, and logs the claim without the token`, async () => {
      for (const prefix of PREFIXES) {
        const lead = await newLead(h, h.vsl.id);
        const answer = await api(h.server, 'POST', `${prefix}/funnel/lead/ip`, {
          headers,
          body: { token: lead.token, ip: FORGED_IP },
        });
        expect(answer.status, answer.text).toBe(200);
        expect(read(SuccessAnswer, answer).success).toBe(true);
        const row = await db()
          .selectFrom('leads')
          .select(['lastIp', 'lastIpAt'])
          .where('id', '=', lead.id)
          .executeTakeFirstOrThrow();
        expect(row.lastIp, prefix).toBe(expected);
        expect(row.lastIpAt).toEqual(expect.any(Number));

        const claims = h.server
          .logs()
          .split('\n')
          .filter((line) => line.includes(FORGED_IP));
        expect(claims.length, prefix).toBeGreaterThan(0);
        for (const line of claims) expect(line).not.toContain(lead.token);
      }
    });

    it(`POST /funnel/track/pixel queues client_ip_address ${expected} and the User-Agent header, not eventData’s ip and agent`, async () => {
      const created = await api(h.server, 'POST', '/api/owner/funnels', {
        key: h.demo.apiKey,
        body: { name: 'Pixel funnel', pixel: PIXEL },
      });
      expect(created.status, created.text).toBe(201);
      const funnel = read(Funnel, created);
      // Only a lead of the funnel may make its pixel send (issue 16, item 2).
      const lead = await newLead(h, funnel.id);
      for (const prefix of PREFIXES) {
        const eventId = `client-address-${randomUUID()}`;
        const answer = await api(h.server, 'POST', `${prefix}/funnel/track/pixel`, {
          headers: { ...headers, 'user-agent': HEADER_AGENT },
          body: {
            idFunnel: funnel.id,
            token: lead.token,
            eventData: { eventName: 'Lead', eventId, ip: FORGED_IP, agent: FORGED_AGENT },
          },
        });
        expect(answer.status, answer.text).toBe(200);
        expect(read(SuccessAnswer, answer).success).toBe(true);
        const row = await db()
          .selectFrom('pixelOutbox')
          .select('payload')
          .where('eventId', '=', eventId)
          .executeTakeFirstOrThrow();
        expect(ServerEvent.parse(JSON.parse(row.payload)).user_data, prefix).toEqual({
          client_ip_address: expected,
          client_user_agent: HEADER_AGENT,
        });
      }
    });

    it(`POST and PUT /funnel/track/page store ${expected} as the session location’s ip, and in the visit`, async () => {
      const lead = await newLead(h, h.vsl.id);
      const sessionId = await startedSessionWith(lead.token);
      const visit = await db()
        .selectFrom('visits')
        .select('ip')
        .where('leadId', '=', lead.id)
        .executeTakeFirstOrThrow();
      expect(visit.ip).toBe(expected);

      const ended = await api(h.server, 'PUT', `/api/funnel/track/page/${sessionId}`, {
        headers,
        body: { token: lead.token, endReason: 'PAGE_CLOSE', details: forgedDetails() },
      });
      expect(ended.status, ended.text).toBe(200);
      const session = await db()
        .selectFrom('pageSessions')
        .select(['details', 'endDetails'])
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      // The browser's own looked-up place stays; the address beside it is the one the server saw.
      const place = { city: 'Monterrey', countryCode: 'MX' };
      expect(locationOf(session.details)).toEqual({ ip: expected, location: place });
      expect(locationOf(session.endDetails)).toEqual({ ip: expected, location: place });
    });

    /** A session started with the forged details, through the proxy header when there is one. */
    async function startedSessionWith(token: string): Promise<string> {
      const answer = await api(h.server, 'POST', '/api/funnel/track/page', {
        headers,
        body: { token, details: forgedDetails(), start: Date.now() },
      });
      expect(answer.status, answer.text).toBe(200);
      const id = read(PageSessionStarted, answer).data?.idTrackingPageSession;
      if (!id) throw new Error(`no session: ${answer.text}`);
      return id;
    }
  });
});
