/**
 * tsx bench/experiments/ingest-profile.ts [--postgres URL] [--rollups on|off] [--seconds 10] [--prof DIR] [--heap DIR]
 *
 * Row 5's visits against one server (the bundle, as `npm start` runs it), once, for profiling: with
 * --prof the server profiles its CPU (profile-preload.ts) and writes the profile to DIR when it stops
 * (with --heap, a sampling heap profile of what it allocated, for Chrome's DevTools). Prints the
 * acknowledged events per second and, per event, the server's CPU (in all and by thread, and its
 * PostgreSQL backends'), and the bytes it had written to storage. Not a bench row: a tool to find
 * where ingest spends its time.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { prepareDatabase, seedDemoLeads } from '../../scripts/lib/scratch-database';
import { killAll, killServer, startServer, type RunningServer } from '../../scripts/lib/server-process';
import { insertLeads, type LeadHome } from '../lib/leads';
import { readStatus } from '../lib/memory';
import { runLoad, warmUp } from '../lib/load';
import { AckLog, visitRequests } from '../rows/tracking-ingest';
import { cpuSeconds, postgresCpuMeter, threadCpuSeconds, type CpuMeter } from '../lib/process-cpu';
import { profilingEnv } from './profile-preload';

/**
 * From `/proc/<pid>/io`: the bytes the process has had written to storage so far (the WAL and
 * checkpoints, on SQLite), and its read and write system calls (sockets included).
 */
function processIo(pid: number): { written: number; reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? NaN);
  return { written: field('write_bytes'), reads: field('syscr'), writes: field('syscw') };
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
    const pid = server.child.pid ?? NaN;
    const cpuBefore = cpuSeconds(pid);
    const threadsBefore = threadCpuSeconds(pid);
    const ioBefore = processIo(pid);
    const load = await runLoad({
      url: server.url,
      connections: 100,
      seconds: Number(values.seconds),
      requests: visitRequests(leads, log),
    });
    const cpu = (cpuSeconds(pid) - cpuBefore) * 1000;
    const io = processIo(pid);
    const written = io.written - ioBefore.written;
    if (backends !== undefined) {
      const ms = ((await backends.read()) - backendsBefore) * 1000;
      await backends.close();
      process.stdout.write(
        `  PostgreSQL (backends and writers): ${((ms / log.acknowledged) * 1000).toFixed(0)} µs per event\n`,
      );
    }
    for (const [tid, t] of threadCpuSeconds(pid)) {
      const d = (t.seconds - (threadsBefore.get(tid)?.seconds ?? 0)) * 1000;
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
    process.stdout.write(
      `written to storage: ${(written / log.acknowledged / 1000).toFixed(1)} KB per event; system calls ` +
        `per event: ${((io.reads - ioBefore.reads) / log.acknowledged).toFixed(2)} reads, ` +
        `${((io.writes - ioBefore.writes) / log.acknowledged).toFixed(2)} writes\n`,
    );
    process.stdout.write(`server peak resident memory: ${readStatus(pid)?.hwmKb ?? '?'} kB\n`);
    killServer(server, 'SIGTERM');
    await server.exited;
  } finally {
    await killAll(servers);
    await database.cleanup();
  }
}

await main();
