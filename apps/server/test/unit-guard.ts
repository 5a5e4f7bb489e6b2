import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import pg from 'pg';
import { vi } from 'vitest';

/**
 * The unit tier's setup file: a unit test starts no server, no process and no database. Whatever
 * would (listening on a socket, a child process, a PostgreSQL connection, a SQLite file) throws at
 * once with the fix, instead of making the fast tier slow or flaky. Each test file runs in its own
 * worker, so nothing here reaches the db, system or e2e tiers.
 */

export const UNIT_TIER_ERROR =
  'unit tests start no server, process or database: move this file to the db/system tier';

function refuse(what: string): never {
  throw new Error(`${UNIT_TIER_ERROR} (it tried ${what})`);
}

net.Server.prototype.listen = function listen(): never {
  refuse('to listen on a socket');
};

for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const) {
  Object.defineProperty(childProcess, name, {
    configurable: true,
    writable: true,
    value: () => refuse(`child_process.${name}`),
  });
}
// `import { spawn } from 'node:child_process'` reads the patched functions too.
syncBuiltinESMExports();

pg.Client.prototype.connect = function connect(): never {
  refuse('to connect to PostgreSQL');
};
pg.Pool.prototype.connect = function connect(): never {
  refuse('to connect to PostgreSQL');
};

/** A SQLite database in memory is a data structure; a file is a database. */
vi.mock('better-sqlite3', async (importOriginal) => {
  const original = (await importOriginal<{ default: new (file?: string, options?: object) => object }>())
    .default;
  function GuardedDatabase(file?: string, options?: object): object {
    if (file !== undefined && file !== '' && file !== ':memory:') refuse(`to open the SQLite file ${file}`);
    return new original(file, options);
  }
  return { default: GuardedDatabase };
});
