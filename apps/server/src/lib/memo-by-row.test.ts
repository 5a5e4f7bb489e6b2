import { describe, expect, it } from 'vitest';
import { memoByRow } from './memo-by-row';

describe('memoByRow', () => {
  it('converts a row once, and again whenever any of its values changed', () => {
    let calls = 0;
    const parse = memoByRow((row: { id: string; content: string }) => {
      calls += 1;
      return JSON.parse(row.content) as unknown;
    });
    const first = parse({ id: 'p1', content: '{"headline":"A"}' });
    expect(parse({ id: 'p1', content: '{"headline":"A"}' })).toBe(first);
    expect(calls).toBe(1);
    expect(parse({ id: 'p1', content: '{"headline":"B"}' })).toEqual({ headline: 'B' });
    expect(parse({ id: 'p2', content: '{"headline":"A"}' })).toEqual({ headline: 'A' });
    expect(calls).toBe(3);
  });

  it('tells apart rows whose values only run together differently, and null from the text null', () => {
    const parse = memoByRow((row: { a: string | null; b: string }) => `${row.a ?? '(none)'}|${row.b}`);
    expect(parse({ a: 'ab', b: '' })).toBe('ab|');
    expect(parse({ a: 'a', b: 'b' })).toBe('a|b');
    expect(parse({ a: null, b: '' })).toBe('(none)|');
    expect(parse({ a: 'null', b: '' })).toBe('null|');
  });

  it('remembers no failure, and forgets everything past its limit', () => {
    let calls = 0;
    const parse = memoByRow((row: { n: number }) => {
      calls += 1;
      if (row.n < 0) throw new Error('bad row');
      return row.n * 2;
    }, 2);
    expect(() => parse({ n: -1 })).toThrow('bad row');
    expect(() => parse({ n: -1 })).toThrow('bad row');
    expect([parse({ n: 1 }), parse({ n: 2 }), parse({ n: 3 }), parse({ n: 1 })]).toEqual([2, 4, 6, 2]);
    expect(calls).toBe(6);
  });
});
