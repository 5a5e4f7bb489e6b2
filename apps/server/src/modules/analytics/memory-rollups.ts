/**
 * The rollups of decision 25 kept in memory: the state rows in maps and the aggregate rows summed by
 * key, fed one raw row at a time through the batch applier (`rollup-batch.ts`) that the database's batches run too. What the
 * database layer does in its transactions, without a database: the property tests compare its
 * answers with the brute-force reference.
 */
import type { DayOf, DayRange, FunnelNumbers, PageInput, PageNumbers } from './analytics-types';
import { applyBatch, type RawEvent } from './rollup-batch';
import { assembleFunnelNumbers, assemblePageNumbers } from './rollup-answers';
import {
  type AggregateRow,
  combineRows,
  isNeutralRow,
  type LeadPageState,
  type LeadState,
  type SessionState,
} from './rollup-rows';

export interface MemoryRollups {
  /** Applies a raw row; a row whose id was already ingested (a retried event) changes nothing. */
  ingest(event: RawEvent): void;
  pageNumbers(page: PageInput, range: DayRange): PageNumbers;
  funnelNumbers(funnelId: string, pages: readonly PageInput[], range: DayRange): FunnelNumbers;
  /** The aggregate rows as a table would hold them (none that sums to nothing). */
  aggregateRows(): AggregateRow[];
}

const MS_PER_DAY = 86_400_000;

/** Days of UTC, the account's time zone before one is set. */
export const utcDayOf: DayOf = (ms) => Math.floor(ms / MS_PER_DAY);

export function createMemoryRollups(options: { dayOf?: DayOf } = {}): MemoryRollups {
  const dayOf = options.dayOf ?? utcDayOf;
  const leads = new Map<string, LeadState>();
  const sessions = new Map<string, SessionState>();
  const leadPages = new Map<string, LeadPageState>();
  const seenIds = new Set<string>();
  const aggregates = new Map<string, AggregateRow>();

  function add(deltas: readonly AggregateRow[]): void {
    for (const delta of deltas) {
      const existing = aggregates.get(delta.key);
      const summed = existing === undefined ? delta : combineRows(existing, delta);
      if (isNeutralRow(summed)) aggregates.delete(delta.key);
      else aggregates.set(delta.key, summed);
    }
  }

  /** True the first time an id of that kind is seen. */
  function firstTime(kind: RawEvent['kind'], id: string): boolean {
    const key = `${kind} ${id}`;
    if (seenIds.has(key)) return false;
    seenIds.add(key);
    return true;
  }

  function ingest(event: RawEvent): void {
    if (event.kind !== 'sessionEnd' && !firstTime(event.kind, event.row.id)) return;
    add(applyBatch([event], { leads, sessions, leadPages }, () => dayOf).deltas);
  }

  function rowsOf<Table extends AggregateRow['table']>(
    table: Table,
  ): Extract<AggregateRow, { table: Table }>[] {
    return [...aggregates.values()].filter(
      (row): row is Extract<AggregateRow, { table: Table }> => row.table === table,
    );
  }

  return {
    ingest,
    pageNumbers(page, range) {
      const ofPage = <Row extends { pageId: string }>(rows: Row[]): Row[] =>
        rows.filter((row) => row.pageId === page.id);
      return assemblePageNumbers({
        page,
        range,
        reach: ofPage(rowsOf('reach')),
        views: ofPage(rowsOf('views')),
        pageDays: ofPage(rowsOf('pageDays')),
        pageLeads: ofPage(rowsOf('pageLeads')),
        furthest: ofPage(rowsOf('furthest')),
        pageMeta: ofPage(rowsOf('pageMeta'))[0],
      });
    },
    funnelNumbers(funnelId, pages, range) {
      const pageIds = new Set(pages.map((page) => page.id));
      return assembleFunnelNumbers({
        funnelId,
        pages,
        range,
        steps: rowsOf('steps').filter((row) => row.funnelId === funnelId),
        funnelDays: rowsOf('funnelDays').filter((row) => row.funnelId === funnelId),
        pageDays: rowsOf('pageDays').filter((row) => pageIds.has(row.pageId)),
      });
    },
    aggregateRows: () => [...aggregates.values()],
  };
}
