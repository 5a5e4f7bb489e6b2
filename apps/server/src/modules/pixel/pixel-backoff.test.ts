import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, backoffMs } from './pixel.worker';

describe('backoff', () => {
  it('starts at 5 s, doubles, stops at one hour, with ±20% jitter', () => {
    expect(backoffMs(1, () => 0.5)).toBe(5_000);
    expect(backoffMs(2, () => 0.5)).toBe(10_000);
    expect(backoffMs(3, () => 0.5)).toBe(20_000);
    expect(backoffMs(1, () => 0)).toBe(4_000);
    expect(backoffMs(1, () => 0.999999)).toBeCloseTo(6_000, -1);
    expect(backoffMs(11, () => 0.5)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(500, () => 0.5)).toBe(BACKOFF_MAX_MS);
    for (let attempts = 1; attempts < 40; attempts++) {
      const delay = backoffMs(attempts);
      expect(delay).toBeGreaterThanOrEqual(Math.min(5_000 * 2 ** (attempts - 1), BACKOFF_MAX_MS) * 0.8);
      expect(delay).toBeLessThanOrEqual(BACKOFF_MAX_MS * 1.2);
    }
  });
});
