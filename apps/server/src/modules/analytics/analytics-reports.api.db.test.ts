import { FollowUpList, FunnelAnalytics, LeadTimeline, PageAnalytics, type FollowUp } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api } from '../../../test/server';
import {
  completePage,
  newLead,
  read,
  sessionDetails,
  startedSession,
  useVisitorServer,
  type Answer,
} from '../../../test/visitor';
import { dayOfZone, dayText } from '../../lib/zone-days';
import type { PageInput } from './analytics-types';
import { referenceFunnelNumbers, referencePageNumbers } from './reference';
import { storedRawRows } from '../../../test/analytics-rows';

/**
 * The owner's analytics routes (issue 19) through the real server: visits sent over the visitor API,
 * then the page and funnel answers equal the brute-force numbers of the stored rows, the follow-up
 * list names the lead who watched past the button without buying, and each lead's timeline shows
 * their passes, clicks and conversions.
 */
describe.each(TEST_DIALECTS)('the analytics routes on %s', (dialect) => {
  const h = useVisitorServer(dialect);

  const owner = (path: string) => api(h.server, 'GET', `/api/owner${path}`, { key: h.demo.apiKey });
  const post = (path: string, body: unknown) => api(h.server, 'POST', `/api/funnel/track/${path}`, { body });
  const ok = (answer: Answer) => {
    expect(answer.status, answer.text).toBe(200);
  };
  const record = (token: string, session: string, view: [number, number], video: [number, number]) =>
    post('video', {
      token,
      idTrackingPageSession: session,
      startViewTime: view[0],
      endViewTime: view[1],
      startTimeVideo: video[0],
      endTimeVideo: video[1],
      details: { videoDuration: 60, reproductionTime: view[1] - view[0], state: 'PAUSE' },
    });

  it('answers every route with the numbers of what the visitors did', async () => {
    const funnel = h.vsl;
    const [first, second] = funnel.pages;
    if (!first || !second) throw new Error('the demo VSL funnel has pages');
    // The first page's button shows at 0:15.
    const patched = await api(h.server, 'PATCH', `/api/owner/pages/${first.id}`, {
      key: h.demo.apiKey,
      body: { buttonTime: { hours: 0, minutes: 0, seconds: 15 } },
    });
    expect(patched.status, patched.text).toBe(200);

    const t = Date.now() - 120_000;
    const ana = await newLead(h, funnel.id, 'Ana Follow');
    const bruno = await newLead(h, funnel.id, 'Bruno Buys');
    const carla = await newLead(h, funnel.id, 'Carla Early');

    // Ana: 0–20 s, then a replay of 0–10 in a second pass, and a click; she never converts.
    const sAna = await startedSession(h, ana.token, {
      details: sessionDetails({ os: { name: 'Android' }, browser: { name: 'Chrome' } }),
    });
    ok(await record(ana.token, sAna, [t, t + 20_000], [0, 20]));
    ok(await record(ana.token, sAna, [t + 30_000, t + 40_000], [0, 10]));
    ok(
      await post('action', {
        token: ana.token,
        idTrackingPageSession: sAna,
        action: 'BUTTON_CLICK',
        timestamp: new Date(t + 45_000).toISOString(),
      }),
    );
    // Bruno watches it all; he plays 5 s of the next page.
    // In pre-launch, he signs up on the first page (a conversion), which then counts as viewed
    // (VIDEO_VIEWED: progress, not a conversion).
    const preLaunch = await api(h.server, 'PATCH', `/api/owner/funnels/${funnel.id}`, {
      key: h.demo.apiKey,
      body: { isPreLaunch: true },
    });
    expect(preLaunch.status, preLaunch.text).toBe(200);
    const sBruno = await startedSession(h, bruno.token);
    ok(await record(bruno.token, sBruno, [t, t + 60_000], [0, 60]));
    ok(
      await api(h.server, 'POST', '/api/lead/internal/conversion/prelaunch', {
        body: { token: bruno.token },
      }),
    );
    expect((await completePage(h, bruno.token, first.id)).status).toBe(200);
    const sBruno2 = await startedSession(h, bruno.token);
    ok(await record(bruno.token, sBruno2, [t + 70_000, t + 75_000], [0, 5]));
    // Carla stops at 0:08 (she played seconds 0 to 7), before the button.
    const sCarla = await startedSession(h, carla.token);
    ok(await record(carla.token, sCarla, [t, t + 8000], [0, 8]));
    await h.server.services.writer.drain();

    // The page and funnel answers equal the brute-force numbers of the stored rows.
    const db = h.server.database.db;
    const account = await h.server.services.accounts.findBySlug(h.demo.accountSlug);
    if (!account) throw new Error('no demo account');
    const pages: PageInput[] = funnel.pages.map((page, position) => ({
      id: page.id,
      funnelId: funnel.id,
      position,
      buttonTimeSeconds: page.id === first.id ? 15 : 0,
    }));
    const { rows } = await storedRawRows(db, dialect, account.id, pages);
    const dayOf = dayOfZone(account.settings.timeZone);
    const today = dayOf(Date.now());
    const range = { from: today - 6, to: today };
    const query = `?from=${dayText(range.from)}&to=${dayText(range.to)}`;

    const answer = read(PageAnalytics, await owner(`/pages/${first.id}/analytics${query}`));
    const expected = referencePageNumbers(rows, first.id, range, dayOf);
    expect({ ...answer, averageWatched: answer.averageWatched?.toFixed(9) }).toEqual({
      pageId: first.id,
      from: dayText(range.from),
      to: dayText(range.to),
      timeZone: account.settings.timeZone,
      ...expected,
      averageWatched: expected.averageWatched?.toFixed(9),
      byDay: expected.byDay.map(({ day, ...counts }) => ({ date: dayText(day), ...counts })),
    });
    // In figures: three viewers, two past 0:15 (Ana and Bruno), Ana's replay counted in views only.
    expect(answer.uniqueViewers).toBe(3);
    expect(answer.pastButton).toBe(2);
    expect(answer.retention.reach.slice(0, 8)).toEqual(Array<number>(8).fill(3));
    expect(answer.retention.reach.slice(8, 21)).toEqual([...Array<number>(12).fill(2), 1]);
    expect(answer.retention.views.slice(0, 8)).toEqual(Array<number>(8).fill(4));

    const steps = read(FunnelAnalytics, await owner(`/funnels/${funnel.id}/analytics${query}`));
    const expectedSteps = referenceFunnelNumbers(rows, funnel.id, range, dayOf);
    expect(steps.steps).toEqual(expectedSteps.steps);
    expect(steps.byDay).toEqual(
      expectedSteps.byDay.map(({ day, ...counts }) => ({ date: dayText(day), ...counts })),
    );
    expect(steps.steps[0]).toMatchObject({ pageId: first.id, reached: 3, clicked: 1, converted: 1 });

    // Without a range: the last 30 days of the account's zone, today included.
    const recent = read(PageAnalytics, await owner(`/pages/${first.id}/analytics`));
    expect([recent.from, recent.to]).toEqual([dayText(today - 29), dayText(today)]);
    expect(recent.uniqueViewers).toBe(3);
    // A range with no visit has no viewers (and no rate that pretends to be zero).
    const empty = read(
      PageAnalytics,
      await owner(`/pages/${first.id}/analytics?from=2020-01-01&to=2020-01-31`),
    );
    expect([empty.sessions, empty.uniqueViewers, empty.playRate, empty.byDay.length]).toEqual([
      0,
      0,
      null,
      31,
    ]);

    // The follow-up list: Ana watched past 0:15 and did not buy; Bruno bought; Carla stopped before.
    const followUps = read(FollowUpList, await owner(`/funnels/${funnel.id}/follow-ups`));
    expect(
      followUps.items.map((item: FollowUp) => [item.lead.name, item.pageId, item.furthestSecond]),
    ).toEqual([['Ana Follow', first.id, 19]]);
    expect(followUps.items[0]).toMatchObject({
      reachedShare: 20 / 60,
      secondsPlayed: 20,
      pastButton: true,
      converted: false,
      lastPlayedOn: dayText(today),
    });
    // All who played, furthest first, a page of two at a time.
    const firstTwo = read(FollowUpList, await owner(`/funnels/${funnel.id}/follow-ups?filter=all&limit=2`));
    expect(firstTwo.nextCursor).not.toBeNull();
    const rest = read(
      FollowUpList,
      await owner(`/funnels/${funnel.id}/follow-ups?filter=all&limit=2&cursor=${firstTwo.nextCursor ?? ''}`),
    );
    expect(rest.nextCursor).toBeNull();
    expect([...firstTwo.items, ...rest.items].map((item) => [item.lead.name, item.furthestSecond])).toEqual([
      ['Bruno Buys', 59],
      ['Ana Follow', 19],
      ['Carla Early', 7],
      ['Bruno Buys', 4],
    ]);

    // Ana's timeline: one session on the first page, from Android · Chrome, two passes and a click.
    const timeline = read(LeadTimeline, await owner(`/leads/${ana.id}/timeline`));
    expect(timeline.sessions).toHaveLength(1);
    expect(timeline.sessions[0]).toMatchObject({
      id: sAna,
      pageId: first.id,
      device: 'Android · Chrome',
      passes: [{ played: [{ from: 0, to: 20 }] }, { played: [{ from: 0, to: 10 }] }],
      conversions: [],
    });
    expect(timeline.sessions[0]?.actions.map((a) => a.action)).toEqual(['BUTTON_CLICK']);
    // Bruno's: newest first, the conversion with the session it came in.
    const brunos = read(LeadTimeline, await owner(`/leads/${bruno.id}/timeline`));
    expect(brunos.sessions.map((s) => [s.id, s.conversions.map((c) => c.kind)])).toEqual([
      [sBruno2, []],
      [sBruno, ['PRELAUNCH', 'VIDEO_VIEWED']],
    ]);
  }, 60_000);

  it('counts a landing lead sent to the chat as the page conversion once, with its pixel event', async () => {
    const landing = h.whatsapp;
    const [page] = landing.pages;
    if (!page) throw new Error('the demo landing has a page');
    const pixelCall = (token: string) =>
      api(h.server, 'POST', '/api/funnel/track/pixel', {
        body: { idFunnel: landing.id, token, eventData: { eventName: 'Lead' } },
      });
    const before = read(PageAnalytics, await owner(`/pages/${page.id}/analytics`)).conversions;
    const eva = await newLead(h, landing.id, 'Eva Chats');
    await startedSession(h, eva.token);
    // She clicks twice (she came back for the chat): one conversion of the page.
    for (let click = 0; click < 2; click++) expect((await pixelCall(eva.token)).status).toBe(200);
    await h.server.services.writer.drain();
    const after = read(PageAnalytics, await owner(`/pages/${page.id}/analytics`));
    expect(after.conversions - before).toBe(1);
    const funnelSteps = read(FunnelAnalytics, await owner(`/funnels/${landing.id}/analytics`));
    expect(funnelSteps.steps[0]?.converted).toBeGreaterThanOrEqual(1);

    // The demo landing has no pixel: the conversion counts, and no event was queued for Meta.
    const pixelOf = async (leadId: string) => {
      const timeline = read(LeadTimeline, await owner(`/leads/${leadId}/timeline`));
      return timeline.sessions.flatMap((session) => session.conversions).map((c) => [c.kind, c.pixel]);
    };
    expect(await pixelOf(eva.id)).toEqual([['PIXEL_LEAD', null]]);
    // With a pixel set, the next lead's event waits in the outbox for the worker.
    const withPixel = await api(h.server, 'PATCH', `/api/owner/funnels/${landing.id}`, {
      key: h.demo.apiKey,
      body: { pixel: { pixelId: '1234567890', accessToken: 'EAAB-test-token' } },
    });
    expect(withPixel.status, withPixel.text).toBe(200);
    const fede = await newLead(h, landing.id, 'Fede Chats');
    await startedSession(h, fede.token);
    expect((await pixelCall(fede.token)).status).toBe(200);
    expect(await pixelOf(fede.id)).toEqual([['PIXEL_LEAD', 'pending']]);
  }, 60_000);

  it('counts the days again in a new time zone once the owner changes it', async () => {
    const [first] = h.vsl.pages;
    if (!first) throw new Error('the demo VSL funnel has pages');
    // 25 hours apart: the same instant is never the same day in both.
    const zones = ['Pacific/Pago_Pago', 'Pacific/Kiritimati'];
    const lead = await newLead(h, h.vsl.id, 'Dora Zones');
    const at = Date.now();
    await startedSession(h, lead.token);
    await h.server.services.writer.drain();
    for (const timeZone of zones) {
      const changed = await api(h.server, 'PATCH', '/api/owner/account', {
        key: h.demo.apiKey,
        body: { settings: { timeZone } },
      });
      expect(changed.status, changed.text).toBe(200);
      const day = dayOfZone(timeZone)(at);
      const answer = read(
        PageAnalytics,
        await owner(`/pages/${first.id}/analytics?from=${dayText(day - 3)}&to=${dayText(day + 3)}`),
      );
      expect(answer.timeZone).toBe(timeZone);
      expect(
        answer.byDay.filter((d) => d.sessions > 0).map((d) => d.date),
        timeZone,
      ).toEqual([dayText(day)]);
    }
  }, 60_000);
  it('gives a dashboard asked again the numbers of every change since: events, an erasure, a new button time', async () => {
    const [first] = h.vsl.pages;
    if (!first) throw new Error('the demo VSL funnel has pages');
    const dashboard = async () => {
      // The last 30 days of the account's zone, as the Studio first asks.
      const answer = await owner(`/pages/${first.id}/analytics`);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      return read(PageAnalytics, answer);
    };
    const before = await dashboard();
    // Asked again with nothing new, the same numbers.
    expect(await dashboard()).toEqual(before);

    const lead = await newLead(h, h.vsl.id, 'Elena Again');
    const session = await startedSession(h, lead.token);
    const t = Date.now();
    ok(await record(lead.token, session, [t, t + 6000], [0, 6]));
    await h.server.services.writer.drain();
    const watched = await dashboard();
    expect(watched.sessions).toBe(before.sessions + 1);
    expect(watched.uniqueViewers).toBe(before.uniqueViewers + 1);
    const reachGain = watched.retention.reach.map((n, s) => n - (before.retention.reach[s] ?? 0));
    expect(reachGain.slice(0, 8)).toEqual([1, 1, 1, 1, 1, 1, 0, 0]);

    // The button moved to 0:03: she is past it now, on the same rows.
    const moved = await api(h.server, 'PATCH', `/api/owner/pages/${first.id}`, {
      key: h.demo.apiKey,
      body: { buttonTime: { hours: 0, minutes: 0, seconds: 3 } },
    });
    expect(moved.status, moved.text).toBe(200);
    const pastThree = await dashboard();
    expect(pastThree.buttonTimeSeconds).toBe(3);
    expect(pastThree.pastButton).toBe(watched.retention.reach[3]);

    // Erased, she is gone from the numbers again.
    const erased = await api(h.server, 'DELETE', `/api/owner/leads/${lead.id}`, { key: h.demo.apiKey });
    expect(erased.status, erased.text).toBe(204);
    const after = await dashboard();
    expect(after.sessions).toBe(before.sessions);
    expect(after.retention.reach.slice(0, before.retention.reach.length)).toEqual(before.retention.reach);
  }, 60_000);
});
