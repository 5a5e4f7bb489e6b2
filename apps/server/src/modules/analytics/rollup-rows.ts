/**
 * The rows of decision 25's rollups: state rows (a session's passes, a lead's plays on a page) and
 * aggregate rows, each with a key and values that add up (a page's meta takes the larger), merged
 * per batch. Plain JSON objects with the key columns of migration 0010's tables.
 */
import type { DayNumber } from './analytics-types';
import type { IntervalSet } from './interval-set';

// ---------------------------------------------------------------------------------------------
// State rows

/** A lead as the rollups need it: its funnel and the day it entered it (funnel steps, `entered`). */
export interface LeadState {
  leadId: string;
  funnelId: string;
  entryDay: DayNumber;
}

/** A record's view times (the visitor's clock, ms), as sent: `from` may even be after `to`. */
export interface ViewSpan {
  from: number;
  to: number;
}

/** One stretch of playback of a session (decision 25 "Passes"): its records' view times and seconds. */
export interface Pass {
  /** The smallest startViewTime and the largest endViewTime of its records. */
  viewFrom: number;
  viewTo: number;
  /**
   * The view times of its records that no other of its records' view times contain: a record
   * overlapping one of its records overlaps one of these, so they are all a new record is compared
   * with. (The span from viewFrom to viewTo would do for records whose view times run forwards, but
   * not for one whose end is before its start: it overlaps only a record that contains it.)
   */
  spans: ViewSpan[];
  played: IntervalSet;
}

/**
 * A page session and its passes, whatever order its records come in: kept in memory, and derived from
 * its stored records when it is not (decision 40).
 */
export interface SessionState {
  sessionId: string;
  pageId: string;
  leadId: string;
  funnelId: string;
  /** The day of the session's start: everything it plays counts on it. */
  day: DayNumber;
  endReason: string | null;
  passes: Pass[];
  /** Distinct seconds the session played (the union of its passes). */
  secondsPlayed: number;
  /** A record of it completed the page, or it ended with a completing reason. */
  completed: boolean;
}

export interface DayPlayed {
  day: DayNumber;
  played: IntervalSet;
}

/** `analytics_lead_pages`: what one lead did on one page, over all its sessions there. */
export interface LeadPageState {
  leadId: string;
  pageId: string;
  /** The lead's funnel and entry day, copied when the row is made: the key of its funnel steps. */
  leadFunnelId: string;
  entryDay: DayNumber;
  /** Ascending by day, only days whose sessions played a second: what makes reach exact. */
  playedByDay: DayPlayed[];
  /** The first day in playedByDay, null before any play. */
  firstPlayDay: DayNumber | null;
  /** The highest second ever played, −1 before any play. */
  furthestSecond: number;
  /** Ascending days (of storage) of its button clicks on the page. */
  clickDays: DayNumber[];
  /** Funnel step flags: each counts once per lead, whenever it happened. */
  reached: boolean;
  completed: boolean;
  clicked: boolean;
  converted: boolean;
}

// ---------------------------------------------------------------------------------------------
// Aggregate rows: each has a `key` (its table and key columns); rows of one key are added up.

/** `analytics_reach`: difference array over seconds of lead-days playing `second` on `day`, last played on `prevDay`. */
export interface ReachRow {
  table: 'reach';
  key: string;
  pageId: string;
  day: DayNumber;
  prevDay: DayNumber;
  second: number;
  delta: number;
}

/** `analytics_views`: difference array over seconds of the passes of sessions of `day`. */
export interface ViewsRow {
  table: 'views';
  key: string;
  pageId: string;
  day: DayNumber;
  second: number;
  delta: number;
}

/** `analytics_page_days`: sessions, plays and seconds by session day; clicks, conversions by stored day. */
export interface PageDayRow {
  table: 'pageDays';
  key: string;
  pageId: string;
  day: DayNumber;
  sessions: number;
  plays: number;
  secondsPlayed: number;
  clicks: number;
  conversions: number;
}

export type PageLeadKind = 'viewer' | 'clicker';

/** `analytics_page_leads`: leads first seen (as viewer or clicker) on `day` since `prevDay`. */
export interface PageLeadsRow {
  table: 'pageLeads';
  key: string;
  pageId: string;
  kind: PageLeadKind;
  day: DayNumber;
  prevDay: DayNumber;
  leads: number;
}

/** `analytics_furthest`: leads by first play day and furthest second, and how many converted. */
export interface FurthestRow {
  table: 'furthest';
  key: string;
  pageId: string;
  firstPlayDay: DayNumber;
  furthestSecond: number;
  leads: number;
  converted: number;
}

/** `analytics_steps`: the funnel's leads by entry day that reached, completed, clicked, converted on a page. */
export interface StepRow {
  table: 'steps';
  key: string;
  funnelId: string;
  pageId: string;
  entryDay: DayNumber;
  reached: number;
  completed: number;
  clicked: number;
  converted: number;
}

/** The funnel's leads created on `day`, and its conversions stored that day (those of no page too). */
export interface FunnelDayRow {
  table: 'funnelDays';
  key: string;
  funnelId: string;
  day: DayNumber;
  entered: number;
  conversions: number;
}

/** What `L` is made of, over all days; merged by taking the larger value, not by adding. */
export interface PageMetaRow {
  table: 'pageMeta';
  key: string;
  pageId: string;
  /** The largest `details.videoDuration` reported (0 when none). */
  maxDuration: number;
  /** The highest second any record played (−1 when none). */
  maxPlayedSecond: number;
}

export type AggregateRow =
  ReachRow | ViewsRow | PageDayRow | PageLeadsRow | FurthestRow | StepRow | FunnelDayRow | PageMetaRow;

/** The parts joined by a character no id holds: cheaper than JSON, made for every row of every event. */
function keyOf(...parts: (string | number)[]): string {
  return parts.join('\u0000');
}

export function reachRow(
  pageId: string,
  day: DayNumber,
  prevDay: DayNumber,
  second: number,
  delta: number,
): ReachRow {
  return {
    table: 'reach',
    key: keyOf('reach', pageId, day, prevDay, second),
    pageId,
    day,
    prevDay,
    second,
    delta,
  };
}

export function viewsRow(pageId: string, day: DayNumber, second: number, delta: number): ViewsRow {
  return { table: 'views', key: keyOf('views', pageId, day, second), pageId, day, second, delta };
}

type PageDayCounts = Pick<PageDayRow, 'sessions' | 'plays' | 'secondsPlayed' | 'clicks' | 'conversions'>;

export function pageDayRow(pageId: string, day: DayNumber, counts: Partial<PageDayCounts>): PageDayRow {
  return {
    table: 'pageDays',
    key: keyOf('pageDays', pageId, day),
    pageId,
    day,
    sessions: counts.sessions ?? 0,
    plays: counts.plays ?? 0,
    secondsPlayed: counts.secondsPlayed ?? 0,
    clicks: counts.clicks ?? 0,
    conversions: counts.conversions ?? 0,
  };
}

export function pageLeadsRow(
  pageId: string,
  kind: PageLeadKind,
  day: DayNumber,
  prevDay: DayNumber,
  leads: number,
): PageLeadsRow {
  return {
    table: 'pageLeads',
    key: keyOf('pageLeads', pageId, kind, day, prevDay),
    pageId,
    kind,
    day,
    prevDay,
    leads,
  };
}

export function furthestRow(
  pageId: string,
  firstPlayDay: DayNumber,
  furthestSecond: number,
  leads: number,
  converted: number,
): FurthestRow {
  return {
    table: 'furthest',
    key: keyOf('furthest', pageId, firstPlayDay, furthestSecond),
    pageId,
    firstPlayDay,
    furthestSecond,
    leads,
    converted,
  };
}

export type StepFlag = 'reached' | 'completed' | 'clicked' | 'converted';

export function stepRow(
  funnelId: string,
  pageId: string,
  entryDay: DayNumber,
  counts: Partial<Record<StepFlag, number>>,
): StepRow {
  return {
    table: 'steps',
    key: keyOf('steps', funnelId, pageId, entryDay),
    funnelId,
    pageId,
    entryDay,
    reached: counts.reached ?? 0,
    completed: counts.completed ?? 0,
    clicked: counts.clicked ?? 0,
    converted: counts.converted ?? 0,
  };
}

export function funnelDayRow(
  funnelId: string,
  day: DayNumber,
  counts: { entered?: number; conversions?: number },
): FunnelDayRow {
  return {
    table: 'funnelDays',
    key: keyOf('funnelDays', funnelId, day),
    funnelId,
    day,
    entered: counts.entered ?? 0,
    conversions: counts.conversions ?? 0,
  };
}

export function pageMetaRow(pageId: string, maxDuration: number, maxPlayedSecond: number): PageMetaRow {
  return { table: 'pageMeta', key: keyOf('pageMeta', pageId), pageId, maxDuration, maxPlayedSecond };
}

function mismatch(row: AggregateRow, other: AggregateRow): never {
  throw new Error(`rows of one key from two tables: ${row.table} and ${other.table} (${row.key})`);
}

/** Two rows of the same key as one: their numbers added (the larger of each for pageMeta). */
export function combineRows(row: AggregateRow, other: AggregateRow): AggregateRow {
  const sum = { ...row };
  addInto(sum, other);
  return sum;
}

/** −n, never −0 (a count bound as −0 is a real, not an integer). */
const neg = (n: number): number => (n === 0 ? 0 : -n);

/** The row that takes `row` away again when added (its counts negated); not for pageMeta. */
export function negated(row: Exclude<AggregateRow, PageMetaRow>): AggregateRow {
  switch (row.table) {
    case 'reach':
    case 'views':
      return { ...row, delta: neg(row.delta) };
    case 'pageDays':
      return {
        ...row,
        sessions: neg(row.sessions),
        plays: neg(row.plays),
        secondsPlayed: neg(row.secondsPlayed),
        clicks: neg(row.clicks),
        conversions: neg(row.conversions),
      };
    case 'pageLeads':
      return { ...row, leads: neg(row.leads) };
    case 'furthest':
      return { ...row, leads: neg(row.leads), converted: neg(row.converted) };
    case 'steps':
      return {
        ...row,
        reached: neg(row.reached),
        completed: neg(row.completed),
        clicked: neg(row.clicked),
        converted: neg(row.converted),
      };
    case 'funnelDays':
      return { ...row, entered: neg(row.entered), conversions: neg(row.conversions) };
  }
}

/** A row that changes nothing when added (or, for pageMeta, when taken the larger of). */
export function isNeutralRow(row: AggregateRow): boolean {
  switch (row.table) {
    case 'reach':
    case 'views':
      return row.delta === 0;
    case 'pageDays':
      return (
        row.sessions === 0 &&
        row.plays === 0 &&
        row.secondsPlayed === 0 &&
        row.clicks === 0 &&
        row.conversions === 0
      );
    case 'pageLeads':
      return row.leads === 0;
    case 'furthest':
      return row.leads === 0 && row.converted === 0;
    case 'steps':
      return row.reached === 0 && row.completed === 0 && row.clicked === 0 && row.converted === 0;
    case 'funnelDays':
      return row.entered === 0 && row.conversions === 0;
    case 'pageMeta':
      return row.maxDuration <= 0 && row.maxPlayedSecond < 0;
  }
}

/** Adds rows into `byKey`, each merged into the row of its key. */
export function addDeltas(byKey: Map<string, AggregateRow>, rows: Iterable<AggregateRow>): void {
  // The sums made in this call: no one else holds them yet, so a third row of their key is added in
  // place. A batch adds dozens of rows to one page's day; a new object for each cost about a
  // microsecond an event (docs/performance.md).
  const made = new Set<AggregateRow>();
  for (const row of rows) {
    const existing = byKey.get(row.key);
    if (existing === undefined) byKey.set(row.key, row);
    else if (made.has(existing)) addInto(existing, row);
    else {
      const sum = combineRows(existing, row);
      made.add(sum);
      byKey.set(row.key, sum);
    }
  }
}

/** combineRows, into `row` itself. */
function addInto(row: AggregateRow, other: AggregateRow): void {
  if (row.table !== other.table) mismatch(row, other);
  switch (row.table) {
    case 'reach':
    case 'views':
      row.delta += (other as ReachRow | ViewsRow).delta;
      return;
    case 'pageDays': {
      const add = other as PageDayRow;
      row.sessions += add.sessions;
      row.plays += add.plays;
      row.secondsPlayed += add.secondsPlayed;
      row.clicks += add.clicks;
      row.conversions += add.conversions;
      return;
    }
    case 'pageLeads':
      row.leads += (other as PageLeadsRow).leads;
      return;
    case 'furthest': {
      const add = other as FurthestRow;
      row.leads += add.leads;
      row.converted += add.converted;
      return;
    }
    case 'steps': {
      const add = other as StepRow;
      row.reached += add.reached;
      row.completed += add.completed;
      row.clicked += add.clicked;
      row.converted += add.converted;
      return;
    }
    case 'funnelDays': {
      const add = other as FunnelDayRow;
      row.entered += add.entered;
      row.conversions += add.conversions;
      return;
    }
    case 'pageMeta': {
      const add = other as PageMetaRow;
      row.maxDuration = Math.max(row.maxDuration, add.maxDuration);
      row.maxPlayedSecond = Math.max(row.maxPlayedSecond, add.maxPlayedSecond);
      return;
    }
  }
}

/** The rows added into `byKey` (first appearance order), without those that summed to nothing. */
export function summedDeltas(byKey: ReadonlyMap<string, AggregateRow>): AggregateRow[] {
  return [...byKey.values()].filter((row) => !isNeutralRow(row));
}

/** The rows merged by key (first appearance order), without those that merged to nothing. */
export function mergeDeltas(rows: Iterable<AggregateRow>): AggregateRow[] {
  const byKey = new Map<string, AggregateRow>();
  addDeltas(byKey, rows);
  return summedDeltas(byKey);
}
