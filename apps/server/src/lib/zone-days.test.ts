import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayOfText, dayText, zoneDay } from './zone-days';

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

  it('writes and reads day numbers as YYYY-MM-DD', () => {
    expect(dayText(0)).toBe('1970-01-01');
    // 56 years of 365 days, 14 leap days, and 328 days into 2026.
    expect(dayOfText('2026-11-25')).toBe(56 * 365 + 14 + 328);
    expect(dayText(dayOfText('2028-02-29'))).toBe('2028-02-29');
  });
});
