import { describe, expect, it } from 'vitest';
import { percentile } from './load';

describe('percentile', () => {
  it('is the nearest-rank value of sorted latencies, fractions of a millisecond kept', () => {
    const latencies = Array.from({ length: 200 }, (_, i) => (i + 1) / 100);
    expect(percentile(latencies, 0.5)).toBe(1);
    expect(percentile(latencies, 0.99)).toBe(1.98);
    expect(percentile([0.3], 0.99)).toBe(0.3);
    expect(percentile([], 0.99)).toBe(0);
  });
});
