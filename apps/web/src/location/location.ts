import type { GeoAnswer } from '@embudo/contracts';
import { LOCATION_CACHE_KEY, TIMING } from '@embudo/contracts/runtime';
import { callRoute, request, VISITOR_ROUTE_PATHS, type CallOptions } from '../api/http-client';
import { readItem, writeItem } from '../lib/browser-storage';

/** The value of every text field nobody could tell (visitor-behaviour §3). */
const UNKNOWN = 'unknown';

/** Where the visitor is, as the location cache and the landing request carry it (visitor-behaviour §3). */
export interface LocationFields {
  country: string;
  countryCode: string;
  region: string;
  regionCode: string;
  city: string;
  postalCode: string;
  latitude: number;
  longitude: number;
}

/** What else the lookup tells about the visitor's surroundings (visitor-behaviour §3). */
export interface LocationContext {
  timezone: string;
  currency: string;
  language: string;
  isp: string;
  callingCode: string;
}

/** The cached IP/location record of visitor-behaviour §3, stored under `ip_location_data`. */
export interface LocationRecord {
  /** When the record was looked up, epoch milliseconds. */
  timestamp: number;
  ip: string;
  location: LocationFields;
  context: LocationContext;
}

/** The visitor location lookup result of visitor-behaviour §3. */
export interface VisitorLocation {
  ip: string;
  location: LocationFields;
}

export type LocationSource = 'cache' | 'network' | 'fallback';

export interface LocationLookup {
  record: LocationRecord;
  source: LocationSource;
}

export interface LocationDeps {
  fetch: typeof fetch;
  /** The browser's localStorage, or null where there is none. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now: () => number;
  warn: (message: string, error?: unknown) => void;
  /** Where the geolocation answer comes from; our own server's GET /api/geo by default (architecture §5.6). */
  url?: string;
  timeoutMs?: number;
}

const TEXT_FIELDS = ['country', 'countryCode', 'region', 'regionCode', 'city', 'postalCode'] as const;
const CONTEXT_FIELDS = ['timezone', 'currency', 'language', 'isp', 'callingCode'] as const;

/** A text field of the answer: trimmed, or 'unknown' when missing or blank. */
function text(value: unknown): string {
  if (typeof value !== 'string') return UNKNOWN;
  const trimmed = value.trim();
  return trimmed === '' ? UNKNOWN : trimmed;
}

/** A coordinate of the answer: a finite number, or 0. */
function coordinate(value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : 0;
}

function firstLanguage(languages: unknown): unknown {
  if (!Array.isArray(languages)) return undefined;
  const first: unknown = languages[0];
  return typeof first === 'object' && first !== null ? (first as { code?: unknown }).code : undefined;
}

/**
 * The record of a geolocation answer (visitor-behaviour §7 format). Tolerant: a missing or odd field reads as
 * 'unknown' (text) or 0 (coordinate), so a third-party answer that leaves something out still maps.
 */
export function toRecord(answer: GeoAnswer, now: number): LocationRecord {
  // Read through `unknown`: the answer comes off the wire and was only checked to be an object.
  const a = answer as Partial<Record<keyof GeoAnswer, unknown>>;
  const countryName = text(a.country_name);
  return {
    timestamp: now,
    ip: text(a.ip),
    location: {
      country: countryName === UNKNOWN ? text(a.country) : countryName,
      countryCode: text(a.country_code),
      region: text(a.region),
      regionCode: text(a.region_code),
      city: text(a.city),
      postalCode: text(a.postal),
      latitude: coordinate(a.latitude),
      longitude: coordinate(a.longitude),
    },
    context: {
      timezone: text(a.timezone),
      currency: text(a.currency),
      language: text(firstLanguage(a.languages)),
      isp: text(a.org),
      callingCode: text(a.calling_code),
    },
  };
}

/** The spec's fallback record: every text field 'unknown', coordinates 0. Never cached. */
export function fallbackRecord(now: number): LocationRecord {
  return {
    timestamp: now,
    ip: UNKNOWN,
    location: {
      country: UNKNOWN,
      countryCode: UNKNOWN,
      region: UNKNOWN,
      regionCode: UNKNOWN,
      city: UNKNOWN,
      postalCode: UNKNOWN,
      latitude: 0,
      longitude: 0,
    },
    context: {
      timezone: UNKNOWN,
      currency: UNKNOWN,
      language: UNKNOWN,
      isp: UNKNOWN,
      callingCode: UNKNOWN,
    },
  };
}

/** The lookup result of visitor-behaviour §3 out of a record. */
export function toVisitorLocation(record: LocationRecord): VisitorLocation {
  return { ip: record.ip, location: record.location };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a parsed cache entry has the shape of a LocationRecord (checked by hand: no zod in the bundle). */
export function isLocationRecord(value: unknown): value is LocationRecord {
  if (!isObject(value)) return false;
  const { timestamp, ip, location, context } = value;
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return false;
  if (typeof ip !== 'string' || !isObject(location) || !isObject(context)) return false;
  if (!TEXT_FIELDS.every((field) => typeof location[field] === 'string')) return false;
  if (!CONTEXT_FIELDS.every((field) => typeof context[field] === 'string')) return false;
  const { latitude, longitude } = location;
  return (
    typeof latitude === 'number' &&
    Number.isFinite(latitude) &&
    typeof longitude === 'number' &&
    Number.isFinite(longitude)
  );
}

/** The cached record, or null when there is none or it cannot be used (a bad one is reported). */
function readCache(deps: LocationDeps): LocationRecord | null {
  // Storage that throws (private mode, blocked cookies) reads as absent.
  const stored = readItem(deps.storage, LOCATION_CACHE_KEY);
  if (stored === null) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (isLocationRecord(value)) return value;
    deps.warn('bad location cache');
  } catch (error) {
    deps.warn('bad location cache', error);
  }
  return null;
}

/** GET the geolocation answer by the API client: past the timeout (the body read included) it fails. */
async function fetchRecord(deps: LocationDeps): Promise<LocationRecord> {
  const options: CallOptions = {
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs ?? TIMING.locationLookupTimeout,
  };
  const body: unknown =
    deps.url === undefined
      ? await callRoute(VISITOR_ROUTE_PATHS.geo.lookup, {}, options)
      : await request('GET', deps.url, undefined, options);
  if (!isObject(body) || typeof body.ip !== 'string') {
    throw new Error('location lookup answered something that is not a location');
  }
  return toRecord(body as GeoAnswer, deps.now());
}

/**
 * The visitor's location (visitor-behaviour §4.2): a cached record younger than 24 hours is used as is; otherwise
 * the lookup is asked and its record cached. When the lookup fails (non-OK, timeout, exception) the
 * failure is logged and the unknown-valued fallback returned, not cached. Never rejects.
 */
export async function lookupLocation(deps: LocationDeps): Promise<LocationLookup> {
  const cached = readCache(deps);
  if (cached !== null) {
    const age = deps.now() - cached.timestamp;
    // A record from the future (a clock set back) is not trusted as fresh.
    if (age >= 0 && age < TIMING.locationCacheTtl) return { record: cached, source: 'cache' };
  }
  try {
    const record = await fetchRecord(deps);
    // Full or blocked storage: the next page view looks the location up again.
    writeItem(deps.storage, LOCATION_CACHE_KEY, JSON.stringify(record));
    return { record, source: 'network' };
  } catch (error) {
    deps.warn('location lookup failed', error);
    return { record: fallbackRecord(deps.now()), source: 'fallback' };
  }
}
