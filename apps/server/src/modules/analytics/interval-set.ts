/**
 * Sets of whole seconds of a video, kept as sorted, disjoint, non-touching half-open intervals
 * `[from, to)` (decision 25). One canonical form per set, so two equal sets are equal as JSON, and
 * every operation is a linear merge of the two lists: a record's work grows with its intervals, never
 * with its seconds.
 */

/** Seconds `from ≤ s < to`, `from < to`. */
export type Interval = readonly [from: number, to: number];

/** Sorted by `from`, each `to` strictly below the next `from` (touching intervals are joined). */
export type IntervalSet = readonly Interval[];

export const EMPTY_SET: IntervalSet = [];

/** What of a video record decides the seconds it plays. */
export interface PlayedSpan {
  startTimeVideo: number;
  endTimeVideo: number;
  /** `details.state`: a `SKIP` plays nothing. */
  state: string;
}

/** The seconds `[from, to)` as a set (empty when `to ≤ from`). */
export function intervalOf(from: number, to: number): IntervalSet {
  return from < to ? [[from, to]] : EMPTY_SET;
}

/**
 * The seconds a record plays (decision 25): `floor(start) ≤ s < ceil(end)` when `end > start` and
 * it is not a `SKIP`. Seconds count from 0, so a part before the video's start plays nothing; a time
 * that is not a finite number plays nothing (it would make the retention arrays endless).
 */
export function playedSeconds(record: PlayedSpan): IntervalSet {
  const { startTimeVideo: start, endTimeVideo: end } = record;
  if (record.state === 'SKIP' || !Number.isFinite(start) || !Number.isFinite(end) || !(end > start)) {
    return EMPTY_SET;
  }
  return intervalOf(Math.max(0, Math.floor(start)), Math.ceil(end));
}

/** The set of the given integer seconds (for tests and small inputs). */
export function setOfSeconds(seconds: Iterable<number>): IntervalSet {
  const sorted = [...new Set(seconds)].sort((a, b) => a - b);
  const intervals: Interval[] = [];
  for (const second of sorted) {
    const last = intervals.at(-1);
    if (last !== undefined && last[1] === second) intervals[intervals.length - 1] = [last[0], second + 1];
    else intervals.push([second, second + 1]);
  }
  return intervals;
}

/** Every second of the set, ascending (for tests and small inputs). */
export function secondsOf(set: IntervalSet): number[] {
  const seconds: number[] = [];
  for (const [from, to] of set) for (let second = from; second < to; second++) seconds.push(second);
  return seconds;
}

/** Appends an interval after the list's last one, joining it when they touch or overlap. */
function append(intervals: Interval[], from: number, to: number): void {
  if (!(from < to)) return;
  const last = intervals.at(-1);
  if (last !== undefined && from <= last[1]) {
    if (to > last[1]) intervals[intervals.length - 1] = [last[0], to];
  } else {
    intervals.push([from, to]);
  }
}

export function union(a: IntervalSet, b: IntervalSet): IntervalSet {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const intervals: Interval[] = [];
  let i = 0;
  let j = 0;
  for (;;) {
    const fromA = a[i];
    const fromB = b[j];
    if (fromA === undefined && fromB === undefined) return intervals;
    if (fromB === undefined || (fromA !== undefined && fromA[0] <= fromB[0])) {
      if (fromA !== undefined) append(intervals, fromA[0], fromA[1]);
      i++;
    } else {
      append(intervals, fromB[0], fromB[1]);
      j++;
    }
  }
}

export function intersection(a: IntervalSet, b: IntervalSet): IntervalSet {
  const intervals: Interval[] = [];
  let i = 0;
  let j = 0;
  for (;;) {
    const inA = a[i];
    const inB = b[j];
    if (inA === undefined || inB === undefined) return intervals;
    append(intervals, Math.max(inA[0], inB[0]), Math.min(inA[1], inB[1]));
    // The one that ends first can meet nothing further in the other list.
    if (inA[1] < inB[1]) i++;
    else j++;
  }
}

/** The seconds of `a` that are not in `b`. */
export function difference(a: IntervalSet, b: IntervalSet): IntervalSet {
  if (a.length === 0 || b.length === 0) return a;
  const intervals: Interval[] = [];
  let j = 0;
  for (const [from, to] of a) {
    let cursor = from;
    // Skip what of b ends before this interval; what reaches past its end is kept for the next one.
    for (let removed = b[j]; removed !== undefined && removed[0] < to; removed = b[j]) {
      append(intervals, cursor, removed[0]);
      cursor = Math.max(cursor, removed[1]);
      if (removed[1] >= to) break;
      j++;
    }
    append(intervals, cursor, to);
  }
  return intervals;
}

/** How many seconds the set holds. */
export function size(set: IntervalSet): number {
  let total = 0;
  for (const [from, to] of set) total += to - from;
  return total;
}

export function isEmpty(set: IntervalSet): boolean {
  return set.length === 0;
}

export function contains(set: IntervalSet, second: number): boolean {
  let low = 0;
  let high = set.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const interval = set[middle];
    if (interval === undefined) return false;
    if (second < interval[0]) high = middle - 1;
    else if (second >= interval[1]) low = middle + 1;
    else return true;
  }
  return false;
}

/** The highest second of the set, −1 when it is empty (so that `maxSecond + 1` is a length). */
export function maxSecond(set: IntervalSet): number {
  const last = set.at(-1);
  return last === undefined ? -1 : last[1] - 1;
}

export function equalSets(a: IntervalSet, b: IntervalSet): boolean {
  if (a.length !== b.length) return false;
  return a.every(([from, to], index) => {
    const other = b[index];
    return other !== undefined && other[0] === from && other[1] === to;
  });
}
