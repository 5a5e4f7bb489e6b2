import type { Db } from '../src/db';
import type { Dialect } from '../src/db/dialect';
import type { PageInput, RawRows } from '../src/modules/analytics/analytics-types';
import { createAnalyticsRepo } from '../src/modules/analytics/analytics.repo';
import { countsAsConversion } from '../src/modules/analytics/counted-conversions';

/**
 * An account's raw rows as the server stored them, read back whole, for the brute-force numbers
 * (reference.ts) the analytics answers are compared with; with every stored conversion, counted or not.
 */
export async function storedRawRows(
  db: Db,
  dialect: Dialect,
  accountId: string,
  pages: readonly PageInput[],
): Promise<{ rows: RawRows; storedConversions: RawRows['conversions'] }> {
  const analytics = createAnalyticsRepo(dialect);
  const all = async <Row>(
    read: (db: Db, accountId: string, after: string, limit: number) => Promise<{ rows: Row[] }>,
  ) => (await read(db, accountId, '', 100_000)).rows;
  const conversions = await all(analytics.raw.conversions);
  return {
    rows: {
      leads: await all(analytics.raw.leads),
      pages,
      sessions: await all(analytics.raw.sessions),
      videoRecords: await all(analytics.raw.videoRecords),
      actions: await all(analytics.raw.actions),
      // Those analytics counts: a page's VIDEO_VIEWED marks it complete, not converted.
      conversions: conversions.filter(countsAsConversion),
    },
    storedConversions: conversions,
  };
}
