import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addVerifiedDomain } from '../../../test/fixtures';
import { api, startServerBeside, startTestServer, type TestServer } from '../../../test/server';
import { seedDemo, type DemoSummary } from '../demo/demo.seed';

const REDIS_URL = process.env.TEST_REDIS_URL;
const POSTGRES = process.env.TEST_DATABASE_URL;

/**
 * Two processes on one database, sharing domain changes through Redis (decision 27, decision 28): the
 * TLS proxy asks one process about a host while the owner removes the domain through the other, and
 * the answer it had kept (for up to 30 s) goes at once.
 */
describe.runIf(REDIS_URL !== undefined && POSTGRES !== undefined)(
  'domain changes shared by two processes through Redis',
  () => {
    let first: TestServer;
    let second: TestServer;
    let demo: DemoSummary;

    beforeAll(async () => {
      const env = { REDIS_URL: REDIS_URL ?? '', RATE_LIMIT_PER_MINUTE: '0' };
      first = await startTestServer('postgres', env);
      demo = await seedDemo(first.services, first.url);
      second = await startServerBeside(first, env);
    });
    afterAll(async () => {
      await second.close();
      await first.close();
    });

    it('takes back a removed domain’s certificate permission in the other process at once', async () => {
      const account = await first.services.accounts.findBySlug(demo.accountSlug);
      if (!account) throw new Error('no demo account');
      const host = `shared-${Date.now().toString(36)}.acme.test`;
      const id = await addVerifiedDomain(first.services, first.database.db, account, host);
      const ask = () => fetch(`${second.url}/internal/tls/ask?domain=${host}`);
      // The second process answers yes, and keeps that answer.
      expect((await ask()).status).toBe(200);
      expect((await ask()).status).toBe(200);

      const removed = await api(first, 'DELETE', `/api/owner/domains/${id}`, { key: demo.apiKey });
      expect(removed.status, removed.text).toBe(204);
      // The change travels through Redis: within a moment, not the kept answer's 30 s.
      const until = Date.now() + 2000;
      let status = (await ask()).status;
      while (status === 200 && Date.now() < until) {
        await new Promise((done) => setTimeout(done, 25));
        status = (await ask()).status;
      }
      expect(status).not.toBe(200);
    });
  },
);
