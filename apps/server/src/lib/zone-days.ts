/**
 * Calendar days of a time zone as day numbers (days since 1970-01-01): analytics counts by the
 * account's days (decision 25). Intl knows every IANA zone and its daylight-saving rules.
 */

const DAY_MS = 86_400_000;
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClockOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClocks.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    wallClocks.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at `ms` (its wall clock minus UTC), in ms: tzdb offsets are whole seconds. */
export function zoneOffset(timeZone: string, ms: number): number {
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let beforeCommonEra = false;
  for (const part of wallClockOf(timeZone).formatToParts(ms)) {
    if (part.type === 'era') beforeCommonEra = part.value.startsWith('B');
    else if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  const wall = new Date(0);
  wall.setUTCFullYear(beforeCommonEra ? 1 - fields.year : fields.year, fields.month - 1, fields.day);
  wall.setUTCHours(fields.hour, fields.minute, fields.second, 0);
  return wall.getTime() - Math.floor(ms / 1000) * 1000;
}

/** The day number of `ms` (a server time) in `timeZone`. */
export function zoneDay(timeZone: string, ms: number): number {
  return Math.floor((ms + zoneOffset(timeZone, ms)) / DAY_MS);
}

const QUARTER_HOUR_MS = 900_000;
/** Quarter hours whose offset one `dayOfZone` keeps (42 days of them); past that it starts over. */
const KEPT_QUARTER_HOURS = 4096;

/**
 * `zoneDay` for one zone, what the rollups take as `dayOf`, called for every event: Intl is asked
 * once per quarter hour instead of once per call. A quarter hour (of UTC) whose first and last
 * millisecond have the same offset has it throughout, since tzdb has no two transitions within 15
 * minutes; one that holds a transition (a zone that changed at 00:01, as Newfoundland did until 2011,
 * or an offset of seconds) is worked out call by call, as `zoneDay` does.
 */
export function dayOfZone(timeZone: string): (ms: number) => number {
  const offsets = new Map<number, number | null>();
  return (ms) => {
    const quarter = Math.floor(ms / QUARTER_HOUR_MS);
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      const start = quarter * QUARTER_HOUR_MS;
      const first = zoneOffset(timeZone, start);
      offset = zoneOffset(timeZone, start + QUARTER_HOUR_MS - 1) === first ? first : null;
      if (offsets.size >= KEPT_QUARTER_HOURS) offsets.clear();
      offsets.set(quarter, offset);
    }
    return Math.floor((ms + (offset ?? zoneOffset(timeZone, ms))) / DAY_MS);
  };
}

/** A day number as `YYYY-MM-DD`, and back. */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const dayOfText = (text: string): number => Math.round(Date.parse(`${text}T00:00:00Z`) / DAY_MS);
