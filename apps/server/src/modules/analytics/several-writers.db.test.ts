import { PageAnalytics, PageSessionStarted } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOfZone, dayText } from '../../lib/zone-days';
import { seedDemo, type DemoSummary } from '../demo/demo.seed';
import { api, startServerBeside, startTestServer, type TestServer } from '../../../test/server';
import { read, sessionDetails } from '../../../test/visitor';
import type { PageInput } from './analytics-types';
import { referencePageNumbers } from './reference';
import { storedRawRows } from '../../../test/analytics-rows';

/**
 * Two servers on one PostgreSQL database, as two processes of `WORKERS=2` are (decision 28): each has
 * its own event writer, state rows read and its own in-process rollup lock. A lead's events, sent to
 * both at once, change the same session's and lead's state rows from both; the rollups must still
 * equal the brute-force numbers of the stored rows (decision 25: they take turns through an advisory
 * lock in the database).
 */
const postgres = process.env.TEST_DATABASE_URL;

describe.runIf(postgres !== undefined)('the analytics rollups of two processes on one PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  let demo: DemoSummary;

  beforeAll(async () => {
    first = await startTestServer('postgres', { RATE_LIMIT_PER_MINUTE: '0' });
    demo = await seedDemo(first.services, first.url);
    second = await startServerBeside(first, { RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('equal the brute-force numbers when both write the same sessions at once', async () => {
    const funnel = demo.funnels.find((f) => f.pages.length > 1 && f.name.includes('VSL')) ?? demo.funnels[0];
    const page = funnel?.pages[0];
    if (!funnel || !page) throw new Error('the demo has a funnel with pages');
    const servers = [first.url, second.url];
    const track = (at: number, path: string, body: unknown) =>
      fetch(`${servers[at % 2] ?? first.url}/api/funnel/track/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const leads: { token: string; session: string }[] = [];
    for (let i = 0; i < 6; i += 1) {
      const created = await api(first, 'POST', `/api/owner/funnels/${funnel.id}/leads`, {
        key: demo.apiKey,
        body: { name: `Lead ${i}` },
      });
      const { token } = JSON.parse(created.text) as { token: string };
      const started = await track(i, 'page', { token, details: sessionDetails(), start: Date.now() });
      const session = PageSessionStarted.parse(await started.json()).data?.idTrackingPageSession;
      if (!session) throw new Error('a session started');
      leads.push({ token, session });
    }
    // Every lead's 40 stretches of 3 s, sent in bursts through both servers at once: each batch of
    // either writer touches sessions the other's batches are touching too.
    const t = Date.now() - 600_000;
    for (let burst = 0; burst < 10; burst += 1) {
      const sends = leads.flatMap(({ token, session }, lead) =>
        [0, 1, 2, 3].map((k) => {
          const n = burst * 4 + k;
          return track(lead + n, 'video', {
            token,
            idTrackingPageSession: session,
            startViewTime: t + n * 3000,
            endViewTime: t + n * 3000 + 3000,
            startTimeVideo: n * 3,
            endTimeVideo: n * 3 + 3,
            details: { videoDuration: 600, reproductionTime: 3000, state: 'PROGRESS' },
          });
        }),
      );
      const answers = await Promise.all(sends);
      for (const answer of answers) expect(answer.status).toBe(200);
    }
    await first.services.writer.drain();
    await second.services.writer.drain();

    const db = first.database.db;
    const account = await first.services.accounts.findBySlug(demo.accountSlug);
    if (!account) throw new Error('no demo account');
    const pages: PageInput[] = funnel.pages.map((p, position) => ({
      id: p.id,
      funnelId: funnel.id,
      position,
      buttonTimeSeconds: 0,
    }));
    const { rows } = await storedRawRows(db, 'postgres', account.id, pages);
    expect(rows.videoRecords.length).toBe(6 * 40);
    const dayOf = dayOfZone(account.settings.timeZone);
    const today = dayOf(Date.now());
    const range = { from: today - 1, to: today };
    const answer = read(
      PageAnalytics,
      await api(
        first,
        'GET',
        `/api/owner/pages/${page.id}/analytics?from=${dayText(range.from)}&to=${dayText(range.to)}`,
        {
          key: demo.apiKey,
        },
      ),
    );
    const expected = referencePageNumbers(rows, page.id, range, dayOf);
    expect(answer.retention).toEqual(expected.retention);
    expect([answer.sessions, answer.plays, answer.uniqueViewers]).toEqual([
      expected.sessions,
      expected.plays,
      expected.uniqueViewers,
    ]);
    // Six leads played 0 to 2:00 each, once.
    expect(answer.retention.reach.slice(0, 120)).toEqual(Array<number>(120).fill(6));
    expect(answer.retention.views.slice(0, 120)).toEqual(Array<number>(120).fill(6));
  }, 120_000);
});
