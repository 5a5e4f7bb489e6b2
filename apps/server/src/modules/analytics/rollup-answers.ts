/**
 * The answers of decision 25, assembled from the aggregate rows of one page or funnel (as the
 * database returns them for a range): reach and views from their difference arrays, distinct leads
 * from their `prev_day` rows, the furthest histogram in ten buckets.
 */
import type {
  DayNumber,
  DayRange,
  FunnelNumbers,
  FurthestBucket,
  PageDay,
  PageInput,
  PageNumbers,
} from './analytics-types';
import type {
  FunnelDayRow,
  FurthestRow,
  PageDayRow,
  PageLeadKind,
  PageLeadsRow,
  PageMetaRow,
  ReachRow,
  StepFlag,
  StepRow,
  ViewsRow,
} from './rollup-rows';

/** The furthest-point histogram is shown in tenths of the video. */
const FURTHEST_BUCKETS = 10;

// ---------------------------------------------------------------------------------------------
// Answers, from the aggregate rows of one page or funnel

/** `L`: the larger of ceil(largest videoDuration) and 1 + the highest second played; 0 when neither. */
export function videoDurationOf(meta: PageMetaRow | undefined): number {
  if (meta === undefined) return 0;
  return Math.max(0, Math.ceil(meta.maxDuration), meta.maxPlayedSecond + 1);
}

function inRange(day: DayNumber, range: DayRange): boolean {
  return range.from <= day && day <= range.to;
}

function daysOf(range: DayRange): DayNumber[] {
  const days: DayNumber[] = [];
  for (let day = range.from; day <= range.to; day++) days.push(day);
  return days;
}

/** The prefix sums over seconds 0…length−1 of difference-array rows. */
function prefixSums(rows: Iterable<{ second: number; delta: number }>, length: number): number[] {
  const differences = new Array<number>(length).fill(0);
  for (const { second, delta } of rows) {
    if (second >= 0 && second < length) differences[second] = (differences[second] ?? 0) + delta;
  }
  let running = 0;
  return differences.map((delta) => (running += delta));
}

/** Over [from, to], each lead counts once: on its first day there, whose previous day is before `from`. */
function firstInRange(row: { day: DayNumber; prevDay: DayNumber }, range: DayRange): boolean {
  return inRange(row.day, range) && row.prevDay < range.from;
}

/** Ten buckets of a tenth of `L`: `[floor(i·L/10), floor((i+1)·L/10))`. */
export function furthestBuckets(videoDuration: number): { fromSecond: number; toSecond: number }[] {
  if (videoDuration <= 0) return [];
  return Array.from({ length: FURTHEST_BUCKETS }, (_, index) => ({
    fromSecond: Math.floor((index * videoDuration) / FURTHEST_BUCKETS),
    toSecond: Math.floor(((index + 1) * videoDuration) / FURTHEST_BUCKETS),
  }));
}

export interface PageRowsInput {
  page: PageInput;
  range: DayRange;
  reach: readonly ReachRow[];
  views: readonly ViewsRow[];
  pageDays: readonly PageDayRow[];
  pageLeads: readonly PageLeadsRow[];
  furthest: readonly FurthestRow[];
  pageMeta: PageMetaRow | undefined;
}

export function assemblePageNumbers(input: PageRowsInput): PageNumbers {
  const { page, range } = input;
  const ofPage = <Row extends { pageId: string }>(rows: readonly Row[]): Row[] =>
    rows.filter((row) => row.pageId === page.id);
  const videoDuration = videoDurationOf(input.pageMeta?.pageId === page.id ? input.pageMeta : undefined);

  const reach = prefixSums(
    ofPage(input.reach).filter((row) => firstInRange(row, range)),
    videoDuration,
  );
  const views = prefixSums(
    ofPage(input.views).filter((row) => inRange(row.day, range)),
    videoDuration,
  );

  const byDayMap = new Map<DayNumber, PageDay>(
    daysOf(range).map((day) => [day, { day, sessions: 0, plays: 0, clicks: 0, conversions: 0 }]),
  );
  let secondsPlayed = 0;
  for (const row of ofPage(input.pageDays)) {
    const day = byDayMap.get(row.day);
    if (day === undefined) continue;
    day.sessions += row.sessions;
    day.plays += row.plays;
    day.clicks += row.clicks;
    day.conversions += row.conversions;
    secondsPlayed += row.secondsPlayed;
  }
  const byDay = [...byDayMap.values()];
  const total = (field: 'sessions' | 'plays' | 'clicks' | 'conversions') =>
    byDay.reduce((sum, day) => sum + day[field], 0);
  const sessions = total('sessions');
  const plays = total('plays');

  const distinctLeads = (kind: PageLeadKind) =>
    ofPage(input.pageLeads)
      .filter((row) => row.kind === kind && firstInRange(row, range))
      .reduce((sum, row) => sum + row.leads, 0);
  const uniqueViewers = distinctLeads('viewer');
  const clickers = distinctLeads('clicker');

  const furthest = ofPage(input.furthest).filter((row) => inRange(row.firstPlayDay, range));
  const conversionsByFurthest: FurthestBucket[] = furthestBuckets(videoDuration).map((bucket) => {
    const inBucket = furthest.filter(
      (row) => bucket.fromSecond <= row.furthestSecond && row.furthestSecond < bucket.toSecond,
    );
    return {
      ...bucket,
      leads: inBucket.reduce((sum, row) => sum + row.leads, 0),
      converted: inBucket.reduce((sum, row) => sum + row.converted, 0),
    };
  });

  const buttonSecond = Math.floor(page.buttonTimeSeconds);
  return {
    sessions,
    plays,
    playRate: sessions === 0 ? null : plays / sessions,
    uniqueViewers,
    // Every play has a second, so L ≥ 1 whenever plays > 0.
    averageWatched: plays === 0 || videoDuration === 0 ? null : secondsPlayed / videoDuration / plays,
    pastButton: reach[buttonSecond] ?? 0,
    clicks: total('clicks'),
    clickRate: uniqueViewers === 0 ? null : clickers / uniqueViewers,
    conversions: total('conversions'),
    videoDuration,
    buttonTimeSeconds: page.buttonTimeSeconds,
    retention: { reach, views },
    byDay,
    conversionsByFurthest,
  };
}

export interface FunnelRowsInput {
  funnelId: string;
  /** The funnel's pages (their order is by `position`). */
  pages: readonly PageInput[];
  range: DayRange;
  steps: readonly StepRow[];
  funnelDays: readonly FunnelDayRow[];
  /** The page days of the funnel's pages. */
  pageDays: readonly PageDayRow[];
}

export function assembleFunnelNumbers(input: FunnelRowsInput): FunnelNumbers {
  const { funnelId, range } = input;
  const pages = [...input.pages].sort((a, b) => a.position - b.position);
  const pageIds = new Set(pages.map((page) => page.id));
  const steps = pages.map((page) => {
    const rows = input.steps.filter(
      (row) => row.funnelId === funnelId && row.pageId === page.id && inRange(row.entryDay, range),
    );
    const sum = (field: StepFlag) => rows.reduce((total, row) => total + row[field], 0);
    return {
      pageId: page.id,
      position: page.position,
      reached: sum('reached'),
      completed: sum('completed'),
      clicked: sum('clicked'),
      converted: sum('converted'),
    };
  });
  const byDay = daysOf(range).map((day) => {
    const pageDays = input.pageDays.filter((row) => row.day === day && pageIds.has(row.pageId));
    const sum = (field: 'sessions' | 'plays' | 'clicks' | 'conversions') =>
      pageDays.reduce((total, row) => total + row[field], 0);
    const funnelDays = input.funnelDays.filter((row) => row.funnelId === funnelId && row.day === day);
    return {
      day,
      entered: funnelDays.reduce((total, row) => total + row.entered, 0),
      sessions: sum('sessions'),
      plays: sum('plays'),
      clicks: sum('clicks'),
      conversions: funnelDays.reduce((total, row) => total + row.conversions, 0),
    };
  });
  return { steps, byDay };
}
