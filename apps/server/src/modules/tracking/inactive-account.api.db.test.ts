import { SuccessAnswer } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, rowCounts } from '../../../test/fixtures';
import { api } from '../../../test/server';
import {
  PREFIXES,
  completePage,
  expectVisitorError,
  read,
  startSession,
  startedSession,
  useVisitorServer,
  type Answer,
  type Prefix,
} from '../../../test/visitor';

/**
 * An account whose subscription is inactive takes nothing from visitors (issue 16, item 8): its
 * pages answer INACTIVE_SUBSCRIPTION (modules/visitor-pages), and so does every tracking and conversion call
 * of its leads, with nothing stored. Against a real server, on each database.
 */

describe.each(TEST_DIALECTS)('an inactive account’s visitor calls on %s', (dialect) => {
  const h = useVisitorServer(dialect);
  const db = () => h.server.database.db;

  /**
   * A fresh account with one OFFERT page in a pre-launch funnel, so that every call here, the offer
   * event and the pre-launch conversion included, is one the lead may make while the account is active.
   */
  async function activeLead() {
    const { services } = h.server;
    const owner = await newAccount(services);
    const { funnel, pages } = await newFunnel(services, owner, {
      funnel: { name: 'Preventa', isPreLaunch: true },
      pages: [{ buttonAction: 'OFFERT', buttonUrl: 'https://checkout.example.com/plaza' }],
    });
    const created = await services.leads.create(owner, funnel.id, { name: 'Rosa' });
    const page = pages[0];
    if (!page) throw new Error('the funnel has no page');
    return { owner, page, lead: { id: created.lead.id, token: created.token } };
  }

  const calls = (token: string, sessionId: string, page: string) =>
    [
      ['track/page', (p: Prefix) => startSession(h, token, {}, p)],
      [
        'track/page/:id',
        (p: Prefix) =>
          api(h.server, 'PUT', `${p}/funnel/track/page/${sessionId}`, {
            body: { token, endReason: 'PAGE_CLOSE' },
          }),
      ],
      [
        'track/action',
        (p: Prefix) =>
          api(h.server, 'POST', `${p}/funnel/track/action`, {
            body: {
              token,
              idTrackingPageSession: sessionId,
              action: 'BUTTON_CLICK',
              timestamp: Date.now(),
              details: {},
            },
          }),
      ],
      [
        'track/video',
        (p: Prefix) =>
          api(h.server, 'POST', `${p}/funnel/track/video`, {
            body: {
              token,
              idTrackingPageSession: sessionId,
              startViewTime: Date.now() - 5000,
              endViewTime: Date.now(),
              startTimeVideo: 0,
              endTimeVideo: 5,
              details: { state: 'PAUSE' },
            },
          }),
      ],
      ['site/complete', (p: Prefix) => completePage(h, token, page, p)],
      [
        'track/event/offert',
        (p: Prefix) => api(h.server, 'POST', `${p}/funnel/track/event/offert`, { body: { token } }),
      ],
      [
        'conversion/prelaunch',
        (p: Prefix) => api(h.server, 'POST', `${p}/lead/internal/conversion/prelaunch`, { body: { token } }),
      ],
    ] as const satisfies readonly (readonly [string, (p: Prefix) => Promise<Answer>])[];

  it('refuses every tracking and conversion call with 403 INACTIVE_SUBSCRIPTION and stores nothing', async () => {
    const { owner, page, lead } = await activeLead();
    const session = await startedSession(h, lead.token);
    await h.server.services.accounts.setSubscription(owner.id, 'inactive');

    const leadRow = () =>
      db()
        .selectFrom('leads')
        .select(['lastIp', 'lastIpAt', 'currentPageId'])
        .where('id', '=', lead.id)
        .executeTakeFirstOrThrow();
    const leadBefore = await leadRow();
    const before = await rowCounts(db());
    for (const prefix of PREFIXES) {
      for (const [name, send] of calls(lead.token, session, page.id)) {
        const answer = await send(prefix);
        const error = expectVisitorError(answer, 403);
        expect(error, `${prefix} ${name}`).toMatchObject({
          code: 'INACTIVE_SUBSCRIPTION',
          message: 'INACTIVE_SUBSCRIPTION',
        });
      }
      const ip = await api(h.server, 'POST', `${prefix}/funnel/lead/ip`, {
        body: { token: lead.token, ip: '203.0.113.9' },
      });
      expect(ip.status, ip.text).toBe(200);
      expect(read(SuccessAnswer, ip)).toEqual({ success: false, message: 'INACTIVE_SUBSCRIPTION' });
    }
    expect(await rowCounts(db())).toEqual(before);
    const stored = await db()
      .selectFrom('pageSessions')
      .select(['endAt', 'lastSeenAt'])
      .where('id', '=', session)
      .executeTakeFirstOrThrow();
    expect(stored.endAt).toBeNull();
    expect(await leadRow()).toEqual(leadBefore);
    expect(leadBefore.lastIp).toBeNull();
    expect(
      await db().selectFrom('leadPageProgress').selectAll().where('leadId', '=', lead.id).execute(),
    ).toEqual([]);
  });

  it('takes the same calls again once the subscription is active', async () => {
    const { owner, page, lead } = await activeLead();
    const session = await startedSession(h, lead.token);
    await h.server.services.accounts.setSubscription(owner.id, 'inactive');
    expectVisitorError(await startSession(h, lead.token), 403);
    await h.server.services.accounts.setSubscription(owner.id, 'active');

    for (const [name, send] of calls(lead.token, session, page.id)) {
      const answer = await send('/api');
      expect(answer.status, `${name}: ${answer.text}`).toBe(200);
    }
    const kinds = await db()
      .selectFrom('conversions')
      .select('kind')
      .where('leadId', '=', lead.id)
      .orderBy('kind')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual(['OFFERT', 'PRELAUNCH', 'VIDEO_VIEWED']);
  });
});
