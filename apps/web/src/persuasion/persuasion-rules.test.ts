import { describe, expect, it } from 'vitest';
import {
  countdownParts,
  firstOnlineCount,
  flagCode,
  minutesAgo,
  nextOnlineCount,
  randomInt,
  validRange,
} from './persuasion-rules';

const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
};

describe('countdown (visitor-behaviour §4.8)', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(countdownParts('2026-11-24T13:04:05Z', now)).toEqual({
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
      expired: false,
    });
  });
  it('is expired once the time has passed, and never negative', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(countdownParts('2026-11-22T09:59:59Z', now)).toEqual({
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 0,
      expired: true,
    });
    expect(countdownParts('not a date', now).expired).toBe(true);
  });
});

describe('online count (visitor-behaviour §4.8, §5)', () => {
  it.each([
    [
      [20, 100],
      [20, 100],
    ],
    [
      [100, 20],
      [20, 100],
    ],
    [
      [5, 5],
      [5, 5],
    ],
    [[20], null],
    [[20, 100, 3], null],
    [['20', 100], null],
    [[20, Number.NaN], null],
    [null, null],
    [{ 0: 1, 1: 2 }, null],
  ] as const)('range %j is %j', (range, expected) => {
    expect(validRange(range)).toEqual(expected);
  });

  it('changes by -2 to +5 each time and stays within the range', () => {
    expect(nextOnlineCount(50, [20, 100], () => 0)).toBe(48);
    expect(nextOnlineCount(50, [20, 100], () => 0.9999)).toBe(55);
    expect(nextOnlineCount(21, [20, 100], () => 0)).toBe(20);
    expect(nextOnlineCount(98, [20, 100], () => 0.9999)).toBe(100);
    let count = firstOnlineCount([20, 100], sequence(0.5));
    for (let i = 0; i < 2000; i++) {
      const next = nextOnlineCount(count, [20, 100]);
      expect(next - count).toBeGreaterThanOrEqual(-2);
      expect(next - count).toBeLessThanOrEqual(5);
      expect(next).toBeGreaterThanOrEqual(20);
      expect(next).toBeLessThanOrEqual(100);
      count = next;
    }
  });

  it('draws whole numbers with both ends included', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(randomInt(-2, 5));
    expect([...seen].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3, 4, 5]);
  });
});

describe('social proof (visitor-behaviour §4.8, §5)', () => {
  it('shows a flag only for a two-letter code', () => {
    expect(flagCode('MX')).toBe('mx');
    expect(flagCode('br')).toBe('br');
    for (const code of ['MEX', 'M', '', '1X', null, undefined, 'm x']) expect(flagCode(code)).toBeNull();
  });
  it('says 1 to 10 minutes ago', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(minutesAgo());
    expect([...seen].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
