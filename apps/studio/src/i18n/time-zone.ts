import { TimeZone } from '@embudo/contracts';

/** The browser's IANA time zone, if it names one the contracts accept. */
export function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return TimeZone.safeParse(zone).success ? zone : undefined;
}

/** Every time zone this browser knows, `UTC` first, and `current` even if the browser does not list it. */
export function timeZoneNames(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...new Set([current, ...known].filter((zone) => zone !== 'UTC'))];
}

/** "America/Sao_Paulo" as "America/Sao Paulo (GMT-3)": the offset as of now, from Intl. */
export function timeZoneLabel(zone: string, now = new Date()): string {
  if (zone === 'UTC') return zone;
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
    .formatToParts(now)
    .find((part) => part.type === 'timeZoneName')?.value;
  const name = zone.replaceAll('_', ' ');
  return offset === undefined ? name : `${name} (${offset})`;
}
