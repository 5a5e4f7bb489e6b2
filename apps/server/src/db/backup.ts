import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { dialectOf } from './dialect';
import { sqliteFile } from './index';

/**
 * A consistent copy of the embedded SQLite database, taken with SQLite's online backup API while the
 * server keeps writing (deploy/README.md, Backups): copying the file alone could leave out commits
 * still in its write-ahead log. PostgreSQL is backed up with its own tools (pg_dump).
 */
export async function backupSqlite(databaseUrl: string, destination: string): Promise<{ pages: number }> {
  if (dialectOf(databaseUrl) !== 'sqlite') {
    throw new Error(
      'backup copies the embedded SQLite database; back PostgreSQL up with pg_dump ' +
        '(pg_dump --format=custom --file=embudo.dump "$DATABASE_URL"; see deploy/README.md)',
    );
  }
  if (existsSync(destination)) throw new Error(`${destination} exists already: name a new file`);
  const source = new SQLite(sqliteFile(databaseUrl), { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    const { totalPages } = await source.backup(destination);
    return { pages: totalPages };
  } finally {
    source.close();
  }
}
