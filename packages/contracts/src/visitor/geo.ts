import { z } from 'zod';

/** GET /api/geo: the visitor's location, in the geolocation answer format of visitor-behaviour §7. */
export const GeoAnswer = z.object({
  ip: z.string(),
  country_name: z.string(),
  country: z.string(),
  country_code: z.string(),
  region: z.string(),
  region_code: z.string(),
  city: z.string(),
  postal: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  currency: z.string(),
  languages: z.array(z.object({ code: z.string() })),
  org: z.string(),
  calling_code: z.string(),
});
export type GeoAnswer = z.infer<typeof GeoAnswer>;

export const UNKNOWN = 'unknown';
