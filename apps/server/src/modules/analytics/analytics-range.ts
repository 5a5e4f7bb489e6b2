import { MAX_ANALYTICS_DAYS, type AnalyticsRange } from '@embudo/contracts';
import { dayOfText, zoneDay } from '../../lib/zone-days';
import type { DayRange } from './analytics-types';

/** The days an answer covers when the owner names none: the last 30, today included. */
export const DEFAULT_RANGE_DAYS = 30;

/**
 * The days of `?from=&to=` in the account's time zone (`today` is the zone's day now): both given,
 * as given (the contract checks their order and length); only `from`, up to today (at most the
 * longest range); only `to`, the 30 days up to it; neither, the last 30 days. Today is worked out only
 * when needed: a dashboard polling a range it names asks for none (bench row 9).
 */
export function resolveRange(query: AnalyticsRange, timeZone: string, now: () => number): DayRange {
  if (query.from !== undefined && query.to !== undefined) {
    return { from: dayOfText(query.from), to: dayOfText(query.to) };
  }
  const today = zoneDay(timeZone, now());
  if (query.from !== undefined) {
    const from = dayOfText(query.from);
    return { from, to: Math.max(from, Math.min(today, from + MAX_ANALYTICS_DAYS - 1)) };
  }
  const to = query.to === undefined ? today : dayOfText(query.to);
  return { from: to - DEFAULT_RANGE_DAYS + 1, to };
}
