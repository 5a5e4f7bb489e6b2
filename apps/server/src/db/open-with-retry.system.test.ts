import { describe, expect, it } from 'vitest';
import { adminQuery } from '../../test/databases';
import { freePort } from '../../test/free-port';
import { startTcpProxy } from '../../test/tcp-proxy';
import { openDatabaseWithRetry } from './open-with-retry';

const DATABASE = process.env.TEST_DATABASE_URL;

/** A server started while its database is unreachable says so, retries, and then starts or gives up. */
describe('opening the database at start-up', () => {
  it('says why on every try and gives up with a clear error when nothing listens', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const opening = openDatabaseWithRetry(
      `postgres://postgres@127.0.0.1:${String(port)}/test`,
      (line) => lines.push(line),
      { attempts: 3, delayMs: 50 },
    );
    await expect(opening).rejects.toThrow(
      /^the database postgres:\/\/127\.0\.0\.1:\d+\/test is not usable: .*ECONNREFUSED/,
    );
    expect(lines).toHaveLength(2);
    for (const [i, line] of lines.entries()) {
      expect(line).toMatch(
        new RegExp(`not reachable \\(.*ECONNREFUSED.*\\); retrying in 0.05 s \\[${String(i + 1)}/3\\]$`),
      );
    }
  });

  it.skipIf(!DATABASE)('gives up at once on an error that waiting does not mend', async () => {
    const url = new URL(DATABASE ?? '');
    url.pathname = '/no_such_database';
    const lines: string[] = [];
    await expect(
      openDatabaseWithRetry(url.toString(), (line) => lines.push(line), { attempts: 5, delayMs: 50 }),
    ).rejects.toThrow(/is not usable: database "no_such_database" does not exist/);
    expect(lines).toEqual([]);
  });

  it.skipIf(!DATABASE)('starts once the database comes up during the retries', async () => {
    const target = new URL(DATABASE ?? '');
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const schema = `t_retry_${Date.now().toString(36)}`;
    await adminQuery(DATABASE ?? '', `create schema ${schema}`);
    try {
      await proxy.cut();
      const viaProxy = new URL(DATABASE ?? '');
      viaProxy.port = String(proxy.port);
      viaProxy.searchParams.set('options', `-c search_path=${schema}`);
      const lines: string[] = [];
      const opening = openDatabaseWithRetry(
        viaProxy.toString(),
        (line) => {
          lines.push(line);
          // The database comes back after the second refusal.
          if (lines.length === 2) void proxy.restore();
        },
        { attempts: 10, delayMs: 100 },
      );
      const handle = await opening;
      try {
        expect(lines.length).toBeGreaterThanOrEqual(2);
        const tables = await handle.db.selectFrom('accounts').select('id').execute();
        expect(tables).toEqual([]);
      } finally {
        await handle.close();
      }
    } finally {
      await proxy.close();
      await adminQuery(DATABASE ?? '', `drop schema if exists ${schema} cascade`);
    }
  });
});
