import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './db';
import { freePort } from '../test/free-port';

import { buildServerBundle, SERVER_NODE_FLAGS } from '../../../scripts/build-server';
import { serverCommand } from '../../../scripts/lib/server-process';

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** What `npm start` runs once `npm run build` has bundled the server. */
const bundle = buildServerBundle();

function startServer(main: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, main], {
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitFor(check: () => boolean, what: string, ms = 25_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the server says it serves; a server that exits first fails the test with its output. */
async function serving(run: Running): Promise<void> {
  let exit: { code: number | null } | undefined;
  void run.exited.then((code) => {
    exit = { code };
  });
  try {
    await waitFor(
      () => exit !== undefined || run.stderr().includes('Embudo is serving on'),
      'the server to start',
    );
  } catch (error) {
    throw new Error(`${String(error)}; it wrote:\n${run.stderr()}`);
  }
  if (exit !== undefined)
    throw new Error(`the server exited (${String(exit.code)}) before serving:\n${run.stderr()}`);
}

describe('npm start (the real process)', () => {
  let dir: string;
  let server: Running;
  // A port the system gives: one picked at random can be a connection's own port of another test.
  let base = '';

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dir = mkdtempSync(join(tmpdir(), 'embudo-main-'));
    server = startServer(await bundle, {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'e.db')}`,
      PUBLIC_URL: base,
    });
    await serving(server);
  });

  afterAll(() => {
    server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds the demo into the empty embedded database and prints its links, which serve the headline', async () => {
    const links = [
      ...server.stderr().matchAll(/(http:\/\/127\.0\.0\.1:\d+\/demo\/[A-Za-z0-9_-]{32})(?=\s)/g),
    ].map((m) => m[1] ?? '');
    expect(links.length).toBeGreaterThanOrEqual(5);
    const html = await (await fetch(links[0] ?? '')).text();
    expect(html).toContain('<title>Clase 1: el método que cambia tus ventas</title>');
    expect(html).toContain('<html lang="es">');
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it("warns that no provider contact address is set, and the demo's legal pages name the demo's own", async () => {
    expect(server.stderr()).toContain('Warning: LEGAL_CONTACT_EMAIL is not set');
    const token = /\/demo\/([A-Za-z0-9_-]{32})(?=\s)/.exec(server.stderr())?.[1] ?? '';
    const html = await (await fetch(`${base}/demo/${token}?page=privacy`)).text();
    expect(html).toContain('<title>Política de privacidad</title>');
    expect(html).toContain('escribe a hola@demo.example.com.');
    expect(html).not.toMatch(/escrib\w* a\s*[.,;<]/);
  });

  it('writes JSON logs with no lead token or API key in them', async () => {
    const token = /\/demo\/([A-Za-z0-9_-]{32})(?=\s)/.exec(server.stderr())?.[1] ?? '';
    const apiKey = /API key: (emb_[A-Za-z0-9_-]+)/.exec(server.stderr())?.[1] ?? '';
    expect(token).not.toBe('');
    await fetch(`${base}/demo/${token}?previewToken=${token}`);
    await fetch(`${base}/api/owner/funnels`, { headers: { authorization: `Bearer ${apiKey}` } });
    await waitFor(() => server.stdout().includes('/api/owner/funnels'), 'the request log line');
    const lines = server.stdout().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(server.stdout()).toContain('/demo/[token]');
    expect(server.stdout()).not.toContain(token);
    expect(server.stdout()).not.toContain(apiKey);
  });

  it("prints the Studio's address and the demo owner's sign-in, which signs in; no log line holds them", async () => {
    const studio = /Studio: (\S+)\n {2}e-mail: {3}(\S+)\n {2}password: (\S+)\n/.exec(server.stderr());
    expect(studio?.[1]).toBe(`${base}/studio`);
    expect(studio?.[2]).toBe('owner@demo.example.com');
    const password = studio?.[3] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const signedIn = await fetch(`${base}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'owner@demo.example.com', password }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const funnels = await fetch(`${base}/api/owner/funnels`, { headers: { cookie } });
    expect(funnels.status).toBe(200);
    expect(((await funnels.json()) as unknown[]).length).toBeGreaterThan(0);
    await waitFor(() => server.stdout().includes('/api/auth/sign-in'), 'the sign-in log line');
    expect(server.stdout()).not.toContain(password);
    expect(server.stdout()).not.toContain(cookie.split('=')[1] ?? 'no cookie');
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0 with its write on disk', async () => {
    const apiKey = /API key: (emb_[A-Za-z0-9_-]+)/.exec(server.stderr())?.[1] ?? '';
    // A request whose body arrives in two parts, with SIGTERM between them.
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/api/owner/funnels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.write('{"name": "Written during ');
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end('shutdown"}'), 300);
      }, 200);
    });
    const answer = await inFlight;
    expect(answer.status).toBe(201);
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('stopped cleanly');

    const database = openDatabase(`sqlite:${join(dir, 'e.db')}`);
    await migrate(database);
    const row = await database.db
      .selectFrom('funnels')
      .select('name')
      .where('name', '=', 'Written during shutdown')
      .executeTakeFirst();
    await database.close();
    expect(row?.name).toBe('Written during shutdown');
  });
});

describe('npm start', () => {
  /** `node <SERVER_NODE_FLAGS> apps/server/dist/main.mjs`, as the tests and the benchmark run it. */
  const command = serverCommand('bundle');
  const repoFile = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

  it('runs the bundle with the flags the tests and the benchmark run it with', () => {
    const manifest = JSON.parse(repoFile('package.json')) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe(`npm run build && ${command}`);
  });

  it('is what the systemd unit runs too', () => {
    const execStart = repoFile('deploy/systemd/embudo.service')
      .split('\n')
      .filter((line) => line.startsWith('ExecStart='));
    expect(execStart).toEqual([`ExecStart=/usr/bin/${command}`]);
  });
});

describe('LEGAL_CONTACT_EMAIL', () => {
  it('names the provider on legal pages no account address applies to, without the start-up warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'embudo-main-'));
    const port = await freePort();
    const run = startServer(await bundle, {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'e.db')}`,
      SEED_DEMO: 'never',
      LEGAL_CONTACT_EMAIL: 'privacidad@operador.example.com',
    });
    try {
      await serving(run);
      expect(run.stderr()).not.toContain('LEGAL_CONTACT_EMAIL');
      // A legal page of a link that names no account: the operator's address, in every place.
      const html = await (
        await fetch(`http://127.0.0.1:${port}/nobody/no-such-token?page=terms`, {
          headers: { 'accept-language': 'es' },
        })
      ).text();
      expect(html).toContain('<title>Términos y condiciones</title>');
      expect(html.match(/escribe a privacidad@operador\.example\.com\./g)?.length).toBe(2);
    } finally {
      run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a bad setting', () => {
  it('stops the server at once with a sentence naming it, and no stack trace', async () => {
    const run = startServer(await bundle, { PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('Embudo cannot start: invalid configuration');
    expect(run.stderr()).toContain('PORT="eighty"');
    expect(run.stderr()).toContain('LOG_LEVEL="loud"');
    expect(run.stderr()).not.toMatch(/\n\s+at /);
  });
});
