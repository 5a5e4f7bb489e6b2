import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { Domain } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerBundle, SERVER_NODE_FLAGS } from '../../../../../scripts/build-server';
import { startTestDnsServer, type TestDnsServer } from '../../../test/dns-server';
import { freePort } from '../../../test/free-port';
import { migrate, openDatabase } from '../../db';
import { createServices } from '../../services';

/**
 * Custom domains behind a real Caddy (issue 20 item 3, decision 27): Debian's Caddy runs the shipped
 * deploy/Caddyfile (with test-only global options: its own ports, its local CA instead of Let's
 * Encrypt, no admin endpoint) in front of the real server process, whose DNS checks ask a DNS server
 * of the test's own. A verified domain gets a certificate and serves its lead page over HTTPS; an
 * unverified one and a removed one get no certificate.
 */

const CADDY = '/usr/bin/caddy';
const CADDYFILE = new URL('../../../../../deploy/Caddyfile', import.meta.url);
const BASE = 'base.embudo.test';
const HEADLINE = 'La oferta en tu propio dominio';

interface Child {
  process: ChildProcessWithoutNullStreams;
  output: () => string;
}

function start(command: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { process: child, output: () => output };
}

/** A TLS handshake Caddy ended without a certificate (an alert), not a refused connection. */
const NO_CERTIFICATE = /alert|handshake|SSL|socket disconnected/i;

async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * deploy/Caddyfile as shipped, with options for a test inside its global block: its own ports, the
 * local CA for every certificate (including those on demand), no trust store to touch, no admin port.
 */
export function testCaddyfile(shipped: string, ports: { http: number; https: number }): string {
  const options = [
    'admin off',
    `http_port ${ports.http}`,
    `https_port ${ports.https}`,
    'local_certs',
    'skip_install_trust',
  ];
  const opened = /^\{\s*$/m.exec(shipped);
  if (!opened) throw new Error('deploy/Caddyfile has no global options block');
  const at = opened.index + opened[0].length;
  return `${shipped.slice(0, at)}\n${options.map((o) => `\t${o}`).join('\n')}${shipped.slice(at)}`;
}

describe('custom domains behind Caddy', () => {
  let dir: string;
  let dns: TestDnsServer;
  let server: Child | undefined;
  let caddy: Child | undefined;
  let serverUrl = '';
  let httpsPort = 0;
  let rootCa = '';
  let apiKey = '';
  let token = '';
  let slug = '';

  /** GET over HTTPS through Caddy, as a browser at https://{host} would (SNI and Host are the host). */
  const httpsGet = (host: string, path: string) =>
    new Promise<{ status: number; body: string; issuer: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: httpsPort,
          servername: host,
          path,
          headers: { host: `${host}:${httpsPort}` },
          ca: rootCa,
          agent: false,
        },
        (res) => {
          const issuer =
            res.socket instanceof TLSSocket ? String(res.socket.getPeerCertificate().issuer.CN) : '';
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body, issuer });
          });
        },
      );
      req.setTimeout(15_000, () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end();
    });

  const owner = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${serverUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
  };

  /** Adds the domain; with `records`, sets both DNS records and checks now, which verifies it. */
  const connect = async (host: string, records: boolean) => {
    const added = await owner('POST', '/api/owner/domains', { host });
    expect(added.status, added.text).toBe(201);
    const domain = Domain.parse(added.json);
    if (!records) return domain;
    dns.set(domain.records.ownership.name, { txt: [domain.records.ownership.value] });
    dns.set(host, { cname: domain.records.target.value });
    const checked = await owner('POST', `/api/owner/domains/${domain.id}/verify`);
    expect(checked.status, checked.text).toBe(200);
    expect(Domain.parse(checked.json).state).toBe('verified');
    return domain;
  };

  beforeAll(async () => {
    dns = await startTestDnsServer();
    expect(existsSync(CADDY), `${CADDY} (Debian's caddy package; .ci/run installs it)`).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'embudo-caddy-'));
    dns.set(BASE, { a: ['127.0.0.1'] });
    const [port, httpPort] = [await freePort(), await freePort()];
    httpsPort = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;

    // The account, its funnel and a lead, written before the server starts, as the CLI would.
    const databaseUrl = `sqlite:${join(dir, 'embudo.db')}`;
    const database = openDatabase(databaseUrl);
    await migrate(database);
    const services = await createServices(database, { publicUrl: serverUrl, baseDomains: [BASE] });
    const created = await services.accounts.create({ slug: 'caddy-owner', name: 'Caddy owner' });
    apiKey = created.apiKey;
    slug = created.account.slug;
    const funnel = await services.funnels.create(created.account, { name: 'Own domain' });
    await services.pages.create(created.account, funnel.id, { headline: HEADLINE });
    token = (await services.leads.create(created.account, funnel.id, { name: 'Ana' })).token;
    await services.writer.drain();
    await database.close();

    const embudo = start(process.execPath, [...SERVER_NODE_FLAGS, await buildServerBundle()], {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: `https://${BASE}:${httpsPort}`,
      BASE_DOMAINS: BASE,
      DOMAIN_TARGET: BASE,
      DNS_SERVERS: dns.address,
      TRUST_PROXY: '127.0.0.1',
      SEED_DEMO: 'never',
      PIXEL_WORKER: 'off',
      GEO_DATABASE: 'off',
      LOG_LEVEL: 'warn',
    });
    server = embudo;
    await waitFor(() => embudo.output().includes('Embudo is serving on'), 'the server to start');

    const caddyfile = join(dir, 'Caddyfile');
    writeFileSync(
      caddyfile,
      testCaddyfile(readFileSync(CADDYFILE, 'utf8'), { http: httpPort, https: httpsPort }),
    );
    const proxy = start(CADDY, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      EMBUDO_BASE_DOMAIN: BASE,
      EMBUDO_UPSTREAM: `127.0.0.1:${port}`,
      HOME: dir,
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_CONFIG_HOME: join(dir, 'config'),
    });
    caddy = proxy;
    const root = join(dir, 'data/caddy/pki/authorities/local/root.crt');
    await waitFor(() => existsSync(root), `Caddy's local root certificate\n${proxy.output()}`);
    rootCa = readFileSync(root, 'utf8');
    // Ready when the base domain's ordinary certificate is served.
    await waitFor(
      () =>
        httpsGet(BASE, '/api/health').then(
          (r) => r.status === 200,
          () => false,
        ),
      `Caddy to serve the base domain\n${proxy.output()}`,
    );
  });

  afterAll(async () => {
    caddy?.process.kill('SIGKILL');
    server?.process.kill('SIGKILL');
    await dns.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the base domain with its certificate from the start', async () => {
    const page = await httpsGet(BASE, `/${slug}/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(HEADLINE);
    expect(page.issuer).toMatch(/Caddy Local Authority/);
  });

  it('gives a verified domain a certificate on demand, and serves its lead page over HTTPS', async () => {
    await connect('offers.verified.test', true);
    const page = await httpsGet('offers.verified.test', `/${token}`);
    expect(page.status, caddy?.output()).toBe(200);
    expect(page.body).toContain(HEADLINE);
    expect(page.issuer).toMatch(/Caddy Local Authority/);
  });

  it('gives an unverified domain no certificate: the TLS handshake fails', async () => {
    const domain = await connect('offers.unverified.test', false);
    // Its owner set only the CNAME: still not verified.
    dns.set('offers.unverified.test', { cname: BASE });
    await owner('POST', `/api/owner/domains/${domain.id}/verify`);
    await expect(httpsGet('offers.unverified.test', `/${token}`)).rejects.toThrow(NO_CERTIFICATE);
  });

  it('gives a removed domain no certificate, though it was verified and allowed a moment before', async () => {
    const domain = await connect('offers.removed.test', true);
    // The ask's answer is now kept in the server's memory...
    const ask = () => fetch(`${serverUrl}/internal/tls/ask?domain=offers.removed.test`);
    expect((await ask()).status).toBe(200);
    expect((await owner('DELETE', `/api/owner/domains/${domain.id}`)).status).toBe(204);
    // ...and the removal dropped it.
    expect((await ask()).status).toBe(404);
    await expect(httpsGet('offers.removed.test', `/${token}`)).rejects.toThrow(NO_CERTIFICATE);
  });

  it('serves no certificate for a host nobody connected', async () => {
    await expect(httpsGet('nobody.example.test', '/')).rejects.toThrow(NO_CERTIFICATE);
  });
});
