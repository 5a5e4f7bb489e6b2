/**
 * Calendar days of a time zone as day numbers (days since 1970-01-01): analytics counts by the
 * account's days (decision 25). Intl knows every IANA zone and its daylight-saving rules.
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The day number of `ms` (a server time) in `timeZone`. */
export function zoneDay(timeZone: string, ms: number): number {
  let year = 0;
  let month = 0;
  let day = 0;
  let beforeCommonEra = false;
  for (const part of formatterOf(timeZone).formatToParts(ms)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'era') beforeCommonEra = part.value.startsWith('B');
  }
  const fullYear = beforeCommonEra ? 1 - year : year;
  const date = new Date(0);
  date.setUTCFullYear(fullYear, month - 1, day);
  return Math.round(date.getTime() / DAY_MS);
}

/** `zoneDay` for one zone: what the rollups take as `dayOf`. */
export const dayOfZone =
  (timeZone: string) =>
  (ms: number): number =>
    zoneDay(timeZone, ms);

/** A day number as `YYYY-MM-DD`, and back. */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const dayOfText = (text: string): number => Math.round(Date.parse(`${text}T00:00:00Z`) / DAY_MS);
