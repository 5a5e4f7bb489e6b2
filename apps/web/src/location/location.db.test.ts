import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCATION_CACHE_KEY, TIMING } from '@embudo/contracts/runtime';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fallbackRecord, lookupLocation, toRecord, type LocationDeps, type LocationRecord } from './location';
import { ANSWER, NOW } from './location.fixtures';

const DAY = TIMING.locationCacheTtl;

/** A Storage in memory, counting writes. */
class MemoryStorage implements Pick<Storage, 'getItem' | 'setItem'> {
  readonly items = new Map<string, string>();
  writes = 0;
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.writes += 1;
    this.items.set(key, value);
  }
}

/** Storage as private browsing modes offer it: every access throws. */
class ThrowingStorage implements Pick<Storage, 'getItem' | 'setItem'> {
  getItem(): string | null {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  }
  setItem(): void {
    throw new DOMException('Quota exceeded', 'QuotaExceededError');
  }
}

type Mode = 'ok' | 'error' | 'hang' | 'invalid-json' | 'not-a-location';

/** A real HTTP server that answers like GET /api/geo, in the mode the test sets. */
let server: Server;
let base: string;
let mode: Mode = 'ok';
let requests: string[] = [];
const hanging: ServerResponse[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
  switch (mode) {
    case 'ok':
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
      return;
    case 'error':
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"internal error"}');
      return;
    case 'hang':
      hanging.push(res);
      return;
    case 'invalid-json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ip": "203.0.113.7",');
      return;
    case 'not-a-location':
      res.writeHead(200, { 'content-type': 'application/json' }).end('[1, 2, 3]');
      return;
  }
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
});

beforeEach(() => {
  mode = 'ok';
  requests = [];
});

/** fetch with relative addresses resolved against the test server, as a browser resolves them. */
const boundFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return fetch(new URL(url, base), init);
};

function setup(overrides: Partial<LocationDeps> = {}) {
  const storage = new MemoryStorage();
  const warn = vi.fn<LocationDeps['warn']>();
  const deps: LocationDeps = { fetch: boundFetch, storage, now: () => NOW, warn, ...overrides };
  return { storage, warn, deps };
}

function stored(storage: MemoryStorage): unknown {
  const text = storage.items.get(LOCATION_CACHE_KEY);
  return text === undefined ? undefined : JSON.parse(text);
}

const recordAt = (timestamp: number): LocationRecord => toRecord(ANSWER, timestamp);

describe('lookupLocation', () => {
  it('uses a fresh cache entry without a request', async () => {
    const { storage, warn, deps } = setup();
    const cached = recordAt(NOW - DAY + 1);
    storage.items.set(LOCATION_CACHE_KEY, JSON.stringify(cached));

    const result = await lookupLocation(deps);

    expect(result).toEqual({ record: cached, source: 'cache' });
    expect(requests).toEqual([]);
    expect(storage.writes).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });

  it('asks again once the entry is 24 h + 1 ms old, and rewrites the cache', async () => {
    const { storage, warn, deps } = setup();
    const old = recordAt(NOW - DAY - 1);
    storage.items.set(
      LOCATION_CACHE_KEY,
      JSON.stringify({ ...old, location: { ...old.location, city: 'Old' } }),
    );

    const result = await lookupLocation(deps);

    expect(requests).toEqual(['GET /api/geo']);
    expect(result).toEqual({ record: recordAt(NOW), source: 'network' });
    expect(stored(storage)).toEqual(recordAt(NOW));
    expect(warn).not.toHaveBeenCalled();
  });

  it('treats an entry of exactly 24 h as stale', async () => {
    const { storage, deps } = setup();
    storage.items.set(LOCATION_CACHE_KEY, JSON.stringify(recordAt(NOW - DAY)));
    expect((await lookupLocation(deps)).source).toBe('network');
    expect(requests).toHaveLength(1);
  });

  it('asks and caches when there is no entry', async () => {
    const { storage, deps } = setup();

    const result = await lookupLocation(deps);

    expect(requests).toEqual(['GET /api/geo']);
    expect(result.source).toBe('network');
    expect(stored(storage)).toEqual(result.record);
    expect(storage.writes).toBe(1);

    // The next page view within the day is served from the cache.
    expect(await lookupLocation({ ...deps, now: () => NOW + 60_000 })).toEqual({
      record: result.record,
      source: 'cache',
    });
    expect(requests).toHaveLength(1);
  });

  it('asks the given url', async () => {
    const { deps } = setup({ url: '/geo?x=1' });
    await lookupLocation(deps);
    expect(requests).toEqual(['GET /geo?x=1']);
  });

  it('falls back on a 500, warns, and leaves the cache as it was', async () => {
    mode = 'error';
    const { storage, warn, deps } = setup();
    const staleText = JSON.stringify(recordAt(NOW - 2 * DAY));
    storage.items.set(LOCATION_CACHE_KEY, staleText);

    const result = await lookupLocation(deps);

    expect(result).toEqual({ record: fallbackRecord(NOW), source: 'fallback' });
    expect(requests).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toBeInstanceOf(Error);
    expect(storage.writes).toBe(0);
    expect(storage.items.get(LOCATION_CACHE_KEY)).toBe(staleText);
  });

  it('falls back when the server does not answer in time, and caches nothing', async () => {
    mode = 'hang';
    const { storage, warn, deps } = setup({ timeoutMs: 100 });

    const result = await lookupLocation(deps);

    expect(result).toEqual({ record: fallbackRecord(NOW), source: 'fallback' });
    expect(requests).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(storage.writes).toBe(0);
    expect(storage.items.has(LOCATION_CACHE_KEY)).toBe(false);
  });

  it('falls back on an answer that is not JSON or not a location, and caches nothing', async () => {
    for (const answer of ['invalid-json', 'not-a-location'] as const) {
      mode = answer;
      const { storage, warn, deps } = setup();
      const result = await lookupLocation(deps);
      expect(result.source, answer).toBe('fallback');
      expect(warn, answer).toHaveBeenCalledTimes(1);
      expect(storage.writes, answer).toBe(0);
    }
    expect(requests).toHaveLength(2);
  });

  it('falls back when fetch itself throws', async () => {
    const failing: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const { storage, warn, deps } = setup({ fetch: failing });
    const result = await lookupLocation(deps);
    expect(result).toEqual({ record: fallbackRecord(NOW), source: 'fallback' });
    expect(warn).toHaveBeenCalledWith('location lookup failed', expect.any(TypeError));
    expect(storage.writes).toBe(0);
  });

  it.each([
    ['not JSON', '{"timestamp": 1'],
    ['not a record', JSON.stringify({ timestamp: NOW, ip: '203.0.113.7' })],
    [
      'a record with a text coordinate',
      JSON.stringify({ ...recordAt(NOW), location: { ...recordAt(NOW).location, latitude: '1' } }),
    ],
    ['null', 'null'],
  ])('warns about a cache entry that is %s, ignores it and asks', async (_case, text) => {
    const { storage, warn, deps } = setup();
    storage.items.set(LOCATION_CACHE_KEY, text);

    const result = await lookupLocation(deps);

    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('bad location cache');
    expect(requests).toEqual(['GET /api/geo']);
    expect(result.source).toBe('network');
    expect(stored(storage)).toEqual(recordAt(NOW));
  });

  it('does not trust an entry dated in the future', async () => {
    const { storage, deps } = setup();
    storage.items.set(LOCATION_CACHE_KEY, JSON.stringify(recordAt(NOW + 60_000)));
    expect((await lookupLocation(deps)).source).toBe('network');
  });

  it('works with storage that throws, as if there were none', async () => {
    const { warn, deps } = setup({ storage: new ThrowingStorage() });

    expect(await lookupLocation(deps)).toEqual({ record: recordAt(NOW), source: 'network' });
    expect(await lookupLocation(deps)).toEqual({ record: recordAt(NOW), source: 'network' });
    expect(requests).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
  });

  it('works without storage', async () => {
    const { deps } = setup({ storage: null });
    expect((await lookupLocation(deps)).source).toBe('network');
    mode = 'error';
    expect((await lookupLocation(deps)).source).toBe('fallback');
  });
});
