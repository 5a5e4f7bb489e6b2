import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DayRange, FunnelNumbers, PageNumbers } from './analytics-types';
import { createMemoryRollups } from './memory-rollups';
import { arrivalOf, eventsOf, rawRowsArbitrary, type RawStream } from './raw-streams';
import { referenceFunnelNumbers, referencePageNumbers } from './reference';

/**
 * The rollups kept on ingest (rollup-core.ts, through the in-memory store) against the brute-force
 * reference (reference.ts), two implementations of decision 25 written apart: for random streams
 * arriving in random orders, with retried events and session ends that come after the records,
 * every number of every page and funnel over several ranges is the same. The database layer then
 * only has to store what the store keeps.
 */

/** The ranges to compare: the stream's own, each single day of it, and one reaching past it. */
function rangesOf(range: DayRange): DayRange[] {
  const days = Array.from({ length: range.to - range.from + 1 }, (_, i) => range.from + i);
  return [
    range,
    ...days.map((day) => ({ from: day, to: day })),
    { from: range.from - 1, to: range.to + 2 },
    { from: range.from + 1, to: range.to },
  ].filter((r) => r.from <= r.to);
}

/** Average watched is a quotient of sums both sides make in different orders: equal to 12 places. */
function comparablePage(numbers: PageNumbers) {
  return {
    ...numbers,
    averageWatched: numbers.averageWatched === null ? null : Number(numbers.averageWatched.toFixed(12)),
  };
}

const comparableFunnel = (numbers: FunnelNumbers) => numbers;

describe('rollups kept on ingest give exactly the brute-force numbers', () => {
  it('for every page and funnel, over several ranges, whatever the arrival order', () => {
    fc.assert(
      fc.property(
        rawRowsArbitrary().chain((stream: RawStream) =>
          arrivalOf(stream.rows).map((arrival) => ({ stream, arrival })),
        ),
        ({ stream, arrival }) => {
          const { rows, dayOf, range } = stream;
          const rollups = createMemoryRollups({ dayOf });
          for (const event of eventsOf(rows, arrival)) rollups.ingest(event);
          const funnelIds = [...new Set(rows.pages.map((page) => page.funnelId))];
          for (const r of rangesOf(range)) {
            for (const page of rows.pages) {
              expect(
                comparablePage(rollups.pageNumbers(page, r)),
                `page ${page.id} ${JSON.stringify(r)}`,
              ).toEqual(comparablePage(referencePageNumbers(rows, page.id, r, dayOf)));
            }
            for (const funnelId of funnelIds) {
              const pages = rows.pages.filter((page) => page.funnelId === funnelId);
              expect(
                comparableFunnel(rollups.funnelNumbers(funnelId, pages, r)),
                `funnel ${funnelId}`,
              ).toEqual(comparableFunnel(referenceFunnelNumbers(rows, funnelId, r, dayOf)));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
