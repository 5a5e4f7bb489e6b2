import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  ActionInput,
  ConversionInput,
  DayRange,
  FurthestBucket,
  PageInput,
  RawRows,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';
import { dayOfUtcMinus3, rawRowsArbitrary, shuffledRows, startOfDayUtcMinus3 } from './raw-streams';
import { referenceFunnelNumbers, referencePageNumbers } from './reference';

const dayOf = dayOfUtcMinus3;
/** 2026-03-02 in UTC−3, the account's zone in these examples. */
const D0 = dayOf(Date.UTC(2026, 2, 2, 12));
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** A server time on a day of the account's zone. */
function at(day: number, hour: number, minute = 0): number {
  return startOfDayUtcMinus3(day) + hour * HOUR_MS + minute * MINUTE_MS;
}

function rowsOf(rows: Partial<RawRows>): RawRows {
  return { leads: [], pages: [], sessions: [], videoRecords: [], actions: [], conversions: [], ...rows };
}

function page(id: string, fields: Partial<PageInput> = {}): PageInput {
  return { id, funnelId: 'f', position: 0, buttonTimeSeconds: 0, ...fields };
}

function session(
  id: string,
  leadId: string,
  pageId: string,
  startAt: number,
  endReason: string | null = null,
): SessionInput {
  return { id, leadId, funnelId: 'f', pageId, startAt, endReason };
}

/** A record of a session: view times in ms of the visitor's clock, video times in seconds. */
function record(
  id: string,
  of: SessionInput,
  view: [number, number],
  video: [number, number],
  fields: Partial<VideoRecordInput> = {},
): VideoRecordInput {
  return {
    id,
    pageSessionId: of.id,
    leadId: of.leadId,
    startViewTime: view[0],
    endViewTime: view[1],
    startTimeVideo: video[0],
    endTimeVideo: video[1],
    state: 'PAUSE',
    videoDuration: 0,
    ...fields,
  };
}

function click(
  id: string,
  of: SessionInput | null,
  leadId: string,
  receivedAt: number,
  action = 'BUTTON_CLICK',
): ActionInput {
  return { id, pageSessionId: of === null ? null : of.id, leadId, action, receivedAt };
}

function conversion(
  id: string,
  leadId: string,
  pageId: string | null,
  createdAt: number,
  funnelId = 'f',
): ConversionInput {
  return { id, leadId, funnelId, pageId, kind: 'PURCHASE', createdAt };
}

function only(day: number): DayRange {
  return { from: day, to: day };
}

function repeat(value: number, times: number): number[] {
  return new Array<number>(times).fill(value);
}

describe('referencePageNumbers, worked by hand', () => {
  it('counts reports of the same stretch once', () => {
    // One session on D0. r1 closes the stretch 0–10 s (view 0–10 000 ms), r2 is a progress report
    // inside it (view 2 000–5 000, video 2–5), r3 is r1 again under another id: all three overlap in
    // view time, so one pass playing seconds 0…9. L = max(ceil(20), 1 + 9) = 20.
    const s1 = session('s1', 'A', 'p', at(D0, 10));
    const rows = rowsOf({
      pages: [page('p', { buttonTimeSeconds: 4.5 })],
      sessions: [s1],
      videoRecords: [
        record('r1', s1, [0, 10_000], [0, 10], { videoDuration: 20 }),
        record('r2', s1, [2_000, 5_000], [2, 5], { state: 'PROGRESS', videoDuration: 20 }),
        record('r3', s1, [0, 10_000], [0, 10], { videoDuration: 20 }),
      ],
    });
    const numbers = referencePageNumbers(rows, 'p', only(D0), dayOf);
    expect(numbers.videoDuration).toBe(20);
    expect(numbers.retention.views).toEqual([...repeat(1, 10), ...repeat(0, 10)]);
    expect(numbers.retention.reach).toEqual([...repeat(1, 10), ...repeat(0, 10)]);
    expect(numbers).toMatchObject({
      sessions: 1,
      plays: 1,
      playRate: 1,
      uniqueViewers: 1,
      // 10 distinct seconds of 20.
      averageWatched: 0.5,
      // reach[floor(4.5)] = reach[4] = 1.
      pastButton: 1,
      clicks: 0,
      // 0 clickers of 1 viewer: a rate of 0, not null.
      clickRate: 0,
      conversions: 0,
      buttonTimeSeconds: 4.5,
    });
  });

  it('counts a replay twice in views and once in reach', () => {
    // Pass 1: view 0–10 000, video 0–10 (seconds 0…9). A seek back, then pass 2: view 12 000–17 000,
    // video 3.5–8 (seconds 3…7). views: 1 at 0…2, 2 at 3…7, 1 at 8…9; reach 1 at 0…9. L = 10.
    const s1 = session('s1', 'A', 'p', at(D0, 10));
    const rows = rowsOf({
      pages: [page('p', { buttonTimeSeconds: 3.7 })],
      sessions: [s1],
      videoRecords: [
        record('r1', s1, [0, 10_000], [0, 10], { videoDuration: 10 }),
        record('r2', s1, [12_000, 17_000], [3.5, 8], { videoDuration: 10 }),
      ],
    });
    const numbers = referencePageNumbers(rows, 'p', only(D0), dayOf);
    expect(numbers.retention.views).toEqual([1, 1, 1, 2, 2, 2, 2, 2, 1, 1]);
    expect(numbers.retention.reach).toEqual(repeat(1, 10));
    // 10 distinct seconds of 10 (the replayed seconds count once); reach[3] = 1 past the button.
    expect(numbers).toMatchObject({ plays: 1, averageWatched: 1, pastButton: 1 });
  });

  it('merges two passes that a record overlaps in view time, and keeps touching ones apart', () => {
    // r3 (view 9 000–13 000, video 9–9.5: second 9) overlaps r1 and r2, so the three form one pass:
    // every second once.
    const s1 = session('s1', 'A', 'p', at(D0, 10));
    const r1 = record('r1', s1, [0, 10_000], [0, 10], { videoDuration: 10 });
    const r2 = record('r2', s1, [12_000, 17_000], [3.5, 8], { videoDuration: 10 });
    const bridge = record('r3', s1, [9_000, 13_000], [9, 9.5]);
    const bridged = referencePageNumbers(
      rowsOf({ pages: [page('p')], sessions: [s1], videoRecords: [r1, r2, bridge] }),
      'p',
      only(D0),
      dayOf,
    );
    expect(bridged.retention.views).toEqual(repeat(1, 10));
    // A replay that starts the instant the first pass ends (10 000 < 10 000 is false) is a second pass.
    const touching = record('r4', s1, [10_000, 15_000], [3.5, 8]);
    const apart = referencePageNumbers(
      rowsOf({ pages: [page('p')], sessions: [s1], videoRecords: [r1, touching] }),
      'p',
      only(D0),
      dayOf,
    );
    expect(apart.retention.views).toEqual([1, 1, 1, 2, 2, 2, 2, 2, 1, 1]);
  });

  it('makes one pass of two records of the same instant of view time', () => {
    // Both at view 5 000–5 000 (no overlap by the strict rule, but the same interval): one pass
    // playing 0…2 ∪ 1…3 = 0…3. A third at another instant is another pass (seconds 2…3).
    const s1 = session('s1', 'A', 'p', at(D0, 10));
    const rows = rowsOf({
      pages: [page('p')],
      sessions: [s1],
      videoRecords: [
        record('r1', s1, [5_000, 5_000], [0, 3]),
        record('r2', s1, [5_000, 5_000], [1, 4]),
        record('r3', s1, [6_000, 6_000], [2, 4]),
      ],
    });
    // No duration reported: L = 1 + 3 = 4.
    expect(referencePageNumbers(rows, 'p', only(D0), dayOf).retention.views).toEqual([1, 1, 2, 2]);
  });

  it('plays every second a record covers part of, from second 0, and takes L from them without a duration', () => {
    // [2, 3) plays 2 only; [4.9, 5.1) plays 4 and 5; [-0.5, 0.5) plays 0 (seconds start at 0).
    // No videoDuration: L = 1 + 5 = 6.
    const s1 = session('s1', 'A', 'p', at(D0, 10));
    const rows = rowsOf({
      pages: [page('p')],
      sessions: [s1],
      videoRecords: [
        record('r1', s1, [0, 1_000], [2, 3]),
        record('r2', s1, [5_000, 5_200], [4.9, 5.1]),
        record('r3', s1, [8_000, 9_000], [-0.5, 0.5]),
      ],
    });
    const numbers = referencePageNumbers(rows, 'p', only(D0), dayOf);
    expect(numbers.videoDuration).toBe(6);
    expect(numbers.retention.views).toEqual([1, 0, 1, 0, 1, 1]);
    // 4 distinct seconds of 6.
    expect(numbers.averageWatched).toBe(4 / 6);
  });

  describe('a lead watching on two days', () => {
    // Lead A: s1 at 23:59 of D0 (02:59 UTC of the next day, still D0 in UTC−3) plays 0…4; s2 on D0+2
    // plays 3…7 and clicks the button. Lead B: s3 at midnight starting D0+1, plays nothing. L = 10.
    const s1 = session('s1', 'A', 'p', at(D0, 23, 59));
    const s2 = session('s2', 'A', 'p', at(D0 + 2, 8));
    const s3 = session('s3', 'B', 'p', at(D0 + 1, 0));
    const rows = rowsOf({
      pages: [page('p', { buttonTimeSeconds: 4 })],
      sessions: [s1, s2, s3],
      videoRecords: [
        record('r1', s1, [0, 5_000], [0, 5], { videoDuration: 10 }),
        record('r2', s2, [0, 5_000], [3, 8], { videoDuration: 10 }),
      ],
      actions: [click('a1', s2, 'A', at(D0 + 2, 8, 5))],
    });

    it('counts the first day alone', () => {
      const numbers = referencePageNumbers(rows, 'p', only(D0), dayOf);
      expect(numbers.retention.views).toEqual([1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
      expect(numbers.retention.reach).toEqual([1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
      expect(numbers).toMatchObject({
        sessions: 1,
        plays: 1,
        uniqueViewers: 1,
        averageWatched: 0.5,
        pastButton: 1,
        clicks: 0,
        clickRate: 0,
      });
      expect(numbers.byDay).toEqual([{ day: D0, sessions: 1, plays: 1, clicks: 0, conversions: 0 }]);
    });

    it('counts the last day alone', () => {
      const numbers = referencePageNumbers(rows, 'p', only(D0 + 2), dayOf);
      expect(numbers.retention.views).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 0, 0]);
      expect(numbers).toMatchObject({
        sessions: 1,
        plays: 1,
        uniqueViewers: 1,
        pastButton: 1,
        clicks: 1,
        clickRate: 1,
      });
    });

    it('counts the lead once over both days, and every session', () => {
      const numbers = referencePageNumbers(rows, 'p', { from: D0, to: D0 + 2 }, dayOf);
      // views: s1 at 0…4, s2 at 3…7; reach: lead A at 0…7, once.
      expect(numbers.retention.views).toEqual([1, 1, 1, 2, 2, 1, 1, 1, 0, 0]);
      expect(numbers.retention.reach).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
      expect(numbers).toMatchObject({
        sessions: 3,
        plays: 2,
        playRate: 2 / 3,
        uniqueViewers: 1,
        // (5 + 5) seconds over 2 plays of 10.
        averageWatched: 0.5,
        pastButton: 1,
        clicks: 1,
        clickRate: 1,
      });
      expect(numbers.byDay).toEqual([
        { day: D0, sessions: 1, plays: 1, clicks: 0, conversions: 0 },
        { day: D0 + 1, sessions: 1, plays: 0, clicks: 0, conversions: 0 },
        { day: D0 + 2, sessions: 1, plays: 1, clicks: 1, conversions: 0 },
      ]);
    });

    it('shows null, not 0, for averages without plays or viewers', () => {
      const numbers = referencePageNumbers(rows, 'p', only(D0 + 1), dayOf);
      expect(numbers).toMatchObject({
        sessions: 1,
        plays: 0,
        playRate: 0,
        uniqueViewers: 0,
        averageWatched: null,
        clickRate: null,
      });
      // A day with no session at all has no play rate either.
      expect(referencePageNumbers(rows, 'p', only(D0 + 3), dayOf).playRate).toBeNull();
    });
  });

  it('plays nothing for SKIP records, points and records that run backwards', () => {
    // A SKIP over 0–30, a PLAYING point at 30, and 30 → 5: nothing played. L = ceil(12.3) = 13.
    const s1 = session('s1', 'A', 'p', at(D0, 10));
    const rows = rowsOf({
      pages: [page('p', { buttonTimeSeconds: 2 })],
      sessions: [s1],
      videoRecords: [
        record('r1', s1, [0, 1_000], [0, 30], { state: 'SKIP', videoDuration: 12.3 }),
        record('r2', s1, [1_000, 1_000], [30, 30], { state: 'PLAYING', videoDuration: 12.3 }),
        record('r3', s1, [1_000, 3_000], [30, 5]),
      ],
    });
    const numbers = referencePageNumbers(rows, 'p', only(D0), dayOf);
    expect(numbers.videoDuration).toBe(13);
    expect(numbers.retention).toEqual({ reach: repeat(0, 13), views: repeat(0, 13) });
    expect(numbers).toMatchObject({
      sessions: 1,
      plays: 0,
      uniqueViewers: 0,
      averageWatched: null,
      pastButton: 0,
    });
    // Buckets of L = 13: floor(i·13/10) = 0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 13.
    expect(numbers.conversionsByFurthest.map((bucket) => [bucket.fromSecond, bucket.toSecond])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 5],
      [5, 6],
      [6, 7],
      [7, 9],
      [9, 10],
      [10, 11],
      [11, 13],
    ]);
    expect(numbers.conversionsByFurthest.every((bucket) => bucket.leads === 0)).toBe(true);
  });

  it('has empty arrays and no buckets for a page nothing was reported for', () => {
    const rows = rowsOf({
      pages: [page('p', { buttonTimeSeconds: 3 })],
      sessions: [session('s1', 'A', 'p', at(D0, 9))],
    });
    const numbers = referencePageNumbers(rows, 'p', only(D0), dayOf);
    expect(numbers).toMatchObject({
      videoDuration: 0,
      pastButton: 0,
      conversionsByFurthest: [],
      sessions: 1,
      plays: 0,
    });
    expect(numbers.retention).toEqual({ reach: [], views: [] });
  });

  describe('conversions by furthest point', () => {
    // L = 20: buckets [0,2), [2,4), …, [18,20).
    // Lead A: s1 on D0 plays nothing (a point), s2 on D0+1 plays 0…7, s3 on D0+3 plays 15: first play
    // D0+1, furthest 15 (bucket 7, [14,16)); a conversion of the page on D0+4 (counts at any time).
    // Lead B: s4 on D0 plays 0…2: first play D0, furthest 2 (bucket 1, [2,4)); its conversion has no
    // page, so B has not converted on the page.
    // Lead C: a conversion of the page on D0, never played: in no bucket.
    const s1 = session('s1', 'A', 'p', at(D0, 10));
    const s2 = session('s2', 'A', 'p', at(D0 + 1, 10));
    const s3 = session('s3', 'A', 'p', at(D0 + 3, 10));
    const s4 = session('s4', 'B', 'p', at(D0, 11));
    const rows = rowsOf({
      pages: [page('p')],
      sessions: [s1, s2, s3, s4],
      videoRecords: [
        record('r1', s1, [0, 0], [0, 0], { state: 'PLAYING', videoDuration: 20 }),
        record('r2', s2, [0, 7_500], [0, 7.5], { videoDuration: 20 }),
        record('r3', s3, [0, 1_000], [15, 16], { videoDuration: 20 }),
        record('r4', s4, [0, 3_000], [0, 3], { videoDuration: 20 }),
      ],
      conversions: [
        conversion('c1', 'A', 'p', at(D0 + 4, 9)),
        conversion('c2', 'B', null, at(D0, 12)),
        conversion('c3', 'C', 'p', at(D0, 13)),
      ],
    });
    const leadsByBucket = (range: DayRange) =>
      referencePageNumbers(rows, 'p', range, dayOf).conversionsByFurthest.map((bucket) => [
        bucket.leads,
        bucket.converted,
      ]);
    const none = [0, 0];

    it('counts a lead in the bucket of its furthest second when its first play is in the range', () => {
      expect(leadsByBucket({ from: D0 + 1, to: D0 + 4 })).toEqual([
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        [1, 1],
        none,
        none,
      ]);
    });

    it('leaves out a lead whose first play is before the range, and counts one whose only earlier session played nothing', () => {
      // D0 alone: B (first play D0), not A (a session on D0, but its first play is D0+1).
      expect(leadsByBucket(only(D0))).toEqual([none, [1, 0], none, none, none, none, none, none, none, none]);
      // D0+2…D0+4: A played on D0+3 but first played on D0+1; nobody.
      expect(leadsByBucket({ from: D0 + 2, to: D0 + 4 })).toEqual(repeat(0, 10).map(() => none));
    });

    it('counts the conversions of the page by the day they were stored', () => {
      // D0: c3 (c2 has no page); D0+4: c1.
      expect(referencePageNumbers(rows, 'p', only(D0), dayOf).conversions).toBe(1);
      expect(referencePageNumbers(rows, 'p', only(D0 + 4), dayOf).conversions).toBe(1);
      expect(referencePageNumbers(rows, 'p', { from: D0 + 1, to: D0 + 3 }, dayOf).conversions).toBe(0);
    });
  });
});

describe('referenceFunnelNumbers, worked by hand', () => {
  // Funnel f: p0 (position 0) and p1 (position 1), listed backwards. Funnel g: q0.
  // A (f, created D0): on p0 plays 0…9.5 of 10 (9.5 ≥ 0.95 × 10: completed) and clicks; on p1 on D0+3,
  //   no record, ended VIDEO_ENDED (completed); converts on p1 on D0+3.
  // B (f, created D0+1): on p0 plays 0…9.4 of 10 (not 95 %), a SKIP to 10 (plays nothing, so not
  //   completed), a BUTTON_SHOWN and a BUTTON_CLICK with no session (no click on the page); a
  //   conversion with no page on D0+1.
  // C (f, created D0+2 at midnight): on p0 on D0+1, no record, ended VIDEO_ENDED_OFFERT.
  // D (g, created D0): on q0, a conversion of g.
  const sA0 = session('sA0', 'A', 'p0', at(D0, 10));
  const sA1 = session('sA1', 'A', 'p1', at(D0 + 3, 10), 'VIDEO_ENDED');
  const sB0 = session('sB0', 'B', 'p0', at(D0 + 1, 10));
  const sC0 = session('sC0', 'C', 'p0', at(D0 + 1, 12), 'VIDEO_ENDED_OFFERT');
  const sD0: SessionInput = { ...session('sD0', 'D', 'q0', at(D0, 10)), funnelId: 'g' };
  const rows = rowsOf({
    leads: [
      { id: 'A', funnelId: 'f', createdAt: at(D0, 9) },
      { id: 'B', funnelId: 'f', createdAt: at(D0 + 1, 8) },
      { id: 'C', funnelId: 'f', createdAt: at(D0 + 2, 0) },
      { id: 'D', funnelId: 'g', createdAt: at(D0, 9) },
    ],
    pages: [page('p1', { position: 1 }), page('p0', { position: 0 }), page('q0', { funnelId: 'g' })],
    sessions: [sA0, sA1, sB0, sC0, sD0],
    videoRecords: [
      record('r1', sA0, [0, 9_500], [0, 9.5], { videoDuration: 10 }),
      record('r2', sB0, [0, 9_400], [0, 9.4], { videoDuration: 10 }),
      record('r3', sB0, [9_400, 9_400], [9.4, 10], { state: 'SKIP', videoDuration: 10 }),
      record('r4', sD0, [0, 5_000], [0, 5], { videoDuration: 10 }),
    ],
    actions: [
      click('a1', sA0, 'A', at(D0, 10, 5)),
      click('a2', sB0, 'B', at(D0 + 1, 10, 1), 'BUTTON_SHOWN'),
      click('a3', null, 'B', at(D0 + 1, 10, 3)),
    ],
    conversions: [
      conversion('c1', 'A', 'p1', at(D0 + 3, 11)),
      conversion('c2', 'B', null, at(D0 + 1, 11)),
      conversion('c3', 'D', 'q0', at(D0, 11), 'g'),
    ],
  });

  it('follows the leads created in the range through the pages in order, whenever they got there', () => {
    // Cohort of D0…D0+1: A and B.
    const numbers = referenceFunnelNumbers(rows, 'f', { from: D0, to: D0 + 1 }, dayOf);
    expect(numbers.steps).toEqual([
      { pageId: 'p0', position: 0, reached: 2, completed: 1, clicked: 1, converted: 0 },
      { pageId: 'p1', position: 1, reached: 1, completed: 1, clicked: 0, converted: 1 },
    ]);
    // D0: A entered (D is g's); sA0 played; a1 clicked. D0+1: B entered; sB0 played, sC0 did not;
    // c2 is f's though it has no page.
    expect(numbers.byDay).toEqual([
      { day: D0, entered: 1, sessions: 1, plays: 1, clicks: 1, conversions: 0 },
      { day: D0 + 1, entered: 1, sessions: 2, plays: 1, clicks: 0, conversions: 1 },
    ]);
  });

  it('takes its cohort by the day of creation, not of the sessions', () => {
    // Cohort of D0+2…D0+3: C only, whose session (D0+1) ended VIDEO_ENDED_OFFERT.
    const numbers = referenceFunnelNumbers(rows, 'f', { from: D0 + 2, to: D0 + 3 }, dayOf);
    expect(numbers.steps).toEqual([
      { pageId: 'p0', position: 0, reached: 1, completed: 1, clicked: 0, converted: 0 },
      { pageId: 'p1', position: 1, reached: 0, completed: 0, clicked: 0, converted: 0 },
    ]);
    expect(numbers.byDay).toEqual([
      { day: D0 + 2, entered: 1, sessions: 0, plays: 0, clicks: 0, conversions: 0 },
      { day: D0 + 3, entered: 0, sessions: 1, plays: 0, clicks: 0, conversions: 1 },
    ]);
  });

  it("counts nothing of another funnel's rows", () => {
    const numbers = referenceFunnelNumbers(rows, 'g', only(D0), dayOf);
    expect(numbers.steps).toEqual([
      { pageId: 'q0', position: 0, reached: 1, completed: 0, clicked: 0, converted: 1 },
    ]);
    expect(numbers.byDay).toEqual([
      { day: D0, entered: 1, sessions: 1, plays: 1, clicks: 0, conversions: 1 },
    ]);
  });
});

describe('the reference on random streams', () => {
  const RUNS = { numRuns: 200 };

  it('keeps reach within views, plays within sessions, and the button within the viewers', () => {
    fc.assert(
      fc.property(rawRowsArbitrary(), ({ rows, dayOf, range, pageId }) => {
        const numbers = referencePageNumbers(rows, pageId, range, dayOf);
        const { reach, views } = numbers.retention;
        expect(reach).toHaveLength(numbers.videoDuration);
        expect(views).toHaveLength(numbers.videoDuration);
        reach.forEach((leads, second) => {
          expect(leads).toBeGreaterThanOrEqual(0);
          expect(leads).toBeLessThanOrEqual(views[second] as number);
          expect(leads).toBeLessThanOrEqual(numbers.uniqueViewers);
        });
        expect(numbers.plays).toBeLessThanOrEqual(numbers.sessions);
        expect(numbers.uniqueViewers).toBeLessThanOrEqual(numbers.plays);
        expect(numbers.pastButton).toBeLessThanOrEqual(numbers.uniqueViewers);
        if (numbers.averageWatched !== null) {
          expect(numbers.averageWatched).toBeGreaterThan(0);
          expect(numbers.averageWatched).toBeLessThanOrEqual(1);
        }
        expect(numbers.playRate === null).toBe(numbers.sessions === 0);
        expect(numbers.clickRate === null).toBe(numbers.uniqueViewers === 0);
      }),
      RUNS,
    );
  });

  it('adds its days up to the range', () => {
    fc.assert(
      fc.property(rawRowsArbitrary(), ({ rows, dayOf, range, pageId, funnelId }) => {
        const numbers = referencePageNumbers(rows, pageId, range, dayOf);
        const sum = (key: 'sessions' | 'plays' | 'clicks' | 'conversions') =>
          numbers.byDay.reduce((total, day) => total + day[key], 0);
        expect(numbers.byDay.map((day) => day.day)).toEqual(
          Array.from({ length: range.to - range.from + 1 }, (_, index) => range.from + index),
        );
        expect([sum('sessions'), sum('plays'), sum('clicks'), sum('conversions')]).toEqual([
          numbers.sessions,
          numbers.plays,
          numbers.clicks,
          numbers.conversions,
        ]);

        const funnel = referenceFunnelNumbers(rows, funnelId, range, dayOf);
        const entered = funnel.byDay.reduce((total, day) => total + day.entered, 0);
        for (const step of funnel.steps) {
          expect(step.reached).toBeLessThanOrEqual(entered);
          expect(step.completed).toBeLessThanOrEqual(step.reached);
          expect(step.clicked).toBeLessThanOrEqual(step.reached);
          expect(step.converted).toBeLessThanOrEqual(entered);
        }
        const positions = funnel.steps.map((step) => step.position);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }),
      RUNS,
    );
  });

  it('adds views and sessions over two halves of a range, and counts a lead of both halves once', () => {
    fc.assert(
      fc.property(rawRowsArbitrary(), fc.nat(), ({ rows, dayOf, range, pageId }, cut) => {
        const middle = range.from + (cut % (range.to - range.from + 1));
        const whole = referencePageNumbers(rows, pageId, range, dayOf);
        const first = referencePageNumbers(rows, pageId, { from: range.from, to: middle - 1 }, dayOf);
        const second = referencePageNumbers(rows, pageId, { from: middle, to: range.to }, dayOf);
        expect(whole.sessions).toBe(first.sessions + second.sessions);
        whole.retention.views.forEach((views, index) => {
          expect(views).toBe(
            (first.retention.views[index] as number) + (second.retention.views[index] as number),
          );
        });
        whole.retention.reach.forEach((reach, index) => {
          const inFirst = first.retention.reach[index] as number;
          const inSecond = second.retention.reach[index] as number;
          expect(reach).toBeGreaterThanOrEqual(Math.max(inFirst, inSecond));
          expect(reach).toBeLessThanOrEqual(inFirst + inSecond);
        });
        expect(whole.uniqueViewers).toBeGreaterThanOrEqual(
          Math.max(first.uniqueViewers, second.uniqueViewers),
        );
        expect(whole.uniqueViewers).toBeLessThanOrEqual(first.uniqueViewers + second.uniqueViewers);
        // A lead has one first play: the halves' buckets add up to the whole's.
        whole.conversionsByFurthest.forEach((bucket, index) => {
          expect(bucket.leads).toBe(
            (first.conversionsByFurthest[index] as FurthestBucket).leads +
              (second.conversionsByFurthest[index] as FurthestBucket).leads,
          );
        });
      }),
      RUNS,
    );
  });

  it('puts every lead who ever played the page in one bucket when the range covers every day', () => {
    fc.assert(
      fc.property(rawRowsArbitrary(), ({ rows, dayOf, pageId }) => {
        const sessionDays = rows.sessions.map((row) => dayOf(row.startAt));
        const everyDay =
          sessionDays.length === 0
            ? only(D0)
            : { from: Math.min(...sessionDays), to: Math.max(...sessionDays) };
        const numbers = referencePageNumbers(rows, pageId, everyDay, dayOf);
        const bucketed = numbers.conversionsByFurthest.reduce((total, bucket) => total + bucket.leads, 0);
        expect(bucketed).toBe(numbers.uniqueViewers);
        for (const bucket of numbers.conversionsByFurthest)
          expect(bucket.converted).toBeLessThanOrEqual(bucket.leads);
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same numbers whatever the order of the rows', () => {
    fc.assert(
      fc.property(
        rawRowsArbitrary().chain((stream) =>
          shuffledRows(stream.rows).map((reordered) => ({ stream, reordered })),
        ),
        ({ stream, reordered }) => {
          const { rows, dayOf, range, pageId, funnelId } = stream;
          expect(referencePageNumbers(reordered, pageId, range, dayOf)).toEqual(
            referencePageNumbers(rows, pageId, range, dayOf),
          );
          expect(referenceFunnelNumbers(reordered, funnelId, range, dayOf)).toEqual(
            referenceFunnelNumbers(rows, funnelId, range, dayOf),
          );
        },
      ),
      RUNS,
    );
  });

  it('makes streams with every kind of row the definitions tell apart', () => {
    const streams = fc.sample(rawRowsArbitrary(), { numRuns: 200, seed: 25 });
    const records = streams.flatMap((stream) => stream.rows.videoRecords);
    const actions = streams.flatMap((stream) => stream.rows.actions);
    const seen = {
      skip: records.some((row) => row.state === 'SKIP'),
      backwards: records.some((row) => row.startTimeVideo > row.endTimeVideo),
      point: records.some((row) => row.startTimeVideo === row.endTimeVideo),
      sameStretchTwice: streams.some((stream) =>
        stream.rows.videoRecords.some((a) =>
          stream.rows.videoRecords.some(
            (b) =>
              a.id !== b.id &&
              a.pageSessionId === b.pageSessionId &&
              a.startViewTime === b.startViewTime &&
              a.endViewTime === b.endViewTime &&
              a.endTimeVideo > a.startTimeVideo,
          ),
        ),
      ),
      replay: streams.some((stream) => {
        const numbers = referencePageNumbers(stream.rows, stream.pageId, stream.range, stream.dayOf);
        return numbers.retention.views.some(
          (views, second) => views > (numbers.retention.reach[second] as number),
        );
      }),
      clickWithoutSession: actions.some((row) => row.action === 'BUTTON_CLICK' && row.pageSessionId === null),
      otherAction: actions.some((row) => row.action !== 'BUTTON_CLICK'),
      conversionWithoutPage: streams.some((stream) =>
        stream.rows.conversions.some((row) => row.pageId === null),
      ),
      videoEnded: streams.some((stream) =>
        stream.rows.sessions.some((row) => row.endReason === 'VIDEO_ENDED'),
      ),
      leadOnSeveralDays: streams.some((stream) =>
        stream.rows.leads.some(
          (lead) =>
            new Set(
              stream.rows.sessions
                .filter((row) => row.leadId === lead.id)
                .map((row) => stream.dayOf(row.startAt)),
            ).size > 1,
        ),
      ),
      twoFunnels: streams.some((stream) => new Set(stream.rows.leads.map((lead) => lead.funnelId)).size > 1),
    };
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((key) => [key, true])));
  });
});
