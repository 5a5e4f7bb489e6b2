/**
 * npm run bench [-- --quick] [-- --strict] [-- --postgres postgres://…] [-- --source] [-- --only leads-table]
 *
 * Measures the figures of the performance issue against the real server process (`tsx
 * apps/server/src/main.ts`, started as `npm start` starts it) and prints one table: figure, baseline,
 * ratio, budget, and whether the budget holds. The same goes to bench/results/<time>-<mode>.json
 * (bench/results/README.md). It exits 0 whatever the figures (it is a measurement); with --strict it
 * exits 1 when a budget does not hold or could not be measured.
 *
 * --quick runs shorter and smaller (bench/settings.ts) and still prints every row. PostgreSQL (row 5)
 * is --postgres, else BENCH_POSTGRES_URL, else TEST_DATABASE_URL, else the local server of CI. The
 * server runs as `npm start` runs it, from the bundle `npm run build` makes; --source runs the
 * TypeScript sources through tsx instead, as the tests do. --only runs the phases named (a comma-separated
 * list of pages, resolution, ingest, leads-table, analytics) and leaves the others out of the table;
 * analytics runs only when named, on both databases unless --databases names one (sqlite, postgres).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SERVER_ENTRY } from '../scripts/build-server';
import { ROOT, serverCommand } from '../scripts/lib/server-process';
import { analyticsPhase } from './lib/analytics-phase';
import { MemoryWatch } from './lib/memory';
import { renderTable, type Row } from './lib/report';
import { ingestPhase, leadsTablePhase, log, pagesPhase, resolutionPhase, type Details } from './phases';
import { memoryRows } from './rows/memory';
import { FULL, QUICK, type Settings } from './settings';

const RESULTS_DIR = join(ROOT, 'bench/results');
/** The phases, in the order they run; --only names some of them. */
const PHASES = ['pages', 'resolution', 'ingest', 'leads-table', 'analytics'] as const;
/** Phases left out unless --only names them. */
const ON_REQUEST: readonly (typeof PHASES)[number][] = ['analytics'];
/** The local PostgreSQL of CI and of the README, when nothing else is named. */
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

/** The commit measured, read from .git without running git; null when there is no repository. */
function commitOf(): string | null {
  try {
    const head = readFileSync(join(ROOT, '.git/HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    try {
      return readFileSync(join(ROOT, '.git', ref), 'utf8').trim();
    } catch {
      const packed = readFileSync(join(ROOT, '.git/packed-refs'), 'utf8');
      return (
        packed
          .split('\n')
          .find((line) => line.endsWith(` ${ref}`))
          ?.split(' ')[0] ?? null
      );
    }
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      postgres: { type: 'string' },
      source: { type: 'boolean', default: false },
      only: { type: 'string' },
      databases: { type: 'string', default: 'sqlite,postgres' },
    },
  });
  const only = values.only?.split(',').map((name) => name.trim());
  const unknown = only?.filter((name) => !(PHASES as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0)
    throw new Error(`--only: no phase ${unknown.join(', ')} (phases: ${PHASES.join(', ')})`);
  // The analytics phase builds 10^7 video records and rebuilds their rollups (over an hour on SQLite
  // alone in full mode, decision 25): it runs only when named.
  const runs = (phase: (typeof PHASES)[number]) =>
    only === undefined ? !ON_REQUEST.includes(phase) : only.includes(phase);
  const bundled = !values.source && existsSync(SERVER_ENTRY);
  const settings: Settings = { ...(values.quick ? QUICK : FULL), server: bundled ? 'bundle' : 'source' };
  if (!values.source && !bundled)
    log(`no built server at ${SERVER_ENTRY}: measuring the sources through tsx`);
  const postgres =
    values.postgres ?? process.env.BENCH_POSTGRES_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_POSTGRES;
  const startedAt = new Date();
  const loadBefore = loadavg();
  log(`${settings.mode} run; rows print when every phase is done`);

  const details: Details = {};
  const watch = new MemoryWatch(settings.server === 'source');
  const rows: Row[] = [];
  try {
    if (runs('pages')) rows.push(...(await pagesPhase(settings, details)));
    if (runs('resolution')) rows.push(...(await resolutionPhase(settings, watch, details)));
    if (runs('ingest')) rows.push(...(await ingestPhase(settings, watch, postgres, details)));
    if (runs('leads-table')) rows.push(...(await leadsTablePhase(settings, watch, postgres, details)));
    if (runs('analytics')) {
      const databases = values.databases.split(',').map((name) => name.trim());
      rows.push(...(await analyticsPhase(settings, watch, postgres, details, databases)));
    }
  } finally {
    watch.stopAll();
  }
  // Row 6 reads the servers of rows 3 to 5.
  if (runs('resolution') || runs('ingest')) rows.push(...memoryRows(watch, serverCommand(settings.server)));
  details.memory = watch.processes();

  const table = renderTable(rows);
  const machine = `${cpus().length} CPUs, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} at the start`;
  process.stdout.write(
    `\nEmbudo bench (${settings.mode}), ${startedAt.toISOString()}, ${machine}\n` +
      `server: ${serverCommand(settings.server)}\n\n${table}\n`,
  );

  const finishedAt = new Date();
  const result = {
    mode: settings.mode,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    commit: commitOf(),
    server: serverCommand(settings.server),
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      memoryBytes: totalmem(),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadavg(),
      chromium: details.chromium ?? null,
    },
    settings,
    rows,
    table,
    details,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${startedAt.toISOString().replace(/[:.]/g, '-')}-${settings.mode}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`\nwritten to ${file.slice(ROOT.length)}\n`);
  if (values.strict && rows.some((r) => r.budget !== null && r.holds !== true)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
