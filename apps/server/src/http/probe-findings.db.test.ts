import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addVerifiedDomain, markDomainVerified, newAccount, newFunnel } from '../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../test/server';
import { TEST_DIALECTS } from '../../test/databases';
import { viteAppDistDir } from './vite-apps';

/**
 * What an outside probe found the server handing out or taking in (issue 16, item 8): a Host header
 * that is no host, a preview's content in a not-found page, the build manifest, the API docs without
 * a policy, domain answers that tell of other accounts, and the TLS ask endpoint.
 */
describe.each(TEST_DIALECTS)('probe findings on %s', (dialect) => {
  let server: TestServer;
  let ownerKey = '';
  let otherKey = '';
  const CUSTOM_HOST = 'promo.example.test';
  const BASE_HOST = 'go.example.test';
  const INACTIVE_HOST = 'lapsed.example.test';
  const PENDING_HOST = 'unproven.example.test';
  const SECRET_HEADLINE = 'Titular que solo ve la vista previa';

  beforeAll(async () => {
    server = await startTestServer(dialect, { RATE_LIMIT_PER_MINUTE: '0', BASE_DOMAINS: BASE_HOST });
    const owner = await server.services.accounts.create({ slug: 'probe-owner', name: 'Owner' });
    ownerKey = owner.apiKey;
    otherKey = (await server.services.accounts.create({ slug: 'probe-other', name: 'Other' })).apiKey;
    expect(
      (await api(server, 'POST', '/api/owner/domains', { key: ownerKey, body: { host: CUSTOM_HOST } }))
        .status,
    ).toBe(201);
    await markDomainVerified(server.database.db, CUSTOM_HOST);
    const lapsed = await newAccount(server.services);
    await addVerifiedDomain(server.services, server.database.db, lapsed, INACTIVE_HOST);
    await server.services.accounts.setSubscription(lapsed.id, 'inactive');
    await server.services.domains.create(await newAccount(server.services), { host: PENDING_HOST });
  });

  afterAll(async () => {
    await server.close();
  });

  /** A GET with a Host header of our choosing (fetch will not send one). */
  const getWithHost = (path: string, host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { headers: { host } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.end();
    });

  it('refuses a Host header that is not a host and port, which would have resolved a custom domain', async () => {
    for (const host of [`localhost:1@${CUSTOM_HOST}`, `${CUSTOM_HOST}/x`, `a b`, `${CUSTOM_HOST};x`]) {
      const answer = await getWithHost('/some-token', host);
      expect(answer.status, host).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    }
    // Plain hosts still work: the custom domain resolves (an unknown token there), as does localhost.
    expect((await getWithHost('/some-token', CUSTOM_HOST)).status).toBe(404);
    expect((await getWithHost('/api/health', `localhost:${new URL(server.url).port}`)).status).toBe(200);
    expect((await getWithHost('/api/health', '[::1]:80')).status).toBe(200);
  });

  it("carries none of a preview's page data in a not-found page", async () => {
    const owner = await server.services.accounts.create({ slug: 'probe-preview', name: 'Preview' });
    const { pages } = await newFunnel(server.services, owner.account, {
      pages: [{ headline: SECRET_HEADLINE, buttonCopy: 'Comprar' }],
    });
    const created = await api(server, 'POST', `/api/owner/pages/${pages[0]?.id ?? ''}/preview`, {
      key: owner.apiKey,
      body: {},
    });
    expect(created.status).toBe(201);
    const token = new URL((created.body as { url: string }).url).searchParams.get('previewToken') ?? '';
    // At its own address the preview shows the page…
    const shown = await fetch(`${server.url}/probe-preview/preview?previewToken=${token}`);
    expect(await shown.text()).toContain(SECRET_HEADLINE);
    // …at the root, a not-found page, whose HTML holds nothing of it.
    const root = await fetch(`${server.url}/?previewToken=${token}`);
    expect(root.status).toBe(404);
    const html = await root.text();
    expect(html).toContain('404');
    expect(html).not.toContain(SECRET_HEADLINE);
    expect(html).not.toContain('Comprar');
  });

  it('does not serve the build manifest', async () => {
    // The manifest is there whenever the visitor app is built; a stand-in when this tier runs alone.
    const file = join(viteAppDistDir('web'), '.vite', 'manifest.json');
    const standIn = !existsSync(file);
    if (standIn) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '{"src/entry-client.tsx":{"file":"assets/entry-client.js"}}');
    }
    try {
      const manifest = await fetch(`${server.url}/static/.vite/manifest.json`);
      expect(manifest.status).toBe(404);
      expect(await manifest.text()).not.toContain('entry-client');
    } finally {
      if (standIn) rmSync(file);
    }
  });

  it('serves the API docs under a Content-Security-Policy, framed by no site', async () => {
    for (const path of ['/api/docs/static/index.html', '/api/docs/json']) {
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status, path).toBe(200);
      const policy = answer.headers.get('content-security-policy') ?? '';
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(policy, path).toContain("default-src 'self'");
      expect(policy, path).not.toContain('upgrade-insecure-requests');
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('answers a host another account holds exactly as a host of this server: it tells of no account', async () => {
    const taken = await api(server, 'POST', '/api/owner/domains', {
      key: otherKey,
      body: { host: CUSTOM_HOST },
    });
    expect(taken.status, taken.text).toBe(409);
    const text = (answer: typeof taken, host: string) => answer.text.replace(host, 'HOST');
    for (const host of [BASE_HOST, '127.0.0.1']) {
      const base = await api(server, 'POST', '/api/owner/domains', { key: otherKey, body: { host } });
      expect(base.status, base.text).toBe(409);
      expect(text(taken, CUSTOM_HOST)).toBe(text(base, host));
    }
    expect(taken.text).not.toMatch(/another account/i);
    // The owner of the host is told it is theirs.
    const mine = await api(server, 'POST', '/api/owner/domains', {
      key: ownerKey,
      body: { host: CUSTOM_HOST },
    });
    expect(mine.text).toContain('already yours');
  });

  it("answers the TLS ask only for hosts that serve pages: not an inactive account's, not an unverified one", async () => {
    const ask = (domain: string) => fetch(`${server.url}/internal/tls/ask?domain=${domain}`);
    expect((await ask(CUSTOM_HOST)).status).toBe(200);
    expect((await ask(BASE_HOST)).status).toBe(200);
    expect((await ask(INACTIVE_HOST)).status).toBe(404);
    expect((await ask(PENDING_HOST)).status).toBe(404);
    expect((await fetch(`${server.url}/api/tls/ask?domain=${CUSTOM_HOST}`)).status).toBe(404);
    expect((await ask('nobody.example.test')).status).toBe(404);
  });

  it('answers the TLS ask to the TLS front on this machine only', async () => {
    const answer = await server.server.inject({
      method: 'GET',
      url: `/internal/tls/ask?domain=${CUSTOM_HOST}`,
      remoteAddress: '203.0.113.5',
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.body).not.toContain('served');
    const local = await server.server.inject({
      method: 'GET',
      url: `/internal/tls/ask?domain=${CUSTOM_HOST}`,
      remoteAddress: '127.0.0.1',
    });
    expect(local.statusCode).toBe(200);
  });
});
