/**
 * How cheap can a page of leads be on this machine at all? Row 7 asks the leads table at 10^6 leads
 * for at least 0.3 of `GET /api/health`'s requests/s. This puts the built server beside a bare
 * Fastify process that does only the page's own work on the same SQLite file: one compiled read of
 * the page's rows (better-sqlite3, rows as arrays) and JSON out, with no authentication, no
 * validation, no hooks and no logging. For each it prints requests/s and the server's CPU per request
 * (from /proc), and their ratio to the same process's health check. Decision 24 records what it showed.
 *
 *   npm run build && npx tsx bench/experiments/leads-page-floor.ts [--leads 1000000] [--seconds 8]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { freePort } from '../../apps/server/test/free-port';
import { killAll, startServer, type RunningServer } from '../../scripts/lib/server-process';
import { seedLeadTable } from '../lib/lead-table';
import { runLoad, warmUp, type LoadRequest } from '../lib/load';
import { cpuSeconds } from '../lib/process-cpu';

const HERE = fileURLToPath(import.meta.url);
const CONNECTIONS = 20;
const PAGE_SIZES = [50, 25];

/** The bare process: health, and the newest `limit` leads of the funnel as the owner API writes them. */
async function serveBare(file: string, funnelId: string, port: number): Promise<void> {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  const page = sqlite
    .prepare(
      `select id, funnel_id, name, email, phone, current_page_id, deadline_at, deadline_exception_on, created_at
       from leads where funnel_id = ? order by created_at desc, id desc limit ?`,
    )
    .raw(true);
  const app = Fastify();
  app.get('/api/health', () => ({ status: 'ok' }));
  app.get<{ Querystring: { limit?: string } }>('/leads', (req) => {
    const limit = Number(req.query.limit ?? 50);
    const rows = page.all(funnelId, limit + 1) as [
      string,
      string,
      string,
      string | null,
      string | null,
      string | null,
      number | null,
      number | null,
      number,
    ][];
    return {
      items: rows.slice(0, limit).map((r) => ({
        id: r[0],
        funnelId: r[1],
        name: r[2],
        email: r[3],
        phone: r[4],
        currentPageId: r[5],
        deadlineAt: r[6] === null ? null : new Date(r[6]).toISOString(),
        deadlineExceptionOn: r[7] === null ? null : r[7] === 1,
        createdAt: new Date(r[8]).toISOString(),
      })),
      nextCursor: rows.length > limit ? 'more' : null,
    };
  });
  await app.listen({ port, host: '127.0.0.1' });
}

interface Measured {
  requestsPerSecond: number;
  cpuMicroseconds: number;
  misses: number;
}

/** A load on one path; the server's CPU per 2xx answer over the same seconds. */
async function measure(
  url: string,
  pid: number,
  path: string,
  headers: Record<string, string>,
  seconds: number,
) {
  const requests: LoadRequest[] = [{ method: 'GET', path, headers }];
  await warmUp(url, CONNECTIONS, 2, requests);
  const before = cpuSeconds(pid);
  const load = await runLoad({ url, connections: CONNECTIONS, seconds, requests });
  const used = cpuSeconds(pid) - before;
  return {
    requestsPerSecond: load.requestsPerSecond,
    cpuMicroseconds: load.ok > 0 ? (used * 1e6) / load.ok : Number.NaN,
    misses: load.non2xx + load.errors,
  } satisfies Measured;
}

async function main() {
  const { values } = parseArgs({
    options: {
      leads: { type: 'string', default: '1000000' },
      seconds: { type: 'string', default: '8' },
      serve: { type: 'string', multiple: true },
    },
  });
  if (values.serve) {
    const [file, funnelId, port] = values.serve;
    await serveBare(file ?? '', funnelId ?? '', Number(port));
    return;
  }
  const leads = Number(values.leads);
  const seconds = Number(values.seconds);
  const dir = mkdtempSync(join(tmpdir(), 'embudo-floor-'));
  const file = join(dir, 'leads.db');
  const servers: RunningServer[] = [];
  try {
    console.log(`seeding ${leads.toLocaleString('en-US')} leads into one funnel…`);
    const table = await seedLeadTable(`sqlite:${file}`, leads);
    const embudo = await startServer(`sqlite:${file}`, servers, {
      run: 'bundle',
      env: { OWNER_RATE_LIMIT_PER_MINUTE: '0', SEED_DEMO: 'never' },
    });
    const port = await freePort();
    const bare = spawn(
      process.execPath,
      ['--import', 'tsx', HERE, '--serve', file, '--serve', table.funnelId, '--serve', String(port)],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
        detached: true,
      },
    );
    const bareServer: RunningServer = {
      child: bare,
      url: `http://127.0.0.1:${port}`,
      exited: new Promise((done) => {
        bare.once('exit', () => {
          done();
        });
      }),
      output: () => '',
    };
    servers.push(bareServer);
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${bareServer.url}/api/health`)).ok) break;
      } catch {
        await new Promise((done) => setTimeout(done, 100));
      }
    }
    const key = { authorization: `Bearer ${table.apiKey}` };
    const rows: [string, string, Measured][] = [];
    const add = async (who: string, server: RunningServer, path: string, headers: Record<string, string>) => {
      const pid = server.child.pid ?? 0;
      rows.push([
        who,
        path.replace(/\/funnels\/[^/]+\//, '/funnels/{id}/'),
        await measure(server.url, pid, path, headers, seconds),
      ]);
    };
    await add('embudo', embudo, '/api/health', {});
    for (const size of PAGE_SIZES)
      await add(
        'embudo',
        embudo,
        `/api/owner/funnels/${table.funnelId}/leads?order=newest&limit=${size}`,
        key,
      );
    await add('bare', bareServer, '/api/health', {});
    for (const size of PAGE_SIZES) await add('bare', bareServer, `/leads?limit=${size}`, {});
    const health = Object.fromEntries(
      rows.filter(([, path]) => path === '/api/health').map(([who, , m]) => [who, m]),
    );
    const embudoHealth = health.embudo as Measured;
    console.log(`\n${leads.toLocaleString('en-US')} leads, ${CONNECTIONS} connections, ${seconds} s each\n`);
    console.log(
      'process  request                                        req/s   CPU µs/req  req/s ÷ its health  ÷ embudo health  misses',
    );
    for (const [who, path, m] of rows) {
      const own = health[who] as Measured;
      console.log(
        `${who.padEnd(8)} ${path.padEnd(46)} ${Math.round(m.requestsPerSecond).toString().padStart(6)} ${m.cpuMicroseconds.toFixed(1).padStart(11)} ${(m.requestsPerSecond / own.requestsPerSecond).toFixed(2).padStart(19)} ${(m.requestsPerSecond / embudoHealth.requestsPerSecond).toFixed(2).padStart(16)} ${String(m.misses).padStart(7)}`,
      );
    }
  } finally {
    await killAll(servers);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
