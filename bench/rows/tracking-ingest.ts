/**
 * Row 5: tracking events acknowledged per second, and none of them lost to a SIGKILL.
 *
 * Each connection plays visitors one after another, as the visitor app sends them (decision 0006):
 * a page session starts (with the device details a phone reports), the video reports PLAYING, its
 * 25/50/75 % milestones and ENDED, the visitor clicks the button, and the session ends. Eight events
 * per visit, each a request that is answered only once its event is committed. A 2xx whose body says
 * `result: true` is an acknowledged event. The crash half runs the same load, keeps the stored id of
 * every acknowledged event, kills the server with SIGKILL in the middle, starts it again on the same
 * database and looks every one of them up.
 */
import { randomBytes } from 'node:crypto';
import { sessionEventId } from '../../apps/server/src/lib/event-ids';
import { countStored, type AcknowledgedEvent } from '../../scripts/lib/scratch-database';
import {
  killServer,
  startServer,
  type ServerOptions,
  waitUntilRefused,
  type RunningServer,
} from '../../scripts/lib/server-process';
import type { BenchLead } from '../lib/leads';
import type { CpuMeter } from '../lib/process-cpu';
import { combineRounds, interleave, runLoad, warmUp, type LoadRequest, type LoadSummary } from '../lib/load';
import { failedRow, makeRow, median, type Budget, type Row } from '../lib/report';
import { runsText } from '../settings';

type Kind = AcknowledgedEvent['kind'];

/** What a phone reports when a session starts (apps/web/src/tracking/device-details.ts). */
export const DEVICE_DETAILS = {
  userAgent:
    'Mozilla/5.0 (Linux; Android 13; SM-A145M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  videoStatus: 'NOT_STARTED',
  browser: { name: 'Chrome', version: '124.0.0.0', engine: 'Blink' },
  os: { name: 'Android', version: '13', architecture: 'arm' },
  display: { screenWidth: 412, screenHeight: 915, viewportWidth: 412, viewportHeight: 823, zoom: 1 },
  capabilities: { touch: true, cookiesEnabled: true, localStorageAvailable: true },
  preferences: { mainLanguage: 'es-MX', languages: ['es-MX', 'es', 'en'], dateTimeFormat: 'es-MX' },
  network: { connectionType: 'cellular', effectiveType: '4g', downlink: 1.45, rtt: 300, saveData: false },
  referrer: 'https://l.facebook.com/',
  sessionCount: 1,
  visitorType: 'NEW',
  fingerprint: 'f3b1c2d4e5a69788',
};

const VIDEO_DURATION = 600;
/** PLAYING, the three milestones, ENDED: the video records of a visit that watches to the end. */
const VIDEO_STEPS = [
  { state: 'PLAYING', from: 0, to: 0 },
  { state: 'PROGRESS', from: 150, to: 150, percent: 25 },
  { state: 'PROGRESS', from: 300, to: 300, percent: 50 },
  { state: 'PROGRESS', from: 450, to: 450, percent: 75 },
  { state: 'ENDED', from: 0, to: 600 },
] as const;

/** What one connection remembers during a visit (autocannon gives each a fresh one per sequence). */
interface VisitContext {
  lead?: BenchLead;
  session?: string;
  /** The client event id of the request in flight: each connection has one at a time. */
  eventId?: string;
}

/** Counts acknowledged events and, when asked, keeps the stored id of each. */
export class AckLog {
  acknowledged = 0;
  notAcknowledged = 0;
  readonly byKind: Record<Kind, number> = { session: 0, video: 0, action: 0, sessionEnd: 0 };
  readonly events: AcknowledgedEvent[] = [];

  constructor(private readonly keepIds: boolean) {}

  ack(kind: Kind, id: () => string): void {
    this.acknowledged += 1;
    this.byKind[kind] += 1;
    if (this.keepIds) this.events.push({ kind, id: id() });
  }
}

/** The requests of one visit, in order, for autocannon to send over and over on each connection. */
export function visitRequests(leads: readonly BenchLead[], log: AckLog): LoadRequest[] {
  const runTag = randomBytes(6).toString('base64url');
  let visits = 0;
  let sent = 0;
  const newEventId = () => `${runTag}-${(sent++).toString(36)}`;
  const json = { 'content-type': 'application/json' };
  const acknowledged = (status: number, body: string) =>
    status >= 200 && status < 300 && body.includes('"result":true');
  const ctx = (context: Record<string, unknown>) => context as VisitContext;
  // An event whose request is sent with a session and whose answer is acknowledged.
  const sessionEvent = (kind: 'video' | 'action', path: string, body: () => object) =>
    ({
      method: 'POST',
      path,
      headers: json,
      setupRequest: (request: LoadRequest, context: Record<string, unknown>) => {
        const c = ctx(context);
        const clientEventId = newEventId();
        const payload = {
          token: c.lead?.token,
          eventId: clientEventId,
          idTrackingPageSession: c.session ?? 'none',
          ...body(),
        };
        c.eventId = clientEventId;
        return { ...request, body: JSON.stringify(payload) };
      },
      onResponse: (status: number, body: string, context: Record<string, unknown>) => {
        const c = ctx(context);
        const sentId = c.eventId ?? '';
        const leadId = c.lead?.leadId ?? '';
        const session = c.session ?? '';
        if (acknowledged(status, body)) log.ack(kind, () => sessionEventId(session, leadId, kind, sentId));
        else log.notAcknowledged += 1;
      },
    }) satisfies LoadRequest;
  const start: LoadRequest = {
    method: 'POST',
    path: '/api/funnel/track/page',
    headers: json,
    setupRequest: (request, context) => {
      const c = ctx(context);
      const lead = leads[visits++ % leads.length] as BenchLead;
      c.lead = lead;
      const payload = {
        token: lead.token,
        eventId: newEventId(),
        start: Date.now(),
        startReason: 'INITIAL_LOAD',
        details: DEVICE_DETAILS,
      };
      return { ...request, body: JSON.stringify(payload) };
    },
    onResponse: (status, body, context) => {
      const c = ctx(context);
      if (!acknowledged(status, body)) {
        log.notAcknowledged += 1;
        return;
      }
      const id = sessionIdIn(body);
      if (id === undefined) {
        log.notAcknowledged += 1;
        return;
      }
      c.session = id;
      log.ack('session', () => id);
    },
  };
  const videos = VIDEO_STEPS.map((step) =>
    sessionEvent('video', '/api/funnel/track/video', () => {
      const now = Date.now();
      return {
        startViewTime: now - (step.to - step.from) * 1000,
        endViewTime: now,
        startTimeVideo: step.from,
        endTimeVideo: step.to,
        details: {
          videoDuration: VIDEO_DURATION,
          reproductionTime: (step.to - step.from) * 1000,
          state: step.state,
          ...('percent' in step ? { videoProgressUpdate: { seconds: step.to, percent: step.percent } } : {}),
        },
      };
    }),
  );
  const click = sessionEvent('action', '/api/funnel/track/action', () => ({
    action: 'BUTTON_CLICK',
    timestamp: new Date().toISOString(),
    details: { buttonAction: 'NEXT-PAGE' },
  }));
  const end: LoadRequest = {
    method: 'PUT',
    path: '/api/funnel/track/page/none',
    headers: json,
    setupRequest: (request, context) => {
      const c = ctx(context);
      return {
        ...request,
        path: `/api/funnel/track/page/${c.session ?? 'none'}`,
        body: JSON.stringify({
          token: c.lead?.token,
          end: Date.now(),
          endReason: 'BUTTON_CLICK',
          details: {},
        }),
      };
    },
    onResponse: (status, body, context) => {
      const session = ctx(context).session;
      if (session !== undefined && acknowledged(status, body)) log.ack('sessionEnd', () => session);
      else log.notAcknowledged += 1;
    },
  };
  return [start, ...videos, click, end];
}

function sessionIdIn(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { data?: { idTrackingPageSession?: string } }).data?.idTrackingPageSession;
  } catch {
    return undefined;
  }
}

export interface IngestOptions {
  connections: number;
  seconds: number;
  rounds: number;
  warmUpSeconds: number;
}

/** Server CPU over a measurement's rounds: seconds used, and what it was used for. */
export interface CpuUse {
  seconds: number;
  /** Acknowledged events, or answered no-op calls. */
  count: number;
}

/** Microseconds of CPU per event or call; null when nothing was counted. */
export function microsEach(use: CpuUse | null): number | null {
  return use === null || use.count === 0 ? null : (use.seconds * 1e6) / use.count;
}

export interface IngestResult {
  health: LoadSummary;
  tracking: LoadSummary;
  /** Server CPU (every thread, and its PostgreSQL backends) during the no-op calls and the visits. */
  cpu: { noop: CpuUse | null; tracking: CpuUse | null; rollupsOff: CpuUse | null };
  /** Acknowledged events per second: the median over the rounds. */
  eventsPerSecond: number;
  acknowledged: number;
  notAcknowledged: number;
  byKind: Record<Kind, number>;
  /** The same visits against a server with the analytics rollups switched off, in the same rounds. */
  rollupsOff?: {
    tracking: LoadSummary;
    eventsPerSecond: number;
    acknowledged: number;
    notAcknowledged: number;
  };
}

/** A second server to load in the same rounds: the same visits, on a database of its own. */
export interface IngestTarget {
  url: string;
  leads: readonly BenchLead[];
}

/** Runs `run` and adds the CPU the meter saw meanwhile to `use` (left null without a meter). */
async function metered<T>(
  meter: CpuMeter | undefined,
  run: () => Promise<T>,
  count: (result: T) => number,
  use: { value: CpuUse | null },
): Promise<T> {
  const before = await meter?.read();
  const result = await run();
  const after = await meter?.read();
  if (before !== undefined && after !== undefined) {
    const previous = use.value ?? { seconds: 0, count: 0 };
    use.value = { seconds: previous.seconds + (after - before), count: previous.count + count(result) };
  }
  return result;
}

export async function measureIngest(
  serverUrl: string,
  leads: readonly BenchLead[],
  options: IngestOptions,
  rollupsOff?: IngestTarget,
  meters: { server?: CpuMeter; rollupsOff?: CpuMeter } = {},
): Promise<IngestResult> {
  const { connections, seconds } = options;
  // The baseline: the same server's no-op tracking call (BENCH_NOOP_ENDPOINT=on), with a video
  // record's body: the rate limit, body parsing and answer of a tracking call, and no database.
  const lead = leads[0];
  const noopBody = JSON.stringify({
    token: lead?.token ?? 'none',
    eventId: 'noop',
    idTrackingPageSession: 'none',
    startViewTime: Date.now(),
    endViewTime: Date.now() + 5000,
    startTimeVideo: 10,
    endTimeVideo: 15,
    details: { state: 'PAUSE', videoDuration: 600, reproductionTime: 15_000 },
  });
  const health: LoadRequest[] = [
    {
      method: 'POST',
      path: '/api/funnel/track/noop',
      headers: { 'content-type': 'application/json' },
      body: noopBody,
    },
  ];
  await warmUp(serverUrl, connections, options.warmUpSeconds, health);
  await warmUp(serverUrl, connections, options.warmUpSeconds, visitRequests(leads, new AckLog(false)));
  if (rollupsOff)
    await warmUp(
      rollupsOff.url,
      connections,
      options.warmUpSeconds,
      visitRequests(rollupsOff.leads, new AckLog(false)),
    );
  const cpu = {
    noop: { value: null as CpuUse | null },
    tracking: { value: null as CpuUse | null },
    rollupsOff: { value: null as CpuUse | null },
  };
  const visits = (target: IngestTarget, meter: CpuMeter | undefined, use: { value: CpuUse | null }) => () =>
    metered(
      meter,
      async () => {
        const log = new AckLog(false);
        const load = await runLoad({
          url: target.url,
          connections,
          seconds,
          requests: visitRequests(target.leads, log),
        });
        return { load, log };
      },
      (run) => run.log.acknowledged,
      use,
    );
  const none = () => Promise.resolve(null);
  const runs = await interleave(options.rounds, {
    health: () =>
      metered(
        meters.server,
        () => runLoad({ url: serverUrl, connections, seconds, requests: health }),
        (load) => load.ok,
        cpu.noop,
      ),
    tracking: visits({ url: serverUrl, leads }, meters.server, cpu.tracking),
    trackingOff: rollupsOff ? visits(rollupsOff, meters.rollupsOff, cpu.rollupsOff) : none,
  });
  const logs = runs.tracking.map((r) => r.log);
  const total = (pick: (log: AckLog) => number) => logs.reduce((sum, log) => sum + pick(log), 0);
  const rate = (run: { load: LoadSummary; log: AckLog }) =>
    run.load.seconds > 0 ? run.log.acknowledged / run.load.seconds : 0;
  const off = runs.trackingOff.flatMap((run) => (run === null ? [] : [run]));
  return {
    ...(off.length > 0
      ? {
          rollupsOff: {
            tracking: combineRounds(off.map((r) => r.load)),
            eventsPerSecond: median(off.map(rate)),
            acknowledged: off.reduce((sum, r) => sum + r.log.acknowledged, 0),
            notAcknowledged: off.reduce((sum, r) => sum + r.log.notAcknowledged, 0),
          },
        }
      : {}),
    health: combineRounds(runs.health),
    tracking: combineRounds(runs.tracking.map((r) => r.load)),
    cpu: { noop: cpu.noop.value, tracking: cpu.tracking.value, rollupsOff: cpu.rollupsOff.value },
    eventsPerSecond: median(runs.tracking.map(rate)),
    acknowledged: total((log) => log.acknowledged),
    notAcknowledged: total((log) => log.notAcknowledged),
    byKind: {
      session: total((log) => log.byKind.session),
      video: total((log) => log.byKind.video),
      action: total((log) => log.byKind.action),
      sessionEnd: total((log) => log.byKind.sessionEnd),
    },
  };
}

export interface CrashResult {
  /** Milliseconds of load before the SIGKILL. */
  loadMs: number;
  acknowledged: number;
  stored: number;
  lost: number;
  byKind: Record<Kind, number>;
  missing: string[];
  /** The server started again on the killed database and acknowledged a new visit. */
  restarted: boolean;
}

/**
 * The same load on `server`, SIGKILLed after `killAfterSeconds` (later if fewer than `minAcknowledged`
 * events were acknowledged by then, up to a minute); then a new server on the same database, which
 * must take a new event; then every acknowledged event is looked up by its stored id.
 */
export async function crashUnderLoad(
  server: RunningServer,
  databaseUrl: string,
  servers: RunningServer[],
  leads: readonly BenchLead[],
  options: {
    connections: number;
    killAfterSeconds: number;
    minAcknowledged: number;
    /** How to start the server again: as the killed one was. */
    server: ServerOptions;
  },
  watch: (server: RunningServer) => void,
): Promise<CrashResult> {
  const log = new AckLog(true);
  let stopLoad = (): void => undefined;
  const started = Date.now();
  const load = runLoad({
    url: server.url,
    connections: options.connections,
    // Longer than the kill comes: the run is stopped by hand right after it.
    seconds: 120,
    requests: visitRequests(leads, log),
    started: (instance) => {
      stopLoad = () => {
        instance.stop();
      };
    },
  });
  const until = started + 60_000;
  await new Promise((done) => setTimeout(done, options.killAfterSeconds * 1000));
  while (log.acknowledged < options.minAcknowledged && Date.now() < until)
    await new Promise((done) => setTimeout(done, 20));
  killServer(server, 'SIGKILL');
  const loadMs = Date.now() - started;
  stopLoad();
  await server.exited;
  await load;
  await waitUntilRefused(server.url);

  const second = await startServer(databaseUrl, servers, options.server);
  watch(second);
  const probe = new AckLog(false);
  await runLoad({ url: second.url, connections: 1, seconds: 1, requests: visitRequests(leads, probe) });
  killServer(second, 'SIGTERM');
  await second.exited;

  const check = await countStored(databaseUrl, log.events);
  return {
    loadMs,
    acknowledged: log.events.length,
    stored: check.stored,
    lost: log.events.length - check.stored,
    byKind: { ...log.byKind },
    missing: check.missing,
    restarted: probe.byKind.session > 0,
  };
}

/**
 * Issue 20's row 5: server CPU per acknowledged event (every thread of the server, and on PostgreSQL
 * every backend of its connections and PostgreSQL's writers) against the no-op tracking call's server
 * CPU per request in the same run: what the server spends, whatever the load generator beside it does.
 */
const CPU_BUDGETS: Record<'SQLite' | 'PostgreSQL', Budget> = {
  SQLite: { on: 'ratio', op: '<=', limit: 2.5 },
  PostgreSQL: { on: 'ratio', op: '<=', limit: 3.5 },
};
/**
 * Issue 19, bench row (a): ingest with the analytics rollups at least 0.85 of ingest without them,
 * as events per second of server CPU (1 ÷ CPU per event), so the ratio is CPU without ÷ CPU with.
 */
const ROLLUPS_BUDGET: Budget = { on: 'ratio', op: '>=', limit: 0.85 };
const LOST_BUDGET: Budget = { on: 'figure', op: '=', limit: 0 };

const µs = (value: number | null): string => (value === null ? 'not measured' : `${value.toFixed(0)} µs`);

/** Row 5's lines for one database: CPU per event, the rollups' share, and the loss after a SIGKILL. */
export function ingestRows(
  database: 'SQLite' | 'PostgreSQL',
  ingest: IngestResult | { error: unknown },
  crash: CrashResult | { error: unknown },
  settings: { connections: number; seconds: number; rounds: number },
  notes: string[],
): Row[] {
  const cpuMeasure = `server CPU per acknowledged tracking event, ${database}`;
  const lostMeasure = `acknowledged events lost to SIGKILL, ${database}`;
  const cpuBudget = CPU_BUDGETS[database];
  const rows: Row[] = [];
  if ('error' in ingest) rows.push(failedRow(5, cpuMeasure, cpuBudget, ingest.error));
  else {
    const k = ingest.byKind;
    const perEvent = microsEach(ingest.cpu.tracking);
    const perNoop = microsEach(ingest.cpu.noop);
    const rateRatio =
      ingest.health.requestsPerSecond > 0 ? ingest.eventsPerSecond / ingest.health.requestsPerSecond : null;
    rows.push(
      makeRow({
        row: 5,
        measure: cpuMeasure,
        figure: perEvent === null ? null : { value: perEvent, unit: 'µs' },
        baseline: perNoop === null ? null : { value: perNoop, unit: 'µs', label: 'no-op tracking call' },
        budget: cpuBudget,
        notes: [
          'baseline: POST /api/funnel/track/noop (BENCH_NOOP_ENDPOINT=on): a video record’s body through the same rate limit and parsing, answered without the database',
          `CPU read from /proc before and after each run: every thread of the server` +
            (database === 'PostgreSQL'
              ? ', every PostgreSQL backend of its connections (by application_name) and PostgreSQL’s WAL writer, checkpointer and background writer'
              : ''),
          `${settings.connections} connections each playing visits: session start, ${VIDEO_STEPS.length} ` +
            `video records, a button click, session end; ${runsText(settings)}`,
          `${database}: ${k.session} starts, ${k.video} video records, ${k.action} actions, ${k.sessionEnd} ends ` +
            `acknowledged in ${ingest.tracking.seconds.toFixed(0)} s (${ingest.notAcknowledged} not), ` +
            `p99 ${ingest.tracking.p99} ms; ${ingest.eventsPerSecond.toFixed(0)} events/s against the no-op's ` +
            `${ingest.health.requestsPerSecond.toFixed(0)} req/s` +
            (rateRatio === null ? '' : ` (${rateRatio.toFixed(2)})`),
          ...notes,
        ],
      }),
    );
  }
  const rollupsMeasure = `tracking events per server CPU second with analytics rollups, ${database}`;
  if ('error' in ingest) rows.push(failedRow(5, rollupsMeasure, ROLLUPS_BUDGET, ingest.error));
  else if (ingest.rollupsOff === undefined)
    rows.push(failedRow(5, rollupsMeasure, ROLLUPS_BUDGET, 'no server with the rollups off was measured'));
  else {
    const off = ingest.rollupsOff;
    const on = microsEach(ingest.cpu.tracking);
    const without = microsEach(ingest.cpu.rollupsOff);
    rows.push(
      makeRow({
        row: 5,
        measure: rollupsMeasure,
        figure: on === null ? null : { value: 1e6 / on, unit: 'events/s' },
        baseline: without === null ? null : { value: 1e6 / without, unit: 'events/s', label: 'rollups off' },
        budget: ROLLUPS_BUDGET,
        notes: [
          `issue 19 row (a): the same visits against a second server, on a database of its own, with ` +
            `ANALYTICS_ROLLUPS=off, in the same rounds; server CPU per event ${µs(on)} with the rollups, ` +
            `${µs(without)} without`,
          `${database}, by the clock: ${ingest.eventsPerSecond.toFixed(0)} events/s with the rollups, ` +
            `${off.eventsPerSecond.toFixed(0)} without (${(ingest.eventsPerSecond / Math.max(off.eventsPerSecond, 1)).toFixed(2)}); ` +
            `rollups off: ${off.acknowledged} events acknowledged in ${off.tracking.seconds.toFixed(0)} s ` +
            `(${off.notAcknowledged} not), p99 ${off.tracking.p99} ms`,
        ],
      }),
    );
  }
  if ('error' in crash) rows.push(failedRow(5, lostMeasure, LOST_BUDGET, crash.error));
  else if (crash.acknowledged === 0)
    rows.push(failedRow(5, lostMeasure, LOST_BUDGET, 'no event was acknowledged before the kill'));
  else
    rows.push(
      makeRow({
        row: 5,
        measure: lostMeasure,
        figure: { value: crash.lost, unit: 'events' },
        baseline: { value: crash.acknowledged, unit: 'events', label: 'acknowledged' },
        budget: LOST_BUDGET,
        notes: [
          `${database}: SIGKILL after ${(crash.loadMs / 1000).toFixed(1)} s of the same load; started again ` +
            (crash.restarted ? 'on the same database and took a new visit' : 'on the same database: FAILED'),
          ...crash.missing.slice(0, 3).map((id) => `missing: ${id}`),
        ],
      }),
    );
  return rows;
}
