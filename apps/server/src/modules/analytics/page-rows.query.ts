import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { DayRange } from './analytics-types';
import type { PageRowsInput } from './rollup-answers';
import {
  furthestRow,
  pageDayRow,
  pageLeadsRow,
  pageMetaRow,
  reachRow,
  viewsRow,
  type PageLeadKind,
} from './rollup-rows';

/**
 * What a page's answer over a range reads: rows of the page and the range's days only, the ones
 * kept by second added up by the database (bench row (b), decision 25).
 */
export async function readPageRows(
  db: Kysely<Database>,
  pageId: string,
  range: DayRange,
): Promise<Omit<PageRowsInput, 'page' | 'range'>> {
  // Each day of the range by itself: the index (page, day, prev_day, …) is then sought once per day
  // for the rows before the range, instead of scanned over every prev_day of the range and filtered.
  const days = Array.from({ length: range.to - range.from + 1 }, (_, i) => range.from + i);
  const [reach, views, pageDays, pageLeads, furthest, meta] = await Promise.all([
    db
      .selectFrom('analyticsReach')
      .select((eb) => ['second', eb.fn.sum<number | string>('delta').as('delta')])
      .where('pageId', '=', pageId)
      .where('day', 'in', days)
      .where('prevDay', '<', range.from)
      .groupBy('second')
      .execute(),
    db
      .selectFrom('analyticsViews')
      .select((eb) => ['second', eb.fn.sum<number | string>('delta').as('delta')])
      .where('pageId', '=', pageId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy('second')
      .execute(),
    db
      .selectFrom('analyticsPageDays')
      .selectAll()
      .where('pageId', '=', pageId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .execute(),
    db
      .selectFrom('analyticsPageLeads')
      .select(['kind', 'day', 'prevDay', 'leads'])
      .where('pageId', '=', pageId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .where('prevDay', '<', range.from)
      .execute(),
    db
      .selectFrom('analyticsFurthest')
      .select((eb) => [
        'furthestSecond',
        eb.fn.sum<number | string>('leads').as('leads'),
        eb.fn.sum<number | string>('converted').as('converted'),
      ])
      .where('pageId', '=', pageId)
      .where('firstPlayDay', '>=', range.from)
      .where('firstPlayDay', '<=', range.to)
      .groupBy('furthestSecond')
      .execute(),
    db.selectFrom('analyticsPageMeta').selectAll().where('pageId', '=', pageId).executeTakeFirst(),
  ]);
  const n = Number;
  // Added up in SQL over the range's days (one row per second, not per second and day): as rows of
  // its first day, whose previous day is before it, which is what the answer keeps of them.
  const first = range.from;
  return {
    reach: reach.map((r) => reachRow(pageId, first, first - 1, n(r.second), n(r.delta))),
    views: views.map((r) => viewsRow(pageId, first, n(r.second), n(r.delta))),
    pageDays: pageDays.map((r) =>
      pageDayRow(pageId, n(r.day), {
        sessions: n(r.sessions),
        plays: n(r.plays),
        secondsPlayed: n(r.secondsPlayed),
        clicks: n(r.clicks),
        conversions: n(r.conversions),
      }),
    ),
    pageLeads: pageLeads.map((r) =>
      pageLeadsRow(pageId, r.kind as PageLeadKind, n(r.day), n(r.prevDay), n(r.leads)),
    ),
    furthest: furthest.map((r) =>
      furthestRow(pageId, first, n(r.furthestSecond), n(r.leads), n(r.converted)),
    ),
    pageMeta: meta && pageMetaRow(pageId, n(meta.maxDuration), n(meta.maxPlayedSecond)),
  };
}
