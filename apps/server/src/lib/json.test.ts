import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonbText, toIso, wellFormed } from './json';

const LAST_MS_OF_9999 = 253_402_300_799_999;

describe('toIso', () => {
  it('writes every time exactly as Date#toISOString does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(toIso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes the times around day, year and century boundaries as Date does', () => {
    const edges = [0, 1, 999, 1000, 59_999, 3_599_999, 86_399_999, 86_400_000, 951_782_400_000];
    const years = [Date.UTC(2000, 1, 29), Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2100, 2, 1)];
    for (const ms of [...edges, ...years, LAST_MS_OF_9999, LAST_MS_OF_9999 + 1, -1, 1.5]) {
      expect(toIso(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('refuses what Date refuses', () => {
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
    expect(() => toIso(8.64e15 + 1)).toThrow(RangeError);
  });
});

describe('jsonbText', () => {
  it('is JSON.stringify, with each lone surrogate as U+FFFD (jsonb refuses its escape)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ text: fc.string({ unit: 'binary' }), n: fc.integer() })), (rows) => {
        const text = jsonbText(rows);
        expect(/(?<!\\)(\\\\)*\\ud[89a-f]/.test(text)).toBe(false);
        expect(JSON.parse(text)).toEqual(rows.map((row) => ({ ...row, text: wellFormed(row.text) })));
      }),
    );
    expect(jsonbText(['a\udc00b', '\\udc00', '👋'])).toBe('["a\ufffdb","\\\\udc00","👋"]');
  });
});
