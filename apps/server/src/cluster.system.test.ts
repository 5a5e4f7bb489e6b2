import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { prepareDatabase } from '../../../scripts/lib/scratch-database';
import {
  killAll,
  killServer,
  sleep,
  startServer,
  type RunningServer,
} from '../../../scripts/lib/server-process';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const TSX = join(import.meta.dirname, '../../../node_modules/.bin/tsx');
const MAIN = join(import.meta.dirname, 'main.ts');

/** The pids of a process's children (Linux `ps`). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** The cluster's workers: the children of the primary, which tsx runs as its own child. */
const workersOf = (server: RunningServer): number[] =>
  childrenOf(server.child.pid ?? 0).flatMap((primary) => childrenOf(primary));

async function until<T>(what: string, check: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** WORKERS=N (decision 28): node's cluster on PostgreSQL; the embedded SQLite refuses it. */
describe('WORKERS', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await killAll(servers);
  });

  it('refuses more than one process on the embedded SQLite database, saying why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'embudo-workers-'));
    try {
      const child = spawn(TSX, [MAIN], {
        env: { ...process.env, WORKERS: '2', DATABASE_URL: `sqlite:${join(dir, 'e.db')}`, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      expect(code).toBe(1);
      expect(stderr).toContain('WORKERS="2": the embedded SQLite database is served by one process');
      expect(stderr).toContain('DATABASE_URL=postgres://');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(DATABASE_URL)(
    'serves from two processes on PostgreSQL, and starts a new one when one is killed',
    async () => {
      // A failure (a timeout included) says which step it was at, with what the processes printed.
      let step = 'preparing the database';
      let printed = (): string => '';
      onTestFailed(() => {
        process.stderr.write(`WORKERS test failed while ${step}; the processes printed:\n${printed()}\n`);
      });
      const database = await prepareDatabase(DATABASE_URL, false, 'workers');
      try {
        step = 'starting the primary';
        const server = await startServer(database.url, servers, {
          env: { WORKERS: '2', SEED_DEMO: 'never', GEO_DATABASE: 'off' },
        });
        printed = server.output;
        step = 'waiting for two workers';
        const first = await until('two workers', () => {
          const pids = workersOf(server);
          return pids.length === 2 ? pids : undefined;
        });
        await until('the primary to say it serves', () =>
          server.output().includes('2 processes') ? true : undefined,
        );
        const [killed] = first as [number];
        step = 'asking the other worker after a SIGKILL';
        process.kill(killed, 'SIGKILL');
        // The other worker answers meanwhile; the primary starts a new one.
        expect(await healthStatus(server)).toBe(200);
        step = 'waiting for a new worker';
        const after = await until('a new worker', () => {
          const pids = workersOf(server);
          return pids.length === 2 && !pids.includes(killed) ? pids : undefined;
        });
        expect(after).toHaveLength(2);
        const said = `worker ${String(killed)} exited (signal SIGKILL); starting another`;
        await until('the primary to say so', () => (server.output().includes(said) ? true : undefined));
        step = 'asking both workers';
        for (let i = 0; i < 6; i++) expect(await healthStatus(server)).toBe(200);
        // SIGTERM to the primary stops every worker, and the primary exits.
        step = 'stopping the primary';
        killServer(server, 'SIGTERM');
        await server.exited;
        expect(after.filter(isAlive)).toEqual([]);
      } finally {
        await database.cleanup();
      }
    },
    90_000,
  );
});

/**
 * /api/health's status: a connection this test process kept alive to a worker that was killed is cut
 * when used, and one made before the primary has seen the death may be handed to the dead worker and
 * never answered (a clean-clone run saw one wait 15 s; node's cluster hands connections out itself).
 * A client, or Caddy, sends such a request again: so does this, on a new connection, after a cut
 * connection or 5 s without an answer (up to five times).
 */
async function healthStatus(server: RunningServer): Promise<number> {
  for (let i = 0; i < 5; i++) {
    const status = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status !== 0) return status;
    await sleep(200);
  }
  return 0;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
