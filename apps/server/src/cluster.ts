import cluster, { type Worker } from 'node:cluster';
import { ConfigError, type Config } from './config';
import { dialectOf } from './db/dialect';

/**
 * WORKERS=N (decision 28): N server processes on one machine through node's cluster, which hands the
 * listening socket's connections to them in turn. On PostgreSQL only: the embedded SQLite database
 * is written by one write thread of one process (decision 13), so a second process would be a second
 * writer the group commit knows nothing of.
 */
export function checkWorkers(config: Pick<Config, 'workers' | 'databaseUrl'>): void {
  if (config.workers > 1 && dialectOf(config.databaseUrl) === 'sqlite') {
    throw new ConfigError([
      `WORKERS="${String(config.workers)}": the embedded SQLite database is served by one process ` +
        '(its writes go through one write thread); set DATABASE_URL=postgres://… to run several, ' +
        'or leave WORKERS unset',
    ]);
  }
}

/** Whether this process is a worker the cluster started (not the primary, not a lone server). */
export const isClusterWorker = (): boolean => cluster.isWorker;

/** More than this many unplanned exits within EXITS_WINDOW_MS: the workers cannot run, give up. */
const MAX_EXITS = 5;
const EXITS_WINDOW_MS = 30_000;

export interface PrimaryOptions {
  workers: number;
  shutdownTimeoutMs: number;
  say: (line: string) => void;
  /** Once every worker listens (the first time). */
  onListening: () => void;
}

/**
 * The primary: forks the workers (the database is migrated before, once, by the caller), starts a new
 * one when one dies, and on SIGTERM or SIGINT stops them all and exits when they have. It serves
 * nothing itself.
 */
export function runPrimary({ workers, shutdownTimeoutMs, say, onListening }: PrimaryOptions): void {
  let stopping = false;
  let finalCode = 0;
  let listening = 0;
  let announced = false;
  const exits: number[] = [];

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.once('listening', () => {
      listening += 1;
      if (!announced && listening >= workers) {
        announced = true;
        onListening();
      }
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(finalCode);
      return;
    }
    const at = Date.now();
    exits.push(at);
    while ((exits[0] ?? at) < at - EXITS_WINDOW_MS) exits.shift();
    const how = signal ? `signal ${signal}` : `code ${String(code)}`;
    if (exits.length > MAX_EXITS) {
      say(
        `worker ${String(worker.process.pid)} exited (${how}); ${String(exits.length)} workers exited ` +
          `within ${String(EXITS_WINDOW_MS / 1000)} s: giving up`,
      );
      stop('workers keep exiting', 1);
      return;
    }
    say(`worker ${String(worker.process.pid)} exited (${how}); starting another`);
    fork();
  });

  const stop = (why: string, exitCode: number): void => {
    if (stopping) return;
    stopping = true;
    finalCode = exitCode;
    say(`stopping the workers (${why})`);
    const force = setTimeout(() => {
      say('the workers took too long to stop; killing them');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs + 1000);
    force.unref();
    const running = Object.values(cluster.workers ?? {});
    if (running.length === 0) process.exit(exitCode);
    // Each worker finishes its requests in flight and closes its database (main.ts's shutdown).
    for (const worker of running) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => {
    stop('SIGTERM', 0);
  });
  process.on('SIGINT', () => {
    stop('SIGINT', 0);
  });

  for (let i = 0; i < workers; i++) fork();
}
