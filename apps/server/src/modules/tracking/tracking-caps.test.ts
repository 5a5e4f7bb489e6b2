import { describe, expect, it } from 'vitest';
import { COUNT_REFRESH_MS, admit, countScope, type Claim } from './tracking-caps';

/**
 * The counting behind the tracking caps (issue 16, item 4), on a stand-in for the database: a shared
 * count that a scope reads, and that settled writes add to. tracking-limits.api.test.ts shows the caps
 * on a real server and both databases.
 */

function world() {
  let clock = 1_000_000;
  const stored = new Map<string, number>();
  let reads = 0;
  /** One process's counts of a scope, reading the shared store after a pause, as a database would. */
  const process = () =>
    countScope(
      async (key) => {
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { events: stored.get(key) ?? 0 };
      },
      () => clock,
    );
  /** An event as the service sends it: admitted, then written (or failing), then settled. */
  async function send(scope: ReturnType<typeof process>, key: string, cap: number, fail = false) {
    const claim: Claim = { scope, key, kind: 'events', cap };
    const settle = await admit([claim]);
    if (!settle) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    if (fail) {
      settle(false);
      return false;
    }
    stored.set(key, (stored.get(key) ?? 0) + 1);
    settle(true);
    return true;
  }
  return {
    stored,
    process,
    send,
    reads: () => reads,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('tracking caps', () => {
  it('admit lets exactly the cap through when 500 events arrive at once', async () => {
    const w = world();
    const scope = w.process();
    const results = await Promise.all(Array.from({ length: 500 }, () => w.send(scope, 'session-1', 100)));
    expect(results.filter(Boolean)).toHaveLength(100);
    expect(w.stored.get('session-1')).toBe(100);
    // The database was read once for all of them.
    expect(w.reads()).toBe(1);
  });

  it('a seeded key counts from its seed without reading until its counts are old, and a held key is not seeded', async () => {
    const w = world();
    const scope = w.process();
    scope.seed('new-session', { events: 0 });
    const results = await Promise.all(Array.from({ length: 30 }, () => w.send(scope, 'new-session', 20)));
    expect(results.filter(Boolean)).toHaveLength(20);
    expect(w.reads()).toBe(0);
    // Seeding again (a start sent twice) does not forget what was admitted.
    scope.seed('new-session', { events: 0 });
    expect(await w.send(scope, 'new-session', 20)).toBe(false);
    // Once old, the counts are read: what the store holds.
    w.advance(COUNT_REFRESH_MS + 1);
    expect(await w.send(scope, 'new-session', 21)).toBe(true);
    expect(w.reads()).toBe(1);
    expect(w.stored.get('new-session')).toBe(21);
  });

  it('starts from what the store holds, and counts keys apart', async () => {
    const w = world();
    w.stored.set('a', 95);
    const scope = w.process();
    const a = await Promise.all(Array.from({ length: 20 }, () => w.send(scope, 'a', 100)));
    const b = await Promise.all(Array.from({ length: 20 }, () => w.send(scope, 'b', 100)));
    expect(a.filter(Boolean)).toHaveLength(5);
    expect(b.filter(Boolean)).toHaveLength(20);
  });

  it('a write that fails gives its place back', async () => {
    const w = world();
    const scope = w.process();
    expect(await Promise.all(Array.from({ length: 10 }, () => w.send(scope, 'k', 10, true)))).toEqual(
      Array.from({ length: 10 }, () => false),
    );
    const later = await Promise.all(Array.from({ length: 15 }, () => w.send(scope, 'k', 10)));
    expect(later.filter(Boolean)).toHaveLength(10);
    expect(w.stored.get('k')).toBe(10);
  });

  it('every claim must be below its cap: a lead’s cap stops a fresh session', async () => {
    const w = world();
    const sessions = w.process();
    const leads = w.process();
    w.stored.set('lead', 3);
    const claims = (session: string): Claim[] => [
      { scope: sessions, key: session, kind: 'events', cap: 100 },
      { scope: leads, key: 'lead', kind: 'events', cap: 5 },
    ];
    const admitted = await Promise.all(
      ['s1', 's2', 's3', 's1', 's2'].map(async (s) => {
        const settle = await admit(claims(s));
        settle?.(true);
        return settle !== null;
      }),
    );
    expect(admitted.filter(Boolean)).toHaveLength(2);
  });

  it('two processes on one database: at most twice the cap at once, nothing more once they read again', async () => {
    const w = world();
    const [one, two] = [w.process(), w.process()];
    const burst = await Promise.all(
      Array.from({ length: 400 }, (_, i) => w.send(i % 2 === 0 ? one : two, 'lead', 100)),
    );
    const first = burst.filter(Boolean).length;
    expect(first).toBeGreaterThanOrEqual(100);
    expect(first).toBeLessThanOrEqual(200);
    // Within the refresh time each keeps its own count; after it, each reads what both stored.
    w.advance(COUNT_REFRESH_MS + 1);
    const after = await Promise.all(
      Array.from({ length: 100 }, (_, i) => w.send(i % 2 === 0 ? one : two, 'lead', 100)),
    );
    expect(after.filter(Boolean)).toHaveLength(0);
    expect(w.stored.get('lead')).toBe(first);
  });
});
