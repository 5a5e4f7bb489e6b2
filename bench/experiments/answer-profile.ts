/**
 * tsx bench/experiments/answer-profile.ts [--postgres URL] [--records 10000] [--seconds 10] [--prof DIR] [--heap DIR]
 *
 * Row 9's kept answer against one server (the bundle), beside `GET /api/health` on the same server,
 * for finding where a kept answer spends its time: requests per second of each, and the CPU each
 * request cost the server (every thread) and, on PostgreSQL, its backends. With --prof the server
 * writes a CPU profile of both loads to DIR (ingest-profile.ts's preload); with --heap, a sampling
 * heap profile of what it allocated. Not a bench row.
 */
import { parseArgs } from 'node:util';
import { prepareDatabase } from '../../scripts/lib/scratch-database';
import { killAll, killServer, startServer, type RunningServer } from '../../scripts/lib/server-process';
import { buildAnalyticsData } from '../lib/analytics-data';
import { runLoad, warmUp, type LoadRequest } from '../lib/load';
import { cpuSeconds, postgresCpuMeter } from '../lib/process-cpu';
import { answerPath } from '../rows/analytics-answer';
import { profilingEnv } from './profile-preload';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'string' },
      records: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '10' },
      prof: { type: 'string' },
      heap: { type: 'string' },
    },
  });
  const records = Number(values.records);
  const database = await prepareDatabase(values.postgres, false, 'answer_profile');
  const servers: RunningServer[] = [];
  try {
    const data = await buildAnalyticsData(
      database.url,
      { leads: Math.max(1, Math.round(records / 10)), records, days: 30 },
      (line) => process.stdout.write(`${line}\n`),
    );
    const env: Record<string, string> = {
      OWNER_RATE_LIMIT_PER_MINUTE: '0',
      PGAPPNAME: 'embudo-answer-profile',
      ...profilingEnv(values.prof ?? values.heap, values.heap !== undefined),
    };
    const server = await startServer(database.url, servers, { run: 'bundle', env });
    const pid = server.child.pid ?? 0;
    const backends =
      values.postgres === undefined
        ? undefined
        : await postgresCpuMeter(database.url, 'embudo-answer-profile');
    const loads: Record<string, LoadRequest[]> = {
      health: [{ method: 'GET', path: '/api/health' }],
      'kept answer': [
        { method: 'GET', path: answerPath(data), headers: { authorization: `Bearer ${data.apiKey}` } },
      ],
    };
    for (const [name, requests] of Object.entries(loads)) {
      await warmUp(server.url, 4, 2, requests);
      const serverBefore = cpuSeconds(pid);
      const backendsBefore = (await backends?.read()) ?? 0;
      const load = await runLoad({
        url: server.url,
        connections: 4,
        seconds: Number(values.seconds),
        requests,
      });
      const serverUs = ((cpuSeconds(pid) - serverBefore) / load.ok) * 1e6;
      const backendsUs = ((((await backends?.read()) ?? 0) - backendsBefore) / load.ok) * 1e6;
      process.stdout.write(
        `${name}: ${load.requestsPerSecond.toFixed(0)} req/s, p99 ${load.p99.toFixed(2)} ms; ` +
          `server ${serverUs.toFixed(0)} µs, backends ${backendsUs.toFixed(0)} µs per request\n`,
      );
    }
    await backends?.close();
    killServer(server, 'SIGTERM');
    await server.exited;
  } finally {
    await killAll(servers);
    await database.cleanup();
  }
}

await main();
