import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEV_BASE_DOMAINS } from '@embudo/contracts';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './db';
import { sessionEventId } from './lib/event-ids';
import { ServerEvent } from './modules/pixel/meta-capi';
import { createServices } from './services';
import { startCaddyProxy, type CaddyProxy } from '../test/caddy-proxy';
import { freePort } from '../test/free-port';
import {
  countStored,
  prepareDatabase,
  seedDemoLeads,
  type ScratchDatabase,
} from '../../../scripts/lib/scratch-database';
import {
  killAll,
  killServer,
  sleep,
  startServer,
  waitUntilRefused,
  type RunningServer,
} from '../../../scripts/lib/server-process';
import { send, startSession, type Session } from '../../../scripts/tracking-durability';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;

/** The limits every process is started with: small, so that the test reaches each in a few calls. */
const VISITOR_LIMIT = 30;
const OWNER_LIMIT = 6;
const SIGN_IN_LIMIT = 4;
const PIXEL_ID = '1234567890123459';

/** What the stand-in for Meta accepts: the body of POST /v21.0/{pixelId}/events. */
const CapiRequest = z.strictObject({
  data: z.array(ServerEvent).min(1).max(1000),
  access_token: z.string().min(1),
  test_event_code: z.string().optional(),
});

/** An address of 198.18.0.0/15 (for benchmarks, never a real client) no run has used yet. */
const randomAddress = () =>
  `198.${String(18 + ((randomBytes(1)[0] ?? 0) % 2))}.${String(randomBytes(1)[0])}.${String(randomBytes(1)[0])}`;

/** A local graph.facebook.com that takes every well-formed Conversions API request and counts events. */
async function startGraphApi() {
  const received: string[] = [];
  const malformed: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = /^\/v21\.0\/(\d{5,20})\/events$/.exec(req.url ?? '');
      let parsed: ReturnType<typeof CapiRequest.safeParse> | undefined;
      try {
        parsed = CapiRequest.safeParse(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      const trace = `A${randomBytes(12).toString('base64url')}`;
      if (req.method !== 'POST' || path?.[1] !== PIXEL_ID || !parsed?.success) {
        malformed.push(`${req.method ?? ''} ${req.url ?? ''} ${text.slice(0, 200)}`);
        res.writeHead(400, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(
          JSON.stringify({ error: { message: '(#100) Invalid parameter', code: 100, fbtrace_id: trace } }),
        );
        return;
      }
      for (const event of parsed.data.data) received.push(event.event_id);
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ events_received: parsed.data.data.length, messages: [], fbtrace_id: trace }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/v21.0`,
    received,
    malformed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

interface Owner {
  apiKey: string;
  /** Another account's key, spent by the owner limit's test. */
  otherApiKey: string;
  funnelId: string;
  pageId: string;
  slug: string;
  /** Leads of the pixel funnel: one conversion each. */
  tokens: string[];
}

/** An account whose funnel has one page and a Meta pixel, with `leads` leads; made in this process. */
async function seedOwner(databaseUrl: string, publicUrl: string, leads: number): Promise<Owner> {
  const database = openDatabase(databaseUrl);
  try {
    await migrate(database);
    const services = await createServices(database, {
      publicUrl,
      baseDomains: [...DEV_BASE_DOMAINS],
      geoDatabase: 'off',
    });
    const slug = `procs-${randomBytes(3).toString('hex')}`;
    const { account, apiKey } = await services.accounts.create({ slug, name: 'Several processes' });
    const funnel = await services.funnels.create(account, {
      name: 'Pixel funnel',
      pixel: { pixelId: PIXEL_ID, accessToken: 'EAAB-several-processes', testEventCode: null },
    });
    const page = await services.pages.create(account, funnel.id, { headline: '<p>Headline one</p>' });
    const tokens: string[] = [];
    for (let i = 0; i < leads; i++)
      tokens.push((await services.leads.create(account, funnel.id, { name: `Lead ${String(i)}` })).token);
    const other = await services.accounts.create({ slug: `${slug}-x`, name: 'Another owner' });
    return { apiKey, otherApiKey: other.apiKey, funnelId: funnel.id, pageId: page.id, slug, tokens };
  } finally {
    await database.close();
  }
}

/**
 * Issue 20's acceptance (decision 28): two server processes behind Caddy, over PostgreSQL and Redis.
 * A tracking load goes through Caddy to both; one process is killed with SIGKILL in the middle of it
 * and started again on its port. Every acknowledged event is then in the database; every rate limit
 * (visitor, owner API, sign-in per address and per e-mail) counts the calls of both processes
 * together; an edit made through one process is what the other serves on the next request; and each
 * pixel conversion reaches the (local) Conversions API exactly once, though both processes run the
 * outbox's worker.
 */
describe.runIf(DATABASE_URL && REDIS_URL)('two server processes behind Caddy', () => {
  let database: ScratchDatabase;
  let caddy: CaddyProxy | undefined;
  let graph: Awaited<ReturnType<typeof startGraphApi>>;
  const servers: RunningServer[] = [];
  let first: RunningServer;
  let second: RunningServer;
  let owner: Owner;
  let demoLeads: Awaited<ReturnType<typeof seedDemoLeads>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await prepareDatabase(DATABASE_URL, false, 'procs');
    graph = await startGraphApi();
    // The address links and the Studio's Origin check name: Caddy's, known before it starts.
    const [portA, portB] = [await freePort(), await freePort()];
    caddy = await startCaddyProxy([`127.0.0.1:${String(portA)}`, `127.0.0.1:${String(portB)}`]);
    demoLeads = await seedDemoLeads(database.url, caddy.url);
    owner = await seedOwner(database.url, caddy.url, 12);
    env = {
      PUBLIC_URL: caddy.url,
      REDIS_URL: REDIS_URL ?? '',
      TRUST_PROXY: 'true',
      SEED_DEMO: 'never',
      GEO_DATABASE: 'off',
      RATE_LIMIT_PER_MINUTE: String(VISITOR_LIMIT),
      OWNER_RATE_LIMIT_PER_MINUTE: String(OWNER_LIMIT),
      SIGN_IN_ATTEMPTS: String(SIGN_IN_LIMIT),
      PIXEL_API_URL: graph.url,
    };
    // One after the other: both migrate on start, and the second finds nothing left to do.
    first = await startServer(database.url, servers, { env, port: portA });
    second = await startServer(database.url, servers, { env, port: portB });
  }, 120_000);

  afterAll(async () => {
    await killAll(servers);
    await caddy?.close();
    await graph.close();
    await database.cleanup();
  });

  it('loses no acknowledged event when one process is killed with SIGKILL under load and restarted', async () => {
    if (!caddy) throw new Error('Caddy did not start');
    const proxy = caddy.url;
    // Each request speaks for one of many client addresses (Caddy keeps the loopback's
    // X-Forwarded-For), so the load stays under the visitor limit of each address.
    const runTag = randomBytes(4).toString('hex');
    const address = (client: number, seq: number) => ({
      'x-forwarded-for': `10.${String(client)}.${String(Math.floor(seq / 10) % 250)}.${String(1 + (seq % 10))}`,
    });
    const sessions: (Session & { leadId: string })[] = [];
    for (const [i, lead] of demoLeads.entries())
      sessions.push({ ...lead, sessionId: await startSession(proxy, lead.token, address(200, i)) });

    const acknowledged: {
      sessionId: string;
      leadId: string;
      kind: 'video' | 'action';
      clientEventId: string;
    }[] = [];
    const other = { unanswered: 0, otherStatus: 0, refused: 0 };
    let stop = false;
    const load = Array.from({ length: 24 }, async (_, client) => {
      for (let seq = 0; !stop; seq++) {
        const session = sessions[(client + seq) % sessions.length] ?? expect.unreachable('no session');
        const kind = seq % 2 === 0 ? 'video' : 'action';
        const clientEventId = `${runTag}-${String(client)}-${String(seq)}`;
        const answer = await send(proxy, kind, session, clientEventId, seq, address(client, seq));
        if (answer === 'acknowledged')
          acknowledged.push({ sessionId: session.sessionId, leadId: session.leadId, kind, clientEventId });
        else other[answer] += 1;
      }
    });
    const waitFor = async (count: number) => {
      const until = Date.now() + 30_000;
      while (acknowledged.length < count && Date.now() < until) await sleep(20);
    };
    await waitFor(600);
    const beforeKill = acknowledged.length;
    killServer(second, 'SIGKILL');
    await second.exited;
    await waitUntilRefused(second.url);
    // Started again on its port, while the load goes on through Caddy to the first.
    const port = Number(new URL(second.url).port);
    second = await startServer(database.url, servers, { env, port });
    const afterRestart = acknowledged.length;
    await waitFor(afterRestart + 300);
    stop = true;
    await Promise.all(load);

    const check = await countStored(
      database.url,
      acknowledged.map((a) => ({
        kind: a.kind,
        id: sessionEventId(a.sessionId, a.leadId, a.kind, a.clientEventId),
      })),
    );
    const report =
      `acknowledged ${String(acknowledged.length)} (${String(beforeKill)} before the kill, ` +
      `${String(afterRestart)} by the restart), stored ${String(check.stored)}, not acknowledged ${JSON.stringify(other)}`;
    console.log(`two processes behind Caddy: ${report}`);
    expect(acknowledged.length, report).toBeGreaterThan(afterRestart);
    expect(check.missing, report).toEqual([]);
    expect(check.stored, report).toBe(acknowledged.length);
  }, 120_000);

  it('counts the visitor limit of an address in both processes together', async () => {
    // Counters live a minute in Redis: each run speaks for new addresses.
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': randomAddress() };
    const call = (server: RunningServer) =>
      fetch(`${server.url}/api/funnel/fomo`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ idFunnel: randomUUID(), site: 'VIDEO', location: {} }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < VISITOR_LIMIT; i++) {
      const answer = await call(i % 2 === 0 ? first : second);
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    // The last allowed call went to the second process; the next, to the first, is refused.
    const refused = await call(first);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', codeResponse: 429, result: false });
  });

  it("counts an API key's owner limit in both processes together", async () => {
    const call = (server: RunningServer) =>
      fetch(`${server.url}/api/owner/funnels`, {
        headers: { authorization: `Bearer ${owner.otherApiKey}` },
      });
    for (let i = 0; i < OWNER_LIMIT; i++) {
      const answer = await call(i % 2 === 0 ? first : second);
      await answer.arrayBuffer();
      expect(answer.status).toBe(200);
    }
    const refused = await call(first);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('counts sign-in attempts per address and per e-mail in both processes together', async () => {
    const origin = caddy?.url ?? '';
    const attempt = (server: RunningServer, email: string, from: string) =>
      fetch(`${server.url}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': from },
        body: JSON.stringify({ email, password: 'not the password' }),
      });
    // One e-mail from a new address each time.
    const from = randomAddress();
    const email = `shared-${randomUUID()}@example.com`;
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const answer = await attempt(i % 2 === 0 ? first : second, email, `203.0.113.${String(i + 1)}`);
      await answer.arrayBuffer();
      expect(answer.status).toBe(401);
    }
    const byEmail = await attempt(first, email, '203.0.113.99');
    expect(byEmail.status).toBe(429);
    expect(Number(byEmail.headers.get('retry-after'))).toBeGreaterThan(0);
    // One address, a new e-mail each time.
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const answer = await attempt(i % 2 === 0 ? first : second, `${randomUUID()}@example.com`, from);
      await answer.arrayBuffer();
      expect(answer.status).toBe(401);
    }
    const byAddress = await attempt(first, `${randomUUID()}@example.com`, from);
    expect(byAddress.status).toBe(429);
    expect(await byAddress.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('serves an edit made through one process from the other on the next request', async () => {
    const token = owner.tokens[0] ?? '';
    const page = async (server: RunningServer) => {
      const answer = await fetch(`${server.url}/${owner.slug}/${token}`, {
        headers: { 'x-forwarded-for': '198.51.100.20' },
      });
      expect(answer.status).toBe(200);
      return answer.text();
    };
    // The second process holds the funnel's content in memory.
    expect(await page(second)).toContain('Headline one');
    const headline = `Headline ${randomBytes(4).toString('hex')}`;
    const edit = await fetch(`${first.url}/api/owner/pages/${owner.pageId}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${owner.apiKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ headline: `<p>${headline}</p>` }),
    });
    expect(edit.status, await edit.text()).toBe(200);
    const served = await page(second);
    expect(served).toContain(headline);
    expect(served).not.toContain('Headline one');
  });

  it('delivers each pixel conversion exactly once, with both processes running the outbox', async () => {
    if (!caddy) throw new Error('Caddy did not start');
    const sent: string[] = [];
    for (const [i, token] of owner.tokens.entries()) {
      const id = `procs-${randomBytes(6).toString('hex')}`;
      const answer = await fetch(`${caddy.url}/api/funnel/track/pixel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${String(40 + i)}` },
        body: JSON.stringify({
          idFunnel: owner.funnelId,
          token,
          eventData: { eventName: 'Lead', eventId: id, eventSource: `https://shop.example.com/${token}` },
        }),
      });
      expect(answer.status, await answer.text()).toBe(200);
      sent.push(id);
    }
    const until = Date.now() + 30_000;
    while (!sent.every((id) => graph.received.includes(id)) && Date.now() < until) await sleep(100);
    // Both workers poll every second: a second claim of the same row would arrive within this.
    await sleep(3000);
    expect(graph.malformed).toEqual([]);
    const counts = new Map<string, number>();
    for (const id of graph.received) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(sent.map((id) => [id, counts.get(id) ?? 0])).toEqual(sent.map((id) => [id, 1]));
  }, 60_000);
});
