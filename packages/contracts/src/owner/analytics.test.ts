import { describe, expect, it } from 'vitest';
import { AnalyticsRange, MAX_ANALYTICS_DAYS } from './analytics';

const issuesOf = (input: unknown) =>
  AnalyticsRange.safeParse(input).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('AnalyticsRange', () => {
  it('takes a range of whole days, one day, or none (the last 30 days)', () => {
    expect(issuesOf({ from: '2026-11-01', to: '2026-11-30' })).toEqual([]);
    expect(issuesOf({ from: '2026-11-25', to: '2026-11-25' })).toEqual([]);
    expect(issuesOf({})).toEqual([]);
  });

  it(`covers at most ${MAX_ANALYTICS_DAYS} days, leap years counted`, () => {
    expect(issuesOf({ from: '2028-01-01', to: '2028-12-31' })).toEqual([]);
    expect(issuesOf({ from: '2027-01-01', to: '2028-01-02' })).toEqual([
      ['to', `a range covers at most ${MAX_ANALYTICS_DAYS} days`],
    ]);
  });

  it('refuses a range that ends before it starts, and what is not a calendar date', () => {
    expect(issuesOf({ from: '2026-11-25', to: '2026-11-24' })).toEqual([
      ['to', 'to is a day on or after from'],
    ]);
    for (const from of ['2026-02-30', '25/11/2026', '2026-11-25T00:00:00Z', 20261125]) {
      expect(issuesOf({ from }).map(([path]) => path)).toEqual(['from']);
    }
    expect(issuesOf({ from: '2026-11-01', until: '2026-11-02' })[0]?.[0]).toBe('');
  });
});
