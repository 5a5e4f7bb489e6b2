import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { DayRange } from './analytics-types';
import type { FunnelRowsInput } from './rollup-answers';
import { funnelDayRow, pageDayRow, stepRow } from './rollup-rows';

/** What a funnel's answer over a range reads. */
export async function readFunnelRows(
  db: Kysely<Database>,
  funnelId: string,
  pageIds: readonly string[],
  range: DayRange,
): Promise<Omit<FunnelRowsInput, 'funnelId' | 'pages' | 'range'>> {
  const [steps, funnelDays, pageDays] = await Promise.all([
    db
      .selectFrom('analyticsSteps')
      .selectAll()
      .where('funnelId', '=', funnelId)
      .where('entryDay', '>=', range.from)
      .where('entryDay', '<=', range.to)
      .execute(),
    db
      .selectFrom('analyticsFunnelDays')
      .selectAll()
      .where('funnelId', '=', funnelId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .execute(),
    pageIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('analyticsPageDays')
          .selectAll()
          .where('pageId', 'in', [...pageIds])
          .where('day', '>=', range.from)
          .where('day', '<=', range.to)
          .execute(),
  ]);
  const n = Number;
  return {
    steps: steps.map((r) =>
      stepRow(funnelId, r.pageId, n(r.entryDay), {
        reached: n(r.reached),
        completed: n(r.completed),
        clicked: n(r.clicked),
        converted: n(r.converted),
      }),
    ),
    funnelDays: funnelDays.map((r) =>
      funnelDayRow(funnelId, n(r.day), { entered: n(r.entered), conversions: n(r.conversions) }),
    ),
    pageDays: pageDays.map((r) =>
      pageDayRow(r.pageId, n(r.day), {
        sessions: n(r.sessions),
        plays: n(r.plays),
        secondsPlayed: n(r.secondsPlayed),
        clicks: n(r.clicks),
        conversions: n(r.conversions),
      }),
    ),
  };
}
