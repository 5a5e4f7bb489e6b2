/**
 * The rollups of decision 25, as pure functions: each apply takes the state rows one newly inserted
 * raw row touches (undefined when absent) and that row, and returns the new state rows and the
 * aggregate delta rows to add. Whatever order the rows come in (a session before its records and
 * actions, a lead before its sessions, anything else in any order), the summed aggregates are the
 * same: every number of the page and funnel answers is read from them (rollup-answers.ts).
 * The rows are rollup-rows.ts's.
 */
import type {
  ActionInput,
  ConversionInput,
  DayNumber,
  DayOf,
  LeadInput,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';
import {
  difference,
  EMPTY_SET,
  equalSets,
  intersection,
  type IntervalSet,
  isEmpty,
  maxSecond,
  playedSeconds,
  size,
  union,
} from './interval-set';
import {
  funnelDayRow,
  furthestRow,
  mergeDeltas,
  pageDayRow,
  pageLeadsRow,
  pageMetaRow,
  reachRow,
  stepRow,
  viewsRow,
  type AggregateRow,
  type LeadPageState,
  type LeadState,
  type Pass,
  type SessionState,
  type StepFlag,
  type ViewSpan,
} from './rollup-rows';

/** `prev_day` of a lead's first day that played a second (or clicked): never before. */
export const NEVER = -1;
/** A record completes its page when it ends at or past this share of its own videoDuration. */
export const COMPLETION_SHARE = 0.95;
/** Session ends that complete the page whatever the records say. */
export const COMPLETING_END_REASONS: ReadonlySet<string> = new Set(['VIDEO_ENDED', 'VIDEO_ENDED_OFFERT']);
const BUTTON_CLICK = 'BUTTON_CLICK';

// ---------------------------------------------------------------------------------------------
// Apply functions

export interface LeadApplied {
  lead: LeadState;
  deltas: AggregateRow[];
}

export interface SessionApplied {
  session: SessionState;
  leadPage: LeadPageState;
  deltas: AggregateRow[];
}

export interface LeadPageApplied {
  leadPage: LeadPageState;
  deltas: AggregateRow[];
}

/** A +sign where each run of the set starts and a −sign where it ends. */
function pushRuns(
  deltas: AggregateRow[],
  set: IntervalSet,
  sign: number,
  rowAt: (second: number, delta: number) => AggregateRow,
): void {
  for (const [from, to] of set) deltas.push(rowAt(from, sign), rowAt(to, -sign));
}

function newLeadPage(lead: LeadState, pageId: string): LeadPageState {
  return {
    leadId: lead.leadId,
    pageId,
    leadFunnelId: lead.funnelId,
    entryDay: lead.entryDay,
    playedByDay: [],
    firstPlayDay: null,
    furthestSecond: -1,
    clickDays: [],
    reached: false,
    completed: false,
    clicked: false,
    converted: false,
  };
}

/** Sets a funnel step flag once, with its +1 on the lead's entry day. */
function markStep(leadPage: LeadPageState, flag: StepFlag, deltas: AggregateRow[]): LeadPageState {
  if (leadPage[flag]) return leadPage;
  deltas.push(stepRow(leadPage.leadFunnelId, leadPage.pageId, leadPage.entryDay, { [flag]: 1 }));
  return { ...leadPage, [flag]: true };
}

/**
 * Adds a day to a lead's ascending days, with the `prev_day` rows of distinct leads: +1 at
 * (day, the latest earlier day), and the next later day's row moved from that earlier day to `day`.
 */
function addLeadDay(
  days: readonly DayNumber[],
  day: DayNumber,
  deltas: AggregateRow[],
  rowAt: (day: DayNumber, prevDay: DayNumber, leads: number) => AggregateRow,
): DayNumber[] {
  if (days.includes(day)) return [...days];
  const previous = days.filter((known) => known < day).at(-1) ?? NEVER;
  const next = days.find((known) => known > day);
  deltas.push(rowAt(day, previous, 1));
  if (next !== undefined) deltas.push(rowAt(next, previous, -1), rowAt(next, day, 1));
  return [...days, day].sort((a, b) => a - b);
}

export function applyLead(current: LeadState | undefined, lead: LeadInput, dayOf: DayOf): LeadApplied {
  if (current !== undefined) return { lead: current, deltas: [] };
  const state: LeadState = { leadId: lead.id, funnelId: lead.funnelId, entryDay: dayOf(lead.createdAt) };
  return { lead: state, deltas: [funnelDayRow(state.funnelId, state.entryDay, { entered: 1 })] };
}

export function applySession(
  states: {
    lead: LeadState | undefined;
    leadPage: LeadPageState | undefined;
    session: SessionState | undefined;
  },
  row: SessionInput,
  dayOf: DayOf,
): SessionApplied {
  const { lead } = states;
  if (lead === undefined) throw new Error(`session ${row.id} of an unknown lead ${row.leadId}`);
  const leadPage = states.leadPage ?? newLeadPage(lead, row.pageId);
  // A session already applied changes nothing (a retried insert).
  if (states.session !== undefined) return { session: states.session, leadPage, deltas: [] };
  const session: SessionState = {
    sessionId: row.id,
    pageId: row.pageId,
    leadId: row.leadId,
    funnelId: row.funnelId,
    day: dayOf(row.startAt),
    endReason: null,
    passes: [],
    secondsPlayed: 0,
    completed: false,
  };
  const deltas: AggregateRow[] = [pageDayRow(row.pageId, session.day, { sessions: 1 })];
  const reached = markStep(leadPage, 'reached', deltas);
  if (row.endReason === null) return { session, leadPage: reached, deltas };
  const ended = applySessionEnd({ session, leadPage: reached }, row.endReason);
  return {
    session: ended.session,
    leadPage: ended.leadPage,
    deltas: mergeDeltas([...deltas, ...ended.deltas]),
  };
}

/**
 * A session's end reason, set after its start (an inferred PAGE_CLOSE may later be replaced by the
 * real end). Completion only ever turns on: a completing end is never replaced.
 */
export function applySessionEnd(
  states: { session: SessionState; leadPage: LeadPageState },
  endReason: string,
): SessionApplied {
  const deltas: AggregateRow[] = [];
  let session: SessionState = { ...states.session, endReason };
  let leadPage = states.leadPage;
  if (COMPLETING_END_REASONS.has(endReason)) {
    session = { ...session, completed: true };
    leadPage = markStep(leadPage, 'completed', deltas);
  }
  return { session, leadPage, deltas };
}

/** Decision 25's overlap of view times: overlapping, or both the same instant. */
export function viewTimesOverlap(a: ViewSpan, b: ViewSpan): boolean {
  return (a.from < b.to && b.from < a.to) || (a.from === a.to && b.from === b.to && a.from === b.from);
}

/** Whether `outer` contains `inner`: whatever overlaps `inner` then overlaps `outer` (but an instant, see below). */
function containsSpan(outer: ViewSpan, inner: ViewSpan): boolean {
  return outer.from <= inner.from && inner.to <= outer.to;
}

/**
 * The spans no other contains (one of equal ones). An instant dropped here sits strictly inside a
 * kept span (that is how it joined the pass), so a new instant equal to it overlaps that span too.
 */
function outermostSpans(spans: readonly ViewSpan[]): ViewSpan[] {
  const kept: ViewSpan[] = [];
  for (const span of spans) {
    if (kept.some((other) => containsSpan(other, span))) continue;
    for (let index = kept.length - 1; index >= 0; index--) {
      const other = kept[index];
      if (other !== undefined && containsSpan(span, other)) kept.splice(index, 1);
    }
    kept.push(span);
  }
  return kept.sort((a, b) => a.from - b.from || a.to - b.to);
}

function unionOfPasses(passes: readonly Pass[]): IntervalSet {
  return passes.reduce<IntervalSet>((all, pass) => union(all, pass.played), EMPTY_SET);
}

/**
 * The seconds a session newly played, added to the lead's day on the page: reach rows (with their
 * `prev_day` moves for later days), a viewer day, and the furthest histogram's move.
 */
function addPlayedSeconds(
  leadPage: LeadPageState,
  day: DayNumber,
  played: IntervalSet,
  deltas: AggregateRow[],
): LeadPageState {
  const { pageId } = leadPage;
  const sameDay = leadPage.playedByDay.find((entry) => entry.day === day);
  const before = sameDay?.played ?? EMPTY_SET;
  const added = difference(played, before);
  if (isEmpty(added)) return leadPage;

  const earlier = leadPage.playedByDay.filter((entry) => entry.day < day).reverse();
  const later = leadPage.playedByDay.filter((entry) => entry.day > day);
  // Each added second counts on `day` since the latest earlier day that played it (or never) ...
  const pieces: { prevDay: DayNumber; seconds: IntervalSet }[] = [];
  let unmatched = added;
  for (const entry of earlier) {
    if (isEmpty(unmatched)) break;
    const seconds = intersection(unmatched, entry.played);
    if (isEmpty(seconds)) continue;
    pieces.push({ prevDay: entry.day, seconds });
    unmatched = difference(unmatched, seconds);
  }
  if (!isEmpty(unmatched)) pieces.push({ prevDay: NEVER, seconds: unmatched });
  for (const piece of pieces) {
    pushRuns(deltas, piece.seconds, 1, (second, delta) =>
      reachRow(pageId, day, piece.prevDay, second, delta),
    );
    // ... and the next later day that plays it now counts since `day`, no longer since that earlier day.
    let unmoved = piece.seconds;
    for (const entry of later) {
      if (isEmpty(unmoved)) break;
      const moved = intersection(unmoved, entry.played);
      if (isEmpty(moved)) continue;
      pushRuns(deltas, moved, -1, (second, delta) =>
        reachRow(pageId, entry.day, piece.prevDay, second, delta),
      );
      pushRuns(deltas, moved, 1, (second, delta) => reachRow(pageId, entry.day, day, second, delta));
      unmoved = difference(unmoved, moved);
    }
  }

  const playedByDay = [
    ...leadPage.playedByDay.filter((entry) => entry.day !== day),
    { day, played: union(before, added) },
  ].sort((a, b) => a.day - b.day);
  if (sameDay === undefined) {
    addLeadDay(
      leadPage.playedByDay.map((entry) => entry.day),
      day,
      deltas,
      (rowDay, prevDay, leads) => pageLeadsRow(pageId, 'viewer', rowDay, prevDay, leads),
    );
  }
  const firstPlayDay = playedByDay[0]?.day ?? null;
  const furthestSecond = Math.max(leadPage.furthestSecond, maxSecond(added));
  if (
    firstPlayDay !== null &&
    (firstPlayDay !== leadPage.firstPlayDay || furthestSecond !== leadPage.furthestSecond)
  ) {
    const converted = leadPage.converted ? 1 : 0;
    if (leadPage.firstPlayDay !== null) {
      deltas.push(furthestRow(pageId, leadPage.firstPlayDay, leadPage.furthestSecond, -1, -converted));
    }
    deltas.push(furthestRow(pageId, firstPlayDay, furthestSecond, 1, converted));
  }
  return { ...leadPage, playedByDay, firstPlayDay, furthestSecond };
}

/** What one record makes of its page's meta: its duration (0 when unknown) and highest second played. */
export function recordMeta(
  record: Pick<VideoRecordInput, 'startTimeVideo' | 'endTimeVideo' | 'state' | 'videoDuration'>,
): {
  maxDuration: number;
  maxPlayedSecond: number;
} {
  return {
    maxDuration: Number.isFinite(record.videoDuration) ? Math.max(0, record.videoDuration) : 0,
    maxPlayedSecond: maxSecond(playedSeconds(record)),
  };
}

/**
 * A video record of a known session. Its seconds join the passes whose view times it overlaps
 * (merging them when it overlaps several: views +1 on the union, −1 on each old pass), count for
 * the session's seconds and play, and for the lead's day on the page.
 */
export function applyVideoRecord(
  states: { session: SessionState; leadPage: LeadPageState },
  record: VideoRecordInput,
): SessionApplied {
  let { session, leadPage } = states;
  const { pageId, day } = session;
  const deltas: AggregateRow[] = [];
  const played = playedSeconds(record);

  const { maxDuration: reportedDuration, maxPlayedSecond } = recordMeta(record);
  deltas.push(pageMetaRow(pageId, reportedDuration, maxPlayedSecond));
  if (isEmpty(played)) return { session, leadPage, deltas: mergeDeltas(deltas) };

  // Completion is per record: its own end against its own duration.
  if (reportedDuration > 0 && record.endTimeVideo >= COMPLETION_SHARE * reportedDuration) {
    session = { ...session, completed: true };
    leadPage = markStep(leadPage, 'completed', deltas);
  }

  const view: ViewSpan = { from: record.startViewTime, to: record.endViewTime };
  const joined: Pass[] = [];
  const kept: Pass[] = [];
  for (const pass of session.passes) {
    (pass.spans.some((span) => viewTimesOverlap(span, view)) ? joined : kept).push(pass);
  }
  const merged = joined.reduce<Pass>(
    (pass, old) => ({
      viewFrom: Math.min(pass.viewFrom, old.viewFrom),
      viewTo: Math.max(pass.viewTo, old.viewTo),
      spans: [...pass.spans, ...old.spans],
      played: union(pass.played, old.played),
    }),
    { viewFrom: view.from, viewTo: view.to, spans: [view], played },
  );
  merged.spans = outermostSpans(merged.spans);
  const onlyPass = joined.length === 1 ? joined[0] : undefined;
  if (onlyPass === undefined || !equalSets(onlyPass.played, merged.played)) {
    pushRuns(deltas, merged.played, 1, (second, delta) => viewsRow(pageId, day, second, delta));
    for (const old of joined)
      pushRuns(deltas, old.played, -1, (second, delta) => viewsRow(pageId, day, second, delta));
  }

  const playedBefore = unionOfPasses(session.passes);
  const newlyPlayed = size(difference(played, playedBefore));
  if (newlyPlayed > 0) {
    deltas.push(
      pageDayRow(pageId, day, { plays: isEmpty(playedBefore) ? 1 : 0, secondsPlayed: newlyPlayed }),
    );
  }
  session = {
    ...session,
    passes: [...kept, merged].sort((a, b) => a.viewFrom - b.viewFrom || a.viewTo - b.viewTo),
    secondsPlayed: session.secondsPlayed + newlyPlayed,
  };
  leadPage = addPlayedSeconds(leadPage, day, played, deltas);
  return { session, leadPage, deltas: mergeDeltas(deltas) };
}

/** An action of a known session: a `BUTTON_CLICK` counts on the day it was stored. */
export function applyAction(
  states: { session: SessionState; leadPage: LeadPageState },
  action: ActionInput,
  dayOf: DayOf,
): LeadPageApplied {
  const { session } = states;
  if (action.action !== BUTTON_CLICK) return { leadPage: states.leadPage, deltas: [] };
  const day = dayOf(action.receivedAt);
  const deltas: AggregateRow[] = [pageDayRow(session.pageId, day, { clicks: 1 })];
  const clickDays = addLeadDay(states.leadPage.clickDays, day, deltas, (rowDay, prevDay, leads) =>
    pageLeadsRow(session.pageId, 'clicker', rowDay, prevDay, leads),
  );
  const leadPage = markStep({ ...states.leadPage, clickDays }, 'clicked', deltas);
  return { leadPage, deltas: mergeDeltas(deltas) };
}

/** A conversion: counted for its page (none without a page) on the day it was stored. */
export function applyConversion(
  states: { lead: LeadState | undefined; leadPage: LeadPageState | undefined },
  conversion: ConversionInput,
  dayOf: DayOf,
): { leadPage: LeadPageState | undefined; deltas: AggregateRow[] } {
  const { pageId } = conversion;
  const day = dayOf(conversion.createdAt);
  // The funnel counts every conversion of it by day, those of no page too (decision 25).
  const ofFunnel = funnelDayRow(conversion.funnelId, day, { conversions: 1 });
  if (pageId === null) return { leadPage: states.leadPage, deltas: [ofFunnel] };
  const { lead } = states;
  if (lead === undefined)
    throw new Error(`conversion ${conversion.id} of an unknown lead ${conversion.leadId}`);
  const deltas: AggregateRow[] = [ofFunnel, pageDayRow(pageId, day, { conversions: 1 })];
  let leadPage = states.leadPage ?? newLeadPage(lead, pageId);
  if (!leadPage.converted && leadPage.firstPlayDay !== null) {
    deltas.push(furthestRow(pageId, leadPage.firstPlayDay, leadPage.furthestSecond, 0, 1));
  }
  leadPage = markStep(leadPage, 'converted', deltas);
  return { leadPage, deltas: mergeDeltas(deltas) };
}
