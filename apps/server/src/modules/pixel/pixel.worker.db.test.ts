import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Account, PixelRequest } from '@embudo/contracts';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { openDatabase, type DatabaseHandle } from '../../db';
import { MAX_EVENT_AGE_MS, ServerEvent } from './meta-capi';
import { createPixelRepo, type PixelRepo } from './pixel.repo';
import { createFunnelRepo } from '../funnels/funnel.repo';
import { createPixelService, toServerEvent } from './pixel.service';
import {
  BACKOFF_MAX_MS,
  createPixelWorker,
  type PixelWorkerLogger,
  type PixelWorkerOptions,
  type Schedule,
} from './pixel.worker';

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const DAY = 24 * 3_600_000;
const CONNECTION = { ip: '198.51.100.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Test/1.0' };

/** A request as the receiver parsed it, for typed access; the raw JSON is kept to compare exactly. */
const CapiRequestBody = z.strictObject({
  data: z.array(ServerEvent),
  access_token: z.string(),
  test_event_code: z.string().optional(),
});

type Answer = number | 'destroy';
interface Received {
  url: string;
  raw: unknown;
  body: z.infer<typeof CapiRequestBody>;
  answer: Answer;
}

/** A local stand-in for graph.facebook.com: records every request and answers as `plan` says. */
async function startReceiver(plan: (n: number) => Answer, delayMs = 0) {
  const received: Received[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const raw: unknown = JSON.parse(text);
    const answer = plan(received.length + 1);
    received.push({ url: req.url ?? '', raw, body: CapiRequestBody.parse(raw), answer });
    setTimeout(() => {
      if (answer === 'destroy') {
        req.socket.destroy();
        return;
      }
      const ok = answer >= 200 && answer < 300;
      res.writeHead(answer, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok
            ? { events_received: 1, messages: [], fbtrace_id: 'AbC' }
            : { error: { message: 'Service temporarily unavailable', type: 'OAuthException', code: 2 } },
        ),
      );
    }, delayMs);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/v21.0`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface LogEntry {
  level: 'warn' | 'error';
  obj: object;
  msg: string;
}
function memoryLogger(): PixelWorkerLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    warn: (obj, msg) => entries.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => entries.push({ level: 'error', obj, msg }),
  };
}

/** Real timers, counted: how many are pending tells whether stop() left one behind. */
function countingSchedule() {
  let pending = 0;
  let scheduled = 0;
  const schedule: Schedule = (fn, ms) => {
    pending += 1;
    scheduled += 1;
    let settled = false;
    const settle = () => {
      if (!settled) pending -= 1;
      settled = true;
    };
    const timer = setTimeout(() => {
      settle();
      fn();
    }, ms);
    return () => {
      clearTimeout(timer);
      settle();
    };
  };
  return { schedule, pending: () => pending, scheduled: () => scheduled };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

const ids = (requests: readonly Received[]) => requests.flatMap((r) => r.body.data.map((e) => e.event_id));
const ok = (requests: readonly Received[]) =>
  requests.filter((r) => typeof r.answer === 'number' && r.answer < 300);

describe.each(TEST_DIALECTS)('pixel worker on %s', (dialect) => {
  const t = useServices(dialect);
  let clock = T0;
  const now = () => clock;
  let receiver: Receiver | undefined;
  let owner: Account | undefined;
  beforeAll(async () => {
    owner = await newAccount(t.services);
  });
  afterAll(async () => {
    await receiver?.close();
  });
  const open = async (plan: (n: number) => Answer, delayMs = 0) => {
    await receiver?.close();
    receiver = await startReceiver(plan, delayMs);
    return receiver;
  };
  const theOwner = () => {
    if (!owner) throw new Error('no owner');
    return owner;
  };
  const pixelFunnel = async (pixelId: string, accessToken: string, testEventCode: string | null = null) =>
    (
      await newFunnel(t.services, theOwner(), {
        funnel: { name: `Pixel ${pixelId}`, pixel: { pixelId, accessToken, testEventCode } },
      })
    ).funnel;
  /** A new lead of the funnel: its token, which a pixel call carries. */
  const leadToken = async (funnelId: string) =>
    (await t.services.leads.create(theOwner(), funnelId, { name: 'Lead' })).token;
  const serviceAt = (at: () => number) =>
    createPixelService({
      pixels: createPixelRepo(t.db, dialect),
      funnels: createFunnelRepo(t.db),
      leads: t.services.progress,
      now: at,
    });
  const workerWith = (options: Partial<PixelWorkerOptions> & { apiUrl: string }) =>
    createPixelWorker({
      pixels: createPixelRepo(t.db, dialect),
      funnels: createFunnelRepo(t.db),
      logger: memoryLogger(),
      now,
      ...options,
    });

  it('delivers every event once, in the Conversions API format, through failures and retries', async () => {
    // Two 500s, then a connection cut without an answer, then success.
    const rx = await open((n) => (n <= 2 ? 500 : n === 3 ? 'destroy' : 200));
    const funnelA = await pixelFunnel('1111111111', 'EAAB-token-A-old', 'TEST4242');
    const funnelB = await pixelFunnel('2222222222', 'EAAB-token-B');
    const funnelC = await pixelFunnel('3333333333', 'EAAB-token-C');
    const pixels = createPixelRepo(t.db, dialect);
    const service = serviceAt(now);
    const logger = memoryLogger();
    const worker = workerWith({ apiUrl: rx.apiUrl, pixels, logger });

    const expected = new Map<string, { funnel: string; event: ServerEvent }>();
    const calls: PixelRequest[] = [];
    for (let i = 0; i < 25; i++) {
      const funnel = i % 2 === 0 ? funnelA : funnelB;
      const eventId = `evt-${dialect}-${String(i).padStart(3, '0')}`;
      const eventMs = i % 3 === 0 ? clock : i % 3 === 1 ? clock - i * 1000 - 123 : clock - 60_000;
      const eventTime = i % 3 === 0 ? undefined : i % 3 === 1 ? eventMs : new Date(eventMs).toISOString();
      const ip = i % 2 === 1 ? `203.0.113.${i}` : undefined;
      const agent = i % 4 === 0 ? `Agent/${i}` : undefined;
      const token = await leadToken(funnel.id);
      const call: PixelRequest = {
        idFunnel: funnel.id,
        token,
        eventData: {
          eventName: 'Lead',
          eventId,
          eventSource: `https://acme.example.com/p/${i}/${token}?utm_source=fb`,
          ...(eventTime === undefined ? {} : { eventTime }),
          ...(ip ? { ip } : {}),
          ...(agent ? { agent } : {}),
        },
      };
      calls.push(call);
      expect(await service.record(call, CONNECTION)).toEqual({ success: true });
      expected.set(eventId, {
        funnel: funnel.id,
        event: {
          event_name: call.eventData.eventName,
          event_time: Math.floor(eventMs / 1000),
          event_id: eventId,
          action_source: 'website',
          // Without the lead's token and the query (pixel.service.ts).
          event_source_url: `https://acme.example.com/p/${i}`,
          // The body's ip and agent are never sent: the connection's are (pixel.service.ts).
          user_data: { client_ip_address: CONNECTION.ip, client_user_agent: CONNECTION.userAgent },
        },
      });
    }
    // The browser retried one call: stored once.
    const retried = calls[5];
    if (!retried) throw new Error('no call 5');
    expect(await service.record(retried, CONNECTION)).toEqual({ success: true });
    expect(
      (await pixels.listByFunnel(funnelA.id)).length + (await pixels.listByFunnel(funnelB.id)).length,
    ).toBe(25);
    // Two events recorded 8 days ago, and one of a funnel whose pixel is then removed.
    const old = serviceAt(() => clock - 8 * DAY);
    for (const eventId of [`old-${dialect}-1`, `old-${dialect}-2`]) {
      expect(
        await old.record(
          {
            idFunnel: funnelA.id,
            token: await leadToken(funnelA.id),
            eventData: { eventName: 'Lead', eventId },
          },
          CONNECTION,
        ),
      ).toEqual({ success: true });
    }
    const orphan = `orphan-${dialect}-1`;
    await service.record(
      {
        idFunnel: funnelC.id,
        token: await leadToken(funnelC.id),
        eventData: { eventName: 'Lead', eventId: orphan },
      },
      CONNECTION,
    );
    await t.services.funnels.update(theOwner(), funnelC.id, { pixel: { pixelId: null } });
    const before = await pixels.counts();

    // Run 1: both pixels answer 500; the old and orphaned events are dropped, never sent.
    expect(await worker.runOnce()).toEqual({ delivered: 0, failed: 25, dropped: 3 });
    expect(rx.received.map((r) => r.answer)).toEqual([500, 500]);
    for (const eventId of expected.keys()) {
      const row = await pixels.findByEventId(eventId);
      expect(row?.attempts, eventId).toBe(1);
      expect(row?.lastError).toMatch(/^HTTP 500: .*Service temporarily unavailable/);
      expect(row?.nextAttemptAt).toBeGreaterThanOrEqual(clock + 4_000);
      expect(row?.nextAttemptAt).toBeLessThanOrEqual(clock + 6_000);
      expect(row?.deliveredAt).toBeNull();
    }
    for (const eventId of [`old-${dialect}-1`, `old-${dialect}-2`, orphan]) {
      const row = await pixels.findByEventId(eventId);
      expect(row?.droppedAt, eventId).toBe(clock);
      expect(row?.lastError).toMatch(eventId === orphan ? /no pixel/ : /older than 7 days/);
      expect(
        logger.entries.some(
          (e) =>
            e.level === 'warn' && e.msg === 'pixel event dropped' && JSON.stringify(e.obj).includes(eventId),
        ),
      ).toBe(true);
    }
    expect(await pixels.counts()).toMatchObject({ dropped: before.dropped + 3 });

    // Nothing is due before the backoff has passed.
    clock += 3_999;
    expect(await worker.runOnce()).toEqual({ delivered: 0, failed: 0, dropped: 0 });
    expect(rx.received).toHaveLength(2);

    // The owner corrects pixel A's token: retries use the new one.
    await t.services.funnels.update(theOwner(), funnelA.id, { pixel: { accessToken: 'EAAB-token-A-new' } });

    // Run 2: one pixel's connection is cut, the other's is delivered.
    clock += 2_002;
    const second = await worker.runOnce();
    expect(second.failed + second.delivered).toBe(25);
    expect([12, 13]).toContain(second.failed);
    expect(
      rx.received
        .map((r) => r.answer)
        .slice(2)
        .sort(),
    ).toEqual([200, 'destroy']);
    const cut = rx.received.find((r) => r.answer === 'destroy');
    for (const eventId of ids(cut ? [cut] : [])) {
      const row = await pixels.findByEventId(eventId);
      expect(row?.attempts, eventId).toBe(2);
      expect(row?.lastError).toMatch(/^network error/);
      expect(row?.nextAttemptAt).toBeGreaterThanOrEqual(clock + 8_000);
      expect(row?.nextAttemptAt).toBeLessThanOrEqual(clock + 12_000);
    }

    // Run 3: the rest goes through; then nothing is left.
    clock += 12_001;
    expect(await worker.runOnce()).toEqual({ delivered: second.failed, failed: 0, dropped: 0 });
    clock += BACKOFF_MAX_MS * 2;
    expect(await worker.runOnce()).toEqual({ delivered: 0, failed: 0, dropped: 0 });
    expect(rx.received).toHaveLength(5);
    expect(await pixels.counts()).toEqual({
      ...before,
      pending: before.pending - 28,
      delivered: before.delivered + 25,
      dropped: before.dropped + 3,
    });

    // Each event id arrived once in an answered request, and the dropped ones never arrived at all.
    const delivered = ids(ok(rx.received));
    expect(delivered).toHaveLength(25);
    expect([...delivered].sort()).toEqual([...expected.keys()].sort());
    const everything = ids(rx.received);
    for (const eventId of [`old-${dialect}-1`, `old-${dialect}-2`, orphan])
      expect(everything).not.toContain(eventId);

    // Each successful request went to its pixel, with its current token, in Meta's exact format.
    const pixelOf = new Map([
      [funnelA.id, { pixelId: '1111111111', token: 'EAAB-token-A-new', testEventCode: 'TEST4242' }],
      [funnelB.id, { pixelId: '2222222222', token: 'EAAB-token-B', testEventCode: undefined }],
    ]);
    const successes = ok(rx.received);
    expect(successes).toHaveLength(2);
    for (const [funnelId, pixel] of pixelOf) {
      const request = successes.find((r) => r.url === `/v21.0/${pixel.pixelId}/events`);
      if (!request) throw new Error(`no successful request for pixel ${pixel.pixelId}`);
      const events = [...expected.values()].filter((e) => e.funnel === funnelId).map((e) => e.event);
      const byId = (a: { event_id: string }, b: { event_id: string }) => a.event_id.localeCompare(b.event_id);
      expect({ ...request.body, data: [...request.body.data].sort(byId) }).toStrictEqual({
        data: events.sort(byId),
        access_token: pixel.token,
        ...(pixel.testEventCode ? { test_event_code: pixel.testEventCode } : {}),
      });
      // The raw JSON, not only its parse, has nothing more and nothing less.
      expect(request.raw).toStrictEqual(JSON.parse(JSON.stringify(request.body)));
      for (const event of request.body.data) {
        expect(Number.isInteger(event.event_time)).toBe(true);
        expect(event.event_time).toBeLessThan(1e11);
      }
    }
    // The first attempts of pixel A carried the token of the time.
    const firstA = rx.received.find((r) => r.url.includes('1111111111'));
    expect(firstA?.body.access_token).toBe('EAAB-token-A-old');
  });

  it('drops an event as soon as it is older than 7 days, retrying it until then', async () => {
    const rx = await open(() => 500);
    const funnel = await pixelFunnel('4444444444', 'EAAB-token-D');
    const pixels = createPixelRepo(t.db, dialect);
    const worker = workerWith({ apiUrl: rx.apiUrl, pixels });
    const eventId = `aging-${dialect}-1`;
    await serviceAt(now).record(
      { idFunnel: funnel.id, token: await leadToken(funnel.id), eventData: { eventName: 'Lead', eventId } },
      CONNECTION,
    );
    const created = clock;
    let sends = 0;
    for (;;) {
      const row = await pixels.findByEventId(eventId);
      clock = row?.nextAttemptAt ?? clock;
      if (clock - created > MAX_EVENT_AGE_MS) break;
      expect(await worker.runOnce()).toEqual({ delivered: 0, failed: 1, dropped: 0 });
      sends += 1;
    }
    expect(sends).toBeGreaterThan(150);
    expect(await worker.runOnce()).toEqual({ delivered: 0, failed: 0, dropped: 1 });
    expect((await pixels.findByEventId(eventId))?.droppedAt).toBe(clock);
    expect(rx.received.length).toBe(sends);
  });

  it('splits a pixel’s events into requests of at most 1,000', async () => {
    const rx = await open(() => 200);
    const funnel = await pixelFunnel('5555555555', 'EAAB-token-E');
    const pixels = createPixelRepo(t.db, dialect);
    const rows = Array.from({ length: 2300 }, (_, i) => {
      const eventId = `bulk-${dialect}-${String(i).padStart(4, '0')}`;
      const event = toServerEvent({ eventName: 'Lead', eventId }, CONNECTION, clock, '');
      return {
        eventId,
        accountId: theOwner().id,
        funnelId: funnel.id,
        leadId: null,
        eventName: 'Lead',
        payload: JSON.stringify(event),
        attempts: 0,
        nextAttemptAt: clock,
        createdAt: clock,
      };
    });
    for (let i = 0; i < rows.length; i += 500) {
      await t.db
        .insertInto('pixelOutbox')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    const worker = workerWith({ apiUrl: rx.apiUrl, pixels, batchSize: 2500 });
    expect(await worker.runOnce()).toEqual({ delivered: 2300, failed: 0, dropped: 0 });
    expect(rx.received.map((r) => r.body.data.length).sort((a, b) => a - b)).toEqual([300, 1000, 1000]);
    expect(new Set(ids(rx.received)).size).toBe(2300);
  });

  describe('two workers on one database', () => {
    let other: DatabaseHandle | undefined;
    beforeAll(() => {
      const { url, schema } = t.database;
      other = openDatabase(url, schema ? { schema, poolSize: 4 } : {});
    });
    afterAll(async () => {
      await other?.close();
    });

    it('never send the same event twice', async () => {
      const rx = await open(() => 200, 3);
      const funnel = await pixelFunnel('6666666666', 'EAAB-token-F');
      const service = serviceAt(now);
      const eventIds = Array.from({ length: 300 }, (_, i) => `race-${dialect}-${String(i).padStart(3, '0')}`);
      // One lead each: a lead's own events are limited to a few a day.
      const { leads } = await t.services.leads.import(
        theOwner(),
        funnel.id,
        eventIds.map((eventId) => ({ name: eventId })),
      );
      for (let i = 0; i < eventIds.length; i += 50) {
        await Promise.all(
          eventIds.slice(i, i + 50).map((eventId, j) =>
            service.record(
              {
                idFunnel: funnel.id,
                token: leads[i + j]?.token ?? '',
                eventData: { eventName: 'Lead', eventId },
              },
              CONNECTION,
            ),
          ),
        );
      }
      const first = workerWith({ apiUrl: rx.apiUrl, batchSize: 20 });
      const secondDb = other?.db ?? t.db;
      const second = workerWith({
        apiUrl: rx.apiUrl,
        batchSize: 20,
        pixels: createPixelRepo(secondDb, dialect),
        funnels: createFunnelRepo(t.db),
      });
      let delivered = 0;
      for (let round = 0; round < 100 && delivered < eventIds.length; round++) {
        const results = await Promise.all([first, second, first, second].map((w) => w.runOnce()));
        for (const result of results) {
          expect(result.failed + result.dropped).toBe(0);
          delivered += result.delivered;
        }
      }
      expect(delivered).toBe(eventIds.length);
      const sent = ids(rx.received);
      expect(sent).toHaveLength(eventIds.length);
      expect([...sent].sort()).toEqual(eventIds);
    });
  });

  describe('its loop', () => {
    it('runs until stop(), which waits for the run in flight and leaves no timer', async () => {
      const rx = await open(() => 200, 150);
      const funnel = await pixelFunnel('7777777777', 'EAAB-token-G');
      const pixels = createPixelRepo(t.db, dialect);
      const timers = countingSchedule();
      const worker = workerWith({ apiUrl: rx.apiUrl, pixels, pollMs: 5, schedule: timers.schedule });
      worker.start();
      worker.start();
      await until(() => timers.scheduled() >= 4);
      const eventId = `loop-${dialect}-1`;
      await serviceAt(now).record(
        { idFunnel: funnel.id, token: await leadToken(funnel.id), eventData: { eventName: 'Lead', eventId } },
        CONNECTION,
      );
      // The receiver holds its answer for 150 ms: stop while the request is in flight.
      await until(() => ids(rx.received).includes(eventId));
      await worker.stop();
      expect((await pixels.findByEventId(eventId))?.deliveredAt).toBe(clock);
      expect(timers.pending()).toBe(0);
      const scheduled = timers.scheduled();
      const requests = rx.received.length;
      await sleep(50);
      expect(timers.scheduled()).toBe(scheduled);
      expect(rx.received).toHaveLength(requests);
      await worker.stop();
    });

    it('logs a failed run and goes on', async () => {
      const rx = await open(() => 200);
      const real: PixelRepo = createPixelRepo(t.db, dialect);
      let claims = 0;
      const failing: PixelRepo = {
        ...real,
        claimDue: (...args) => {
          claims += 1;
          return claims <= 2 ? Promise.reject(new Error('database unavailable')) : real.claimDue(...args);
        },
      };
      const logger = memoryLogger();
      const timers = countingSchedule();
      const worker = workerWith({
        apiUrl: rx.apiUrl,
        pixels: failing,
        logger,
        pollMs: 5,
        schedule: timers.schedule,
      });
      worker.start();
      await until(() => claims >= 4);
      await worker.stop();
      expect(
        logger.entries.filter((e) => e.level === 'error' && e.msg === 'pixel worker run failed'),
      ).toHaveLength(2);
      expect(timers.pending()).toBe(0);
    });
  });
});
