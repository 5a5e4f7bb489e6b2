import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayOfText, dayOfZone, dayText, zoneDay, zoneOffset } from './zone-days';

const at = (iso: string) => Date.parse(iso);

describe('zoneDay', () => {
  it("is the zone's calendar day, daylight saving and midnight included", () => {
    // 02:00 UTC is still the evening before in São Paulo (UTC−3).
    expect(dayText(zoneDay('America/Sao_Paulo', at('2026-11-25T02:00:00Z')))).toBe('2026-11-24');
    expect(dayText(zoneDay('America/Sao_Paulo', at('2026-11-25T03:00:00Z')))).toBe('2026-11-25');
    // Madrid moves to summer time on 2026-03-29 at 01:00 UTC: 22:30 UTC that day is 00:30 the next.
    expect(dayText(zoneDay('Europe/Madrid', at('2026-03-29T22:30:00Z')))).toBe('2026-03-30');
    expect(dayText(zoneDay('Europe/Madrid', at('2026-01-10T22:30:00Z')))).toBe('2026-01-10');
    expect(dayText(zoneDay('Asia/Kolkata', at('2026-06-30T18:30:00Z')))).toBe('2026-07-01');
    expect(dayText(zoneDay('UTC', at('2026-12-31T23:59:59.999Z')))).toBe('2026-12-31');
  });

  it('agrees with UTC arithmetic in UTC, and with the zone offset where there is no daylight saving', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(zoneDay('UTC', ms)).toBe(Math.floor(ms / 86_400_000));
      }),
      { numRuns: 2000 },
    );
    // Colombia last kept summer time in 1992–93 (which Intl knows): UTC−5 all year since.
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1994, 0, 1), max: 4_102_444_800_000 }), (ms) => {
        expect(zoneDay('America/Bogota', ms)).toBe(Math.floor((ms - 5 * 3_600_000) / 86_400_000));
      }),
      { numRuns: 2000 },
    );
    expect(dayText(zoneDay('America/Bogota', Date.UTC(1992, 4, 4, 4, 30)))).toBe('1992-05-04');
  });

  it("reads a zone's offset from its wall clock, daylight saving and offsets of seconds included", () => {
    expect(zoneOffset('America/Sao_Paulo', at('2026-11-25T12:00:00Z'))).toBe(-3 * 3_600_000);
    expect(zoneOffset('Europe/Madrid', at('2026-07-01T12:00:00.999Z'))).toBe(2 * 3_600_000);
    expect(zoneOffset('Asia/Kathmandu', at('2026-01-01T00:00:00Z'))).toBe((5 * 60 + 45) * 60_000);
    // Liberia kept −0:44:30 until 1972.
    expect(zoneOffset('Africa/Monrovia', at('1960-01-01T00:00:00Z'))).toBe(-(44 * 60 + 30) * 1000);
  });
});

/** Zones whose days are easy to get wrong: daylight saving, half hours, transitions off the quarter hour. */
const ZONES = [
  'America/Sao_Paulo',
  'America/St_Johns',
  'America/Mexico_City',
  'Europe/Madrid',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Africa/Monrovia',
  'Pacific/Apia',
  'UTC',
];

/** Instants where a day changes oddly: a fall back across midnight, at 00:01, a skipped day. */
const EDGES = [
  // São Paulo's summer time ended at midnight: 00:00 became 23:00 of the day before.
  '2018-02-18T02:00:00Z',
  // Newfoundland fell back at 00:01 until 2011: a minute of the next day, then the evening again.
  '2006-10-29T02:31:00Z',
  '2010-11-07T02:31:00Z',
  // Samoa skipped 2011-12-30.
  '2011-12-30T10:00:00Z',
  '2026-03-29T01:00:00Z',
  '2026-10-04T15:00:00Z',
  '1941-10-01T00:00:00Z',
  '1972-01-07T00:44:30Z',
].map(at);

describe('dayOfZone', () => {
  it('gives what zoneDay gives for every instant, in any order of calls', () => {
    const near = fc
      .tuple(fc.constantFrom(...EDGES), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }))
      .map(([edge, shift]) => edge + shift);
    const anywhen = fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(fc.oneof(near, anywhen), { maxLength: 60 }),
        (zone, times) => {
          const dayOf = dayOfZone(zone);
          // Intl's own date in the zone, as YYYY-MM-DD (en-CA), is the reference both must give.
          const dateIn = new Intl.DateTimeFormat('en-CA', { timeZone: zone });
          for (const ms of times) {
            expect(zoneDay(zone, ms)).toBe(dayOfText(dateIn.format(ms)));
            expect(dayOf(ms)).toBe(zoneDay(zone, ms));
          }
        },
      ),
      { numRuns: 600 },
    );
  });

  it('counts every minute around a transition on the right day', () => {
    for (const zone of ['America/St_Johns', 'America/Sao_Paulo']) {
      const dayOf = dayOfZone(zone);
      for (const edge of EDGES.slice(0, 3))
        for (let ms = edge - 3_600_000; ms <= edge + 3_600_000; ms += 30_000)
          expect(dayOf(ms)).toBe(zoneDay(zone, ms));
    }
  });
});

describe('day numbers', () => {
  it('writes and reads day numbers as YYYY-MM-DD', () => {
    expect(dayText(0)).toBe('1970-01-01');
    // 56 years of 365 days, 14 leap days, and 328 days into 2026.
    expect(dayOfText('2026-11-25')).toBe(56 * 365 + 14 + 328);
    expect(dayText(dayOfText('2028-02-29'))).toBe('2028-02-29');
  });
});
