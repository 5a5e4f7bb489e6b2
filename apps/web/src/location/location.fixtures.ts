import type { GeoAnswer } from '@embudo/contracts';

/** A geolocation answer and a moment, for the location tests of both tiers. */
export const ANSWER: GeoAnswer = {
  ip: '203.0.113.7',
  country_name: 'Spain',
  country: 'ES',
  country_code: 'ES',
  region: 'Madrid',
  region_code: 'MD',
  city: 'Madrid',
  postal: '28001',
  latitude: 40.4168,
  longitude: -3.7038,
  timezone: 'Europe/Madrid',
  currency: 'EUR',
  languages: [{ code: 'es' }, { code: 'ca' }],
  org: 'Example Telecom',
  calling_code: '+34',
};

export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
