import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api } from '../../../test/server';
import {
  completePage,
  newLead,
  NO_RATE_LIMIT,
  startedSession,
  useVisitorServer,
  type Answer,
  type VisitorHandle,
} from '../../../test/visitor';
import type { Dialect } from '../../db/dialect';
import { dayOfZone } from '../../lib/zone-days';
import type { PageInput, PageNumbers } from './analytics-types';
import { createAnalyticsRepo } from './analytics.repo';
import { createDatabaseRollups } from './database-rollups';
import { referenceFunnelNumbers, referencePageNumbers } from './reference';
import { storedRawRows } from '../../../test/analytics-rows';

/** The raw rows of the demo account as the server stored them, for the brute-force numbers. */
async function storedRows(h: VisitorHandle, dialect: Dialect) {
  const funnel = h.vsl;
  const db = h.server.database.db;
  const account = await h.server.services.accounts.findBySlug(h.demo.accountSlug);
  if (!account) throw new Error('no demo account');
  const pages: PageInput[] = funnel.pages.map((page) => ({
    id: page.id,
    funnelId: funnel.id,
    position: page.position,
    buttonTimeSeconds: 15,
  }));
  const { rows, storedConversions } = await storedRawRows(db, dialect, account.id, pages);
  return { rows, account, pages, storedConversions };
}

/**
 * Rollups kept on ingest (decision 25) through the real server: leads created over the owner API,
 * sessions, video records (overlapping reports, a replay, a retried record, a skip), clicks, a session
 * ended by the video and a conversion over the visitor API. Afterwards every number of the funnel and
 * its pages equals the brute-force recomputation from the raw rows the server stored, and again once
 * a lead is erased over the owner API.
 */
describe.each(TEST_DIALECTS)('analytics kept on ingest on %s', (dialect) => {
  const h = useVisitorServer(dialect);

  const post = (path: string, body: unknown) => api(h.server, 'POST', `/api/funnel/track/${path}`, { body });
  const ok = (answer: Answer) => {
    expect(answer.status, answer.text).toBe(200);
  };
  const record = (
    token: string,
    session: string,
    view: [number, number],
    video: [number, number],
    state = 'PAUSE',
    eventId?: string,
  ) =>
    post('video', {
      token,
      idTrackingPageSession: session,
      ...(eventId === undefined ? {} : { eventId }),
      startViewTime: view[0],
      endViewTime: view[1],
      startTimeVideo: video[0],
      endTimeVideo: video[1],
      details: { videoDuration: 60, reproductionTime: view[1] - view[0], state },
    });

  it('equals the brute-force numbers of the stored rows for every page and the funnel, before and after an erasure', async () => {
    const funnel = h.vsl;
    const [first, second] = funnel.pages;
    if (!first || !second) throw new Error('the demo VSL funnel has pages');
    const t = Date.now() - 120_000;
    const ana = await newLead(h, funnel.id, 'Ana Analytics');
    const bruno = await newLead(h, funnel.id, 'Bruno Analytics');
    await newLead(h, funnel.id, 'Carla Never Came');

    // Ana: 0–20 s, the same stretch reported again by progress, a replay of 0–10, a skip; a click.
    const s1 = await startedSession(h, ana.token);
    const replannedBefore = h.server.services.writer.stats().replanned;
    ok(await record(ana.token, s1, [t, t + 20_000], [0, 20], 'PROGRESS', 'ana-progress'));
    ok(await record(ana.token, s1, [t, t + 20_000], [0, 20]));
    ok(await record(ana.token, s1, [t, t + 20_000], [0, 20], 'PROGRESS', 'ana-progress'));
    // On SQLite the retried record's batch was planned as new, undone by the write thread, planned
    // again from what is stored (decision 36); on PostgreSQL its insert answered no id, so the
    // plan, made after the inserts, left it out (decision 38).
    expect(h.server.services.writer.stats().replanned - replannedBefore).toBe(dialect === 'sqlite' ? 1 : 0);
    ok(await record(ana.token, s1, [t + 30_000, t + 40_000], [0, 10]));
    ok(await record(ana.token, s1, [t + 41_000, t + 41_000], [10, 55], 'SKIP'));
    ok(
      await post('action', {
        token: ana.token,
        idTrackingPageSession: s1,
        action: 'BUTTON_CLICK',
        timestamp: new Date(t + 45_000).toISOString(),
      }),
    );
    // Bruno watches to the end: the session ends with the video, the page counts as viewed, and he
    // moves on to the second page, where he plays 5 s.
    const s2 = await startedSession(h, bruno.token);
    ok(await record(bruno.token, s2, [t, t + 60_000], [0, 60], 'ENDED'));
    const ended = await api(h.server, 'PUT', `/api/funnel/track/page/${s2}`, {
      body: { token: bruno.token, endReason: 'VIDEO_ENDED' },
    });
    expect(ended.status, ended.text).toBe(200);
    expect((await completePage(h, bruno.token, first.id)).status).toBe(200);
    const s3 = await startedSession(h, bruno.token);
    ok(await record(bruno.token, s3, [t + 70_000, t + 75_000], [0, 5]));
    await h.server.services.writer.drain();

    const { rows, account, pages, storedConversions } = await storedRows(h, dialect);
    expect(rows.videoRecords.filter((r) => r.pageSessionId === s1)).toHaveLength(4);
    // Bruno's page counts as viewed: stored, not counted.
    expect(storedConversions.map((c) => c.kind)).toEqual(['VIDEO_VIEWED']);
    expect(rows.conversions).toEqual([]);

    const dayOf = dayOfZone(account.settings.timeZone);
    const today = dayOf(Date.now());
    const rollups = createDatabaseRollups({
      db: h.server.database.db,
      analytics: createAnalyticsRepo(dialect),
    });
    const rounded = (n: PageNumbers) => ({
      ...n,
      averageWatched: n.averageWatched === null ? null : Number(n.averageWatched.toFixed(12)),
    });
    for (const range of [
      { from: today - 1, to: today },
      { from: today, to: today },
    ]) {
      for (const page of pages) {
        expect(rounded(await rollups.pageNumbers(page, range)), page.id).toEqual(
          rounded(referencePageNumbers(rows, page.id, range, dayOf)),
        );
      }
      expect(await rollups.funnelNumbers(funnel.id, pages, range)).toEqual(
        referenceFunnelNumbers(rows, funnel.id, range, dayOf),
      );
    }
    // And what they say, in figures a reader can check: reach and views of the first page.
    const firstPage = await rollups.pageNumbers(pages[0] as PageInput, { from: today, to: today });
    expect(firstPage.retention.reach.slice(0, 22)).toEqual([
      ...Array<number>(20).fill(2),
      1, // Bruno alone past 20 s
      1,
    ]);
    expect(firstPage.retention.views.slice(0, 11)).toEqual([...Array<number>(10).fill(3), 2]);
    expect(firstPage.clicks).toBe(1);

    // Erasing Bruno over the owner API takes away what he added: the numbers are those of Ana's rows.
    const erased = await api(h.server, 'DELETE', `/api/owner/leads/${bruno.id}`, { key: h.demo.apiKey });
    expect(erased.status, erased.text).toBe(204);
    const left = (await storedRows(h, dialect)).rows;
    expect(left.sessions.some((session) => session.leadId === bruno.id)).toBe(false);
    for (const page of pages) {
      expect(rounded(await rollups.pageNumbers(page, { from: today, to: today })), page.id).toEqual(
        rounded(referencePageNumbers(left, page.id, { from: today, to: today }, dayOf)),
      );
    }
    expect(await rollups.funnelNumbers(funnel.id, pages, { from: today, to: today })).toEqual(
      referenceFunnelNumbers(left, funnel.id, { from: today, to: today }, dayOf),
    );
    const afterErasure = await rollups.pageNumbers(pages[0] as PageInput, { from: today, to: today });
    expect(afterErasure.retention.reach.slice(0, 22)).toEqual([...Array<number>(20).fill(1), 0, 0]);
    expect(afterErasure.uniqueViewers).toBe(1);
  }, 60_000);
});

/**
 * ANALYTICS_ROLLUPS=off: events are stored and acknowledged, the rollups stay as they were, a rebuild
 * is marked for a start with them on, and the rebuild brings every number to the stored rows'.
 */
describe.each(TEST_DIALECTS)('analytics with the rollups switched off on %s', (dialect) => {
  const h = useVisitorServer(dialect, { ...NO_RATE_LIMIT, ANALYTICS_ROLLUPS: 'off' });

  it('stores raw rows only, marks a rebuild, and the rebuild counts them', async () => {
    const funnel = h.vsl;
    const t = Date.now() - 60_000;
    const lead = await newLead(h, funnel.id, 'Olga Offline');
    const session = await startedSession(h, lead.token);
    const played = await api(h.server, 'POST', '/api/funnel/track/video', {
      body: {
        token: lead.token,
        idTrackingPageSession: session,
        startViewTime: t,
        endViewTime: t + 12_000,
        startTimeVideo: 0,
        endTimeVideo: 12,
        details: { videoDuration: 60, reproductionTime: 12_000, state: 'PAUSE' },
      },
    });
    expect(played.status, played.text).toBe(200);
    await h.server.services.writer.drain();

    const db = h.server.database.db;
    const analytics = createAnalyticsRepo(dialect);
    const { rows, account, pages } = await storedRows(h, dialect);
    const first = pages[0] as PageInput;
    expect(rows.videoRecords).toHaveLength(1);
    const dayOf = dayOfZone(account.settings.timeZone);
    const today = { from: dayOf(Date.now()), to: dayOf(Date.now()) };
    const rollups = createDatabaseRollups({ db, analytics });
    const before = await rollups.pageNumbers(first, today);
    expect(before.sessions).toBe(0);
    expect(before.retention.reach).toEqual([]);
    expect(await analytics.rebuildPending(db)).toBe(true);

    await h.server.services.analytics.rebuildAll();
    expect(await analytics.rebuildPending(db)).toBe(false);
    const after = await rollups.pageNumbers(first, today);
    expect(after).toEqual(referencePageNumbers(rows, first.id, today, dayOf));
    expect(after.sessions).toBe(1);
    expect(after.retention.reach.slice(0, 13)).toEqual([...Array<number>(12).fill(1), 0]);
  }, 60_000);
});
