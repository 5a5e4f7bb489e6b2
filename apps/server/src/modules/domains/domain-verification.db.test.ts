import { Domain } from '@embudo/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseMigratedTo, TEST_DIALECTS } from '../../../test/databases';
import { startTestDnsServer, type TestDnsServer } from '../../../test/dns-server';
import { newFunnel } from '../../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../../test/server';
import { migrate } from '../../db';
import { createDnsLookups } from './dns-check';
import { createDomainRepo } from './domain.repo';
import { createDomainService } from './domain.service';
import { createLocalDomainChanges } from './served-hosts';

const TARGET = 'edge.embudo.test';

/**
 * Custom domains proved by DNS (decision 27), against a DNS server of the test's own: the owner adds
 * a host, is given the two records, checks now; the host serves once both records are seen, and the
 * certificate ask follows.
 */
describe.each(TEST_DIALECTS)('custom domain verification on %s', (dialect) => {
  let dns: TestDnsServer;
  let server: TestServer;
  let key = '';
  let leadToken = '';

  beforeAll(async () => {
    dns = await startTestDnsServer();
    dns.set(TARGET, { a: ['203.0.113.10'] });
    server = await startTestServer(dialect, {
      RATE_LIMIT_PER_MINUTE: '0',
      DNS_SERVERS: dns.address,
      DOMAIN_TARGET: TARGET,
    });
    const created = await server.services.accounts.create({ slug: 'dns-owner', name: 'DNS owner' });
    key = created.apiKey;
    const { funnel } = await newFunnel(server.services, created.account, {
      pages: [{ headline: 'Oferta en tu dominio' }],
    });
    leadToken = (await server.services.leads.create(created.account, funnel.id, { name: 'Ana' })).token;
  });
  afterAll(async () => {
    await server.close();
    await dns.close();
  });

  const add = async (host: string) => {
    const answer = await api(server, 'POST', '/api/owner/domains', { key, body: { host } });
    expect(answer.status, answer.text).toBe(201);
    return Domain.parse(answer.body);
  };
  const checkNow = async (id: string) => {
    const answer = await api(server, 'POST', `/api/owner/domains/${id}/verify`, { key });
    expect(answer.status, answer.text).toBe(200);
    return Domain.parse(answer.body);
  };
  /** What the lead's page answers at this host (the visitor API's message). */
  const pageAt = async (host: string) => {
    const answer = await api(server, 'POST', '/api/funnel/site', {
      body: { domain: `https://${host}`, type: 'CUSTOM', slug: null, token: leadToken },
    });
    return (answer.body as { message?: string } | undefined)?.message;
  };
  const ask = (host: string) => fetch(`${server.url}/internal/tls/ask?domain=${host}`);

  it('gives the owner two records, and verifies the domain once both are seen', async () => {
    const host = 'shop.dns-owner.test';
    const domain = await add(host);
    expect(domain).toMatchObject({ state: 'pending', failure: null, checkedAt: null, serving: false });
    expect(domain.records.ownership).toMatchObject({ type: 'TXT', name: `_embudo-verify.${host}` });
    expect(domain.records.ownership.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(domain.records.target).toEqual({ type: 'CNAME', name: host, value: TARGET });
    expect(await pageAt(host)).toBe('DONT_EXIST_TOKEN_OR_URL');
    expect((await ask(host)).status).toBe(404);

    expect(await checkNow(domain.id)).toMatchObject({ state: 'pending', failure: 'TXT_MISSING' });
    dns.set(`_embudo-verify.${host}`, { txt: ['not the token'] });
    expect(await checkNow(domain.id)).toMatchObject({ state: 'pending', failure: 'TXT_WRONG' });
    dns.set(`_embudo-verify.${host}`, { txt: [domain.records.ownership.value] });
    dns.set(host, { a: ['198.51.100.99'] });
    expect(await checkNow(domain.id)).toMatchObject({ state: 'pending', failure: 'NOT_POINTING' });
    // The TLS ask's answer was kept, and the check dropped it: a verified host is allowed at once.
    dns.set(host, { cname: TARGET });
    const verified = await checkNow(domain.id);
    expect(verified).toMatchObject({ state: 'verified', failure: null, serving: true });
    expect(Date.parse(verified.checkedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await ask(host)).status).toBe(200);
    expect(await pageAt(host)).toBe('PAGE_FOUNDED');

    // The records go: the domain fails, with the reason, and keeps serving through the grace.
    dns.remove(host);
    const failing = await checkNow(domain.id);
    expect(failing).toMatchObject({ state: 'failing', failure: 'NOT_POINTING', serving: true });
    expect(await pageAt(host)).toBe('PAGE_FOUNDED');

    // Removed, it serves nothing and gets no certificate.
    expect((await api(server, 'DELETE', `/api/owner/domains/${domain.id}`, { key })).status).toBe(204);
    expect((await ask(host)).status).toBe(404);
    expect(await pageAt(host)).toBe('DONT_EXIST_TOKEN_OR_URL');
  });

  it('a periodic check claims each due domain once, however many runners look at the same time', async () => {
    const hosts = ['one.dns-owner.test', 'two.dns-owner.test', 'three.dns-owner.test'];
    for (const host of hosts) {
      const domain = await add(host);
      dns.set(`_embudo-verify.${host}`, { txt: [domain.records.ownership.value] });
      dns.set(host, { cname: TARGET });
    }
    const db = server.database.db;
    await db.updateTable('domains').set({ nextCheckAt: 0 }).where('host', 'in', hosts).execute();
    const runner = () =>
      createDomainService({
        domains: createDomainRepo(db, dialect),
        baseDomains: [],
        target: TARGET,
        dns: createDnsLookups([dns.address]),
        checkIntervalMs: 60 * 60_000,
        changes: createLocalDomainChanges(),
      });
    const asked = dns.asked.length;
    const checked = await Promise.all([runner().checkDue(), runner().checkDue(), runner().checkDue()]);
    expect(checked.reduce((a, b) => a + b, 0)).toBe(3);
    const txtLookups = dns.asked.slice(asked).filter((q) => q.startsWith('TXT '));
    expect(txtLookups.sort()).toEqual(hosts.map((h) => `TXT _embudo-verify.${h}`).sort());
    const rows = await db.selectFrom('domains').selectAll().where('host', 'in', hosts).execute();
    expect(rows.map((r) => r.state)).toEqual(['verified', 'verified', 'verified']);
    expect(rows.every((r) => r.nextCheckAt > Date.now() + 59 * 60_000)).toBe(true);
    // Nothing is due now: another pass checks nothing.
    expect(await runner().checkDue()).toBe(0);
  });
});

describe.each(TEST_DIALECTS)('domains added before verification existed, migrated on %s', (dialect) => {
  it('keep serving as failing since the upgrade, each with a token of its own, due for a check', async () => {
    const { handle, drop } = await databaseMigratedTo(dialect, '0010-analytics');
    try {
      const db = handle.db;
      await sql`insert into accounts (id, slug, name, subscription_status, settings, created_at)
        values ('acc', 'old', 'Old', 'active', '{}', 1)`.execute(db);
      await sql`insert into domains (id, account_id, host, created_at)
        values ('d1', 'acc', 'old-one.example.com', 1), ('d2', 'acc', 'old-two.example.com', 2)`.execute(db);
      const before = Date.now();
      await migrate(handle);
      const rows = await db.selectFrom('domains').selectAll().orderBy('host').execute();
      expect(rows.map((r) => r.state)).toEqual(['failing', 'failing']);
      expect(rows.every((r) => (r.failingSince ?? 0) >= before && r.nextCheckAt === 0)).toBe(true);
      expect(rows[0]?.verifyToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(rows[0]?.verifyToken).not.toBe(rows[1]?.verifyToken);
      const repo = createDomainRepo(db, dialect);
      expect(await repo.servingAccountOf('old-one.example.com', before - 1)).toBe('acc');
    } finally {
      await handle.close();
      await drop();
    }
  });
});
