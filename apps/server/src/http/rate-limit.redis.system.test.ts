import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../../test/server';

const REDIS_URL = process.env.TEST_REDIS_URL;

/**
 * Several processes share one limit through Redis (architecture §2). Runs where TEST_REDIS_URL is set
 * (.ci/run sets it to the local Redis).
 */
describe.runIf(REDIS_URL)('rate limits shared through Redis', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    const env = {
      RATE_LIMIT_PER_MINUTE: '6',
      SIGN_IN_ATTEMPTS: '4',
      REDIS_URL: REDIS_URL ?? '',
      TRUST_PROXY: 'true',
    };
    first = await startTestServer('sqlite', env);
    second = await startTestServer('sqlite', env);
  });

  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('counts the calls of both processes against one limit', async () => {
    // Counters are per client address and live a minute in Redis: each run comes from a new address.
    const address = `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
    const call = (server: TestServer) =>
      api(server, 'POST', '/api/funnel/fomo', {
        body: { idFunnel: randomUUID(), site: 'VIDEO', location: {} },
        headers: { 'x-forwarded-for': address },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await call(first)).status, (await call(second)).status);
    }
    // Alone, each process would allow 6; together they allow 6 in all.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(6);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const limited = await call(second);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      codeResponse: 429,
      result: false,
    });
  });

  it('counts the Studio sign-in attempts on one e-mail in both processes against one limit', async () => {
    // A new e-mail each run: its counter lives SIGN_IN_WINDOW_MINUTES in Redis. Addresses vary.
    const email = `shared-${randomUUID()}@example.com`;
    const attempt = (server: TestServer, n: number) =>
      api(server, 'POST', '/api/auth/sign-in', {
        body: { email, password: 'not the password' },
        headers: { origin: server.config.publicUrl, 'x-forwarded-for': `198.19.${String(n)}.1` },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await attempt(first, i)).status, (await attempt(second, i)).status);
    // Alone, each process would allow 4; together they allow 4 in all.
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const refused = await attempt(first, 99);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
