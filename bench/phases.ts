/**
 * The bench's phases, each on throw-away databases with servers of its own, each returning its rows
 * (a failure becomes rows that say so, never a missing row):
 *
 * - rows 1–2: the first demo lead's page in Chromium;
 * - rows 3–4: page resolution on 1,000 and on 1,000,000 leads, two servers measured in turn;
 * - row 5: tracking on SQLite, then on PostgreSQL, each ending in a SIGKILL;
 * - row 7: the Studio's leads table on 1,000 and on 1,000,000 leads in one funnel.
 *
 * Every server of rows 3 to 5 is handed to the MemoryWatch that row 6 reads.
 */
import pg from 'pg';
import { launchChromium } from '../e2e/chromium';
import {
  prepareDatabase,
  seedDemoLeads,
  type ScratchDatabase,
  type SeededLead,
} from '../scripts/lib/scratch-database';
import { killAll, killServer, startServer, type RunningServer } from '../scripts/lib/server-process';
import { seedLeadTable } from './lib/lead-table';
import { benchToken, insertLeads, sampleIndices, type LeadHome } from './lib/leads';
import type { MemoryWatch } from './lib/memory';
import { postgresCpuMeter, postgresIsLocal, serverCpuMeter, type CpuMeter } from './lib/process-cpu';
import type { Row } from './lib/report';
import { firstPaintFailed, firstPaintRows, measureFirstPaint } from './rows/first-paint';
import { measurePageWeight, pageWeightFailed, pageWeightRows } from './rows/page-weight';
import {
  measureResolution,
  resolutionRows,
  type ResolutionResult,
  type ResolutionTarget,
} from './rows/page-resolution';
import {
  crashUnderLoad,
  ingestRows,
  measureIngest,
  type CrashResult,
  type IngestResult,
} from './rows/tracking-ingest';
import {
  leadsTableRows,
  measureLeadsTable,
  type LeadsTableResult,
  type TableTarget,
} from './rows/leads-table';
import { quickNotes, type Settings } from './settings';

/** Raw measurements, for the JSON file. */
export type Details = Record<string, unknown>;

/** The demo seed prints links with this origin; the bench builds its own from each server's address. */
const PUBLIC_URL = 'http://127.0.0.1:3000';

export const log = (line: string): void => {
  process.stderr.write(`[bench] ${line}\n`);
};

/** Rows 1 and 2: the first demo lead's page (the video sales letter's first page) in Chromium. */
export async function pagesPhase(settings: Settings, details: Details): Promise<Row[]> {
  const servers: RunningServer[] = [];
  let database: ScratchDatabase | null = null;
  try {
    database = await prepareDatabase(undefined, false, 'bench-pages');
    const [lead] = await seedDemoLeads(database.url, PUBLIC_URL);
    if (!lead) throw new Error('the demo has no lead');
    const server = await startServer(database.url, servers, { run: settings.server });
    const pageUrl = `${server.url}/${lead.slug}/${lead.token}`;
    const browser = await launchChromium();
    try {
      details.chromium = browser.version();
      const rows: Row[] = [];
      try {
        log(`row 1: ${settings.paintRuns} throttled loads each of the page and of its static floor`);
        const paint = await measureFirstPaint(browser, server.url, pageUrl, settings.paintRuns);
        details.firstPaint = paint;
        rows.push(...firstPaintRows(paint));
      } catch (error) {
        rows.push(...firstPaintFailed(error));
      }
      try {
        log('row 2: what the page downloads before any input');
        const weight = await measurePageWeight(browser, pageUrl, settings.settleMs);
        details.pageWeight = weight;
        rows.push(...pageWeightRows(weight, settings.settleMs));
      } catch (error) {
        rows.push(...pageWeightFailed(error));
      }
      return rows;
    } finally {
      await browser.close();
    }
  } catch (error) {
    return [...firstPaintFailed(error), ...pageWeightFailed(error)];
  } finally {
    await killAll(servers);
    await database?.cleanup();
  }
}

/** The funnels leads are spread over, with their account's slug. */
function homesOf(leads: readonly SeededLead[]): LeadHome[] {
  const byFunnel = new Map(
    leads.map((l) => [
      l.funnelId,
      { accountId: l.accountId, slug: l.slug, funnelId: l.funnelId, firstPageId: l.firstPageId },
    ]),
  );
  return [...byFunnel.values()];
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Rows 3 and 4: two SQLite databases, of 1,000 and of 1,000,000 leads, each with its own server; the
 * runs alternate between them.
 */
export async function resolutionPhase(
  settings: Settings,
  watch: MemoryWatch,
  details: Details,
): Promise<Row[]> {
  const servers: RunningServer[] = [];
  const databases: ScratchDatabase[] = [];
  const watching: (() => void)[] = [];
  let result: ResolutionResult | { error: unknown } = { error: 'not run' };
  try {
    const seeded = [];
    for (const leads of [settings.baseLeads, settings.grownLeads]) {
      const database = await prepareDatabase(undefined, false, 'bench-leads');
      databases.push(database);
      const homes = homesOf(await seedDemoLeads(database.url, PUBLIC_URL));
      log(`rows 3-4: ${count(leads)} leads into a new SQLite database`);
      const started = Date.now();
      await insertLeads(database.url, homes, { tag: 'bench', from: 0, count: leads }, () => false);
      details[`seconds to seed ${count(leads)} leads`] = (Date.now() - started) / 1000;
      const sample = [...sampleIndices(leads, settings.requestedLeads)].map((index) => ({
        slug: (homes[index % homes.length] as LeadHome).slug,
        token: benchToken('bench', index),
      }));
      seeded.push({ database, leads, sample });
    }
    const targets: ResolutionTarget[] = [];
    for (const { database, leads, sample } of seeded) {
      const server = await startServer(database.url, servers, { run: settings.server });
      watching.push(watch.watch(`page resolution, ${count(leads)} leads`, server.child.pid));
      targets.push({ url: server.url, leads, sample });
    }
    const [base, grown] = targets as [ResolutionTarget, ResolutionTarget];
    log('rows 3-4: POST /api/funnel/site against GET /api/health, in turn on both');
    result = await measureResolution(base, grown, {
      connections: settings.connections,
      seconds: settings.seconds,
      rounds: settings.rounds,
      warmUpSeconds: settings.warmUpSeconds,
    });
  } catch (error) {
    result = { error };
  } finally {
    for (const stop of watching) stop();
    await killAll(servers);
    for (const database of databases) await database.cleanup();
  }
  details.resolution = errorsAsText(result);
  return resolutionRows(
    result,
    { base: settings.baseLeads, grown: settings.grownLeads },
    settings,
    quickNotes(settings),
  );
}

/**
 * Row 7 on one database: two databases (SQLite files, or PostgreSQL schemas) whose one funnel holds
 * 1,000 and 1,000,000 leads (with their search terms), each with its own server; the runs alternate
 * between them.
 */
async function leadsTableOn(
  name: 'SQLite' | 'PostgreSQL',
  url: string | undefined,
  settings: Settings,
  watch: MemoryWatch,
  details: Details,
): Promise<Row[]> {
  const servers: RunningServer[] = [];
  const databases: ScratchDatabase[] = [];
  const watching: (() => void)[] = [];
  let result: LeadsTableResult | { error: unknown } = { error: 'not run' };
  try {
    const targets: TableTarget[] = [];
    for (const leads of [settings.baseLeads, settings.grownLeads]) {
      const database = await prepareDatabase(url, false, 'bench_table');
      databases.push(database);
      log(`row 7: ${count(leads)} leads and their search terms into one funnel, ${name}`);
      const started = Date.now();
      const table = await seedLeadTable(database.url, leads);
      details[`seconds to seed a leads table of ${count(leads)} on ${name}`] = (Date.now() - started) / 1000;
      const server = await startServer(database.url, servers, {
        run: settings.server,
        env: { OWNER_RATE_LIMIT_PER_MINUTE: '0' },
      });
      watching.push(watch.watch(`leads table, ${count(leads)} leads, ${name}`, server.child.pid));
      targets.push({ url: server.url, table });
    }
    const [base, grown] = targets as [TableTarget, TableTarget];
    log(`row 7: a page, a name search and a filtered page of leads against GET /api/health, ${name}`);
    result = await measureLeadsTable(base, grown, {
      connections: settings.connections,
      seconds: settings.seconds,
      rounds: settings.rounds,
      warmUpSeconds: settings.warmUpSeconds,
      searches: settings.requestedLeads,
    });
  } catch (error) {
    result = { error };
  } finally {
    for (const stop of watching) stop();
    await killAll(servers);
    for (const database of databases) await database.cleanup();
  }
  details[`leadsTable${name}`] = errorsAsText(result);
  return leadsTableRows(
    name,
    result,
    { base: settings.baseLeads, grown: settings.grownLeads },
    settings,
    quickNotes(settings).growth,
  );
}

/** Row 7 on SQLite, then on PostgreSQL when it can be reached. */
export async function leadsTablePhase(
  settings: Settings,
  watch: MemoryWatch,
  postgres: string,
  details: Details,
): Promise<Row[]> {
  const rows = await leadsTableOn('SQLite', undefined, settings, watch, details);
  const reachable = await canConnect(postgres);
  if (reachable !== true) {
    const reason = `PostgreSQL not reachable at ${safeUrl(postgres)} (${reachable}); pass --postgres URL`;
    return [
      ...rows,
      ...leadsTableRows(
        'PostgreSQL',
        { error: reason },
        { base: settings.baseLeads, grown: settings.grownLeads },
        settings,
        [],
      ),
    ];
  }
  return [...rows, ...(await leadsTableOn('PostgreSQL', postgres, settings, watch, details))];
}

/** Row 5 on one database: the rate, then the same load ended by a SIGKILL. */
async function ingestOn(
  name: 'SQLite' | 'PostgreSQL',
  url: string | undefined,
  settings: Settings,
  watch: MemoryWatch,
  details: Details,
): Promise<Row[]> {
  let ingest: IngestResult | { error: unknown } = { error: 'not run' };
  let crash: CrashResult | { error: unknown } = { error: 'not run' };
  const servers: RunningServer[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const done of cleanups) await done();
  };
  /** A database with the demo and the visitors' leads. */
  const visitorsDatabase = async (scratch: string) => {
    const database = await prepareDatabase(url, false, scratch);
    cleanups.push(database.cleanup);
    const demo = await seedDemoLeads(database.url, PUBLIC_URL);
    // The video sales letter's funnel: its visits play a video, and its first page never closes tracking.
    const homes = homesOf(demo.slice(0, 1));
    const leads = await insertLeads(
      database.url,
      homes,
      { tag: 'visit', from: 0, count: settings.visitorLeads },
      () => true,
    );
    return { database, leads };
  };
  try {
    const { database, leads } = await visitorsDatabase('bench_ingest');
    // Issue 19 row (a): the same visits on a server that keeps no analytics rollups.
    const withoutRollups = await visitorsDatabase('bench_ingest_off');
    // Each server's PostgreSQL connections carry a name of their own, so that their backends' CPU
    // counts as the server's (bench/lib/process-cpu.ts).
    const server = await startServer(database.url, servers, {
      run: settings.server,
      env: { PGAPPNAME: 'embudo-bench-rollups-on' },
    });
    const offServer = await startServer(withoutRollups.database.url, servers, {
      run: settings.server,
      env: { ANALYTICS_ROLLUPS: 'off', PGAPPNAME: 'embudo-bench-rollups-off' },
    });
    const meters = {
      server: await cpuMeterOf(server, url, 'embudo-bench-rollups-on'),
      rollupsOff: await cpuMeterOf(offServer, url, 'embudo-bench-rollups-off'),
    };
    cleanups.push(async () => {
      await meters.server?.close();
      await meters.rollupsOff?.close();
    });
    const stop = watch.watch(`tracking, ${name}`, server.child.pid);
    const stopOff = watch.watch(`tracking, rollups off, ${name}`, offServer.child.pid);
    try {
      log(`row 5: tracking visits against the no-op tracking call and against rollups off, on ${name}`);
      ingest = await measureIngest(
        server.url,
        leads,
        {
          connections: settings.connections,
          seconds: settings.seconds,
          rounds: settings.rounds,
          warmUpSeconds: settings.warmUpSeconds,
        },
        { url: offServer.url, leads: withoutRollups.leads },
        meters,
      );
      stopOff();
      killServer(offServer, 'SIGTERM');
      await offServer.exited;
      log(`row 5: the same load on ${name}, SIGKILL after ${settings.killAfterSeconds} s, restart, count`);
      crash = await crashUnderLoad(
        server,
        database.url,
        servers,
        leads,
        {
          connections: settings.connections,
          killAfterSeconds: settings.killAfterSeconds,
          minAcknowledged: settings.minAcknowledged,
          server: { run: settings.server },
        },
        (restarted) => watch.watch(`tracking, ${name}, after the SIGKILL`, restarted.child.pid),
      );
    } finally {
      stop();
      stopOff();
    }
  } catch (error) {
    if ('error' in ingest) ingest = { error };
    crash = { error };
  } finally {
    await killAll(servers);
    await cleanup();
  }
  details[`ingest${name}`] = { ingest: errorsAsText(ingest), crash: errorsAsText(crash) };
  return ingestRows(name, ingest, crash, settings, quickNotes(settings).load);
}

export async function ingestPhase(
  settings: Settings,
  watch: MemoryWatch,
  postgres: string,
  details: Details,
): Promise<Row[]> {
  const rows = await ingestOn('SQLite', undefined, settings, watch, details);
  const reachable = await canConnect(postgres);
  if (reachable !== true) {
    const reason = `PostgreSQL not reachable at ${safeUrl(postgres)} (${reachable}); pass --postgres URL`;
    return [...rows, ...ingestRows('PostgreSQL', { error: reason }, { error: reason }, settings, [])];
  }
  return [...rows, ...(await ingestOn('PostgreSQL', postgres, settings, watch, details))];
}

/**
 * A server's CPU meter: its process group, with, on PostgreSQL on this machine, its backends; none when
 * its process or its database's processes cannot be read.
 */
async function cpuMeterOf(
  server: RunningServer,
  postgres: string | undefined,
  applicationName: string,
): Promise<CpuMeter | undefined> {
  const pid = server.child.pid;
  if (pid === undefined) return undefined;
  if (postgres === undefined) return serverCpuMeter(pid);
  if (!postgresIsLocal(postgres)) return undefined;
  return serverCpuMeter(pid, await postgresCpuMeter(postgres, applicationName));
}

async function canConnect(url: string): Promise<true | string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function safeUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

function errorsAsText<T extends object>(value: T | { error: unknown }): T | { error: string } {
  return 'error' in value
    ? { error: value.error instanceof Error ? value.error.message : String(value.error) }
    : value;
}
