/**
 * The `analytics` phase: row 9 (issue 19's row (b)) on SQLite, then on PostgreSQL when it can be
 * reached. On each, two databases (SQLite files, or PostgreSQL schemas) whose video sales letter page
 * holds 10^4 and 10^7 video records (--quick: 10^6), built by analytics-data.ts, each with its own
 * server; the runs alternate between them.
 */
import pg from 'pg';
import { prepareDatabase, type ScratchDatabase } from '../../scripts/lib/scratch-database';
import { killAll, startServer, type RunningServer } from '../../scripts/lib/server-process';
import type { Details } from '../phases';
import { log } from '../phases';
import {
  analyticsAnswerRows,
  answerLoad,
  measureAnalyticsAnswer,
  type AnalyticsAnswerResult,
  type AnswerSizes,
  type AnswerTarget,
} from '../rows/analytics-answer';
import type { Settings } from '../settings';
import { buildAnalyticsData } from './analytics-data';
import type { MemoryWatch } from './memory';
import type { Row } from './report';

/** Ten video records a lead, over 30 days, as the 10^7 from 10^6. */
export function answerSizes(settings: Pick<Settings, 'mode'>): AnswerSizes {
  return {
    base: { leads: 1000, records: 10_000 },
    grown:
      settings.mode === 'full'
        ? { leads: 1_000_000, records: 10_000_000 }
        : { leads: 100_000, records: 1_000_000 },
  };
}
const DAYS = 30;

const count = (n: number): string => n.toLocaleString('en-US');

async function answerOn(
  name: 'SQLite' | 'PostgreSQL',
  url: string | undefined,
  settings: Settings,
  watch: MemoryWatch,
  details: Details,
): Promise<Row[]> {
  const sizes = answerSizes(settings);
  const servers: RunningServer[] = [];
  const databases: ScratchDatabase[] = [];
  const watching: (() => void)[] = [];
  const built: Record<string, unknown> = {};
  const notes: string[] = [];
  let result: AnalyticsAnswerResult | { error: unknown } = { error: 'not run' };
  try {
    const targets: AnswerTarget[] = [];
    for (const size of [sizes.base, sizes.grown]) {
      const database = await prepareDatabase(url, false, 'bench_analytics');
      databases.push(database);
      log(`row 9: ${count(size.records)} video records from ${count(size.leads)} leads, ${name}`);
      const data = await buildAnalyticsData(database.url, { ...size, days: DAYS }, log);
      built[`${count(size.records)} records`] = { counts: data.counts, seconds: data.seconds };
      notes.push(
        `${name}, ${count(data.counts.videoRecords)} records: ${count(data.counts.leads)} leads, ` +
          `${count(data.counts.sessions)} sessions, ${count(data.counts.actions)} clicks, ` +
          `${count(data.counts.conversions)} conversions stored in ${data.seconds.insert.toFixed(0)} s; ` +
          `analytics rebuild ${data.seconds.rebuild.toFixed(0)} s`,
      );
      const server = await startServer(database.url, servers, {
        run: settings.server,
        env: { OWNER_RATE_LIMIT_PER_MINUTE: '0' },
      });
      watching.push(
        watch.watch(`analytics answer, ${count(size.records)} records, ${name}`, server.child.pid),
      );
      targets.push({ url: server.url, data });
    }
    const [base, grown] = targets as [AnswerTarget, AnswerTarget];
    log(`row 9: a page's analytics against GET /api/health, ${name}`);
    const load = answerLoad(settings);
    result = await measureAnalyticsAnswer(base, grown, {
      connections: load.connections,
      seconds: load.seconds,
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
  details[`analyticsAnswer${name}`] = {
    built,
    ...('error' in result
      ? { error: result.error instanceof Error ? result.error.message : String(result.error) }
      : result),
  };
  const quick =
    settings.mode === 'full'
      ? []
      : [
          `quick: ${count(sizes.grown.records)} records from ${count(sizes.grown.leads)} leads instead of 10,000,000 from 1,000,000`,
        ];
  return analyticsAnswerRows(name, result, sizes, answerLoad(settings), [...quick, ...notes]);
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

/** Row 9 on SQLite, then on PostgreSQL when it can be reached. */
export async function analyticsPhase(
  settings: Settings,
  watch: MemoryWatch,
  postgres: string,
  details: Details,
  /** `--databases`: which of `sqlite` and `postgres` to measure (a long run may redo only one). */
  databases: readonly string[] = ['sqlite', 'postgres'],
): Promise<Row[]> {
  const rows = databases.includes('sqlite')
    ? await answerOn('SQLite', undefined, settings, watch, details)
    : [];
  if (!databases.includes('postgres')) return rows;
  const reachable = await canConnect(postgres);
  if (reachable !== true) {
    const reason = `PostgreSQL not reachable (${reachable}); pass --postgres URL`;
    return [
      ...rows,
      ...analyticsAnswerRows('PostgreSQL', { error: reason }, answerSizes(settings), settings, []),
    ];
  }
  return [...rows, ...(await answerOn('PostgreSQL', postgres, settings, watch, details))];
}
