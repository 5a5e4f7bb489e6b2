import { PassThrough } from 'node:stream';
import { buildApp, type App } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase } from '../src/db';
import type { Dialect } from '../src/db/dialect';
import { createTestDatabase, type TestDatabase } from './databases';
import { freePort } from './free-port';

export interface TestServer extends App {
  /** http://127.0.0.1:{port} of a real listening server. */
  url: string;
  config: Config;
  database: TestDatabase;
  /** Every log line the server wrote, as text. */
  logs: () => string;
  close: () => Promise<void>;
}

/**
 * A real server on a real, fresh database of the given dialect, listening on a free loopback port.
 * Tests talk to it over HTTP with fetch, as a client would.
 */
export async function startTestServer(
  dialect: Dialect,
  env: Record<string, string> = {},
): Promise<TestServer> {
  const database = await createTestDatabase(dialect);
  return listening(database, env, () => database.close());
}

/**
 * A second server on the first one's PostgreSQL database (its schema), as a second process of
 * `WORKERS=2` is: its own services, writer, caches and locks, the same rows. It closes its own
 * connections only; the first server owns the database.
 */
export async function startServerBeside(
  first: TestServer,
  env: Record<string, string> = {},
): Promise<TestServer> {
  if (first.database.dialect !== 'postgres') throw new Error('a second process needs PostgreSQL');
  const opened = openDatabase(first.database.url, { schema: first.database.schema, poolSize: 4 });
  const database = { ...opened, url: first.database.url, schema: first.database.schema };
  return listening(database, { PUBLIC_URL: first.url, SEED_DEMO: 'never', ...env }, () => opened.close());
}

/** The app on `database`, listening on a free loopback port; `closeDatabase` runs after it stops. */
async function listening(
  database: TestDatabase,
  env: Record<string, string>,
  closeDatabase: () => Promise<void>,
): Promise<TestServer> {
  const port = await freePort();
  const config = loadConfig({
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // No test asks the real DNS: a closed local port answers every lookup with an error at once.
    DNS_SERVERS: '127.0.0.1:9',
    ...env,
  });
  const logStream = new PassThrough();
  const chunks: Buffer[] = [];
  logStream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const app = await buildApp({ config, database, logStream });
  await app.server.listen({ port: config.port, host: config.host });
  return {
    ...app,
    url: `http://127.0.0.1:${port}`,
    config,
    database,
    logs: () => Buffer.concat(chunks).toString('utf8'),
    close: async () => {
      await app.server.close();
      await closeDatabase();
    },
  };
}

/** fetch with an owner's key and a JSON body. */
export async function api(
  server: Pick<TestServer, 'url'>,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown; text: string; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}
