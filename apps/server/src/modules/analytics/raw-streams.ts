/**
 * Random raw rows of one account for the property tests of analytics (decision 25): what the
 * rollups and the brute-force reference (reference.ts) must agree on. The streams hold what makes
 * analytics hard: replays and seeks, reports that overlap (progress reports inside the closing one,
 * the same stretch reported twice, points), SKIP records, records that run backwards, records that
 * bridge two stretches, sessions, clicks and conversions on either side of a day boundary, clicks and
 * conversions with no session or page. Small, so that hundreds of runs take seconds.
 */
import fc from 'fast-check';
import type {
  ActionInput,
  ConversionInput,
  DayOf,
  DayRange,
  LeadInput,
  PageInput,
  RawRows,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';
import type { RawEvent } from './rollup-batch';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The account's zone is UTC−3 (no daylight saving): a UTC midnight is not a day boundary. */
const UTC_OFFSET_MS = -3 * HOUR_MS;

/** The account's day of a server time, in UTC−3. */
export const dayOfUtcMinus3: DayOf = (ms) => Math.floor((ms + UTC_OFFSET_MS) / DAY_MS);

/** The server time at which a day of UTC−3 starts. */
export function startOfDayUtcMinus3(day: number): number {
  return day * DAY_MS - UTC_OFFSET_MS;
}

/** The first day of every stream: 2026-03-02 in UTC−3. */
const FIRST_DAY = dayOfUtcMinus3(Date.UTC(2026, 2, 2, 12));

export interface RawRowsOptions {
  /** Days the sessions, clicks and conversions spread over (default 4). */
  days?: number;
  /** At most this many leads (default 12). */
  maxLeads?: number;
  /** At most this many sessions per lead (default 4). */
  maxSessionsPerLead?: number;
}

export interface RawStream {
  rows: RawRows;
  dayOf: DayOf;
  /** A range that may cut across a lead's days, and may reach past the days with rows. */
  range: DayRange;
  /** A page of the rows, and a funnel of the rows (not always the page's). */
  pageId: string;
  funnelId: string;
}

/** How one report of a stretch of playback is sent. */
const reportPlan = fc.record({
  kind: fc.constantFrom('whole', 'part', 'twice', 'point', 'instantTwice', 'skip', 'backwards'),
  /** Where in the stretch a part, point or skip sits, in tenths of the stretch. */
  fromTenth: fc.integer({ min: 0, max: 10 }),
  toTenth: fc.integer({ min: 0, max: 10 }),
  state: fc.constantFrom('PLAYING', 'PAUSE', 'ENDED', 'INTERRUPTED', 'PROGRESS'),
  duration: fc.constantFrom('known', 'known', 'unknown', 'longer'),
});
type ReportPlan = typeof reportPlan extends fc.Arbitrary<infer Plan> ? Plan : never;

/** A stretch of uninterrupted playback (a pass), after a pause of `gapMs` of the visitor's clock. */
const stretchPlan = fc.record({
  /** 0: it starts the instant the previous one ended, which is not an overlap. */
  gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8_000 })),
  /** Where it starts: the previous end (no seek), or anywhere (a jump forward or a replay). */
  seek: fc.boolean(),
  videoStartTenths: fc.integer({ min: 0, max: 300 }),
  /** 0: a stretch that plays nothing (only points). */
  lengthTenths: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 150 })),
  reports: fc.array(reportPlan, { minLength: 1, maxLength: 4 }),
});

/** A record that follows no stretch: it may bridge two passes, overlap one, or run backwards. */
const strayPlan = fc.record({
  viewFromMs: fc.integer({ min: 0, max: 60_000 }),
  viewLengthMs: fc.integer({ min: 0, max: 20_000 }),
  videoFromTenths: fc.integer({ min: 0, max: 300 }),
  videoLengthTenths: fc.integer({ min: -20, max: 150 }),
  state: fc.constantFrom('PLAYING', 'PAUSE', 'PROGRESS', 'SKIP'),
  duration: fc.constantFrom('known', 'unknown', 'longer'),
});

const actionPlan = fc.record({
  action: fc.constantFrom('BUTTON_CLICK', 'BUTTON_CLICK', 'BUTTON_SHOWN', 'MODAL_OPEN'),
  /** After the session's start: up to 30 h, so some land on the next day. */
  afterMs: fc.oneof(fc.integer({ min: 0, max: HOUR_MS }), fc.integer({ min: 0, max: 30 * HOUR_MS })),
  withoutSession: fc.constantFrom(false, false, false, true),
});

const endReasonPlan = fc.constantFrom(null, 'VIDEO_ENDED', 'VIDEO_ENDED_OFFERT', 'PAGE_LEFT', 'TIMEOUT');

/** A time within the stream's days, often right at a boundary (UTC−3 midnight, UTC midnight, 1 ms either side). */
function timePlan(days: number): fc.Arbitrary<number> {
  return fc
    .tuple(
      fc.integer({ min: 0, max: days - 1 }),
      fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 0, max: DAY_MS - 1 }) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(0, 1, DAY_MS - 1, DAY_MS + UTC_OFFSET_MS - 1, DAY_MS + UTC_OFFSET_MS),
        },
      ),
    )
    .map(([dayIndex, withinDayMs]) => startOfDayUtcMinus3(FIRST_DAY + dayIndex) + withinDayMs);
}

function sessionPlan(days: number) {
  return fc.record({
    pageChoice: fc.nat({ max: 2 }),
    startAt: timePlan(days),
    endReason: endReasonPlan,
    /** The visitor's clock is not the server's. */
    clockSkewMs: fc.integer({ min: -600_000, max: 600_000 }),
    stretches: fc.array(stretchPlan, { maxLength: 3 }),
    strays: fc.array(strayPlan, { maxLength: 2 }),
    actions: fc.array(actionPlan, { maxLength: 2 }),
  });
}

function leadPlan(days: number, maxSessions: number) {
  return fc.record({
    funnelChoice: fc.nat({ max: 1 }),
    createdAt: timePlan(days),
    sessions: fc.array(sessionPlan(days), { maxLength: maxSessions }),
    conversions: fc.array(
      fc.record({
        /** null: a conversion with no page (a purchase reported by the provider). */
        pageChoice: fc.option(fc.nat({ max: 2 }), { freq: 3 }),
        createdAt: timePlan(days),
        kind: fc.constantFrom('OFFERT', 'PRELAUNCH', 'PIXEL_LEAD'),
      }),
      { maxLength: 2 },
    ),
  });
}

const funnelPlan = fc.record({
  pages: fc.array(
    fc.record({
      /** The video's real length in tenths of a second. */
      durationTenths: fc.integer({ min: 30, max: 400 }),
      /** Sometimes past the end of the video. */
      buttonTenths: fc.integer({ min: 0, max: 500 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  /** Positions backwards from the order of the rows, so that steps must be sorted. */
  positionsBackwards: fc.boolean(),
});

/** Hands out ids unique within a stream, one sequence per table. */
function idMaker(): (table: string) => string {
  const counts = new Map<string, number>();
  return (table) => {
    const next = (counts.get(table) ?? 0) + 1;
    counts.set(table, next);
    return `${table}-${next}`;
  };
}

function reportedDuration(plan: 'known' | 'unknown' | 'longer', durationTenths: number): number {
  if (plan === 'unknown') return 0;
  return plan === 'known' ? durationTenths / 10 : durationTenths / 10 + 7.5;
}

/** The records one report of a stretch sends: view times in ms, video times in seconds. */
function recordsOfReport(
  report: ReportPlan,
  stretch: { viewStart: number; videoStartTenths: number; lengthTenths: number },
  base: { pageSessionId: string; leadId: string; durationTenths: number },
  newId: () => string,
): VideoRecordInput[] {
  // One tenth of a second of video is 100 ms of view time.
  const viewAt = (tenthOfStretch: number) => stretch.viewStart + stretch.lengthTenths * 10 * tenthOfStretch;
  const videoAt = (tenthOfStretch: number) =>
    (stretch.videoStartTenths * 10 + stretch.lengthTenths * tenthOfStretch) / 100;
  const low = Math.min(report.fromTenth, report.toTenth);
  const high = Math.max(report.fromTenth, report.toTenth);
  const record = (
    fields: Pick<
      VideoRecordInput,
      'startViewTime' | 'endViewTime' | 'startTimeVideo' | 'endTimeVideo' | 'state'
    >,
  ) => ({
    id: newId(),
    pageSessionId: base.pageSessionId,
    leadId: base.leadId,
    videoDuration: reportedDuration(report.duration, base.durationTenths),
    ...fields,
  });
  const whole = {
    startViewTime: viewAt(0),
    endViewTime: viewAt(10),
    startTimeVideo: videoAt(0),
    endTimeVideo: videoAt(10),
    state: report.state,
  };
  switch (report.kind) {
    case 'whole':
      return [record(whole)];
    case 'twice':
      // The same stretch reported twice, under two ids (a closing record and a resent one).
      return [record(whole), record(whole)];
    case 'part':
      return [
        record({
          startViewTime: viewAt(low),
          endViewTime: viewAt(high),
          startTimeVideo: videoAt(low),
          endTimeVideo: videoAt(high),
          state: 'PROGRESS',
        }),
      ];
    case 'point':
      return [
        record({
          startViewTime: viewAt(low),
          endViewTime: viewAt(low),
          startTimeVideo: videoAt(low),
          endTimeVideo: videoAt(low),
          state: 'PLAYING',
        }),
      ];
    case 'instantTwice':
      // Two records of one instant of view time that play something: the same interval, so one pass.
      return [
        record({
          startViewTime: viewAt(low),
          endViewTime: viewAt(low),
          startTimeVideo: videoAt(low),
          endTimeVideo: videoAt(high) + 0.4,
          state: 'PROGRESS',
        }),
        record({
          startViewTime: viewAt(low),
          endViewTime: viewAt(low),
          startTimeVideo: videoAt(low) + 0.2,
          endTimeVideo: videoAt(high) + 1.3,
          state: 'PROGRESS',
        }),
      ];
    case 'skip':
      // A seek reported as a SKIP: it covers seconds of the video but plays none.
      return [
        record({
          startViewTime: viewAt(low),
          endViewTime: viewAt(high),
          startTimeVideo: videoAt(low),
          endTimeVideo: videoAt(low) + high + 0.5,
          state: 'SKIP',
        }),
      ];
    case 'backwards':
      // A record whose video start is past its end (a seek back reported as playing): plays nothing.
      return [
        record({
          startViewTime: viewAt(low),
          endViewTime: viewAt(high),
          startTimeVideo: videoAt(10) + 1 + high / 10,
          endTimeVideo: videoAt(low),
          state: report.state,
        }),
      ];
  }
}

/**
 * The raw rows of one account: 1–2 funnels of 1–3 pages, up to ~12 leads, each with sessions on
 * their funnel's pages over several days, and a range of days with a page and a funnel to ask about.
 */
export function rawRowsArbitrary(options: RawRowsOptions = {}): fc.Arbitrary<RawStream> {
  const days = options.days ?? 4;
  const maxLeads = options.maxLeads ?? 12;
  const maxSessions = options.maxSessionsPerLead ?? 4;
  return fc
    .record({
      funnels: fc.array(funnelPlan, { minLength: 1, maxLength: 2 }),
      leads: fc.array(leadPlan(days, maxSessions), { minLength: 1, maxLength: maxLeads }),
      rangeStart: fc.integer({ min: -1, max: days - 1 }),
      rangeLength: fc.integer({ min: 1, max: days + 1 }),
      pageChoice: fc.nat(),
      funnelChoice: fc.nat(),
    })
    .map((plan): RawStream => {
      const newId = idMaker();
      const funnelIds: string[] = [];
      const pagesOfFunnel: PageInput[][] = [];
      const durationTenthsOf = new Map<string, number>();
      for (const funnel of plan.funnels) {
        const funnelId = newId('funnel');
        funnelIds.push(funnelId);
        const pages = funnel.pages.map((pagePlanned, index): PageInput => {
          const page = {
            id: newId('page'),
            funnelId,
            position: funnel.positionsBackwards ? funnel.pages.length - 1 - index : index,
            buttonTimeSeconds: pagePlanned.buttonTenths / 10,
          };
          durationTenthsOf.set(page.id, pagePlanned.durationTenths);
          return page;
        });
        pagesOfFunnel.push(pages);
      }

      const leads: LeadInput[] = [];
      const sessions: SessionInput[] = [];
      const videoRecords: VideoRecordInput[] = [];
      const actions: ActionInput[] = [];
      const conversions: ConversionInput[] = [];
      for (const leadPlanned of plan.leads) {
        const funnelIndex = leadPlanned.funnelChoice % funnelIds.length;
        const funnelId = funnelIds[funnelIndex] as string;
        const pages = pagesOfFunnel[funnelIndex] as PageInput[];
        const lead = { id: newId('lead'), funnelId, createdAt: leadPlanned.createdAt };
        leads.push(lead);
        for (const sessionPlanned of leadPlanned.sessions) {
          const page = pages[sessionPlanned.pageChoice % pages.length] as PageInput;
          const session = {
            id: newId('session'),
            leadId: lead.id,
            funnelId,
            pageId: page.id,
            startAt: sessionPlanned.startAt,
            endReason: sessionPlanned.endReason,
          };
          sessions.push(session);
          const base = {
            pageSessionId: session.id,
            leadId: lead.id,
            durationTenths: durationTenthsOf.get(page.id) as number,
          };
          const visitorStart = session.startAt + sessionPlanned.clockSkewMs;
          let viewEnd = visitorStart;
          let videoEndTenths = 0;
          for (const stretchPlanned of sessionPlanned.stretches) {
            const stretch = {
              viewStart: viewEnd + stretchPlanned.gapMs,
              videoStartTenths: stretchPlanned.seek ? stretchPlanned.videoStartTenths : videoEndTenths,
              lengthTenths: stretchPlanned.lengthTenths,
            };
            for (const report of stretchPlanned.reports)
              videoRecords.push(...recordsOfReport(report, stretch, base, () => newId('record')));
            viewEnd = stretch.viewStart + stretch.lengthTenths * 100;
            videoEndTenths = stretch.videoStartTenths + stretch.lengthTenths;
          }
          for (const stray of sessionPlanned.strays) {
            videoRecords.push({
              id: newId('record'),
              pageSessionId: session.id,
              leadId: lead.id,
              startViewTime: visitorStart + stray.viewFromMs,
              endViewTime: visitorStart + stray.viewFromMs + stray.viewLengthMs,
              startTimeVideo: stray.videoFromTenths / 10,
              endTimeVideo: (stray.videoFromTenths + stray.videoLengthTenths) / 10,
              state: stray.state,
              videoDuration: reportedDuration(stray.duration, base.durationTenths),
            });
          }
          for (const actionPlanned of sessionPlanned.actions) {
            actions.push({
              id: newId('action'),
              pageSessionId: actionPlanned.withoutSession ? null : session.id,
              leadId: lead.id,
              action: actionPlanned.action,
              receivedAt: session.startAt + actionPlanned.afterMs,
            });
          }
        }
        for (const conversionPlanned of leadPlanned.conversions) {
          conversions.push({
            id: newId('conversion'),
            leadId: lead.id,
            funnelId,
            pageId:
              conversionPlanned.pageChoice === null
                ? null
                : (pages[conversionPlanned.pageChoice % pages.length] as PageInput).id,
            kind: conversionPlanned.kind,
            createdAt: conversionPlanned.createdAt,
          });
        }
      }

      const allPages = pagesOfFunnel.flat();
      const from = FIRST_DAY + plan.rangeStart;
      return {
        rows: { leads, pages: allPages, sessions, videoRecords, actions, conversions },
        dayOf: dayOfUtcMinus3,
        range: { from, to: from + plan.rangeLength - 1 },
        pageId: (allPages[plan.pageChoice % allPages.length] as PageInput).id,
        funnelId: funnelIds[plan.funnelChoice % funnelIds.length] as string,
      };
    });
}

/** An arbitrary order of the items: the rollups must give the same numbers whatever the arrival order. */
export function shuffled<Item>(items: readonly Item[]): fc.Arbitrary<Item[]> {
  return fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length });
}

/** Every table of the rows in an arbitrary order of its own. */
export function shuffledRows(rows: RawRows): fc.Arbitrary<RawRows> {
  return fc.record({
    leads: shuffled(rows.leads),
    pages: shuffled(rows.pages),
    sessions: shuffled(rows.sessions),
    videoRecords: shuffled(rows.videoRecords),
    actions: shuffled(rows.actions),
    conversions: shuffled(rows.conversions),
  });
}

/** How the rows arrive: an order, events sent twice, and ends reported after the session's start. */
export interface Arrival {
  order: number[];
  resent: number[];
  lateEnds: boolean[];
}

export function arrivalOf(rows: RawRows): fc.Arbitrary<Arrival> {
  const others =
    rows.sessions.length + rows.videoRecords.length + rows.actions.length + rows.conversions.length;
  return fc.record({
    order: fc.shuffledSubarray(
      Array.from({ length: others }, (_, i) => i),
      { minLength: others, maxLength: others },
    ),
    resent: fc.array(fc.nat({ max: Math.max(0, others - 1) }), { maxLength: 6 }),
    lateEnds: fc.array(fc.boolean(), { minLength: rows.sessions.length, maxLength: rows.sessions.length }),
  });
}

/**
 * The events in the arrival's order, as the server could see them: every lead first (a lead exists
 * before its events), a session before its records and actions, anything else in any order; some
 * sent twice; a session's end reason sometimes only known after its records.
 */
export function eventsOf(rows: RawRows, arrival: Arrival): RawEvent[] {
  const others: RawEvent[] = [
    ...rows.sessions.map((row, i): RawEvent =>
      arrival.lateEnds[i] === true
        ? { kind: 'session', row: { ...row, endReason: null } }
        : { kind: 'session', row },
    ),
    ...rows.videoRecords.map((row): RawEvent => ({ kind: 'videoRecord', row })),
    ...rows.actions.map((row): RawEvent => ({ kind: 'action', row })),
    ...rows.conversions.map((row): RawEvent => ({ kind: 'conversion', row })),
  ];
  const events: RawEvent[] = rows.leads.map((row) => ({ kind: 'lead', row }));
  const started = new Set<string>();
  const sessionEvents = new Map(rows.sessions.map((row, i) => [row.id, others[i] as RawEvent]));
  const start = (sessionId: string | null) => {
    if (sessionId === null || started.has(sessionId)) return;
    const session = sessionEvents.get(sessionId);
    if (session === undefined) return;
    started.add(sessionId);
    events.push(session);
  };
  for (const index of arrival.order) {
    const event = others[index] as RawEvent;
    if (event.kind === 'session') start(event.row.id);
    else if (event.kind === 'videoRecord') {
      start(event.row.pageSessionId);
      events.push(event);
    } else if (event.kind === 'action') {
      start(event.row.pageSessionId);
      events.push(event);
    } else events.push(event);
  }
  for (const index of arrival.resent) {
    const event = others[index];
    if (event !== undefined && (event.kind !== 'session' || started.has(event.row.id))) events.push(event);
  }
  rows.sessions.forEach((row, i) => {
    if (arrival.lateEnds[i] === true && row.endReason !== null)
      events.push({ kind: 'sessionEnd', sessionId: row.id, endReason: row.endReason });
  });
  return events;
}
