import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api } from '../../../test/server';
import { completePage, newLead, startedSession, useVisitorServer, type Answer } from '../../../test/visitor';
import { dayOfZone } from '../../lib/zone-days';
import type { PageInput, PageNumbers, RawRows } from './analytics-types';
import { createAnalyticsRepo } from './analytics.repo';
import { countsAsConversion } from './counted-conversions';
import { createDatabaseRollups } from './database-rollups';
import { referenceFunnelNumbers, referencePageNumbers } from './reference';

/**
 * Rollups kept on ingest (decision 25) through the real server: leads created over the owner API,
 * sessions, video records (overlapping reports, a replay, a retried record, a skip), clicks, a session
 * ended by the video and a conversion over the visitor API. Afterwards every number of the funnel and
 * its pages equals the brute-force recomputation from the raw rows the server stored.
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

  it('equals the brute-force numbers of the stored rows for every page and the funnel', async () => {
    const funnel = h.vsl;
    const [first, second] = funnel.pages;
    if (!first || !second) throw new Error('the demo VSL funnel has pages');
    const t = Date.now() - 120_000;
    const ana = await newLead(h, funnel.id, 'Ana Analytics');
    const bruno = await newLead(h, funnel.id, 'Bruno Analytics');
    await newLead(h, funnel.id, 'Carla Never Came');

    // Ana: 0–20 s, the same stretch reported again by progress, a replay of 0–10, a skip; a click.
    const s1 = await startedSession(h, ana.token);
    ok(await record(ana.token, s1, [t, t + 20_000], [0, 20], 'PROGRESS', 'ana-progress'));
    ok(await record(ana.token, s1, [t, t + 20_000], [0, 20]));
    ok(await record(ana.token, s1, [t, t + 20_000], [0, 20], 'PROGRESS', 'ana-progress'));
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

    const db = h.server.database.db;
    const account = await h.server.services.accounts.findBySlug(h.demo.accountSlug);
    if (!account) throw new Error('no demo account');
    const analytics = createAnalyticsRepo(dialect);
    const all = async <Row>(
      read: (
        db: typeof h.server.database.db,
        accountId: string,
        after: string,
        limit: number,
      ) => Promise<{ rows: Row[] }>,
    ) => (await read(db, account.id, '', 100_000)).rows;
    const pages: PageInput[] = funnel.pages.map((page) => ({
      id: page.id,
      funnelId: funnel.id,
      position: page.position,
      buttonTimeSeconds: 15,
    }));
    const rows: RawRows = {
      leads: await all(analytics.raw.leads),
      pages,
      sessions: await all(analytics.raw.sessions),
      videoRecords: await all(analytics.raw.videoRecords),
      actions: await all(analytics.raw.actions),
      // Those analytics counts: a page's VIDEO_VIEWED marks it complete, not converted.
      conversions: (await all(analytics.raw.conversions)).filter(countsAsConversion),
    };
    expect(rows.videoRecords.filter((r) => r.pageSessionId === s1)).toHaveLength(4);
    // Bruno's page counts as viewed: stored, not counted.
    expect((await all(analytics.raw.conversions)).map((c) => c.kind)).toEqual(['VIDEO_VIEWED']);
    expect(rows.conversions).toEqual([]);

    const dayOf = dayOfZone(account.settings.timeZone);
    const today = dayOf(Date.now());
    const rollups = createDatabaseRollups({ db, analytics });
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
  }, 60_000);
});
