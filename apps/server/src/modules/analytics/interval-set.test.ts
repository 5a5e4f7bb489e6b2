import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contains,
  difference,
  equalSets,
  intersection,
  type IntervalSet,
  maxSecond,
  playedSeconds,
  secondsOf,
  setOfSeconds,
  size,
  union,
} from './interval-set';

const seconds = fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 40 });

/** Sorted, disjoint, non-touching, non-empty intervals: the one form every operation must return. */
function isCanonical(set: IntervalSet): boolean {
  return set.every(
    ([from, to], index) =>
      Number.isInteger(from) &&
      Number.isInteger(to) &&
      from < to &&
      (index === 0 || (set[index - 1]?.[1] ?? 0) < from),
  );
}

function sorted(values: Iterable<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

describe('interval sets against plain sets of seconds', () => {
  it('union, intersection and difference hold the same seconds as Set operations, in canonical form', () => {
    fc.assert(
      fc.property(seconds, seconds, (left, right) => {
        const a = setOfSeconds(left);
        const b = setOfSeconds(right);
        const plainA = new Set(left);
        const plainB = new Set(right);
        const results: [IntervalSet, number[]][] = [
          [union(a, b), sorted(new Set([...plainA, ...plainB]))],
          [
            intersection(a, b),
            sorted(left.filter((s) => plainB.has(s)).filter((s, i, all) => all.indexOf(s) === i)),
          ],
          [difference(a, b), sorted(new Set(left.filter((s) => !plainB.has(s))))],
        ];
        for (const [set, expected] of results) {
          expect(secondsOf(set)).toEqual(expected);
          expect(isCanonical(set)).toBe(true);
          expect(size(set)).toBe(expected.length);
          expect(maxSecond(set)).toBe(expected.length === 0 ? -1 : Math.max(...expected));
          for (let second = -1; second <= 62; second++) {
            expect(contains(set, second)).toBe(expected.includes(second));
          }
        }
      }),
    );
  });

  it('a set built from its own seconds is the same set (one form per set)', () => {
    fc.assert(
      fc.property(seconds, seconds, (left, right) => {
        const set = union(setOfSeconds(left), setOfSeconds(right));
        expect(equalSets(setOfSeconds(secondsOf(set)), set)).toBe(true);
        expect(equalSets(set, setOfSeconds([...left, ...right]))).toBe(true);
      }),
    );
  });
});

describe('playedSeconds', () => {
  const state = fc.constantFrom('PLAYING', 'PROGRESS', 'PAUSE', 'ENDED', 'INTERRUPTED', 'SKIP');
  it('plays s when floor(start) ≤ s < ceil(end), end > start, not a SKIP (checked second by second)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -5, max: 50, noNaN: true }),
        fc.double({ min: -5, max: 50, noNaN: true }),
        state,
        (start, end, recordState) => {
          const played = playedSeconds({ startTimeVideo: start, endTimeVideo: end, state: recordState });
          const expected: number[] = [];
          if (end > start && recordState !== 'SKIP') {
            for (let second = 0; second <= 50; second++) {
              // Plays s when it covers part of [s, s + 1).
              if (start < second + 1 && second < end) expected.push(second);
            }
          }
          expect(secondsOf(played)).toEqual(expected);
        },
      ),
    );
  });

  it('a point, a SKIP and a backwards record play nothing; a fraction plays its whole second', () => {
    expect(playedSeconds({ startTimeVideo: 7, endTimeVideo: 7, state: 'PLAYING' })).toEqual([]);
    expect(playedSeconds({ startTimeVideo: 0, endTimeVideo: 9, state: 'SKIP' })).toEqual([]);
    expect(playedSeconds({ startTimeVideo: 9, endTimeVideo: 3, state: 'PAUSE' })).toEqual([]);
    expect(playedSeconds({ startTimeVideo: 2.5, endTimeVideo: 2.6, state: 'PROGRESS' })).toEqual([[2, 3]]);
    expect(playedSeconds({ startTimeVideo: 2, endTimeVideo: 5, state: 'PAUSE' })).toEqual([[2, 5]]);
    expect(
      playedSeconds({ startTimeVideo: 2, endTimeVideo: Number.POSITIVE_INFINITY, state: 'PAUSE' }),
    ).toEqual([]);
  });
});
