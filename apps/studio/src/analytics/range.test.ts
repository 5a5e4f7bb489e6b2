import { describe, expect, it } from 'vitest';
import { addDays, clock, resolveRange, retentionRuns, todayIn } from './range';

describe('the days an analytics screen asks for', () => {
  it("counts today in the account's time zone, not the browser's", () => {
    // 02:30 on 1 March in UTC is still 28 February in Bogotá (UTC-5) and already 1 March in Tokyo.
    const at = new Date('2026-03-01T02:30:00Z');
    expect(todayIn('America/Bogota', at)).toBe('2026-02-28');
    expect(todayIn('Asia/Tokyo', at)).toBe('2026-03-01');
  });

  it('counts presets back from today, both ends included, across month and year ends', () => {
    expect(resolveRange({}, '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(resolveRange({ range: '7d' }, '2026-01-03')).toEqual({ from: '2025-12-28', to: '2026-01-03' });
    expect(resolveRange({ range: 'today' }, '2024-02-29')).toEqual({ from: '2024-02-29', to: '2024-02-29' });
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  it('takes custom days in order, and a custom range missing a day as the default', () => {
    expect(resolveRange({ range: 'custom', from: '2026-03-20', to: '2026-03-10' }, '2026-04-01')).toEqual({
      from: '2026-03-10',
      to: '2026-03-20',
    });
    expect(resolveRange({ range: 'custom', from: '2026-03-10' }, '2026-04-01')).toEqual({
      from: '2026-03-03',
      to: '2026-04-01',
    });
  });
});

describe('the retention as text', () => {
  it('groups consecutive seconds with the same reach and views', () => {
    expect(retentionRuns([1, 1, 1, 0, 0, 2], [1, 1, 2, 0, 0, 3])).toEqual([
      { from: 0, to: 1, reach: 1, views: 1 },
      { from: 2, to: 2, reach: 1, views: 2 },
      { from: 3, to: 4, reach: 0, views: 0 },
      { from: 5, to: 5, reach: 2, views: 3 },
    ]);
    expect(retentionRuns([], [])).toEqual([]);
  });

  it('writes seconds as m:ss, and h:mm:ss from an hour', () => {
    expect([clock(0), clock(8), clock(65), clock(3599), clock(3600), clock(3725)]).toEqual([
      '0:00',
      '0:08',
      '1:05',
      '59:59',
      '1:00:00',
      '1:02:05',
    ]);
  });
});
