import type { GeoAnswer } from '@embudo/contracts';
import { describe, expect, it } from 'vitest';
import { fallbackRecord, isLocationRecord, toRecord, toVisitorLocation } from './location';
import { ANSWER, NOW } from './location.fixtures';

describe('toRecord', () => {
  it('maps every field of the geolocation answer', () => {
    expect(toRecord(ANSWER, NOW)).toEqual({
      timestamp: NOW,
      ip: '203.0.113.7',
      location: {
        country: 'Spain',
        countryCode: 'ES',
        region: 'Madrid',
        regionCode: 'MD',
        city: 'Madrid',
        postalCode: '28001',
        latitude: 40.4168,
        longitude: -3.7038,
      },
      context: {
        timezone: 'Europe/Madrid',
        currency: 'EUR',
        language: 'es',
        isp: 'Example Telecom',
        callingCode: '+34',
      },
    });
  });

  it('takes country when country_name is missing or blank', () => {
    expect(toRecord({ ...ANSWER, country_name: '' }, NOW).location.country).toBe('ES');
    const { country_name: _dropped, ...withoutName } = ANSWER;
    expect(toRecord(withoutName as GeoAnswer, NOW).location.country).toBe('ES');
  });

  it('reads missing or odd fields as unknown and 0', () => {
    const sparse = { ip: '198.51.100.1', languages: [], latitude: 'x' } as unknown as GeoAnswer;
    const record = toRecord(sparse, NOW);
    expect(record.ip).toBe('198.51.100.1');
    expect(record.context.language).toBe('unknown');
    expect(record.location).toEqual({ ...fallbackRecord(NOW).location });
    expect(isLocationRecord(record)).toBe(true);
  });

  it('gives the lookup result of ip and location', () => {
    const record = toRecord(ANSWER, NOW);
    expect(toVisitorLocation(record)).toEqual({ ip: '203.0.113.7', location: record.location });
  });
});

describe('fallbackRecord', () => {
  it('sets every text field to unknown and the coordinates to 0', () => {
    expect(fallbackRecord(NOW)).toEqual({
      timestamp: NOW,
      ip: 'unknown',
      location: {
        country: 'unknown',
        countryCode: 'unknown',
        region: 'unknown',
        regionCode: 'unknown',
        city: 'unknown',
        postalCode: 'unknown',
        latitude: 0,
        longitude: 0,
      },
      context: {
        timezone: 'unknown',
        currency: 'unknown',
        language: 'unknown',
        isp: 'unknown',
        callingCode: 'unknown',
      },
    });
    expect(isLocationRecord(fallbackRecord(NOW))).toBe(true);
  });
});
