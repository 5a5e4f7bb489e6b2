import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Debian's Caddy; .ci/run installs it. */
export const CADDY = process.env.CADDY_BIN ?? '/usr/bin/caddy';

export interface CaddyProxy {
  url: string;
  output: () => string;
  close: () => Promise<void>;
}

/**
 * Caddy as a plain HTTP load balancer in front of `upstreams` (host:port each), in turn
 * (`lb_policy round_robin`). A request an upstream refuses to connect is tried on the next for up to
 * `lb_try_duration`, as a production Caddy would while a process restarts. X-Forwarded-For sent by
 * the test (the loopback) is kept, so that a test can speak for many client addresses.
 */
export async function startCaddyProxy(upstreams: string[]): Promise<CaddyProxy> {
  if (!existsSync(CADDY)) {
    throw new Error(`Caddy is not installed at ${CADDY} (apt-get install caddy; .ci/run installs it)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'embudo-caddy-'));
  const port = await freePort();
  const caddyfile = [
    '{',
    '\tadmin off',
    '\tauto_https off',
    '}',
    `http://127.0.0.1:${String(port)} {`,
    `\treverse_proxy ${upstreams.join(' ')} {`,
    '\t\tlb_policy round_robin',
    '\t\tlb_try_duration 5s',
    '\t\tlb_try_interval 100ms',
    '\t\ttrusted_proxies 127.0.0.0/8',
    '\t}',
    '}',
    '',
  ].join('\n');
  const config = join(dir, 'Caddyfile');
  writeFileSync(config, caddyfile);
  const child: ChildProcess = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      done();
    }),
  );
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > until) {
      await close();
      throw new Error(`Caddy did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${String(port)}`, output: () => output, close };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => {
      done(false);
    });
  });
}
