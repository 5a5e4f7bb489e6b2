import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { checkDomainRecords, type DnsLookups } from './dns-check';
import { mayAsk } from './domain.routes';
import { afterCheck, FAILING_GRACE_MS, isServing } from './domain.service';
import { createLocalDomainChanges, createServedHostCache } from './served-hosts';

const TOKEN = 'tok3n-for-the-txt-record_0123456789abcd';
const TARGET = 'edge.embudo.example';

/** A DNS zone as data: names to records; a name missing answers ENOTFOUND, as a resolver would. */
function zone(
  records: Record<string, { txt?: string[][]; cname?: string[]; a?: string[]; aaaa?: string[] }>,
) {
  const answer = <T>(name: string, pick: (r: (typeof records)[string]) => T[] | undefined): Promise<T[]> => {
    const found = records[name];
    const values = found ? pick(found) : undefined;
    if (values === undefined)
      return Promise.reject(Object.assign(new Error('no data'), { code: found ? 'ENODATA' : 'ENOTFOUND' }));
    return Promise.resolve(values);
  };
  const lookups: DnsLookups = {
    resolveTxt: (name: string) => answer(name, (r) => r.txt),
    resolveCname: (name: string) => answer(name, (r) => r.cname),
    resolve4: ((name: string) => answer(name, (r) => r.a)) as DnsLookups['resolve4'],
    resolve6: ((name: string) => answer(name, (r) => r.aaaa)) as DnsLookups['resolve6'],
  };
  return lookups;
}

const check = (lookups: DnsLookups, host = 'shop.example.com') =>
  checkDomainRecords(lookups, { host, token: TOKEN, target: TARGET });

describe('a custom domain’s DNS check', () => {
  it('passes with the TXT token and a CNAME to the target (any case, trailing dot)', async () => {
    const dns = zone({
      '_embudo-verify.shop.example.com': { txt: [['other'], [TOKEN]] },
      'shop.example.com': { cname: ['EDGE.embudo.example.'] },
    });
    expect(await check(dns)).toBeNull();
  });

  it('passes with A/AAAA records holding one of the target’s addresses', async () => {
    const dns = zone({
      '_embudo-verify.shop.example.com': { txt: [[TOKEN.slice(0, 10), TOKEN.slice(10)]] },
      'shop.example.com': { a: ['203.0.113.7'] },
      [TARGET]: { a: ['203.0.113.7', '203.0.113.8'], aaaa: ['2001:db8::1'] },
    });
    expect(await check(dns)).toBeNull();
  });

  it('names what is wrong: TXT missing, TXT wrong, not pointing at the target, DNS unreachable', async () => {
    expect(await check(zone({ 'shop.example.com': { cname: [TARGET] } }))).toBe('TXT_MISSING');
    expect(
      await check(
        zone({
          '_embudo-verify.shop.example.com': { txt: [['someone-else']] },
          'shop.example.com': { cname: [TARGET] },
        }),
      ),
    ).toBe('TXT_WRONG');
    expect(
      await check(
        zone({
          '_embudo-verify.shop.example.com': { txt: [[TOKEN]] },
          'shop.example.com': { a: ['198.51.100.1'] },
          [TARGET]: { a: ['203.0.113.7'] },
        }),
      ),
    ).toBe('NOT_POINTING');
    const down = zone({});
    down.resolveTxt = () => Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }));
    expect(await check(down)).toBe('DNS_ERROR');
  });
});

describe('a custom domain’s state', () => {
  const now = 1_800_000_000_000;
  it('is verified while the records hold; pending stays pending until first seen', () => {
    expect(afterCheck({ state: 'pending', failingSince: null }, 'TXT_MISSING', now)).toEqual({
      state: 'pending',
      failure: 'TXT_MISSING',
      checkedAt: now,
      failingSince: null,
    });
    expect(afterCheck({ state: 'pending', failingSince: null }, null, now).state).toBe('verified');
  });

  it('fails once verified, keeps the first failure’s time, and serves for 7 days from it', () => {
    const first = afterCheck({ state: 'verified', failingSince: null }, 'NOT_POINTING', now);
    expect(first).toMatchObject({ state: 'failing', failingSince: now });
    const later = afterCheck(first, 'TXT_MISSING', now + 1000);
    expect(later).toMatchObject({ state: 'failing', failingSince: now, failure: 'TXT_MISSING' });
    expect(isServing(later, now + FAILING_GRACE_MS - 1)).toBe(true);
    expect(isServing(later, now + FAILING_GRACE_MS)).toBe(false);
    expect(isServing({ state: 'pending', failingSince: null }, now)).toBe(false);
    expect(afterCheck(later, null, now + 2000)).toMatchObject({ state: 'verified', failingSince: null });
  });
});

describe('the TLS ask', () => {
  it('is answered to the loopback and the configured proxies only', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.5', '::ffff:10.0.0.5'])
      expect(mayAsk(address, ['10.0.0.5']), address).toBe(true);
    for (const address of ['10.0.0.6', '203.0.113.5', '::ffff:203.0.113.5', undefined])
      expect(mayAsk(address, ['10.0.0.5']), String(address)).toBe(false);
  });

  it('answers a known host from memory, and asks again once the host changed', async () => {
    const asked: string[] = [];
    let served = true;
    const changes = createLocalDomainChanges();
    const cache = createServedHostCache({
      lookup: (host) => {
        asked.push(host);
        return Promise.resolve(served);
      },
      changes,
    });
    expect(await cache.isServed('shop.example.com')).toBe(true);
    expect(await cache.isServed('shop.example.com')).toBe(true);
    expect(await cache.isServed('nobody.example.com')).toBe(true);
    expect(asked).toEqual(['shop.example.com', 'nobody.example.com']);
    served = false;
    changes.publish('shop.example.com');
    expect(await cache.isServed('shop.example.com')).toBe(false);
    expect(asked).toEqual(['shop.example.com', 'nobody.example.com', 'shop.example.com']);
  });

  it('asks again when the answer is older than its time to live', async () => {
    let at = 0;
    let lookups = 0;
    const cache = createServedHostCache({
      lookup: () => Promise.resolve(++lookups > 0),
      changes: createLocalDomainChanges(),
      ttlMs: 30_000,
      now: () => at,
    });
    await cache.isServed('a.example.com');
    at = 29_999;
    await cache.isServed('a.example.com');
    expect(lookups).toBe(1);
    at = 30_000;
    await cache.isServed('a.example.com');
    expect(lookups).toBe(2);
  });
});

describe('domain settings', () => {
  it('read DOMAIN_TARGET (default the public host), DNS_SERVERS and TLS_ASK_ALLOW', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://go.embudo.example',
      DNS_SERVERS: '127.0.0.1:5300, 10.0.0.2,[::1]:53',
      TLS_ASK_ALLOW: '10.0.0.5',
    });
    expect(config.domains).toEqual({
      target: 'go.embudo.example',
      dnsServers: ['127.0.0.1:5300', '10.0.0.2', '[::1]:53'],
      checkIntervalMs: 60 * 60_000,
      tlsAskAllow: ['10.0.0.5'],
    });
    expect(loadConfig({ DOMAIN_TARGET: 'Edge.Embudo.Example' }).domains.target).toBe('edge.embudo.example');
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ TLS_ASK_ALLOW: 'proxy.local' })).toThrow(/TLS_ASK_ALLOW/);
  });
});
