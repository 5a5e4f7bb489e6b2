import { PageSessionStarted, SessionDetails, TrackAck } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { rowCounts } from '../../../test/fixtures';
import { api } from '../../../test/server';
import {
  PREFIXES,
  expectVisitorError,
  newLead,
  read,
  sessionDetails,
  startSession,
  startedSession,
  useVisitorServer,
  type Answer,
} from '../../../test/visitor';
import { TRACKING_CAPS } from './tracking-caps';
import { pageSessionRow } from '../../../test/session-rows';

/**
 * What one lead link can make the server store (issue 16, item 4): every free-form object of the
 * tracking calls is a few KB at most, against a real server on each database.
 */

const KB = 1024;
const BEACON = { 'content-type': 'text/plain;charset=UTF-8' };
/** The probe's payload: 63 KB of details, under the tracking routes' 64 KB body limit. */
const BIG = 'x'.repeat(63 * KB - 512);

describe.each(TEST_DIALECTS)('tracking limits on %s', (dialect) => {
  const h = useVisitorServer(dialect);
  const db = () => h.server.database.db;

  const post = (path: string, body: unknown, beacon = false) =>
    api(h.server, 'POST', path, beacon ? { rawBody: JSON.stringify(body), headers: BEACON } : { body });
  const actionBody = (token: string, session: string, details: Record<string, unknown>) => ({
    token,
    idTrackingPageSession: session,
    action: 'BUTTON_CLICK',
    timestamp: Date.now(),
    details,
  });

  function ok(answer: Answer): void {
    expect(answer.status, answer.text).toBe(200);
    expect(read(TrackAck, answer)).toMatchObject({ codeResponse: 200, result: true, message: 'OK' });
  }

  /** A 400 in the visitor envelope naming the field at fault. */
  function tooLarge(answer: Answer, field: string): void {
    const error = expectVisitorError(answer, 400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.issues?.map((i) => i.path)).toContain(field);
  }

  describe('free-form objects are a few KB at most', () => {
    it('an action with 63 KB of details → 400 naming body.details, nothing stored', async () => {
      const lead = await newLead(h, h.vsl.id);
      const session = await startedSession(h, lead.token);
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) {
        for (const beacon of [false, true]) {
          tooLarge(
            await post(
              `${prefix}/funnel/track/action`,
              actionBody(lead.token, session, { pad: BIG }),
              beacon,
            ),
            'body.details',
          );
          // Many small keys are no way around it.
          const keys = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v'.repeat(20)]));
          tooLarge(
            await post(`${prefix}/funnel/track/action`, actionBody(lead.token, session, keys), beacon),
            'body.details',
          );
        }
      }
      expect(await rowCounts(db())).toEqual(before);
    });

    it('a session start or end with 63 KB of details → 400 naming body.details, nothing stored', async () => {
      const lead = await newLead(h, h.vsl.id);
      const session = await startedSession(h, lead.token);
      const big = sessionDetails({ privacySensitiveData: { deviceId: 'd-1', location: { pad: BIG } } });
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) {
        tooLarge(await startSession(h, lead.token, { details: big }, prefix), 'body.details');
        for (const beacon of [false, true]) {
          const end = { token: lead.token, endReason: 'PAGE_CLOSE', details: big };
          const answer = await api(h.server, 'PUT', `${prefix}/funnel/track/page/${session}`, {
            ...(beacon ? { rawBody: JSON.stringify(end), headers: BEACON } : { body: end }),
          });
          tooLarge(answer, 'body.details');
        }
      }
      expect(await rowCounts(db())).toEqual(before);
      const row = await db()
        .selectFrom('pageSessions')
        .select(['endAt', 'endDetails'])
        .where('id', '=', session)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ endAt: null, endDetails: null });
    });

    it('a video record’s details are its few known fields: 63 KB beside them is not stored', async () => {
      const lead = await newLead(h, h.vsl.id);
      const session = await startedSession(h, lead.token);
      const record = {
        token: lead.token,
        idTrackingPageSession: session,
        startViewTime: Date.now() - 30_000,
        endViewTime: Date.now(),
        startTimeVideo: 0,
        endTimeVideo: 30,
        details: {
          state: 'PAUSE',
          videoDuration: 600,
          pad: BIG,
          videoProgressUpdate: { seconds: 30, percent: 5, pad: 'p'.repeat(100) },
        },
      };
      ok(await post('/api/funnel/track/video', record));
      const rows = await db()
        .selectFrom('videoRecords')
        .select('details')
        .where('pageSessionId', '=', session)
        .execute();
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]?.details ?? '')).toEqual({
        state: 'PAUSE',
        videoDuration: 600,
        videoProgressUpdate: { seconds: 30, percent: 5 },
      });
    });

    it('what a browser sends is taken whole: a 2 KB button link, a long referrer, a 16 KB user agent', async () => {
      const lead = await newLead(h, h.vsl.id);
      const details = sessionDetails({
        userAgent: `Mozilla/5.0 ${'u'.repeat(16_000)}`,
        referrer: `https://l.facebook.com/l.php?u=${'r'.repeat(1950)}`,
        preferences: {
          mainLanguage: 'es-MX',
          languages: ['es-MX', 'es', 'en-US', 'en', 'pt-BR', 'pt', 'fr', 'de', 'it', 'ca'],
          dateTimeFormat: 'es-MX',
        },
        privacySensitiveData: {
          deviceId: 'device_1700000000000_abc123',
          location: {
            ip: '203.0.113.7',
            location: {
              country: 'México',
              countryCode: 'MX',
              region: 'Ciudad de México',
              regionCode: 'CMX',
              city: 'Ciudad de México',
              postalCode: '06700',
              latitude: 19.4326,
              longitude: -99.1332,
            },
            context: {
              timezone: 'America/Mexico_City',
              currency: 'MXN',
              language: 'es',
              isp: 'Teléfonos de México, S.A.B. de C.V. (Telmex) — Infinitum residencial',
              callingCode: '+52',
            },
            timestamp: 1_747_750_000_000,
          },
        },
      });
      const session = await startedSession(h, lead.token, { details });
      const url = `https://checkout.example.com/pay?${'q'.repeat(2000)}`;
      ok(
        await post(
          '/api/funnel/track/action',
          actionBody(lead.token, session, { idPage: h.vsl.pages[0]?.id, buttonAction: 'NEXT-PAGE', url }),
        ),
      );
      const end = { token: lead.token, endReason: 'BUTTON_CLICK', details };
      ok(await api(h.server, 'PUT', `/api/funnel/track/page/${session}`, { body: end }));
      const row = await db()
        .selectFrom('pageSessions')
        .select(['details', 'endDetails'])
        .where('id', '=', session)
        .executeTakeFirstOrThrow();
      expect(SessionDetails.parse(JSON.parse(row.details)).referrer).toBe(details.referrer);
      expect(row.endDetails).not.toBeNull();
      const actions = await db()
        .selectFrom('actions')
        .select('details')
        .where('leadId', '=', lead.id)
        .execute();
      expect(actions.map((a) => (JSON.parse(a.details) as { url: string }).url)).toEqual([url]);
    });
  });
  describe('events per session and per lead are capped', () => {
    const LIMITED = { codeResponse: 200, result: false, message: 'TRACKING_LIMIT_REACHED' };
    const DAY = 24 * 60 * 60 * 1000;

    async function count(table: 'actions' | 'videoRecords', column: 'pageSessionId' | 'leadId', id: string) {
      const row = await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(column, '=', id)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }
    const sessionsOf = async (leadId: string) =>
      (await db().selectFrom('pageSessions').select('id').where('leadId', '=', leadId).execute()).length;
    const visitsOf = async (leadId: string) =>
      (await db().selectFrom('visits').select('id').where('leadId', '=', leadId).execute()).length;

    const action = (token: string, session: string, i: number) =>
      post('/api/funnel/track/action', {
        ...actionBody(token, session, { idPage: 'p', buttonAction: 'NEXT-PAGE' }),
        eventId: `action-flood-${String(i).padStart(6, '0')}`,
      });
    const video = (token: string, session: string, i: number) =>
      post('/api/funnel/track/video', {
        token,
        eventId: `video-flood-${String(i).padStart(6, '0')}`,
        idTrackingPageSession: session,
        startViewTime: 1_747_750_000_000 + i * 1000,
        endViewTime: 1_747_750_001_000 + i * 1000,
        startTimeVideo: i % 600,
        endTimeVideo: (i % 600) + 1,
        details: { state: 'PROGRESS', videoDuration: 10_800 },
      });
    /** All at once: the caps must hold under concurrency, not only one request after another. */
    const flood = (n: number, send: (i: number) => Promise<Answer>) =>
      Promise.all(Array.from({ length: n }, (_, i) => send(i)));

    /** Every answer is 200 (the page carries on): stored (result true), or dropped at the cap. */
    function tally(answers: Answer[]): { stored: number; dropped: number } {
      let stored = 0;
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(200);
        const body = read(TrackAck, answer);
        if (body.result) stored += 1;
        else expect(body).toEqual(LIMITED);
      }
      return { stored, dropped: answers.length - stored };
    }

    /** Rows written straight into the database, as if another process or an earlier run stored them. */
    async function actionsStored(lead: { id: string }, session: string, n: number, at = Date.now()) {
      const rows = Array.from({ length: n }, (_, i) => ({
        id: `pre-a-${session}-${String(i)}`,
        pageSessionId: session,
        leadId: lead.id,
        action: 'BUTTON_CLICK',
        occurredAt: at,
        details: '{}',
        receivedAt: at,
      }));
      for (let i = 0; i < rows.length; i += 500)
        await db()
          .insertInto('actions')
          .values(rows.slice(i, i + 500))
          .execute();
    }
    async function videosStored(lead: { id: string }, session: string, n: number, at = Date.now()) {
      const rows = Array.from({ length: n }, (_, i) => ({
        id: `pre-v-${session}-${String(i)}`,
        pageSessionId: session,
        leadId: lead.id,
        startViewTime: at,
        endViewTime: at,
        startTimeVideo: 0,
        endTimeVideo: 1,
        details: '{}',
        receivedAt: at,
      }));
      for (let i = 0; i < rows.length; i += 500)
        await db()
          .insertInto('videoRecords')
          .values(rows.slice(i, i + 500))
          .execute();
    }
    /** Sessions written straight into the database; their ids. */
    async function sessionsStored(lead: { id: string }, n: number, at = Date.now()): Promise<string[]> {
      const rows = Array.from({ length: n }, (_, i) =>
        pageSessionRow({
          id: `pre-s-${lead.id}-${String(at)}-${String(i)}`,
          leadId: lead.id,
          funnelId: h.vsl.id,
          pageId: h.vsl.pages[0]?.id ?? '',
          at,
        }),
      );
      for (let i = 0; i < rows.length; i += 500)
        await db()
          .insertInto('pageSessions')
          .values(rows.slice(i, i + 500))
          .execute();
      return rows.map((r) => r.id);
    }

    it(`a flood of actions on one session stores ${String(TRACKING_CAPS.actionsPerSession)} and drops the rest, answering 200`, async () => {
      const lead = await newLead(h, h.vsl.id);
      const session = await startedSession(h, lead.token);
      const cap = TRACKING_CAPS.actionsPerSession;
      const { stored, dropped } = tally(await flood(cap + 60, (i) => action(lead.token, session, i)));
      expect(stored).toBe(cap);
      expect(dropped).toBe(60);
      expect(await count('actions', 'pageSessionId', session)).toBe(cap);
      // Another session of the lead still takes actions.
      const next = await startedSession(h, lead.token);
      ok(await action(lead.token, next, 999_999));
      expect(await count('actions', 'pageSessionId', next)).toBe(1);
    });

    /**
     * A start sent again two minutes after it was first made (its answer lost): the session may hold
     * records already, so its counts are read. A session this process has just started is new and
     * counts from nothing (tracking.service.ts, `fresh`).
     */
    const startedAgain = (lead: { id: string; token: string }) =>
      startedSession(h, lead.token, { eventId: `again-${lead.id}`, start: Date.now() - 120_000 });

    it('the count starts from what the database holds: actions stored earlier count', async () => {
      const lead = await newLead(h, h.vsl.id);
      const session = await startedAgain(lead);
      const cap = TRACKING_CAPS.actionsPerSession;
      await actionsStored(lead, session, cap - 5);
      const { stored } = tally(await flood(40, (i) => action(lead.token, session, i)));
      expect(stored).toBe(5);
      expect(await count('actions', 'pageSessionId', session)).toBe(cap);
    });

    it(`video records stop at ${String(TRACKING_CAPS.videoRecordsPerSession)} a session`, async () => {
      const lead = await newLead(h, h.vsl.id);
      const session = await startedAgain(lead);
      const cap = TRACKING_CAPS.videoRecordsPerSession;
      await videosStored(lead, session, cap - 20);
      const { stored } = tally(await flood(80, (i) => video(lead.token, session, i)));
      expect(stored).toBe(20);
      expect(await count('videoRecords', 'pageSessionId', session)).toBe(cap);
    });

    it('a lead’s actions and video records in 24 hours are capped across its sessions', async () => {
      const lead = await newLead(h, h.vsl.id);
      const [old = ''] = await sessionsStored(lead, 1, Date.now() - DAY - 60_000);
      const earlier = await sessionsStored(lead, 10);
      // A day ago does not count; the last 24 hours do, whatever session they were in.
      await actionsStored(lead, old, TRACKING_CAPS.actionsPerSession, Date.now() - DAY - 60_000);
      await videosStored(lead, old, TRACKING_CAPS.videoRecordsPerSession, Date.now() - DAY - 60_000);
      let actions = TRACKING_CAPS.actionsPerLead - 10;
      let videos = TRACKING_CAPS.videoRecordsPerLead - 15;
      for (const id of earlier) {
        const a = Math.min(actions, TRACKING_CAPS.actionsPerSession);
        const v = Math.min(videos, TRACKING_CAPS.videoRecordsPerSession);
        await actionsStored(lead, id, a);
        await videosStored(lead, id, v);
        actions -= a;
        videos -= v;
      }
      expect({ actions, videos }).toEqual({ actions: 0, videos: 0 });

      const session = await startedSession(h, lead.token);
      expect(tally(await flood(40, (i) => action(lead.token, session, i))).stored).toBe(10);
      expect(tally(await flood(40, (i) => video(lead.token, session, i))).stored).toBe(15);
      expect(await count('actions', 'leadId', lead.id)).toBe(
        TRACKING_CAPS.actionsPerLead + TRACKING_CAPS.actionsPerSession,
      );
      expect(await count('videoRecords', 'leadId', lead.id)).toBe(
        TRACKING_CAPS.videoRecordsPerLead + TRACKING_CAPS.videoRecordsPerSession,
      );
    });

    it(`page sessions stop at ${String(TRACKING_CAPS.sessionsPerLead)} a lead in 24 hours; the page still gets an id and carries on`, async () => {
      const lead = await newLead(h, h.vsl.id);
      const cap = TRACKING_CAPS.sessionsPerLead;
      await sessionsStored(lead, 50, Date.now() - DAY - 60_000);
      await sessionsStored(lead, cap - 5);
      const answers = await flood(30, (i) =>
        startSession(h, lead.token, { eventId: `start-flood-${String(i).padStart(6, '0')}` }),
      );
      let started = 0;
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(200);
        const body = read(PageSessionStarted, answer);
        expect(body.data?.idTrackingPageSession).toEqual(expect.any(String));
        if (body.result) started += 1;
        else expect(body).toMatchObject(LIMITED);
      }
      expect(started).toBe(5);
      expect(await sessionsOf(lead.id)).toBe(50 + cap);
      expect(await visitsOf(lead.id)).toBe(5);
      // What the page sends on that unstored session stores nothing, and is answered as such.
      const dropped = answers.map((a) => read(PageSessionStarted, a)).find((b) => !b.result)?.data;
      const before = await rowCounts(db());
      const refusedAction = await action(lead.token, dropped?.idTrackingPageSession ?? '', 0);
      expect(refusedAction.status).toBe(404);
      expect(await rowCounts(db())).toEqual(before);
    });

    it('a visit such as a real page makes is stored whole', async () => {
      const lead = await newLead(h, h.vsl.id);
      for (let visit = 0; visit < 3; visit++) {
        const session = await startedSession(h, lead.token);
        for (let i = 0; i < 40; i++) ok(await video(lead.token, session, visit * 100 + i));
        for (let i = 0; i < 3; i++) ok(await action(lead.token, session, visit * 100 + i));
        ok(await api(h.server, 'PUT', `/api/funnel/track/page/${session}`, { body: { token: lead.token } }));
      }
      expect(await count('videoRecords', 'leadId', lead.id)).toBe(120);
      expect(await count('actions', 'leadId', lead.id)).toBe(9);
      expect(await sessionsOf(lead.id)).toBe(3);
    });
  });
});
