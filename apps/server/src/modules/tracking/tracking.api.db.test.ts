import { PageSessionStarted, SessionDetails, TrackAck, USER_AGENT_MAX } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { rowCounts } from '../../../test/fixtures';
import { api } from '../../../test/server';
import { pageSessionRow } from '../../../test/session-rows';
import {
  PREFIXES,
  completePage,
  expectRefusal,
  expectVisitorError,
  moveLeadTo,
  newLead,
  openSite,
  pageId,
  previewTokenOf,
  read,
  sessionDetails,
  startSession,
  startedSession,
  useVisitorServer,
  type Answer,
  type Prefix,
} from '../../../test/visitor';

/**
 * Page sessions, actions and video records (visitor-behaviour §4.3, §4.4, §5, §7; architecture §5.9) against a real
 * server: what each call answers and which rows it leaves in the database.
 */

const MINUTE = 60_000;
const BEACON = { 'content-type': 'text/plain;charset=UTF-8' };

describe.each(TEST_DIALECTS)('visitor tracking API on %s', (dialect) => {
  const h = useVisitorServer(dialect);
  const db = () => h.server.database.db;

  const sessionsOf = (leadId: string) =>
    db().selectFrom('pageSessions').selectAll().where('leadId', '=', leadId).orderBy('startAt').execute();
  const visitsOf = (leadId: string) =>
    db().selectFrom('visits').selectAll().where('leadId', '=', leadId).execute();
  const actionsOf = (leadId: string) =>
    db().selectFrom('actions').selectAll().where('leadId', '=', leadId).execute();
  const videosOf = (leadId: string) =>
    db().selectFrom('videoRecords').selectAll().where('leadId', '=', leadId).execute();
  async function session(id: string) {
    const row = await db().selectFrom('pageSessions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new Error(`no session ${id}`);
    return row;
  }

  const endSession = (
    sessionId: string,
    body: Record<string, unknown>,
    options: { prefix?: Prefix; beacon?: boolean } = {},
  ): Promise<Answer> =>
    api(h.server, 'PUT', `${options.prefix ?? '/api'}/funnel/track/page/${sessionId}`, {
      ...(options.beacon ? { rawBody: JSON.stringify(body), headers: BEACON } : { body }),
    });

  const actionBody = (token: string, sessionId: string, extra: Record<string, unknown> = {}) => ({
    token,
    idTrackingPageSession: sessionId,
    action: 'BUTTON_CLICK',
    timestamp: '2025-05-20T10:15:30.000-05:00',
    details: { buttonCopy: 'Ver la clase 2' },
    ...extra,
  });
  const videoBody = (token: string, sessionId: string, extra: Record<string, unknown> = {}) => ({
    token,
    idTrackingPageSession: sessionId,
    startViewTime: 1_747_750_000_000,
    endViewTime: 1_747_750_030_000,
    startTimeVideo: 12,
    endTimeVideo: 42.5,
    details: {
      videoDuration: 600,
      reproductionTime: 30_000,
      state: 'PAUSE',
      videoProgressUpdate: { seconds: 42.5, percent: 7 },
    },
    ...extra,
  });
  const trackAction = (body: unknown, prefix: Prefix = '/api', beacon = false) =>
    api(
      h.server,
      'POST',
      `${prefix}/funnel/track/action`,
      beacon ? { rawBody: JSON.stringify(body), headers: BEACON } : { body },
    );
  const trackVideo = (body: unknown, prefix: Prefix = '/api', beacon = false) =>
    api(
      h.server,
      'POST',
      `${prefix}/funnel/track/video`,
      beacon ? { rawBody: JSON.stringify(body), headers: BEACON } : { body },
    );

  function ok(answer: Answer): void {
    expect(answer.status, answer.text).toBe(200);
    expect(read(TrackAck, answer)).toEqual({ codeResponse: 200, result: true, message: 'OK' });
  }

  describe('session start', () => {
    it.each(PREFIXES)(
      '%s/funnel/track/page stores a session on the lead’s current page and a NEW visit',
      async (prefix) => {
        const lead = await newLead(h, h.vsl.id, 'Inés');
        const userAgent = `Mozilla/5.0 ${'x'.repeat(800)}`;
        const answer = await startSession(
          h,
          lead.token,
          { details: sessionDetails({ userAgent, sessionCount: 1 }), start: 1_747_750_000_000 },
          prefix,
        );
        expect(answer.status, answer.text).toBe(200);
        const started = read(PageSessionStarted, answer);
        expect(started).toMatchObject({ codeResponse: 200, result: true, message: 'OK' });
        const id = started.data?.idTrackingPageSession ?? '';
        expect(id).not.toBe('');

        const rows = await sessionsOf(lead.id);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          id,
          funnelId: h.vsl.id,
          pageId: pageId(h.vsl, 0),
          startReason: 'INITIAL_LOAD',
          endAt: null,
          endReason: null,
          endInferred: 0,
        });
        const details = SessionDetails.parse(JSON.parse(rows[0]?.details ?? '{}'));
        expect(details.userAgent).toBe(userAgent.slice(0, USER_AGENT_MAX));
        expect(details.userAgent).toHaveLength(500);
        expect(details).toMatchObject({ sessionCount: 1, browser: { name: 'Safari' }, display: { zoom: 1 } });

        const visits = await visitsOf(lead.id);
        expect(visits).toHaveLength(1);
        expect(visits[0]).toMatchObject({ funnelId: h.vsl.id, pageId: pageId(h.vsl, 0), visitorType: 'NEW' });
        expect(visits[0]?.userAgent).toBe(userAgent.slice(0, USER_AGENT_MAX));
      },
    );

    it.each([
      { sessionCount: 1, visitorType: 'NEW' },
      { sessionCount: 3, visitorType: 'RETURNING' },
    ])('a visit with sessionCount $sessionCount is $visitorType', async ({ sessionCount, visitorType }) => {
      const lead = await newLead(h, h.vsl.id);
      await startedSession(h, lead.token, { details: sessionDetails({ sessionCount }) });
      const visits = await visitsOf(lead.id);
      expect(visits.map((v) => v.visitorType)).toEqual([visitorType]);
    });

    it('starts on the page the lead stands on now', async () => {
      const lead = await newLead(h, h.vsl.id);
      await moveLeadTo(h, lead.token, h.vsl, 1);
      const id = await startedSession(h, lead.token);
      expect((await session(id)).pageId).toBe(pageId(h.vsl, 1));
      expect((await visitsOf(lead.id)).map((v) => v.pageId)).toEqual([pageId(h.vsl, 1)]);
    });

    it('the same start sent twice with one eventId stores one session and answers the same id', async () => {
      const lead = await newLead(h, h.vsl.id);
      const input = { eventId: 'start-0001-abcdef' };
      const answers = [await startSession(h, lead.token, input), await startSession(h, lead.token, input)];
      const ids = answers.map((a) => read(PageSessionStarted, a).data?.idTrackingPageSession);
      expect(ids[0]).toEqual(expect.any(String));
      expect(ids[1]).toBe(ids[0]);
      expect(await sessionsOf(lead.id)).toHaveLength(1);
      expect(await visitsOf(lead.id)).toHaveLength(1);
    });

    it('the same eventId sent at once twice still stores one session', async () => {
      const lead = await newLead(h, h.vsl.id);
      const input = { eventId: 'start-0002-abcdef' };
      const answers = await Promise.all([
        startSession(h, lead.token, input),
        startSession(h, lead.token, input),
      ]);
      const ids = answers.map((a) => read(PageSessionStarted, a).data?.idTrackingPageSession);
      expect(ids[1]).toBe(ids[0]);
      expect(await sessionsOf(lead.id)).toHaveLength(1);
      expect(await visitsOf(lead.id)).toHaveLength(1);
    });

    it('two leads may send the same eventId: each gets its own session', async () => {
      const [a, b] = [await newLead(h, h.vsl.id), await newLead(h, h.vsl.id)];
      const input = { eventId: 'shared-event-id-1' };
      const first = await startedSession(h, a.token, input);
      const second = await startedSession(h, b.token, input);
      expect(second).not.toBe(first);
      expect(await sessionsOf(a.id)).toHaveLength(1);
      expect(await sessionsOf(b.id)).toHaveLength(1);
    });

    it('AFTER_INACTIVITY stores a session and no visit', async () => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token, { startReason: 'AFTER_INACTIVITY' });
      expect((await session(id)).startReason).toBe('AFTER_INACTIVITY');
      expect(await visitsOf(lead.id)).toHaveLength(0);
    });

    it('a beacon (text/plain) start is read as JSON', async () => {
      const lead = await newLead(h, h.vsl.id);
      const answer = await api(h.server, 'POST', '/funnel/track/page', {
        rawBody: JSON.stringify({ token: lead.token, details: sessionDetails() }),
        headers: BEACON,
      });
      expect(answer.status, answer.text).toBe(200);
      expect(await sessionsOf(lead.id)).toHaveLength(1);
    });
  });

  describe('session end', () => {
    it.each(PREFIXES)('%s/funnel/track/page/:id with JSON stores the end reason and time', async (prefix) => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      const started = await session(id);
      ok(
        await endSession(
          id,
          { token: lead.token, endReason: 'VIDEO_ENDED', end: Date.now(), details: {} },
          { prefix },
        ),
      );
      const row = await session(id);
      expect(row).toMatchObject({ endReason: 'VIDEO_ENDED', endInferred: 0 });
      expect(row.endAt).toEqual(expect.any(Number));
      expect(row.endAt).toBeGreaterThanOrEqual(started.startAt);
    });

    it.each(PREFIXES)(
      '%s/funnel/track/page/:id with a text/plain beacon body stores the end',
      async (prefix) => {
        const lead = await newLead(h, h.vsl.id);
        const id = await startedSession(h, lead.token);
        ok(await endSession(id, { token: lead.token, endReason: 'INACTIVITY' }, { prefix, beacon: true }));
        expect(await session(id)).toMatchObject({ endReason: 'INACTIVITY', endInferred: 0 });
        expect((await session(id)).endAt).toEqual(expect.any(Number));
      },
    );

    it('the end reason defaults to PAGE_CLOSE', async () => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      ok(await endSession(id, { token: lead.token }, { beacon: true }));
      expect((await session(id)).endReason).toBe('PAGE_CLOSE');
    });

    it('a second end is 200 and changes nothing', async () => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      ok(await endSession(id, { token: lead.token, endReason: 'BUTTON_CLICK' }));
      const ended = await session(id);
      ok(await endSession(id, { token: lead.token, endReason: 'PAGE_CLOSE' }, { beacon: true }));
      ok(await endSession(id, { token: lead.token, endReason: 'BUTTON_CLICK' }, { prefix: '' }));
      expect(await session(id)).toEqual(ended);
    });

    it('ending another lead’s session is 404 and leaves it open', async () => {
      const [owner, stranger] = [await newLead(h, h.vsl.id), await newLead(h, h.vsl.id)];
      const id = await startedSession(h, owner.token);
      for (const prefix of PREFIXES) {
        expectRefusal(await endSession(id, { token: stranger.token }, { prefix }), 404, 'SESSION_NOT_FOUND');
      }
      expect(await session(id)).toMatchObject({ endAt: null, endReason: null });
    });

    it('ending a session that does not exist is 404', async () => {
      const lead = await newLead(h, h.vsl.id);
      expectRefusal(await endSession('no-such-session', { token: lead.token }), 404, 'SESSION_NOT_FOUND');
    });
  });

  describe('actions and video records', () => {
    it.each(PREFIXES)(
      '%s/funnel/track/action stores an action once when retried with its eventId',
      async (prefix) => {
        const lead = await newLead(h, h.vsl.id);
        const id = await startedSession(h, lead.token);
        const body = actionBody(lead.token, id, { eventId: 'action-0001-abc' });
        ok(await trackAction(body, prefix));
        ok(await trackAction(body, prefix));
        ok(await trackAction({ ...body, timestamp: '2025-05-20T10:15:31.000-05:00' }, prefix, true));
        const rows = await actionsOf(lead.id);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          pageSessionId: id,
          action: 'BUTTON_CLICK',
          occurredAt: Date.parse('2025-05-20T15:15:30.000Z'),
        });
        expect(JSON.parse(rows[0]?.details ?? '')).toEqual({ buttonCopy: 'Ver la clase 2' });
      },
    );

    it('an action retried without an eventId (same content) is stored once; another action is stored', async () => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      const body = actionBody(lead.token, id);
      ok(await trackAction(body));
      ok(await trackAction(body, '', true));
      expect(await actionsOf(lead.id)).toHaveLength(1);
      ok(await trackAction({ ...body, action: 'SCROLL' }));
      ok(await trackAction({ ...body, timestamp: 1_747_750_999_000 }));
      expect(await actionsOf(lead.id)).toHaveLength(3);
    });

    it.each(PREFIXES)(
      '%s/funnel/track/video stores a record once when retried with its eventId',
      async (prefix) => {
        const lead = await newLead(h, h.vsl.id);
        const id = await startedSession(h, lead.token);
        const body = videoBody(lead.token, id, { eventId: 'video-0001-abc' });
        ok(await trackVideo(body, prefix));
        ok(await trackVideo(body, prefix, true));
        const rows = await videosOf(lead.id);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          pageSessionId: id,
          startViewTime: 1_747_750_000_000,
          endViewTime: 1_747_750_030_000,
          startTimeVideo: 12,
          endTimeVideo: 42.5,
        });
        expect(JSON.parse(rows[0]?.details ?? '')).toMatchObject({ state: 'PAUSE', videoDuration: 600 });
      },
    );

    it('a video record retried without an eventId (same content, as a beacon) is stored once', async () => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      const body = videoBody(lead.token, id);
      ok(await trackVideo(body));
      ok(await trackVideo(body, '', true));
      ok(await trackVideo(body, '/api', true));
      expect(await videosOf(lead.id)).toHaveLength(1);
      ok(await trackVideo({ ...body, endTimeVideo: 50, details: { ...body.details, state: 'ENDED' } }));
      expect(await videosOf(lead.id)).toHaveLength(2);
    });

    it('a video record sets the resume point that /funnel/site answers as lastVideoSession', async () => {
      const lead = await newLead(h, h.vsl.id);
      expect((await openSite(h, lead.token)).data?.lastVideoSession).toBeNull();
      const id = await startedSession(h, lead.token);
      ok(await trackVideo(videoBody(lead.token, id, { endTimeVideo: 42.5 })));
      const progress = await db()
        .selectFrom('leadPageProgress')
        .selectAll()
        .where('leadId', '=', lead.id)
        .execute();
      expect(progress).toEqual([
        expect.objectContaining({ pageId: pageId(h.vsl, 0), lastVideoPosition: 42.5, completedAt: null }),
      ]);
      expect((await openSite(h, lead.token)).data?.lastVideoSession).toEqual({ endTimeVideo: 42.5 });
      expect((await openSite(h, lead.token, '')).data?.lastVideoSession).toEqual({ endTimeVideo: 42.5 });

      ok(await trackVideo(videoBody(lead.token, id, { startTimeVideo: 42.5, endTimeVideo: 97.25 })));
      expect((await openSite(h, lead.token)).data?.lastVideoSession).toEqual({ endTimeVideo: 97.25 });
    });

    it('the resume point belongs to its page: the next page starts from the beginning', async () => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      ok(await trackVideo(videoBody(lead.token, id, { endTimeVideo: 300 })));
      ok(await completePage(h, lead.token, pageId(h.vsl, 0)));
      const next = await openSite(h, lead.token);
      expect(next.data).toMatchObject({ idPage: pageId(h.vsl, 1), lastVideoSession: null });
    });

    it('a retried older video record does not move the resume point back', async () => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      const older = videoBody(lead.token, id, { eventId: 'video-older-0001', endTimeVideo: 42.5 });
      const newer = videoBody(lead.token, id, {
        eventId: 'video-newer-0001',
        startViewTime: 1_747_750_030_000,
        endViewTime: 1_747_750_085_000,
        startTimeVideo: 42.5,
        endTimeVideo: 97.25,
      });
      ok(await trackVideo(older));
      ok(await trackVideo(newer));
      // The first send's answer was lost; the browser sends it again. It is stored once, and it is
      // not a new report: the lead resumes where the latest record left off.
      ok(await trackVideo(older, '/api', true));
      expect(await videosOf(lead.id)).toHaveLength(2);
      expect((await openSite(h, lead.token)).data?.lastVideoSession).toEqual({ endTimeVideo: 97.25 });
    });

    it('an action or video record for another lead’s session is 404 and stores nothing', async () => {
      const [owner, stranger] = [await newLead(h, h.vsl.id), await newLead(h, h.vsl.id)];
      const id = await startedSession(h, owner.token);
      const before = await rowCounts(db());
      expectRefusal(await trackAction(actionBody(stranger.token, id)), 404, 'SESSION_NOT_FOUND');
      expectRefusal(await trackVideo(videoBody(stranger.token, id)), 404, 'SESSION_NOT_FOUND');
      expect(await rowCounts(db())).toEqual(before);
    });
  });

  describe('refused calls write nothing', () => {
    const TOKENS: { name: string; token: () => string }[] = [
      { name: 'a preview token', token: () => previewTokenOf(h.vsl) },
      { name: 'an unknown token', token: () => 'u'.repeat(32) },
    ];

    it.each(TOKENS)('tracking with $name → 404 with result false and no rows', async ({ token }) => {
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) {
        const start = await startSession(h, token(), {}, prefix);
        expectRefusal(start, 404, 'DONT_EXIST_TOKEN_OR_URL');
        expect(read(PageSessionStarted, start).data).toBeNull();
        const end = await endSession(id, { token: token() }, { prefix });
        expectRefusal(end, 404, 'DONT_EXIST_TOKEN_OR_URL');
        expectRefusal(await trackAction(actionBody(token(), id), prefix), 404, 'DONT_EXIST_TOKEN_OR_URL');
        expectRefusal(await trackVideo(videoBody(token(), id), prefix), 404, 'DONT_EXIST_TOKEN_OR_URL');
      }
      expect(await rowCounts(db())).toEqual(before);
      expect((await session(id)).endAt).toBeNull();
    });

    it('a 404 is an ApiError like every other error: statusCode and code beside the envelope', async () => {
      // conventions.md "Errors": every error body is {statusCode, code, message, issues?}; the visitor
      // routes add {codeResponse, result: false}.
      const lead = await newLead(h, h.vsl.id);
      const id = await startedSession(h, lead.token);
      const answers = [
        await startSession(h, 'u'.repeat(32)),
        await endSession(id, { token: 'u'.repeat(32) }),
        await trackAction(actionBody('u'.repeat(32), id)),
        await trackVideo(videoBody('u'.repeat(32), id)),
        await endSession('no-such-session', { token: lead.token }),
      ];
      for (const answer of answers) expectVisitorError(answer, 404);
    });

    const without = (body: Record<string, unknown>, key: string) =>
      Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));

    const CASES: {
      name: string;
      method: 'POST' | 'PUT';
      path: (sessionId: string) => string;
      body: (token: string, sessionId: string) => Record<string, unknown>;
      field: string;
    }[] = [
      {
        name: 'a session start without token',
        method: 'POST',
        path: () => '/funnel/track/page',
        body: () => ({ details: sessionDetails() }),
        field: 'body.token',
      },
      {
        name: 'a session end without token',
        method: 'PUT',
        path: (s) => `/funnel/track/page/${s}`,
        body: () => ({ endReason: 'PAGE_CLOSE' }),
        field: 'body.token',
      },
      {
        name: 'an action without token',
        method: 'POST',
        path: () => '/funnel/track/action',
        body: (t, s) => without(actionBody(t, s), 'token'),
        field: 'body.token',
      },
      {
        name: 'an action without idTrackingPageSession',
        method: 'POST',
        path: () => '/funnel/track/action',
        body: (t, s) => without(actionBody(t, s), 'idTrackingPageSession'),
        field: 'body.idTrackingPageSession',
      },
      {
        name: 'an action with an empty idTrackingPageSession',
        method: 'POST',
        path: () => '/funnel/track/action',
        body: (t) => actionBody(t, ''),
        field: 'body.idTrackingPageSession',
      },
      {
        name: 'a video record without token',
        method: 'POST',
        path: () => '/funnel/track/video',
        body: (t, s) => without(videoBody(t, s), 'token'),
        field: 'body.token',
      },
      {
        name: 'a video record without idTrackingPageSession',
        method: 'POST',
        path: () => '/funnel/track/video',
        body: (t, s) => without(videoBody(t, s), 'idTrackingPageSession'),
        field: 'body.idTrackingPageSession',
      },
      {
        name: 'a session start with an unknown start reason',
        method: 'POST',
        path: () => '/funnel/track/page',
        body: (t) => ({ token: t, startReason: 'SOMETIME' }),
        field: 'body.startReason',
      },
      {
        name: 'a video record with a negative position',
        method: 'POST',
        path: () => '/funnel/track/video',
        body: (t, s) => videoBody(t, s, { endTimeVideo: -1 }),
        field: 'body.endTimeVideo',
      },
    ];

    it.each(CASES)(
      '$name → 400 with codeResponse 400, result false, no rows',
      async ({ method, path, body, field }) => {
        const lead = await newLead(h, h.vsl.id);
        const id = await startedSession(h, lead.token);
        const before = await rowCounts(db());
        for (const prefix of PREFIXES) {
          for (const beacon of [false, true]) {
            const payload = body(lead.token, id);
            const answer = await api(h.server, method, `${prefix}${path(id)}`, {
              ...(beacon ? { rawBody: JSON.stringify(payload), headers: BEACON } : { body: payload }),
            });
            const error = expectVisitorError(answer, 400);
            expect(error.issues?.map((i) => i.path)).toContain(field);
          }
        }
        expect(await rowCounts(db())).toEqual(before);
        expect((await session(id)).endAt).toBeNull();
      },
    );

    it('a beacon body that is not JSON → 400 with the envelope and no rows', async () => {
      const before = await rowCounts(db());
      for (const prefix of PREFIXES) {
        const answer = await api(h.server, 'POST', `${prefix}/funnel/track/video`, {
          rawBody: 'token=abc&ended=1',
          headers: BEACON,
        });
        expect(expectVisitorError(answer, 400).code).toBe('INVALID_JSON');
      }
      expect(await rowCounts(db())).toEqual(before);
    });
  });

  describe('on an OFFERT page the lead has completed', () => {
    it('no session starts and actions and video of an earlier session are not stored', async () => {
      const lead = await newLead(h, h.vsl.id);
      await moveLeadTo(h, lead.token, h.vsl, 2);
      const offerPage = pageId(h.vsl, 2);
      const earlier = await startedSession(h, lead.token);
      expect((await session(earlier)).pageId).toBe(offerPage);

      ok(await completePage(h, lead.token, offerPage));
      expect((await openSite(h, lead.token)).data).toMatchObject({ idPage: offerPage, isComplete: true });

      const before = await rowCounts(db());
      for (const prefix of PREFIXES) {
        const start = await startSession(h, lead.token, {}, prefix);
        expect(start.status, start.text).toBe(200);
        expect(read(PageSessionStarted, start)).toEqual({
          codeResponse: 200,
          result: false,
          message: 'TRACKING_CLOSED',
          data: null,
        });
        for (const answer of [
          await trackAction(actionBody(lead.token, earlier), prefix),
          await trackVideo(videoBody(lead.token, earlier), prefix),
          await trackVideo(videoBody(lead.token, earlier, { eventId: 'video-closed-01' }), prefix, true),
        ]) {
          expect(answer.status, answer.text).toBe(200);
          expect(read(TrackAck, answer)).toEqual({
            codeResponse: 200,
            result: false,
            message: 'TRACKING_CLOSED',
          });
        }
      }
      expect(await rowCounts(db())).toEqual(before);
      expect(await actionsOf(lead.id)).toHaveLength(0);
      expect(await videosOf(lead.id)).toHaveLength(0);
      const progress = await db()
        .selectFrom('leadPageProgress')
        .select('lastVideoPosition')
        .where('leadId', '=', lead.id)
        .where('pageId', '=', offerPage)
        .executeTakeFirst();
      expect(progress?.lastVideoPosition).toBeNull();
    });

    it('a NEXT-PAGE page the lead completed still takes tracking', async () => {
      const lead = await newLead(h, h.vsl.id);
      const first = await startedSession(h, lead.token);
      ok(await completePage(h, lead.token, pageId(h.vsl, 0)));
      ok(await trackAction(actionBody(lead.token, first)));
      expect(await actionsOf(lead.id)).toHaveLength(1);
    });
  });

  describe('sessions whose end never arrived', () => {
    it('are closed as PAGE_CLOSE, inferred, while sessions seen recently stay open; a real end replaces it', async () => {
      const lead = await newLead(h, h.vsl.id);
      const stale = await startedSession(h, lead.token);
      const longAgo = Date.now() - 60 * MINUTE;
      await db()
        .updateTable('pageSessions')
        .set({ startAt: longAgo, lastSeenAt: longAgo })
        .where('id', '=', stale)
        .execute();
      // Started an hour ago, before the server's last restart: its writer has not seen it.
      const { funnelId, pageId } = await db()
        .selectFrom('pageSessions')
        .select(['funnelId', 'pageId'])
        .where('id', '=', stale)
        .executeTakeFirstOrThrow();
      const recent = `recent-${stale}`;
      await db()
        .insertInto('pageSessions')
        .values(
          pageSessionRow({
            id: recent,
            leadId: lead.id,
            funnelId,
            pageId,
            at: longAgo,
            startReason: 'AFTER_INACTIVITY',
          }),
        )
        .execute();
      // The visitor is still on the second page: its activity keeps the session alive.
      ok(await trackVideo(videoBody(lead.token, recent)));

      expect(await h.server.services.tracking.closeStaleSessions(15 * MINUTE)).toBe(1);
      expect(await session(stale)).toMatchObject({
        endAt: longAgo,
        endReason: 'PAGE_CLOSE',
        endInferred: 1,
      });
      expect(await session(recent)).toMatchObject({ endAt: null, endReason: null, endInferred: 0 });
      expect(await h.server.services.tracking.closeStaleSessions(15 * MINUTE)).toBe(0);

      ok(await endSession(stale, { token: lead.token, endReason: 'INACTIVITY' }, { beacon: true }));
      const replaced = await session(stale);
      expect(replaced).toMatchObject({ endReason: 'INACTIVITY', endInferred: 0 });
      expect(replaced.endAt).toBeGreaterThan(longAgo);

      // Once really ended, a later end changes nothing.
      ok(await endSession(stale, { token: lead.token, endReason: 'PAGE_CLOSE' }));
      expect(await session(stale)).toEqual(replaced);
    });
  });
});
