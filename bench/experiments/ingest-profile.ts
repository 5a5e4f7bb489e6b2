/**
 * tsx bench/experiments/ingest-profile.ts [--postgres URL] [--rollups on|off] [--seconds 10] [--prof DIR] [--heap DIR]
 *
 * Row 5's visits against one server (the bundle, as `npm start` runs it), once, for profiling: with
 * --prof the server profiles its CPU (profile-preload.ts) and writes the profile to DIR when it stops
 * (with --heap, a sampling heap profile of what it allocated, for Chrome's DevTools). Prints the
 * acknowledged events per second. Not a bench row: a tool to find where ingest spends its time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { prepareDatabase, seedDemoLeads } from '../../scripts/lib/scratch-database';
import { killAll, killServer, startServer, type RunningServer } from '../../scripts/lib/server-process';
import { insertLeads, type LeadHome } from '../lib/leads';
import { runLoad, warmUp } from '../lib/load';
import { AckLog, visitRequests } from '../rows/tracking-ingest';
import { postgresCpuMeter, type CpuMeter } from '../lib/process-cpu';
import { profilingEnv } from './profile-preload';

/** CPU time (user and system, every thread) the process has used, in ms. */
function cpuMs(pid: number | undefined): number {
  const fields =
    readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
      .split(') ')[1]
      ?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function threadsMs(pid: number | undefined): Map<string, { name: string; ms: number }> {
  const out = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync(`/proc/${String(pid)}/task`)) {
    const stat = readFileSync(`/proc/${String(pid)}/task/${tid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(tid, { name, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 });
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'string' },
      rollups: { type: 'string', default: 'on' },
      seconds: { type: 'string', default: '10' },
      prof: { type: 'string' },
      heap: { type: 'string' },
    },
  });
  const database = await prepareDatabase(values.postgres, false, 'ingest_profile');
  const servers: RunningServer[] = [];
  try {
    const demo = await seedDemoLeads(database.url, 'http://127.0.0.1:3000');
    const first = demo[0];
    if (first === undefined) throw new Error('no demo lead');
    const homes: LeadHome[] = [
      {
        accountId: first.accountId,
        slug: first.slug,
        funnelId: first.funnelId,
        firstPageId: first.firstPageId,
      },
    ];
    const leads = await insertLeads(database.url, homes, { tag: 'visit', from: 0, count: 1000 }, () => true);
    const env: Record<string, string> = {
      ANALYTICS_ROLLUPS: values.rollups,
      PGAPPNAME: 'embudo-ingest-profile',
      ...profilingEnv(values.prof ?? values.heap, values.heap !== undefined),
    };
    const server = await startServer(database.url, servers, { run: 'bundle', env });
    await warmUp(server.url, 100, 2, visitRequests(leads, new AckLog(false)));
    const log = new AckLog(false);
    const backends: CpuMeter | undefined =
      values.postgres === undefined
        ? undefined
        : await postgresCpuMeter(database.url, 'embudo-ingest-profile');
    const backendsBefore = (await backends?.read()) ?? 0;
    const cpuBefore = cpuMs(server.child.pid);
    const threadsBefore = threadsMs(server.child.pid);
    const load = await runLoad({
      url: server.url,
      connections: 100,
      seconds: Number(values.seconds),
      requests: visitRequests(leads, log),
    });
    const cpu = cpuMs(server.child.pid) - cpuBefore;
    if (backends !== undefined) {
      const ms = ((await backends.read()) - backendsBefore) * 1000;
      await backends.close();
      process.stdout.write(
        `  PostgreSQL (backends and writers): ${((ms / log.acknowledged) * 1000).toFixed(0)} µs per event\n`,
      );
    }
    const threadsAfter = threadsMs(server.child.pid);
    for (const [tid, t] of threadsAfter) {
      const d = t.ms - (threadsBefore.get(tid)?.ms ?? 0);
      if (d > 50)
        process.stdout.write(
          `  thread ${tid} ${t.name}: ${((d / log.acknowledged) * 1000).toFixed(0)} µs per event\n`,
        );
    }
    process.stdout.write(
      `rollups ${values.rollups}: ${(log.acknowledged / load.seconds).toFixed(0)} events/s ` +
        `(${log.acknowledged} acknowledged, ${log.notAcknowledged} not, p99 ${load.p99} ms); ` +
        `server CPU ${((cpu / log.acknowledged) * 1000).toFixed(0)} µs per event\n`,
    );
    const status = readFileSync(`/proc/${String(server.child.pid)}/status`, 'utf8');
    process.stdout.write(`server peak resident memory: ${/VmHWM:\s+(\d+ kB)/.exec(status)?.[1] ?? '?'}\n`);
    killServer(server, 'SIGTERM');
    await server.exited;
  } finally {
    await killAll(servers);
    await database.cleanup();
  }
}

await main();
