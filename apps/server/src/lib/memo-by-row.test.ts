import { describe, expect, it } from 'vitest';
import { BoundedCache, ENTRY_OVERHEAD_BYTES, memoById, textBytes } from './memo-by-row';

interface Row {
  id: string;
  version: number;
  content: string;
}

/** A memo of JSON.parse over rows, counting its conversions. */
function parser(maxBytes = 1_000_000) {
  let calls = 0;
  const parse = memoById(
    (row: Row) => {
      calls += 1;
      if (row.content === 'bad') throw new Error('bad row');
      return JSON.parse(row.content) as unknown;
    },
    { id: (row) => row.id, version: (row) => row.version, bytes: (row) => textBytes(row.content), maxBytes },
  );
  return { parse, calls: () => calls };
}

describe('memoById', () => {
  it('converts a row once per id and version: an unchanged row is not converted again, a changed one is', () => {
    const { parse, calls } = parser();
    const first = parse({ id: 'p1', version: 1, content: '{"headline":"A"}' });
    expect(parse({ id: 'p1', version: 1, content: '{"headline":"A"}' })).toBe(first);
    expect(calls()).toBe(1);
    expect(parse({ id: 'p1', version: 2, content: '{"headline":"B"}' })).toEqual({ headline: 'B' });
    expect(parse({ id: 'p2', version: 2, content: '{"headline":"A"}' })).toEqual({ headline: 'A' });
    expect(calls()).toBe(3);
    expect(parse({ id: 'p1', version: 2, content: '{"headline":"B"}' })).toEqual({ headline: 'B' });
    expect(calls()).toBe(3);
  });

  it('keeps one version of a row, however often it changes: re-saving a large row does not grow it', () => {
    const { parse } = parser(10_000_000);
    const big = (n: number) =>
      JSON.stringify({ headline: `${String(n).padStart(3, '0')}${'中'.repeat(20_000)}` });
    parse({ id: 'p1', version: 0, content: big(0) });
    const one = parse.cache.bytes;
    for (let version = 1; version <= 200; version += 1) parse({ id: 'p1', version, content: big(version) });
    expect(parse.cache.size).toBe(1);
    expect(parse.cache.bytes).toBe(one);
  });

  it('remembers no failure', () => {
    const { parse, calls } = parser();
    expect(() => parse({ id: 'x', version: 1, content: 'bad' })).toThrow('bad row');
    expect(() => parse({ id: 'x', version: 1, content: 'bad' })).toThrow('bad row');
    expect(calls()).toBe(2);
    expect(parse.cache.size).toBe(0);
  });

  it('holds no more bytes than its budget: the least recently used rows go first', () => {
    const row = (id: string) => ({ id, version: 1, content: JSON.stringify('x'.repeat(1000)) });
    const each = textBytes(row('a').content);
    const { parse, calls } = parser(3 * each);
    for (const id of ['a', 'b', 'c']) parse(row(id));
    parse(row('a'));
    parse(row('d'));
    expect(parse.cache.bytes).toBe(3 * each);
    expect(calls()).toBe(4);
    // b was the least recently used: it was dropped, and is converted again; a, c and d were kept.
    for (const id of ['a', 'c', 'd']) parse(row(id));
    expect(calls()).toBe(4);
    parse(row('b'));
    expect(calls()).toBe(5);
  });
});

describe('BoundedCache', () => {
  it('answers only at the version an entry was stored with, and drops an entry found at another', () => {
    const cache = new BoundedCache<string>(10_000);
    cache.set('f1', 7, 'seven', 100);
    expect(cache.get('f1', 7)).toBe('seven');
    expect(cache.get('f1', 8)).toBeUndefined();
    expect(cache.get('f1', 7)).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it('evicts by bytes, not by count, and never keeps an entry larger than the whole budget', () => {
    const cache = new BoundedCache<number>(1000);
    for (let i = 0; i < 100; i += 1) cache.set(`k${i}`, 1, i, 10);
    expect([cache.size, cache.bytes]).toEqual([100, 1000]);
    cache.set('big', 1, -1, 600);
    expect(cache.bytes).toBeLessThanOrEqual(1000);
    expect(cache.size).toBe(41);
    expect(cache.get('k59', 1)).toBeUndefined();
    expect(cache.get('k60', 1)).toBe(60);
    cache.set('huge', 1, -2, 1001);
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.bytes).toBeLessThanOrEqual(1000);
  });

  it('replaces what a key held, and counts only the replacement', () => {
    const cache = new BoundedCache<string>(1000);
    cache.set('f1', 1, 'one', 400);
    cache.set('f1', 2, 'two', 300);
    expect([cache.size, cache.bytes, cache.get('f1', 2)]).toEqual([1, 300, 'two']);
    cache.set('f1', 3, 'too big', 2000);
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it('a budget of 0 keeps nothing', () => {
    const cache = new BoundedCache<string>(0);
    cache.set('f1', 1, 'one', ENTRY_OVERHEAD_BYTES);
    expect(cache.get('f1', 1)).toBeUndefined();
  });
});

describe('textBytes', () => {
  it('counts two bytes a character and an entry’s overhead, null as nothing', () => {
    expect(textBytes('abc', null, '中文')).toBe(ENTRY_OVERHEAD_BYTES + 10);
  });
});
