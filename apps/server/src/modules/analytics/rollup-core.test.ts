import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  ActionInput,
  ConversionInput,
  DayRange,
  FunnelNumbers,
  LeadInput,
  PageInput,
  PageNumbers,
  RawRows,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';
import { playedSeconds, secondsOf } from './interval-set';
import { createMemoryRollups, type MemoryRollups, utcDayOf } from './memory-rollups';
import type { RawEvent } from './rollup-batch';
import { furthestBuckets } from './rollup-answers';
import { mergeDeltas, pageDayRow, pageMetaRow, reachRow } from './rollup-rows';

const DAY = 86_400_000;
const FUNNEL = 'f1';
const PAGE: PageInput = { id: 'p1', funnelId: FUNNEL, position: 0, buttonTimeSeconds: 3.7 };
const PAGE_TWO: PageInput = { id: 'p2', funnelId: FUNNEL, position: 1, buttonTimeSeconds: 0 };

function lead(id: string, day: number): RawEvent {
  return { kind: 'lead', row: { id, funnelId: FUNNEL, createdAt: day * DAY + 1_000 } };
}

function session(
  id: string,
  leadId: string,
  day: number,
  pageId = PAGE.id,
  endReason: string | null = null,
): RawEvent {
  return {
    kind: 'session',
    row: { id, leadId, funnelId: FUNNEL, pageId, startAt: day * DAY + 5_000, endReason },
  };
}

function record(
  id: string,
  sessionId: string,
  view: [number, number],
  video: [number, number],
  options: { state?: string; videoDuration?: number; leadId?: string } = {},
): RawEvent {
  return {
    kind: 'videoRecord',
    row: {
      id,
      pageSessionId: sessionId,
      leadId: options.leadId ?? 'l1',
      startViewTime: view[0],
      endViewTime: view[1],
      startTimeVideo: video[0],
      endTimeVideo: video[1],
      state: options.state ?? 'PROGRESS',
      videoDuration: options.videoDuration ?? 20,
    },
  };
}

function click(id: string, sessionId: string, day: number, leadId = 'l1'): RawEvent {
  return {
    kind: 'action',
    row: { id, pageSessionId: sessionId, leadId, action: 'BUTTON_CLICK', receivedAt: day * DAY + 9_000 },
  };
}

function conversion(id: string, leadId: string, day: number, pageId: string | null = PAGE.id): RawEvent {
  return {
    kind: 'conversion',
    row: { id, leadId, funnelId: FUNNEL, pageId, kind: 'purchase', createdAt: day * DAY + 7_000 },
  };
}

function rollupsOf(events: readonly RawEvent[]): MemoryRollups {
  const rollups = createMemoryRollups();
  for (const event of events) rollups.ingest(event);
  return rollups;
}

/** An array of `length` zeros with ones (or the given count) over [from, to). */
function ones(length: number, ...runs: [from: number, to: number, count?: number][]): number[] {
  const array = new Array<number>(length).fill(0);
  for (const [from, to, count] of runs) for (let s = from; s < to; s++) array[s] = count ?? 1;
  return array;
}

const day10: DayRange = { from: 10, to: 10 };

function at<Item>(items: readonly Item[], index: number): Item {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

describe('views and passes', () => {
  it('counts two overlapping reports of one stretch once', () => {
    const numbers = rollupsOf([
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('r1', 's1', [0, 10_000], [0, 10], { state: 'PAUSE' }),
      record('r2', 's1', [0, 5_000], [0, 5]),
    ]).pageNumbers(PAGE, day10);
    expect(numbers.videoDuration).toBe(20);
    expect(numbers.retention.views).toEqual(ones(20, [0, 10]));
    expect(numbers.retention.reach).toEqual(ones(20, [0, 10]));
    expect(numbers).toMatchObject({
      sessions: 1,
      plays: 1,
      playRate: 1,
      uniqueViewers: 1,
      averageWatched: 0.5,
    });
    expect(numbers.pastButton).toBe(1);
  });

  it('counts a replay after a seek back twice in views, once in reach', () => {
    const numbers = rollupsOf([
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('r1', 's1', [0, 10_000], [0, 10]),
      record('r2', 's1', [20_000, 25_000], [2, 5]),
    ]).pageNumbers(PAGE, day10);
    expect(numbers.retention.views).toEqual(ones(20, [0, 10], [2, 5, 2]));
    expect(numbers.retention.reach).toEqual(ones(20, [0, 10]));
    expect(numbers.averageWatched).toBe(0.5);
  });

  it('merges two passes when a record overlaps both, in every arrival order', () => {
    const records = [
      record('a', 's1', [0, 10], [0, 3]),
      record('b', 's1', [20, 30], [5, 8]),
      record('c', 's1', [5, 25], [2, 6]),
    ];
    const start = [lead('l1', 10), session('s1', 'l1', 10)];
    expect(
      rollupsOf([...start, at(records, 0), at(records, 1)]).pageNumbers(PAGE, day10).retention.views,
    ).toEqual(ones(20, [0, 3], [5, 8]));
    for (const order of [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ]) {
      const numbers = rollupsOf([...start, ...order.map((index) => at(records, index))]).pageNumbers(
        PAGE,
        day10,
      );
      expect(numbers.retention.views).toEqual(ones(20, [0, 8]));
      expect(numbers.averageWatched).toBe(8 / 20);
    }
  });

  it('joins instants only to the same instant or to a stretch around them', () => {
    const numbers = rollupsOf([
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('a', 's1', [100, 100], [0, 2]),
      record('b', 's1', [100, 100], [1, 3]),
      record('c', 's1', [100, 200], [0, 1]),
      record('d', 's1', [50, 150], [0, 1]),
    ]).pageNumbers(PAGE, day10);
    // a and b are one pass (the same instant); c starts at the instant, so it is another; d holds both.
    expect(numbers.retention.views).toEqual(ones(20, [0, 3]));
    const apart = rollupsOf([
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('a', 's1', [100, 100], [0, 2]),
      record('c', 's1', [100, 200], [0, 1]),
    ]).pageNumbers(PAGE, day10);
    expect(apart.retention.views).toEqual(ones(20, [0, 1, 2], [1, 2]));
  });

  it('a record whose view times run backwards joins only a record that contains them', () => {
    const start = [lead('l1', 10), session('s1', 'l1', 10)];
    const forwards = [record('a', 's1', [2, 4], [0, 1]), record('b', 's1', [3, 5], [0, 1])];
    // [4 → 3] overlaps neither [2, 4] nor [3, 5], though it lies within the pass they make.
    const backwards = record('c', 's1', [4, 3], [0, 1]);
    for (const events of [
      [...forwards, backwards],
      [backwards, ...forwards],
    ]) {
      expect(rollupsOf([...start, ...events]).pageNumbers(PAGE, day10).retention.views[0]).toBe(2);
    }
    const around = record('d', 's1', [1, 6], [0, 1]);
    expect(
      rollupsOf([...start, ...forwards, backwards, around]).pageNumbers(PAGE, day10).retention.views[0],
    ).toBe(1);
  });
});

describe('reach and viewers over ranges of days', () => {
  // l1 plays [0, 5) on day 10, [4, 6) on day 11 and [3, 8) on day 12.
  const events = [
    lead('l1', 9),
    session('s10', 'l1', 10),
    session('s11', 'l1', 11),
    session('s12', 'l1', 12),
    record('r10', 's10', [0, 1], [0, 5]),
    record('r11', 's11', [0, 1], [4, 6]),
    record('r12', 's12', [0, 1], [3, 8]),
  ];
  const expected: [DayRange, number[], number[]][] = [
    [{ from: 10, to: 12 }, ones(20, [0, 8]), ones(20, [0, 3], [3, 4, 2], [4, 5, 3], [5, 6, 2], [6, 8])],
    [{ from: 10, to: 10 }, ones(20, [0, 5]), ones(20, [0, 5])],
    [{ from: 11, to: 11 }, ones(20, [4, 6]), ones(20, [4, 6])],
    [{ from: 12, to: 12 }, ones(20, [3, 8]), ones(20, [3, 8])],
    [{ from: 11, to: 12 }, ones(20, [3, 8]), ones(20, [3, 4], [4, 6, 2], [6, 8])],
    [{ from: 10, to: 11 }, ones(20, [0, 6]), ones(20, [0, 4], [4, 5, 2], [5, 6])],
    [{ from: 13, to: 20 }, ones(20), ones(20)],
  ];

  it.each([
    ['in day order', [0, 1, 2, 3, 4, 5, 6]],
    ['the earlier days arriving late', [0, 1, 2, 3, 6, 5, 4]],
    ['the middle day arriving last', [0, 1, 2, 3, 4, 6, 5]],
  ])('counts a lead once per range, %s', (_, order) => {
    const rollups = rollupsOf(order.map((index) => at(events, index)));
    for (const [range, reach, views] of expected) {
      const numbers = rollups.pageNumbers(PAGE, range);
      expect(numbers.retention.reach, JSON.stringify(range)).toEqual(reach);
      expect(numbers.retention.views, JSON.stringify(range)).toEqual(views);
      expect(numbers.uniqueViewers, JSON.stringify(range)).toBe(range.from > 12 ? 0 : 1);
    }
  });

  it('counts a clicker once over days, however many clicks', () => {
    const rollups = rollupsOf([
      lead('l1', 9),
      session('s10', 'l1', 10),
      record('r10', 's10', [0, 1], [0, 5]),
      click('c12', 's10', 12),
      click('c10', 's10', 10),
      click('c10b', 's10', 10),
      click('c11', 's10', 11),
    ]);
    expect(rollups.pageNumbers(PAGE, { from: 10, to: 12 })).toMatchObject({ clicks: 4, clickRate: 1 });
    expect(rollups.pageNumbers(PAGE, { from: 11, to: 12 })).toMatchObject({ clicks: 2, clickRate: null });
    expect(rollups.pageNumbers(PAGE, { from: 10, to: 10 })).toMatchObject({ clicks: 2, clickRate: 1 });
  });
});

describe('records that play nothing, and retries', () => {
  it('a SKIP and a point play nothing but report the duration', () => {
    const numbers = rollupsOf([
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('skip', 's1', [0, 1000], [0, 15], { state: 'SKIP' }),
      record('point', 's1', [2000, 2000], [5, 5], { state: 'PLAYING', videoDuration: 12 }),
    ]).pageNumbers(PAGE, day10);
    expect(numbers).toMatchObject({
      sessions: 1,
      plays: 0,
      playRate: 0,
      uniqueViewers: 0,
      averageWatched: null,
      clickRate: null,
      videoDuration: 20,
      pastButton: 0,
    });
    expect(numbers.retention.reach).toEqual(ones(20));
    expect(numbers.conversionsByFurthest.every((bucket) => bucket.leads === 0)).toBe(true);
  });

  it('nothing reported: L = 0, no arrays, no buckets, null rates, every day of the range', () => {
    const numbers = rollupsOf([]).pageNumbers(PAGE, { from: 3, to: 5 });
    expect(numbers).toEqual({
      sessions: 0,
      plays: 0,
      playRate: null,
      uniqueViewers: 0,
      averageWatched: null,
      pastButton: 0,
      clicks: 0,
      clickRate: null,
      conversions: 0,
      videoDuration: 0,
      buttonTimeSeconds: 3.7,
      retention: { reach: [], views: [] },
      byDay: [3, 4, 5].map((day) => ({ day, sessions: 0, plays: 0, clicks: 0, conversions: 0 })),
      conversionsByFurthest: [],
    });
  });

  it('L is 1 + the highest second played when that passes the reported duration', () => {
    const numbers = rollupsOf([
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('r1', 's1', [0, 1], [2, 30.2], { videoDuration: 0 }),
    ]).pageNumbers(PAGE, day10);
    expect(numbers.videoDuration).toBe(31);
  });

  it('a retried id changes nothing', () => {
    const once = [
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('r1', 's1', [0, 10], [0, 10]),
      click('c1', 's1', 10),
      conversion('v1', 'l1', 10),
    ];
    const twice = once.flatMap((event) => [event, event]);
    // The retried record with other numbers is still the same id: ignored.
    twice.push(record('r1', 's1', [50, 60], [0, 20]));
    const ranges = [day10, { from: 9, to: 11 }];
    for (const range of ranges) {
      expect(rollupsOf(twice).pageNumbers(PAGE, range)).toEqual(rollupsOf(once).pageNumbers(PAGE, range));
      expect(rollupsOf(twice).funnelNumbers(FUNNEL, [PAGE], range)).toEqual(
        rollupsOf(once).funnelNumbers(FUNNEL, [PAGE], range),
      );
    }
    expect(rollupsOf(twice).pageNumbers(PAGE, day10)).toMatchObject({
      clicks: 1,
      conversions: 1,
      sessions: 1,
    });
  });
});

describe('conversions by furthest point', () => {
  it('buckets a tenth of L each, by the furthest second ever, for leads whose first play is in the range', () => {
    const rollups = rollupsOf([
      lead('a', 9),
      lead('b', 9),
      lead('c', 9),
      session('sa', 'a', 10),
      session('sb', 'b', 10),
      session('sb2', 'b', 13),
      session('sc', 'c', 11),
      record('ra', 'sa', [0, 1], [0, 4.5]),
      record('rb', 'sb', [0, 1], [0, 3]),
      // b's furthest point is reached on a later day: it still counts with its first play (day 10).
      record('rb2', 'sb2', [0, 1], [18, 19.1]),
      record('rc', 'sc', [0, 1], [0, 19]),
      conversion('vb', 'b', 15),
      conversion('vc', 'c', 11),
    ]);
    const numbers = rollups.pageNumbers(PAGE, day10);
    expect(numbers.videoDuration).toBe(20);
    expect(numbers.conversionsByFurthest.map(({ fromSecond, toSecond }) => [fromSecond, toSecond])).toEqual(
      Array.from({ length: 10 }, (_, i) => [2 * i, 2 * i + 2]),
    );
    expect(numbers.conversionsByFurthest.map((bucket) => [bucket.leads, bucket.converted])).toEqual([
      [0, 0],
      [0, 0],
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [1, 1],
    ]);
    const dayEleven = rollups.pageNumbers(PAGE, { from: 11, to: 11 }).conversionsByFurthest;
    expect(dayEleven[9]).toMatchObject({ leads: 1, converted: 1 });
  });

  it('buckets of a short video: floor(i·L/10), some empty', () => {
    expect(furthestBuckets(7).map(({ fromSecond, toSecond }) => [fromSecond, toSecond])).toEqual([
      [0, 0],
      [0, 1],
      [1, 2],
      [2, 2],
      [2, 3],
      [3, 4],
      [4, 4],
      [4, 5],
      [5, 6],
      [6, 7],
    ]);
    expect(furthestBuckets(0)).toEqual([]);
  });
});

describe('funnel steps by entry day', () => {
  it('counts each lead once per step, on the day it entered, whenever it happened', () => {
    const rollups = rollupsOf([
      lead('l1', 10),
      lead('l2', 11),
      // l1 completes p1 by a record at 95 % of its duration, on day 12, and clicks twice.
      session('s1', 'l1', 12),
      record('r1', 's1', [0, 1], [10, 19], { leadId: 'l1' }),
      record('r1b', 's1', [5, 6], [0, 19], { leadId: 'l1' }),
      click('c1', 's1', 12, 'l1'),
      click('c2', 's1', 13, 'l1'),
      // l2 completes p1 by the session's end reason, set later; reaches p2 and converts on it.
      session('s2', 'l2', 11),
      session('s3', 'l2', 11, PAGE_TWO.id),
      { kind: 'sessionEnd', sessionId: 's2', endReason: 'PAGE_CLOSE' },
      { kind: 'sessionEnd', sessionId: 's2', endReason: 'VIDEO_ENDED' },
      conversion('v1', 'l2', 14, PAGE_TWO.id),
      conversion('v2', 'l2', 14, PAGE_TWO.id),
      conversion('v3', 'l2', 14, null),
    ]);
    const step = (reached: number, completed: number, clicked: number, converted: number) => ({
      reached,
      completed,
      clicked,
      converted,
    });
    const numbers = (range: DayRange) => rollups.funnelNumbers(FUNNEL, [PAGE_TWO, PAGE], range);
    expect(numbers(day10).steps).toEqual([
      { pageId: 'p1', position: 0, ...step(1, 1, 1, 0) },
      { pageId: 'p2', position: 1, ...step(0, 0, 0, 0) },
    ]);
    expect(numbers({ from: 11, to: 11 }).steps).toEqual([
      { pageId: 'p1', position: 0, ...step(1, 1, 0, 0) },
      { pageId: 'p2', position: 1, ...step(1, 0, 0, 1) },
    ]);
    expect(numbers({ from: 10, to: 14 }).steps.map((s) => s.reached)).toEqual([2, 1]);
    expect(numbers({ from: 10, to: 14 }).byDay).toEqual([
      { day: 10, entered: 1, sessions: 0, plays: 0, clicks: 0, conversions: 0 },
      { day: 11, entered: 1, sessions: 2, plays: 0, clicks: 0, conversions: 0 },
      { day: 12, entered: 0, sessions: 1, plays: 1, clicks: 1, conversions: 0 },
      { day: 13, entered: 0, sessions: 0, plays: 0, clicks: 1, conversions: 0 },
      // v1 and v2 of page two, and v3 of no page: the funnel counts all three (decision 25).
      { day: 14, entered: 0, sessions: 0, plays: 0, clicks: 0, conversions: 3 },
    ]);
  });

  it('a record short of 95 %, a SKIP or a record without a duration does not complete', () => {
    const rollups = rollupsOf([
      lead('l1', 10),
      session('s1', 'l1', 10),
      record('r0', 's1', [4, 5], [0, 3], { videoDuration: 0 }),
      record('r1', 's1', [0, 1], [0, 18.9]),
      record('r2', 's1', [2, 3], [19, 20], { state: 'SKIP' }),
      { kind: 'sessionEnd', sessionId: 's1', endReason: 'PAGE_CLOSE' },
    ]);
    expect(rollups.funnelNumbers(FUNNEL, [PAGE], day10).steps[0]).toMatchObject({ reached: 1, completed: 0 });
  });
});

describe('mergeDeltas', () => {
  it('adds rows of one key, takes the larger for pageMeta, drops what merged to nothing', () => {
    const merged = mergeDeltas([
      reachRow('p', 1, -1, 0, 1),
      reachRow('p', 1, -1, 0, -1),
      reachRow('p', 1, -1, 3, 1),
      pageDayRow('p', 1, { sessions: 1 }),
      pageDayRow('p', 1, { plays: 1, secondsPlayed: 4 }),
      pageMetaRow('p', 12.5, -1),
      pageMetaRow('p', 3, 20),
      pageMetaRow('q', 0, -1),
    ]);
    expect(merged).toEqual([
      reachRow('p', 1, -1, 3, 1),
      pageDayRow('p', 1, { sessions: 1, plays: 1, secondsPlayed: 4 }),
      pageMetaRow('p', 12.5, 20),
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Random rows: the same rows in any valid order give the same numbers, and the numbers a plain
// recomputation gives.

const DAYS = [10, 11, 12, 13];
const PAGES = [PAGE, PAGE_TWO];
const LEADS = ['l1', 'l2', 'l3'];

const rawRowsArbitrary = fc
  .record({
    leadDays: fc.array(fc.constantFrom(...DAYS), { minLength: LEADS.length, maxLength: LEADS.length }),
    sessions: fc.array(
      fc.record({
        lead: fc.nat(LEADS.length - 1),
        page: fc.nat(PAGES.length - 1),
        day: fc.constantFrom(...DAYS),
        endReason: fc.constantFrom(null, 'VIDEO_ENDED', 'PAGE_CLOSE'),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    records: fc.array(
      fc.record({
        session: fc.nat(20),
        viewFrom: fc.nat(6),
        viewLength: fc.integer({ min: -1, max: 3 }),
        videoFrom: fc.integer({ min: -2, max: 24 }).map((half) => half / 2),
        videoLength: fc.integer({ min: -2, max: 12 }).map((half) => half / 2),
        state: fc.constantFrom('PROGRESS', 'PAUSE', 'PLAYING', 'SKIP'),
        videoDuration: fc.constantFrom(0, 10, 12.5),
      }),
      { maxLength: 16 },
    ),
    actions: fc.array(
      fc.record({ session: fc.nat(20), click: fc.boolean(), day: fc.constantFrom(...DAYS) }),
      { maxLength: 6 },
    ),
    conversions: fc.array(
      fc.record({
        lead: fc.nat(LEADS.length - 1),
        page: fc.nat(PAGES.length),
        day: fc.constantFrom(...DAYS),
      }),
      { maxLength: 4 },
    ),
  })
  .map(({ leadDays, sessions, records, actions, conversions }): RawRows => {
    const leads: LeadInput[] = LEADS.map((id, index) => ({
      id,
      funnelId: FUNNEL,
      createdAt: (leadDays[index] ?? 10) * DAY + index,
    }));
    const sessionRows: SessionInput[] = sessions.map((s, index) => ({
      id: `s${index}`,
      leadId: LEADS[s.lead] ?? 'l1',
      funnelId: FUNNEL,
      pageId: PAGES[s.page]?.id ?? PAGE.id,
      startAt: s.day * DAY + index,
      endReason: s.endReason,
    }));
    const sessionAt = (index: number) => sessionRows[index % sessionRows.length] ?? sessionRows[0];
    const videoRecords: VideoRecordInput[] = records.map((r, index) => {
      const owner = sessionAt(r.session);
      return {
        id: `r${index}`,
        pageSessionId: owner?.id ?? 's0',
        leadId: owner?.leadId ?? 'l1',
        startViewTime: r.viewFrom,
        endViewTime: r.viewFrom + r.viewLength,
        startTimeVideo: r.videoFrom,
        endTimeVideo: r.videoFrom + r.videoLength,
        state: r.state,
        videoDuration: r.videoDuration,
      };
    });
    const actionRows: ActionInput[] = actions.map((a, index) => {
      const owner = sessionAt(a.session);
      return {
        id: `a${index}`,
        pageSessionId: owner?.id ?? 's0',
        leadId: owner?.leadId ?? 'l1',
        action: a.click ? 'BUTTON_CLICK' : 'VIDEO_PLAY',
        receivedAt: a.day * DAY + index,
      };
    });
    const conversionRows: ConversionInput[] = conversions.map((c, index) => ({
      id: `v${index}`,
      leadId: LEADS[c.lead] ?? 'l1',
      funnelId: FUNNEL,
      pageId: PAGES[c.page]?.id ?? null,
      kind: 'purchase',
      createdAt: c.day * DAY + index,
    }));
    return {
      leads,
      pages: PAGES,
      sessions: sessionRows,
      videoRecords,
      actions: actionRows,
      conversions: conversionRows,
    };
  });

/** Raw rows as events in an order given by `priorities`, each waiting for what it needs (lead, session). */
function eventsInOrder(
  rows: RawRows,
  priorities: readonly number[],
  endsLater: readonly boolean[],
): RawEvent[] {
  type Pending = { event: RawEvent; needs: string[] };
  const pending: Pending[] = [
    ...rows.leads.map((row): Pending => ({ event: { kind: 'lead', row }, needs: [] })),
    ...rows.sessions.flatMap((row, index) => {
      const later = endsLater[index % endsLater.length] === true && row.endReason !== null;
      const events: Pending[] = [
        {
          event: { kind: 'session', row: later ? { ...row, endReason: null } : row },
          needs: [`lead ${row.leadId}`],
        },
      ];
      if (later && row.endReason !== null) {
        events.push({
          event: { kind: 'sessionEnd', sessionId: row.id, endReason: row.endReason },
          needs: [`session ${row.id}`],
        });
      }
      return events;
    }),
    ...rows.videoRecords.map((row): Pending => ({
      event: { kind: 'videoRecord', row },
      needs: [`session ${row.pageSessionId}`],
    })),
    ...rows.actions.map((row): Pending => ({
      event: { kind: 'action', row },
      needs: [`session ${row.pageSessionId ?? ''}`],
    })),
    ...rows.conversions.map((row): Pending => ({
      event: { kind: 'conversion', row },
      needs: [`lead ${row.leadId}`],
    })),
  ];
  // Some rows sent twice (a retry).
  const withRetries = pending.flatMap((entry, index) =>
    (priorities[index % priorities.length] ?? 0) % 5 === 0 ? [entry, entry] : [entry],
  );
  const queue = withRetries
    .map((entry, index) => ({ entry, priority: priorities[(index * 7) % priorities.length] ?? 0, index }))
    .sort((a, b) => a.priority - b.priority || a.index - b.index)
    .map(({ entry }) => entry);
  const known = new Set<string>();
  const ordered: RawEvent[] = [];
  while (queue.length > 0) {
    const next = queue.findIndex((entry) => entry.needs.every((need) => known.has(need)));
    const [entry] = queue.splice(next, 1);
    if (entry === undefined) throw new Error('unreachable: every row needs only rows before it');
    ordered.push(entry.event);
    if (entry.event.kind === 'lead') known.add(`lead ${entry.event.row.id}`);
    if (entry.event.kind === 'session') known.add(`session ${entry.event.row.id}`);
  }
  return ordered;
}

const RANGES: DayRange[] = [
  { from: 10, to: 13 },
  { from: 10, to: 10 },
  { from: 11, to: 12 },
  { from: 12, to: 13 },
  { from: 13, to: 13 },
];

function answers(rollups: MemoryRollups): { pages: PageNumbers[]; funnels: FunnelNumbers[] } {
  return {
    pages: RANGES.flatMap((range) => PAGES.map((page) => rollups.pageNumbers(page, range))),
    funnels: RANGES.map((range) => rollups.funnelNumbers(FUNNEL, PAGES, range)),
  };
}

/** A plain recomputation of a page's numbers from the rows, second by second and lead by lead. */
function recomputePage(rows: RawRows, page: PageInput, range: DayRange) {
  const dayOf = utcDayOf;
  const inRange = (day: number) => range.from <= day && day <= range.to;
  const sessions = rows.sessions.filter((s) => s.pageId === page.id);
  const recordsOf = (sessionId: string) => rows.videoRecords.filter((r) => r.pageSessionId === sessionId);
  const pageRecords = sessions.flatMap((s) => recordsOf(s.id));
  const length = Math.max(
    0,
    ...pageRecords.map((r) => Math.ceil(r.videoDuration)),
    ...pageRecords.map((r) => Math.max(-1, ...secondsOf(playedSeconds(r))) + 1),
  );
  const views = new Array<number>(length).fill(0);
  const reachers = Array.from({ length }, () => new Set<string>());
  const viewers = new Set<string>();
  const watched: number[] = [];
  const sessionsInRange = sessions.filter((s) => inRange(dayOf(s.startAt)));
  for (const s of sessionsInRange) {
    // Passes: connected groups of playing records whose view times overlap.
    const playing = recordsOf(s.id).filter((r) => secondsOf(playedSeconds(r)).length > 0);
    const group = playing.map((_, index) => index);
    const find = (index: number): number => (group[index] === index ? index : find(group[index] ?? index));
    playing.forEach((a, i) => {
      playing.forEach((b, j) => {
        const overlap =
          (a.startViewTime < b.endViewTime && b.startViewTime < a.endViewTime) ||
          (a.startViewTime === a.endViewTime &&
            b.startViewTime === b.endViewTime &&
            a.startViewTime === b.startViewTime);
        if (overlap) group[find(i)] = find(j);
      });
    });
    const passes = new Map<number, Set<number>>();
    playing.forEach((r, index) => {
      const seconds = passes.get(find(index)) ?? new Set<number>();
      for (const second of secondsOf(playedSeconds(r))) seconds.add(second);
      passes.set(find(index), seconds);
    });
    const sessionSeconds = new Set<number>();
    for (const seconds of passes.values()) {
      for (const second of seconds) {
        views[second] = (views[second] ?? 0) + 1;
        reachers[second]?.add(s.leadId);
        viewers.add(s.leadId);
        sessionSeconds.add(second);
      }
    }
    if (sessionSeconds.size > 0) watched.push(sessionSeconds.size / length);
  }
  const furthest = new Map<string, { firstDay: number; furthest: number }>();
  for (const s of sessions) {
    for (const r of recordsOf(s.id)) {
      const top = Math.max(-1, ...secondsOf(playedSeconds(r)));
      if (top < 0) continue;
      const known = furthest.get(s.leadId) ?? { firstDay: Infinity, furthest: -1 };
      furthest.set(s.leadId, {
        firstDay: Math.min(known.firstDay, dayOf(s.startAt)),
        furthest: Math.max(known.furthest, top),
      });
    }
  }
  const buckets = furthestBuckets(length).map(({ fromSecond, toSecond }) => {
    const inBucket = [...furthest].filter(
      ([, f]) => inRange(f.firstDay) && fromSecond <= f.furthest && f.furthest < toSecond,
    );
    const converted = inBucket.filter(([leadId]) =>
      rows.conversions.some((c) => c.leadId === leadId && c.pageId === page.id),
    );
    return { fromSecond, toSecond, leads: inBucket.length, converted: converted.length };
  });
  const clicks = rows.actions.filter(
    (a) =>
      a.action === 'BUTTON_CLICK' &&
      sessions.some((s) => s.id === a.pageSessionId) &&
      inRange(dayOf(a.receivedAt)),
  );
  const clickers = new Set(clicks.map((a) => a.leadId));
  const conversions = rows.conversions.filter((c) => c.pageId === page.id && inRange(dayOf(c.createdAt)));
  const reach = reachers.map((leads) => leads.size);
  const byDay = [];
  for (let day = range.from; day <= range.to; day++) {
    const ofDay = sessionsInRange.filter((s) => dayOf(s.startAt) === day);
    byDay.push({
      day,
      sessions: ofDay.length,
      plays: ofDay.filter((s) => recordsOf(s.id).some((r) => secondsOf(playedSeconds(r)).length > 0)).length,
      clicks: clicks.filter((a) => dayOf(a.receivedAt) === day).length,
      conversions: conversions.filter((c) => dayOf(c.createdAt) === day).length,
    });
  }
  return {
    sessions: sessionsInRange.length,
    plays: watched.length,
    playRate: sessionsInRange.length === 0 ? null : watched.length / sessionsInRange.length,
    uniqueViewers: viewers.size,
    averageWatched: watched.length === 0 ? null : watched.reduce((sum, x) => sum + x, 0) / watched.length,
    pastButton: reach[Math.floor(page.buttonTimeSeconds)] ?? 0,
    clicks: clicks.length,
    clickRate: viewers.size === 0 ? null : clickers.size / viewers.size,
    conversions: conversions.length,
    videoDuration: length,
    buttonTimeSeconds: page.buttonTimeSeconds,
    retention: { reach, views },
    byDay,
    conversionsByFurthest: buckets,
  };
}

/** A plain recomputation of the funnel's steps and days. */
function recomputeFunnel(rows: RawRows, range: DayRange): FunnelNumbers {
  const dayOf = utcDayOf;
  const entered = rows.leads.filter(
    (l) => range.from <= dayOf(l.createdAt) && dayOf(l.createdAt) <= range.to,
  );
  const steps = PAGES.map((page) => {
    const sessionsOf = (leadId: string) =>
      rows.sessions.filter((s) => s.leadId === leadId && s.pageId === page.id);
    const count = (test: (leadId: string) => boolean) => entered.filter((l) => test(l.id)).length;
    return {
      pageId: page.id,
      position: page.position,
      reached: count((leadId) => sessionsOf(leadId).length > 0),
      completed: count((leadId) =>
        sessionsOf(leadId).some(
          (s) =>
            s.endReason === 'VIDEO_ENDED' ||
            s.endReason === 'VIDEO_ENDED_OFFERT' ||
            rows.videoRecords.some(
              (r) =>
                r.pageSessionId === s.id &&
                secondsOf(playedSeconds(r)).length > 0 &&
                r.videoDuration > 0 &&
                r.endTimeVideo >= 0.95 * r.videoDuration,
            ),
        ),
      ),
      clicked: count((leadId) =>
        sessionsOf(leadId).some((s) =>
          rows.actions.some((a) => a.pageSessionId === s.id && a.action === 'BUTTON_CLICK'),
        ),
      ),
      converted: count((leadId) => rows.conversions.some((c) => c.leadId === leadId && c.pageId === page.id)),
    };
  });
  const pageDays = PAGES.map((page) => recomputePage(rows, page, range).byDay);
  const byDay = pageDays[0]?.map((first, index) => {
    const sum = (field: 'sessions' | 'plays' | 'clicks' | 'conversions') =>
      pageDays.reduce((total, days) => total + (days[index]?.[field] ?? 0), 0);
    return {
      day: first.day,
      entered: entered.filter((l) => dayOf(l.createdAt) === first.day).length,
      sessions: sum('sessions'),
      plays: sum('plays'),
      clicks: sum('clicks'),
      // Every conversion of the funnel, those of no page too.
      conversions: rows.conversions.filter((c) => c.funnelId === FUNNEL && dayOf(c.createdAt) === first.day)
        .length,
    };
  });
  return { steps, byDay: byDay ?? [] };
}

describe('random rows in random orders', () => {
  const priorities = fc.array(fc.nat(1000), { minLength: 1, maxLength: 60 });
  const endsLater = fc.array(fc.boolean(), { minLength: 1, maxLength: 6 });

  it('two valid orders, with retries, give the same numbers', () => {
    fc.assert(
      fc.property(
        rawRowsArbitrary,
        priorities,
        priorities,
        endsLater,
        endsLater,
        (rows, first, second, e1, e2) => {
          expect(answers(rollupsOf(eventsInOrder(rows, second, e2)))).toEqual(
            answers(rollupsOf(eventsInOrder(rows, first, e1))),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every number is the one a plain recomputation from the rows gives', () => {
    fc.assert(
      fc.property(rawRowsArbitrary, priorities, endsLater, (rows, order, ends) => {
        const rollups = rollupsOf(eventsInOrder(rows, order, ends));
        for (const range of RANGES) {
          for (const page of PAGES) {
            const { averageWatched, ...numbers } = rollups.pageNumbers(page, range);
            const { averageWatched: expectedAverage, ...expected } = recomputePage(rows, page, range);
            expect(numbers).toEqual(expected);
            // The same mean, summed in another order.
            if (expectedAverage === null) expect(averageWatched).toBeNull();
            else expect(averageWatched).toBeCloseTo(expectedAverage, 12);
          }
          expect(rollups.funnelNumbers(FUNNEL, PAGES, range)).toEqual(recomputeFunnel(rows, range));
        }
      }),
      { numRuns: 300 },
    );
  });
});
