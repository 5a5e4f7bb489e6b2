import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DEVICE_ID_KEY, VISIT_COUNTER_KEY, deviceId, recordVisit } from './visitor-storage';

/** A localStorage in memory. */
function memoryStorage(initial: Record<string, string> = {}): Storage {
  const items = new Map(Object.entries(initial));
  return {
    get length() {
      return items.size;
    },
    clear: () => {
      items.clear();
    },
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
}

/** localStorage as private browsing modes offer it: every access throws. */
function throwingStorage(): Storage {
  const fail = (): never => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  return {
    get length(): number {
      return fail();
    },
    clear: fail,
    getItem: fail,
    key: fail,
    removeItem: fail,
    setItem: fail,
  };
}

const NOW = Date.UTC(2025, 4, 20, 15, 30, 0);
const HOUR = 60 * 60 * 1000;

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the visit counter (visitor-behaviour §3, §4.3)', () => {
  it('calls the first visit NEW and the next ones RETURNING, counting 1, 2, 3', () => {
    const storage = memoryStorage();
    expect(recordVisit(storage, NOW)).toEqual({ count: 1, visitorType: 'NEW', lastVisit: null });
    expect(recordVisit(storage, NOW + HOUR)).toEqual({ count: 2, visitorType: 'RETURNING', lastVisit: NOW });
    expect(recordVisit(storage, NOW + 2 * HOUR)).toEqual({
      count: 3,
      visitorType: 'RETURNING',
      lastVisit: NOW + HOUR,
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps {count, lastVisit} as JSON under its key', () => {
    const storage = memoryStorage();
    recordVisit(storage, NOW);
    expect(JSON.parse(storage.getItem(VISIT_COUNTER_KEY) ?? 'null')).toEqual({ count: 1, lastVisit: NOW });
  });

  it('continues a counter stored by an earlier page load', () => {
    const storage = memoryStorage({
      [VISIT_COUNTER_KEY]: JSON.stringify({ count: 7, lastVisit: NOW - HOUR }),
    });
    expect(recordVisit(storage, NOW)).toEqual({ count: 8, visitorType: 'RETURNING', lastVisit: NOW - HOUR });
  });

  it.each([
    'not json',
    '{"count":"3"}',
    '{"count":-1,"lastVisit":1}',
    '{"count":2,"lastVisit":"yesterday"}',
    'null',
    '[2]',
  ])('treats the corrupted value %j as no visit, warns, and counts on from there', (corrupted) => {
    const storage = memoryStorage({ [VISIT_COUNTER_KEY]: corrupted });
    expect(recordVisit(storage, NOW)).toEqual({ count: 1, visitorType: 'NEW', lastVisit: null });
    expect(warn).toHaveBeenCalledOnce();
    expect(recordVisit(storage, NOW + HOUR)).toEqual({ count: 2, visitorType: 'RETURNING', lastVisit: NOW });
  });

  it('gives a NEW first visit without throwing when storage throws (private mode) or is missing', () => {
    expect(recordVisit(throwingStorage(), NOW)).toEqual({ count: 1, visitorType: 'NEW', lastVisit: null });
    expect(recordVisit(null, NOW)).toEqual({ count: 1, visitorType: 'NEW', lastVisit: null });
  });
});

describe('the device id (visitor-behaviour §9)', () => {
  it('is made once as device_ + timestamp + random string and stays the same afterwards', () => {
    const storage = memoryStorage();
    const first = deviceId(storage, NOW, () => 'k3x9q2');
    expect(first).toBe(`device_${NOW}_k3x9q2`);
    expect(storage.getItem(DEVICE_ID_KEY)).toBe(first);
    // A later page load, another clock and another random source: the same device.
    expect(deviceId(storage, NOW + HOUR, () => 'zzzzzz')).toBe(first);
    expect(deviceId(storage, NOW + 2 * HOUR)).toBe(first);
  });

  it('uses a random part of its own by default, different for two browsers', () => {
    const a = deviceId(memoryStorage(), NOW);
    const b = deviceId(memoryStorage(), NOW);
    expect(a).toMatch(new RegExp(`^device_${NOW}_[0-9a-f]{16}$`));
    expect(b).toMatch(/^device_\d+_[0-9a-f]{16}$/);
    expect(a).not.toBe(b);
  });

  it.each(['', 'abc', 'device_', 'device_123', 'device_abc_def', 'device_1700000000000_<script>'])(
    'replaces the stored value %j, which is not of that form',
    (stored) => {
      const storage = memoryStorage({ [DEVICE_ID_KEY]: stored });
      const id = deviceId(storage, NOW, () => 'fresh1');
      expect(id).toBe(`device_${NOW}_fresh1`);
      expect(storage.getItem(DEVICE_ID_KEY)).toBe(id);
      expect(warn).toHaveBeenCalledOnce();
    },
  );

  it('keeps a well-formed id stored earlier, as the server fixtures write it', () => {
    const storage = memoryStorage({ [DEVICE_ID_KEY]: 'device_1700000000000_abc123' });
    expect(deviceId(storage, NOW)).toBe('device_1700000000000_abc123');
  });

  it('still gives a well-formed id, without throwing, when storage throws or is missing', () => {
    expect(deviceId(throwingStorage(), NOW, () => 'priv8')).toBe(`device_${NOW}_priv8`);
    expect(deviceId(null, NOW)).toMatch(/^device_\d+_[0-9a-f]{16}$/);
  });
});
