/**
 * The brute-force reference of analytics: decision 25's Definitions computed from every raw row, by
 * plain loops and sets of seconds, with no rollup. It is slow on purpose (it reads every row for every
 * answer) and exists so that property tests can compare the incremental rollups with it.
 *
 * Readings chosen where the text of decision 25 leaves room (each repeated where it is used):
 * - a record, a click and a session belong to the lead of the session they name (`session.leadId`);
 *   a conversion to its own `leadId`;
 * - seconds start at 0: a record starting before 0 plays from second 0 only;
 * - L counts `details.videoDuration` of every record of the page's sessions, SKIP records and records
 *   that play nothing included (they report it too);
 * - records and actions whose session is not among the rows belong to no page and count nowhere;
 * - pages of equal position keep their order by id;
 * - the funnel's byDay counts the conversions whose funnelId is the funnel's, a conversion with no
 *   page included.
 */
import type {
  DayNumber,
  DayOf,
  DayRange,
  FunnelDay,
  FunnelNumbers,
  FunnelStep,
  FurthestBucket,
  PageDay,
  PageNumbers,
  RawRows,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';

const BUTTON_CLICK = 'BUTTON_CLICK';
const SKIP = 'SKIP';
/** A session that ended this way completed its page's video (decision 25, Funnel steps). */
const ENDED_REASONS: ReadonlySet<string> = new Set(['VIDEO_ENDED', 'VIDEO_ENDED_OFFERT']);
const COMPLETION_SHARE = 0.95;
const FURTHEST_BUCKETS = 10;

/** The integer seconds a record plays: `floor(start) ≤ s < ceil(end)` when `end > start`, never for SKIP. */
function playedSecondsOf(record: VideoRecordInput): Set<number> {
  const seconds = new Set<number>();
  if (record.state === SKIP) return seconds;
  if (!(record.endTimeVideo > record.startTimeVideo)) return seconds;
  // Seconds are counted from 0 (decision 25): a start before 0 plays from second 0.
  const first = Math.max(0, Math.floor(record.startTimeVideo));
  const end = Math.ceil(record.endTimeVideo);
  for (let second = first; second < end; second++) seconds.add(second);
  return seconds;
}

/** Two records report the same stretch of playback when their view times overlap, or are the same interval. */
function viewTimesOverlap(a: VideoRecordInput, b: VideoRecordInput): boolean {
  const sameInterval = a.startViewTime === b.startViewTime && a.endViewTime === b.endViewTime;
  return sameInterval || (a.startViewTime < b.endViewTime && b.startViewTime < a.endViewTime);
}

/**
 * A session's passes, each as the set of seconds it plays: the connected components of the overlap
 * relation among the session's records that play something (overlap is made transitive).
 */
function passesOf(records: readonly VideoRecordInput[]): Set<number>[] {
  const playing = records.filter((record) => playedSecondsOf(record).size > 0);
  const visited = new Array<boolean>(playing.length).fill(false);
  const passes: Set<number>[] = [];
  for (let first = 0; first < playing.length; first++) {
    if (visited[first]) continue;
    visited[first] = true;
    const pass = new Set<number>();
    const toVisit = [first];
    while (toVisit.length > 0) {
      const index = toVisit.pop() as number;
      const record = playing[index] as VideoRecordInput;
      for (const second of playedSecondsOf(record)) pass.add(second);
      for (let other = 0; other < playing.length; other++) {
        if (visited[other]) continue;
        if (viewTimesOverlap(record, playing[other] as VideoRecordInput)) {
          visited[other] = true;
          toVisit.push(other);
        }
      }
    }
    passes.push(pass);
  }
  return passes;
}

function unionOf(sets: readonly Set<number>[]): Set<number> {
  const union = new Set<number>();
  for (const set of sets) for (const item of set) union.add(item);
  return union;
}

function inRange(day: DayNumber, range: DayRange): boolean {
  return range.from <= day && day <= range.to;
}

function daysOf(range: DayRange): DayNumber[] {
  const days: DayNumber[] = [];
  for (let day = range.from; day <= range.to; day++) days.push(day);
  return days;
}

/** What one session played, whatever the range: its records, its passes and their union. */
interface SessionPlayback {
  session: SessionInput;
  day: DayNumber;
  records: VideoRecordInput[];
  passes: Set<number>[];
  seconds: Set<number>;
}

function playbackOf(rows: RawRows, session: SessionInput, dayOf: DayOf): SessionPlayback {
  const records = rows.videoRecords.filter((record) => record.pageSessionId === session.id);
  const passes = passesOf(records);
  return { session, day: dayOf(session.startAt), records, passes, seconds: unionOf(passes) };
}

function isButtonClickOf(sessionIds: ReadonlySet<string>, action: RawRows['actions'][number]): boolean {
  return (
    action.action === BUTTON_CLICK && action.pageSessionId !== null && sessionIds.has(action.pageSessionId)
  );
}

/** L: max(ceil of the largest reported videoDuration, 1 + the highest second played), over all days; 0 when neither. */
function videoDurationOf(playbacks: readonly SessionPlayback[]): number {
  let largestReported = 0;
  let highestSecond = -1;
  for (const playback of playbacks) {
    // Every record of the page reports its videoDuration, SKIP records and points included.
    for (const record of playback.records) largestReported = Math.max(largestReported, record.videoDuration);
    for (const second of playback.seconds) highestSecond = Math.max(highestSecond, second);
  }
  return Math.max(Math.ceil(largestReported), highestSecond + 1);
}

/** A page's numbers over a range of days, from every raw row (decision 25, Definitions). */
export function referencePageNumbers(
  rows: RawRows,
  pageId: string,
  range: DayRange,
  dayOf: DayOf,
): PageNumbers {
  const page = rows.pages.find((candidate) => candidate.id === pageId);
  if (page === undefined) throw new Error(`no page ${pageId} among the rows`);

  const playbacks = rows.sessions
    .filter((session) => session.pageId === pageId)
    .map((session) => playbackOf(rows, session, dayOf));
  const sessionIds = new Set(playbacks.map((playback) => playback.session.id));
  const videoDuration = videoDurationOf(playbacks);
  const inRangePlaybacks = playbacks.filter((playback) => inRange(playback.day, range));
  const inRangePlays = inRangePlaybacks.filter((playback) => playback.seconds.size > 0);

  const views = new Array<number>(videoDuration).fill(0);
  const reachLeads: Set<string>[] = [];
  for (let second = 0; second < videoDuration; second++) reachLeads.push(new Set());
  for (const playback of inRangePlaybacks) {
    for (const pass of playback.passes) {
      for (const second of pass) views[second] = (views[second] as number) + 1;
    }
    for (const second of playback.seconds) reachLeads[second]?.add(playback.session.leadId);
  }
  const reach = reachLeads.map((leads) => leads.size);

  const sessions = inRangePlaybacks.length;
  const plays = inRangePlays.length;
  const viewers = new Set(inRangePlays.map((playback) => playback.session.leadId));
  // Mean over plays of (seconds ÷ L) = total seconds ÷ (plays × L): the integer sum makes it exact
  // up to one rounding, and independent of the order of the rows.
  let totalSecondsPlayed = 0;
  for (const playback of inRangePlays) totalSecondsPlayed += playback.seconds.size;
  const averageWatched = plays === 0 ? null : totalSecondsPlayed / (plays * videoDuration);

  const buttonSecond = Math.floor(page.buttonTimeSeconds);
  const pastButton = buttonSecond >= 0 && buttonSecond < videoDuration ? (reach[buttonSecond] as number) : 0;

  const pageClicks = rows.actions.filter((action) => isButtonClickOf(sessionIds, action));
  const inRangeClicks = pageClicks.filter((action) => inRange(dayOf(action.receivedAt), range));
  // The clicking lead is the lead of the session clicked in (it is the action's own leadId too).
  const sessionLead = new Map(playbacks.map((playback) => [playback.session.id, playback.session.leadId]));
  const clickers = new Set(
    inRangeClicks.map((action) => sessionLead.get(action.pageSessionId as string) as string),
  );

  const pageConversions = rows.conversions.filter((conversion) => conversion.pageId === pageId);
  const inRangeConversions = pageConversions.filter((conversion) =>
    inRange(dayOf(conversion.createdAt), range),
  );

  const byDay: PageDay[] = daysOf(range).map((day) => ({
    day,
    sessions: playbacks.filter((playback) => playback.day === day).length,
    plays: playbacks.filter((playback) => playback.day === day && playback.seconds.size > 0).length,
    clicks: pageClicks.filter((action) => dayOf(action.receivedAt) === day).length,
    conversions: pageConversions.filter((conversion) => dayOf(conversion.createdAt) === day).length,
  }));

  return {
    sessions,
    plays,
    playRate: sessions === 0 ? null : plays / sessions,
    uniqueViewers: viewers.size,
    averageWatched,
    pastButton,
    clicks: inRangeClicks.length,
    clickRate: viewers.size === 0 ? null : clickers.size / viewers.size,
    conversions: inRangeConversions.length,
    videoDuration,
    buttonTimeSeconds: page.buttonTimeSeconds,
    retention: { reach, views },
    byDay,
    conversionsByFurthest: furthestBucketsOf(rows, pageId, playbacks, videoDuration, range),
  };
}

/**
 * The page's leads whose first play (earliest day of a session of theirs that played a second) is in
 * the range, by the furthest second they ever played on the page, in ten buckets of a tenth of L.
 */
function furthestBucketsOf(
  rows: RawRows,
  pageId: string,
  playbacks: readonly SessionPlayback[],
  videoDuration: number,
  range: DayRange,
): FurthestBucket[] {
  if (videoDuration === 0) return [];
  const leadIds = new Set(playbacks.map((playback) => playback.session.leadId));
  const furthestOfCountedLeads: { furthest: number; converted: boolean }[] = [];
  for (const leadId of leadIds) {
    const leadPlays = playbacks.filter(
      (playback) => playback.session.leadId === leadId && playback.seconds.size > 0,
    );
    if (leadPlays.length === 0) continue;
    const firstPlayDay = Math.min(...leadPlays.map((playback) => playback.day));
    if (!inRange(firstPlayDay, range)) continue;
    const furthest = Math.max(...leadPlays.flatMap((playback) => [...playback.seconds]));
    const converted = rows.conversions.some(
      (conversion) => conversion.leadId === leadId && conversion.pageId === pageId,
    );
    furthestOfCountedLeads.push({ furthest, converted });
  }
  const buckets: FurthestBucket[] = [];
  for (let index = 0; index < FURTHEST_BUCKETS; index++) {
    const fromSecond = Math.floor((index * videoDuration) / FURTHEST_BUCKETS);
    const toSecond = Math.floor(((index + 1) * videoDuration) / FURTHEST_BUCKETS);
    const inBucket = furthestOfCountedLeads.filter(
      (lead) => fromSecond <= lead.furthest && lead.furthest < toSecond,
    );
    buckets.push({
      fromSecond,
      toSecond,
      leads: inBucket.length,
      converted: inBucket.filter((lead) => lead.converted).length,
    });
  }
  return buckets;
}

/** A funnel's steps for the leads created in the range, and its days (decision 25, Funnel steps). */
export function referenceFunnelNumbers(
  rows: RawRows,
  funnelId: string,
  range: DayRange,
  dayOf: DayOf,
): FunnelNumbers {
  const funnelLeads = rows.leads.filter((lead) => lead.funnelId === funnelId);
  const cohort = funnelLeads.filter((lead) => inRange(dayOf(lead.createdAt), range));
  const pages = rows.pages
    .filter((page) => page.funnelId === funnelId)
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const steps: FunnelStep[] = pages.map((page) => {
    let reached = 0;
    let completed = 0;
    let clicked = 0;
    let converted = 0;
    for (const lead of cohort) {
      // Whenever it happened: every session of the lead on the page, in the range or not.
      const leadPlaybacks = rows.sessions
        .filter((session) => session.pageId === page.id && session.leadId === lead.id)
        .map((session) => playbackOf(rows, session, dayOf));
      const leadSessionIds = new Set(leadPlaybacks.map((playback) => playback.session.id));
      if (leadPlaybacks.length > 0) reached++;
      const completedIt = leadPlaybacks.some(
        (playback) =>
          (playback.session.endReason !== null && ENDED_REASONS.has(playback.session.endReason)) ||
          playback.records.some(
            (record) =>
              playedSecondsOf(record).size > 0 &&
              record.videoDuration > 0 &&
              record.endTimeVideo >= COMPLETION_SHARE * record.videoDuration,
          ),
      );
      if (completedIt) completed++;
      if (rows.actions.some((action) => isButtonClickOf(leadSessionIds, action))) clicked++;
      if (
        rows.conversions.some((conversion) => conversion.leadId === lead.id && conversion.pageId === page.id)
      )
        converted++;
    }
    return { pageId: page.id, position: page.position, reached, completed, clicked, converted };
  });

  const funnelPageIds = new Set(pages.map((page) => page.id));
  const funnelPlaybacks = rows.sessions
    .filter((session) => funnelPageIds.has(session.pageId))
    .map((session) => playbackOf(rows, session, dayOf));
  const funnelSessionIds = new Set(funnelPlaybacks.map((playback) => playback.session.id));
  const funnelClicks = rows.actions.filter((action) => isButtonClickOf(funnelSessionIds, action));
  // Decision 25 says "of all its pages"; read as the funnel's conversions (by funnelId), so that a
  // conversion with no page counts on the funnel's day too.
  const funnelConversions = rows.conversions.filter((conversion) => conversion.funnelId === funnelId);

  const byDay: FunnelDay[] = daysOf(range).map((day) => ({
    day,
    entered: funnelLeads.filter((lead) => dayOf(lead.createdAt) === day).length,
    sessions: funnelPlaybacks.filter((playback) => playback.day === day).length,
    plays: funnelPlaybacks.filter((playback) => playback.day === day && playback.seconds.size > 0).length,
    clicks: funnelClicks.filter((action) => dayOf(action.receivedAt) === day).length,
    conversions: funnelConversions.filter((conversion) => dayOf(conversion.createdAt) === day).length,
  }));

  return { steps, byDay };
}
