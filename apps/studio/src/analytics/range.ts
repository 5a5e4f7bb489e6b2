import { z } from 'zod';

/** The date range's presets: today, the last 7 or 30 days up to today, or days chosen by hand. */
export const RANGE_PRESETS = ['today', '7d', '30d', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const Day = z.iso.date();

/** An analytics screen's address: the range (30 days when left out), typed and checked. */
export const RangeSearch = z.object({
  range: z.enum(RANGE_PRESETS).optional().catch(undefined),
  from: Day.optional().catch(undefined),
  to: Day.optional().catch(undefined),
});
export type RangeSearch = z.infer<typeof RangeSearch>;

export interface DayRange {
  from: string;
  to: string;
}

/** Today in a time zone, `YYYY-MM-DD`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A calendar day `days` later (earlier when negative). */
export function addDays(day: string, days: number): string {
  const time = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return new Date(time).toISOString().slice(0, 10);
}

/** How many days a range covers, both ends included. */
export function daysIn({ from, to }: DayRange): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The preset the address names; a custom range without both days is the default (30 days). */
export function presetOf(search: RangeSearch): RangePreset {
  if (search.range === 'custom') return search.from && search.to ? 'custom' : '30d';
  return search.range ?? '30d';
}

/**
 * The days a screen asks for: the custom days as given (in order), else the preset counted back from
 * today in the account's time zone.
 */
export function resolveRange(search: RangeSearch, today: string): DayRange {
  const preset = presetOf(search);
  if (preset === 'custom' && search.from && search.to)
    return search.from <= search.to
      ? { from: search.from, to: search.to }
      : { from: search.to, to: search.from };
  const back = preset === 'today' ? 0 : preset === '7d' ? 6 : 29;
  return { from: addDays(today, -back), to: today };
}

/** Seconds as m:ss (h:mm:ss from an hour). */
export function clock(totalSeconds: number): string {
  const whole = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** Consecutive seconds with the same reach and views, as one run: what the chart draws, in words. */
export interface RetentionRun {
  from: number;
  to: number;
  reach: number;
  views: number;
}

export function retentionRuns(reach: readonly number[], views: readonly number[]): RetentionRun[] {
  const runs: RetentionRun[] = [];
  reach.forEach((r, second) => {
    const v = views[second] ?? 0;
    const last = runs[runs.length - 1];
    if (last && last.reach === r && last.views === v && last.to === second - 1) last.to = second;
    else runs.push({ from: second, to: second, reach: r, views: v });
  });
  return runs;
}
