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
  const { rows: leads } = await analytics.raw.leads(db, accountId, '', 100_000);
  const { conversions, ...raw } = await analytics.raw.ofLeads(
    db,
    leads.map((lead) => lead.id),
  );
  return {
    rows: {
      leads,
      pages,
      ...raw,
      // Those analytics counts: a page's VIDEO_VIEWED marks it complete, not converted.
      conversions: conversions.filter(countsAsConversion),
    },
    storedConversions: conversions,
  };
}
