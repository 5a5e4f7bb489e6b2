import { describe, expect, it } from 'vitest';
import { failedRow, formatBudget, formatQuantity, judge, makeRow, median, renderTable } from './report';

// The bench's own arithmetic and table. No figure is measured here: timings never decide a test.
describe('bench report', () => {
  it('takes the median of odd and even counts, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('judges a budget on the figure or on the ratio to the baseline', () => {
    const lcp = makeRow({
      row: 1,
      measure: 'LCP',
      figure: { value: 1150, unit: 'ms' },
      baseline: { value: 1000, unit: 'ms', label: 'floor' },
      budget: { on: 'ratio', op: '<=', limit: 1.15 },
    });
    expect(lcp.ratio).toBeCloseTo(1.15);
    expect(lcp.holds).toBe(true);
    expect(judge({ on: 'figure', op: '>=', limit: 10_000 }, 9_999, null)).toBe(false);
    expect(judge({ on: 'figure', op: '=', limit: 0 }, 0, null)).toBe(true);
    expect(judge({ on: 'ratio', op: '<=', limit: 1.5 }, 12, null)).toBeNull();
  });

  it('formats figures and budgets in their units', () => {
    expect(formatQuantity({ value: 12345.6, unit: 'req/s' })).toBe('12,346 req/s');
    expect(formatQuantity({ value: 24.25, unit: 'ms' })).toBe('24.3 ms');
    // An answer kept in memory comes back in under a millisecond: its figure must not read 0.
    expect(formatQuantity({ value: 0.284, unit: 'ms' })).toBe('0.28 ms');
    expect(formatQuantity({ value: 1234.4, unit: 'ms' })).toBe('1,234 ms');
    expect(formatBudget({ on: 'figure', op: '<=', limit: 90 }, 'KB')).toBe('≤ 90.0 KB');
    expect(formatBudget({ on: 'ratio', op: '>=', limit: 0.5 }, 'req/s')).toBe('ratio ≥ 0.5');
    expect(formatBudget(null, null)).toBe('—');
  });

  it('prints every row, failed ones too, and names the budgets that do not hold', () => {
    const table = renderTable([
      makeRow({
        row: 2,
        measure: 'JavaScript',
        figure: { value: 95, unit: 'KB' },
        budget: { on: 'figure', op: '<=', limit: 90 },
        notes: ['4 scripts'],
      }),
      failedRow(6, 'memory', { on: 'figure', op: '<=', limit: 200 }, new Error('no /proc\nstack')),
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^row\s+measure\s+figure\s+baseline\s+ratio\s+budget\s+holds$/);
    expect(lines[2]).toMatch(/^2\s+JavaScript\s+95\.0 KB\s+—\s+—\s+≤ 90\.0 KB\s+NO$/);
    expect(lines[3]).toMatch(/^6\s+memory\s+not measured .*ERROR$/);
    expect(table).toContain('6    memory: no /proc');
    expect(table).not.toContain('stack');
    expect(table).toContain('budgets NOT holding: row 2 (JavaScript)');
    expect(table).toContain('budgets not measured: row 6 (memory)');
  });
});
