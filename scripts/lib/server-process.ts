/**
 * The real server process on a free port, for scripts that measure or break it from outside:
 * scripts/tracking-durability.ts (the sources, through tsx, as tests run them) and npm run bench (the
 * bundle that `npm start` runs, decision 0014).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/test/free-port';
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from '../build-server';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const MAIN = join(ROOT, 'apps/server/src/main.ts');

export interface ServerOptions {
  /** Variables added to the environment, or overriding the defaults below. */
  env?: Record<string, string>;
  /**
   * `source` (the default): `tsx apps/server/src/main.ts`, as tests and `npm run dev` run it.
   * `bundle`: `node --enable-source-maps apps/server/dist/main.mjs`, as `npm start` runs it; it needs
   * `npm run build` first.
   */
  run?: 'source' | 'bundle';
  /** The port to listen on (a server started again where it was); default a free one. */
  port?: number;
}

/** The command line of a server run that way, for reports. */
export function serverCommand(run: ServerOptions['run'] = 'source'): string {
  return run === 'bundle'
    ? `node ${SERVER_NODE_FLAGS.join(' ')} apps/server/dist/main.mjs`
    : 'tsx apps/server/src/main.ts';
}

export interface RunningServer {
  /**
   * The process started: the server itself with `bundle`; with `source`, tsx, which runs the server in
   * a child process of its own, in the same process group.
   */
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
  output: () => string;
}

/**
 * Starts the server on the database and waits until /api/health answers 200. The process gets its own
 * process group: tsx runs the server in a child, and a kill must reach it. Each server started is added
 * to `servers`, so that a `finally` can stop every one of them.
 */
export async function startServer(
  databaseUrl: string,
  servers: RunningServer[],
  options: ServerOptions = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const [command, args] =
    options.run === 'bundle' ? [process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY]] : [TSX, [MAIN]];
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: url,
      SEED_DEMO: 'always',
      RATE_LIMIT_PER_MINUTE: '0',
      // The benchmark's baseline for tracking calls (the durability test never calls it).
      BENCH_NOOP_ENDPOINT: 'on',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else
      child.once('exit', () => {
        done();
      });
  });
  const server = { child, url, exited, output: () => output };
  servers.push(server);
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited before serving:\n${output}`);
    if (Date.now() > until) throw new Error(`the server did not start in 60 s:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      await response.arrayBuffer();
      if (response.status === 200) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
}

/** Signals the whole process group: tsx and the server process it started. */
export function killServer(server: RunningServer, signal: NodeJS.Signals): void {
  const pid = server.child.pid;
  if (pid === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** SIGKILLs every server still running and waits for each to exit. */
export async function killAll(servers: RunningServer[]): Promise<void> {
  for (const server of servers) killServer(server, 'SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
}

/** After a SIGKILL nothing may answer on the old address any more. */
export async function waitUntilRefused(url: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    try {
      await (await fetch(`${url}/api/health`)).arrayBuffer();
    } catch {
      return;
    }
    await sleep(50);
  }
  throw new Error('the killed server still answers');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
